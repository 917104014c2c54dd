"""Every command and sub-command answers ``--help``."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.cli import command as cli_command
from tests.cli.conftest import Cli

COMMANDS = [
    [],
    ["key"],
    ["key", "new"],
    ["key", "show"],
    ["games"],
    ["new"],
    ["join"],
    ["status"],
    ["legal"],
    ["act"],
    ["reveal"],
    ["resign"],
    ["verify"],
    ["show"],
    ["merge"],
    ["repair"],
    ["play"],
    ["undo"],
    ["claim-timeout"],
    ["tournament"],
    ["tournament", "verify"],
    ["report"],
    ["replay"],
    ["export"],
    ["import"],
    ["mail"],
    ["data"],
    ["data", "check"],
    ["data", "schema"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "pbem")
def test_help_exits_zero_with_usage(cli: Cli, command: list[str]) -> None:
    run = cli(*command, "--help")
    assert run.code == 0, run.err
    usage = " ".join(["Usage: pbem", *command])
    assert usage in " ".join(run.out.split()), run.out
    assert run.err == ""


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "pbem")
def test_help_shows_no_python_types(cli: Cli, command: list[str]) -> None:
    """Metavars are words (FILE, SEAT, LOG), never <bool>, <list[Path]>, <str> or {LOG}."""
    text = cli(*command, "--help").out
    for leak in ("<bool>", "<str>", "<int>", "<path>", "list[", "Path]", "None", "{", "}"):
        assert leak not in text, (leak, text)


def test_version(cli: Cli) -> None:
    run = cli("--version")
    assert run.code == 0
    assert run.out.startswith("pbem ") and run.out.split()[1][0].isdigit()


def test_top_level_help_lists_every_command(cli: Cli) -> None:
    out = cli("--help").out
    for name in (
        "play",
        "tournament",
        "export",
        "import",
        "mail",
        "report",
        "replay",
        "data",
        "key",
        "games",
        "new",
        "join",
        "status",
        "legal",
        "act",
        "reveal",
        "resign",
        "verify",
        "show",
        "merge",
        "repair",
    ):
        assert name in out


@pytest.mark.parametrize("command", [c for c in COMMANDS if c], ids=" ".join)
def test_a_command_built_alone_answers_as_in_the_whole_tree(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # pbem builds only the command it runs (start time); its help and its usage errors must not change
    def run(tree: Any, args: list[str]) -> tuple[object, str, str]:
        with pytest.raises(SystemExit) as done:
            tree(args=args, prog_name="pbem")
        out = capsys.readouterr()
        return done.value.code, out.out, out.err

    for args in ([*command, "--help"], [*command, "--no-such-option"]):
        assert run(cli_command(command[0]), args) == run(cli_command(), args)

"""pbem mail from the player's side: addresses are checked, missing SMTP settings point to -o FILE.eml."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Cli


@pytest.mark.parametrize("address", ["bob", "bob@", "@example.org", "bob at example.org", "Bob <bob>"])
def test_mail_refuses_what_is_not_an_email_address(cli: Cli, duel_log: Path, tmp_path: Path, address: str) -> None:
    out = tmp_path / "m.eml"
    cli("mail", duel_log, "--to", address, "-o", out).assert_error("U003", 2)
    assert not out.exists()
    cli("mail", duel_log, "--to", "bob@example.org", "--sender", address, "-o", out).assert_error("U003", 2)


@pytest.mark.parametrize("address", ["bob@example.org", "Bob Smith <bob@example.org>"])
def test_mail_takes_real_addresses(cli: Cli, duel_log: Path, tmp_path: Path, address: str) -> None:
    assert cli("mail", duel_log, "--to", address, "-o", tmp_path / "m.eml").code == 0


def test_send_without_smtp_settings_suggests_saving_the_message(
    cli: Cli, duel_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HOST", "PORT", "USER", "PASSWORD", "CAFILE"):
        monkeypatch.delenv(f"PBEM_SMTP_{name}", raising=False)
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(tmp_path / "absent.toml"))
    line = cli("mail", duel_log, "--to", "bob@example.org", "--send").assert_error("U003", 2)
    assert "-o FILE.eml" in line

"""``pbem key``: create and show keys."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli._common import JsonOpt, PassOpt, console, emit_json, load_key
from pbem.errors import KeyStoreError, UsageError

app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None, pretty_exceptions_show_locals=False, help="Create and inspect keys."
)

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="Base name: writes NAME.key and NAME.pub.")],
    directory: Annotated[Path, typer.Option("--dir", help="Directory for the key files.")] = Path("."),
    passphrase_file: PassOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub (OpenSSH public line).

    The private key is encrypted when a passphrase comes from --passphrase-file or PBEM_PASSPHRASE, or, on
    a terminal, from the prompt (leave it empty for no encryption).
    """
    from pbem.log import keys

    if not _NAME.match(name):
        raise UsageError("U003", f"key name {name!r}: use letters, digits, '.', '_' or '-'")
    passphrase = keys.passphrase_from(passphrase_file)
    if passphrase is None and sys.stdin.isatty():
        entered = typer.prompt("Passphrase (empty for none)", default="", hide_input=True, confirmation_prompt=True)
        passphrase = entered.encode() or None
    pair = keys.generate()
    key_path, pub_path = keys.save_keypair(pair, directory, name, passphrase)
    if as_json:
        emit_json({"key": str(key_path), "pub": str(pub_path), "fingerprint": pair.public.fingerprint,
                   "kid": pair.public.id, "encrypted": passphrase is not None})  # fmt: skip
        return
    console.print(f"wrote {key_path} (private{', encrypted' if passphrase else ''}) and {pub_path}")
    console.print(f"fingerprint {pair.public.fingerprint}")


@app.command("show")
def show(
    keyfile: Annotated[Path, typer.Argument(help="A .pub or .key file (pbem or OpenSSH).")],
    passphrase_file: PassOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show a key's OpenSSH SHA256 fingerprint and pbem key id (compare fingerprints out of band)."""
    from pbem.log import keys

    try:
        public = keys.load_public(keyfile)
        private = False
    except KeyStoreError:  # not a public key file: try it as a private key
        public = load_key(keyfile, passphrase_file).public
        private = True
    if as_json:
        emit_json({"fingerprint": public.fingerprint, "kid": public.id, "public": public.hex, "private": private})
        return
    console.print(f"{public.fingerprint}  (OpenSSH SHA256 fingerprint)")
    console.print(f"key id {public.id}")

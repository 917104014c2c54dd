"""Key files: create, store (encrypted when a passphrase is given), load, including OpenSSH ed25519 keys.

A pbem private key file is PKCS#8 PEM, encrypted with the best available scheme when a passphrase is given,
and written with mode 0600. The public key file is one OpenSSH line (``ssh-ed25519 AAAA… name``), so
players can compare fingerprints with the tools they know. Existing ``~/.ssh/id_ed25519`` keys load too.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes, PublicKeyTypes

from pbem.errors import KeyStoreError, SignatureError, StorageError, UsageError
from pbem.log.sign import PublicKey
from pbem.log.store import write_new_file

__all__ = [
    "KeyPair",
    "generate",
    "is_encrypted",
    "load_private",
    "load_public",
    "parse_public",
    "passphrase_from",
    "save_keypair",
]


@dataclass(frozen=True)
class KeyPair:
    """A private key with its validated public key."""

    private: Ed25519PrivateKey
    public: PublicKey

    @classmethod
    def from_private(cls, private: Ed25519PrivateKey) -> KeyPair:
        return cls(private, PublicKey(private.public_key().public_bytes_raw()))

    @property
    def seed(self) -> bytes:
        """The 32-byte private seed (RFC 8032), the input of the per-game secret derivation."""
        return self.private.private_bytes_raw()


def generate() -> KeyPair:
    """A fresh Ed25519 key pair (from the OS's CSPRNG)."""
    return KeyPair.from_private(Ed25519PrivateKey.generate())


def save_keypair(pair: KeyPair, directory: Path, name: str, passphrase: bytes | None) -> tuple[Path, Path]:
    """Write ``NAME.key`` (mode 0600) and ``NAME.pub`` into ``directory``; refuse to overwrite.

    Raises:
        StorageError: F004 if either file exists, F002 if a write fails.
    """
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase) if passphrase else serialization.NoEncryption()
    )
    pem = pair.private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    ssh = pair.private.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    key_path, pub_path = directory / f"{name}.key", directory / f"{name}.pub"
    for path in (key_path, pub_path):
        if path.exists():
            raise StorageError("F004", f"{path} exists; pbem never overwrites a file")
    write_new_file(key_path, pem, mode=0o600)
    try:
        write_new_file(pub_path, ssh + f" {name}\n".encode(), mode=0o644)
    except StorageError:
        key_path.unlink()  # never leave a private key without its public half
        raise
    return key_path, pub_path


def is_encrypted(path: Path) -> bool:
    """Whether the private key file at ``path`` needs a passphrase."""
    data = _read(path, private=True)
    if b"ENCRYPTED PRIVATE KEY" in data:
        return True
    if b"OPENSSH PRIVATE KEY" in data:
        try:
            serialization.load_ssh_private_key(data, password=None)
        except (TypeError, ValueError):
            return True
    return False


def load_private(path: Path, passphrase: bytes | None = None) -> KeyPair:
    """Load a pbem key file (PKCS#8 PEM) or an OpenSSH ed25519 private key.

    Raises:
        UsageError: U004 if the key is encrypted and no or a wrong passphrase was given.
        KeyStoreError: K009 if the file is not an Ed25519 private key, is not a regular file, or other users
        may read or write it (as OpenSSH, which refuses such a key too).
    """
    data = _read(path, private=True)
    key: PrivateKeyTypes
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, password=passphrase)
        else:
            key = serialization.load_pem_private_key(data, password=passphrase)
    except TypeError as exc:
        # cryptography raises TypeError for a missing or a superfluous password
        if passphrase is None:
            raise UsageError("U004", f"{path} is encrypted: give --passphrase-file or set PBEM_PASSPHRASE") from exc
        raise KeyStoreError("K009", f"{path} is not encrypted but a passphrase was given") from exc
    except ValueError as exc:
        if passphrase is not None and (b"ENCRYPTED" in data or b"OPENSSH" in data):
            raise UsageError("U004", f"wrong passphrase for {path}") from exc
        raise KeyStoreError("K009", f"{path} is not a readable private key") from exc
    except UnsupportedAlgorithm as exc:
        raise KeyStoreError("K009", f"{path}: unsupported key format ({exc})") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyStoreError("K009", f"{path} holds a {type(key).__name__}, not an Ed25519 key")
    try:
        return KeyPair.from_private(key)
    except SignatureError as exc:  # a weak key can only come from a crafted file
        raise KeyStoreError("K009", f"{path}: {exc.message}") from exc


def load_public(path: Path) -> PublicKey:
    """Load a public key: an OpenSSH ``ssh-ed25519`` line, a PEM SubjectPublicKeyInfo, or 64 hex digits.

    Raises:
        KeyStoreError: K009 if the file holds no Ed25519 public key.
        SignatureError: K003 if the key is weak.
    """
    return parse_public(_read(path), str(path))


def parse_public(data: bytes, where: str = "the key") -> PublicKey:
    """:func:`load_public` for bytes already read (``where`` names them in errors)."""
    data = data.strip()
    key: PublicKeyTypes
    try:
        if data.startswith(b"ssh-ed25519 "):
            key = serialization.load_ssh_public_key(b" ".join(data.split()[:2]))
        elif data.startswith(b"-----BEGIN"):
            key = serialization.load_pem_public_key(data)
        else:
            text = data.decode("ascii")
            if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
                raise ValueError("not 64 lowercase hex digits")
            return PublicKey(bytes.fromhex(text))
    except (ValueError, UnsupportedAlgorithm, UnicodeDecodeError) as exc:
        raise KeyStoreError("K009", f"{where} is not an Ed25519 public key ({exc})") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise KeyStoreError("K009", f"{where} holds a {type(key).__name__}, not an Ed25519 key")
    return PublicKey(key.public_bytes_raw())


_MAX_KEY_FILE = 64 * 1024  # far more than any key file; a larger "key" is not one


def _read(path: Path, *, private: bool = False) -> bytes:
    """The bytes of a key file, refusing at once anything that is not a small regular file (a symlink to
    /dev/zero or a FIFO would otherwise hang the command) and, for a private key, a file other users may
    read or write (OpenSSH's rule: such a key may already be copied, so pbem will not sign with it).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise KeyStoreError("K009", f"cannot read {path}: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyStoreError("K009", f"{path} is not a regular file (a device, FIFO or directory is never a key)")
        if info.st_size > _MAX_KEY_FILE:
            raise KeyStoreError("K009", f"{path} is {info.st_size} bytes, too large for a key file")
        mode = stat.S_IMODE(info.st_mode)
        if private and mode & 0o077:
            raise KeyStoreError(
                "K009", f"permissions {mode:04o} for {path} are too open: other users may read it; run chmod 600 {path}"
            )
        with os.fdopen(os.dup(fd), "rb") as file:
            return file.read(_MAX_KEY_FILE + 1)
    except OSError as exc:
        raise KeyStoreError("K009", f"cannot read {path}: {exc.strerror}") from exc
    finally:
        os.close(fd)


def passphrase_from(file: Path | None) -> bytes | None:
    """The passphrase from ``--passphrase-file`` or ``PBEM_PASSPHRASE``, or None (never prompts)."""
    if file is not None:
        return _read(file).rstrip(b"\r\n") or None  # a regular file, so /dev/zero or a FIFO cannot hang us
    env = os.environ.get("PBEM_PASSPHRASE")
    return env.encode() if env else None

"""Ed25519 keys: generate, load, identify (keyid), and the keyring of trusted public keys.

Key material is secret and must never reach output or logs: every parse error here is a fixed
message naming only where the key came from, never the text it contained, and `SigningKey`'s repr
shows the keyid alone.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Optional

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from receipt import DEFAULT_KEYRING_PATH
from receipt.canonical import canonical_json, sha256_hex
from receipt.errors import ConfigError, GitError, KeyError_
from receipt.strictjson import StrictJSONError, strict_json

SIGNING_KEY_ENV = "RECEIPT_SIGNING_KEY"
KEYRING_MAX_BYTES = 1_000_000  # a keyring is a handful of lines; anything huge is a mistake
KEY_FILE_MAX_BYTES = 64_000

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def compute_keyid(public_hex: str) -> str:
    """sha256 of the canonical JSON of the securesystemslib key dict: independent DSSE tools agree."""
    key = {"keytype": "ed25519", "scheme": "ed25519", "keyval": {"public": public_hex.lower()}}
    return sha256_hex(canonical_json(key))


def _public_hex(public: Ed25519PublicKey) -> str:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


class SigningKey:
    """An ed25519 private key. Only `sign` uses the secret; nothing here prints or serialises it."""

    __slots__ = ("_private", "public_hex", "keyid")

    def __init__(self, private: Ed25519PrivateKey):
        self._private = private
        self.public_hex = _public_hex(private.public_key())
        self.keyid = compute_keyid(self.public_hex)

    def __repr__(self) -> str:
        return f"SigningKey(keyid={self.keyid!r})"

    __str__ = __repr__

    def __reduce__(self):  # pragma: no cover - a guard, not a feature
        raise TypeError("SigningKey cannot be pickled (it holds a private key)")

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)

    @property
    def public_key(self) -> TrustedKey:
        return TrustedKey(keyid=self.keyid, public=self.public_hex)

    def private_pem(self) -> bytes:
        """PKCS#8 PEM, unencrypted: for `keygen` to write to a 0600 file, nothing else."""
        return self._private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    def public_pem(self) -> bytes:
        return self._private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def generate_signing_key() -> SigningKey:
    return SigningKey(Ed25519PrivateKey.generate())


def _key_type_name(obj: object) -> str:
    import warnings

    from cryptography.hazmat.primitives.asymmetric import ec, ed448, rsa, x448, x25519

    # cryptography (51 here) deprecates DSA: naming the classes, only to say what a refused key is,
    # must not print its warning on the one error line the user sees.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from cryptography.hazmat.primitives.asymmetric import dsa

        dsa_types = (dsa.DSAPrivateKey, dsa.DSAPublicKey)
    kinds = (
        ((rsa.RSAPrivateKey, rsa.RSAPublicKey), "an RSA"),
        ((ec.EllipticCurvePrivateKey, ec.EllipticCurvePublicKey), "an ECDSA"),
        (dsa_types, "a DSA"),
        ((ed448.Ed448PrivateKey, ed448.Ed448PublicKey), "an Ed448"),
        ((x25519.X25519PrivateKey, x25519.X25519PublicKey), "an X25519"),
        ((x448.X448PrivateKey, x448.X448PublicKey), "an X448"),
    )
    for types, label in kinds:
        if isinstance(obj, types):
            return label
    return "a non-ed25519"


def parse_signing_key(text: str, source: str) -> SigningKey:
    """PKCS#8 / OpenSSH PEM or a 64-hex seed. `source` names where it came from, for the error line."""
    text = text.strip()
    if "\\n" in text and "\n" not in text:  # a PEM pasted into a one-line variable with escaped newlines
        text = text.replace("\\n", "\n")
    if _HEX64.fullmatch(text):
        return SigningKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text)))
    if not text.startswith("-----BEGIN "):
        raise KeyError_(f"{source} is neither a PEM private key nor a 64-hex ed25519 seed")
    if "PUBLIC KEY-----" in text.splitlines()[0]:
        raise KeyError_(f"{source} is a public key; signing needs the private key")
    try:
        if text.startswith("-----BEGIN OPENSSH PRIVATE KEY-----"):
            private = serialization.load_ssh_private_key(text.encode("ascii"), password=None)
        else:
            private = serialization.load_pem_private_key(text.encode("ascii"), password=None)
    except TypeError:  # raised for encrypted keys when no password is given
        raise KeyError_(f"{source} is an encrypted private key; provide it unencrypted (e.g. as a CI secret)") from None
    except (ValueError, UnicodeError, UnsupportedAlgorithm):
        raise KeyError_(f"{source} is not a readable PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyError_(f"{source} is {_key_type_name(private)} key; behavior-receipt signs with ed25519 only")
    return SigningKey(private)


def _read_key_file(path: str, what: str) -> str:
    try:
        p = Path(path)
        if p.stat().st_size > KEY_FILE_MAX_BYTES:
            raise KeyError_(f"{what} file {path} is too large to be a key")
        data = p.read_bytes()
    except KeyError_:
        raise
    except OSError as e:
        raise KeyError_(f"cannot read {what} file {path}: {e.strerror or type(e).__name__}") from None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyError_(f"{what} file {path} is not a PEM or hex key (not ASCII text)") from None


def load_signing_key(path: Optional[str], env_value: Optional[str]) -> SigningKey:
    """The signing key from `--sign-key FILE` (wins) or the `RECEIPT_SIGNING_KEY` value (PEM or 64-hex seed)."""
    key = maybe_load_signing_key(path, env_value)
    if key is None:
        raise KeyError_(f"no signing key: pass --sign-key FILE or set {SIGNING_KEY_ENV}")
    return key


def maybe_load_signing_key(path: Optional[str], env_value: Optional[str]) -> Optional[SigningKey]:
    """Like `load_signing_key`, but None when neither is given (empty values count as not given)."""
    if path:
        return parse_signing_key(_read_key_file(path, "signing key"), f"signing key file {path}")
    if env_value and env_value.strip():
        return parse_signing_key(env_value, SIGNING_KEY_ENV)
    return None


# --- public keys and the keyring -------------------------------------------------------------------


class TrustedKey(BaseModel):
    """One keyring entry. `keyid` must be the one computed from `public` (a mismatch is a config error)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keyid: str
    public: str  # 64 lowercase hex, the raw ed25519 public key
    name: str = ""

    def verify(self, signature: bytes, data: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public)).verify(signature, data)
        except (InvalidSignature, ValueError):
            return False
        return True


class Keyring(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    keys: list[TrustedKey] = Field(default_factory=list)
    source: str = ""  # where it was read from, for messages (a path, `path@sha`, or `--key`)

    def find(self, keyid: str) -> Optional[TrustedKey]:
        for k in self.keys:
            if k.keyid == keyid:
                return k
        return None

    def keyids(self) -> list[str]:
        return [k.keyid for k in self.keys]


class _KeyringEntryFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    keyid: Optional[str] = None
    public: str
    name: str = ""


class _KeyringFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    keys: list[_KeyringEntryFile]


def trusted_key(public_hex: str, keyid: Optional[str] = None, name: str = "", *, where: str = "key") -> TrustedKey:
    if not _HEX64.fullmatch(public_hex or ""):
        raise ConfigError(f"{where}: public key must be 64 hex characters (a raw ed25519 public key)")
    public_hex = public_hex.lower()
    expected = compute_keyid(public_hex)
    if keyid is not None and keyid.lower() != expected:
        raise ConfigError(f"{where}: keyid {keyid} does not match its public key (expected {expected})")
    return TrustedKey(keyid=expected, public=public_hex, name=name)


def parse_keyring(data: bytes, source: str, *, allow_empty: bool = False) -> Keyring:
    """`{"keys": [{"keyid": "...", "public": "<64 hex>", "name": "..."}]}`; keyid optional but checked if given."""
    if len(data) > KEYRING_MAX_BYTES:
        raise ConfigError(f"keyring {source} is too large")
    try:
        raw = strict_json(data)
        parsed = _KeyringFile.model_validate(raw)
    except StrictJSONError as e:
        raise ConfigError(f"keyring {source} is not strict JSON: {e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ConfigError(f"keyring {source} is not valid JSON: {getattr(e, 'msg', type(e).__name__)}") from None
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"]) or "(top level)"
        raise ConfigError(f"keyring {source} is malformed at {loc}: {first['msg']}") from None
    keys: list[TrustedKey] = []
    for i, entry in enumerate(parsed.keys):
        k = trusted_key(entry.public, entry.keyid, entry.name, where=f"keyring {source} keys[{i}]")
        if any(existing.keyid == k.keyid for existing in keys):
            raise ConfigError(f"keyring {source} lists keyid {k.keyid} twice")
        keys.append(k)
    if not keys and not allow_empty:
        raise ConfigError(f"keyring {source} has no keys")
    return Keyring(keys=keys, source=source)


def load_keyring(path: str) -> Keyring:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read keyring {path}: {e.strerror or type(e).__name__}") from None
    return parse_keyring(data, path)


def keyring_json(keys: list[TrustedKey]) -> str:
    """The keyring file text for these keys (what `keygen` suggests committing)."""
    entries = [{"keyid": k.keyid, "public": k.public, **({"name": k.name} if k.name else {})} for k in keys]
    return json.dumps({"keys": entries}, indent=2, sort_keys=True) + "\n"


def parse_public_key(text: str, source: str) -> TrustedKey:
    """A 64-hex raw public key or a SubjectPublicKeyInfo PEM."""
    text = text.strip()
    if _HEX64.fullmatch(text):
        return trusted_key(text, name="", where=source)
    if text.startswith("-----BEGIN") and "PRIVATE KEY" in text.splitlines()[0]:
        raise KeyError_(f"{source} is a private key; verification needs only the public key")
    try:
        public = serialization.load_pem_public_key(text.encode("ascii"))
    except (ValueError, UnicodeError, UnsupportedAlgorithm):
        raise KeyError_(f"{source} is neither a PEM public key nor 64 hex characters") from None
    if not isinstance(public, Ed25519PublicKey):
        raise KeyError_(f"{source} is {_key_type_name(public)} key; receipts are signed with ed25519")
    return trusted_key(_public_hex(public), where=source)


def load_public_key(value: str) -> TrustedKey:
    """`--key`: a 64-hex public key given inline, or a file holding a PEM or 64-hex public key."""
    if _HEX64.fullmatch(value.strip()):
        return parse_public_key(value, "--key")
    return parse_public_key(_read_key_file(value, "public key"), f"public key file {value}")


def keyring_from_keys(keys: list[TrustedKey], source: str = "--key") -> Keyring:
    unique: dict[str, TrustedKey] = {k.keyid: k for k in keys}
    return Keyring(keys=[unique[i] for i in sorted(unique)], source=source)


def keyring_from_rev(repo_dir: str, rev: str, path: str = DEFAULT_KEYRING_PATH) -> Keyring:
    """The keyring as committed at `rev`, read from git objects (no checkout, worktree ignored).

    Verifying against the *base* revision's keyring is what stops a pull request from trusting
    a key it adds itself.
    """
    import git  # gitpython; imported here so key handling works without it on the import path
    from gitdb.exc import BadName, BadObject

    try:
        repo = git.Repo(repo_dir, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"{repo_dir} is not a git repository") from None
    try:
        commit = repo.commit(rev)
    except (BadName, BadObject, ValueError, IndexError, git.GitCommandError):
        raise GitError(
            f"unknown revision {rev!r}", hint=f"fetch it first, e.g.: git fetch origin {rev}"
        ) from None
    rel = str(PurePosixPath(path.replace("\\", "/"))).lstrip("/")
    while rel.startswith("./"):
        rel = rel[2:]
    where = f"{rel}@{commit.hexsha[:12]}"
    try:
        obj = commit.tree / rel
    except KeyError:
        raise ConfigError(
            f"no keyring at {rel} in revision {rev} ({commit.hexsha[:12]})",
            hint="commit the keyring to the base branch first (see `receipt keygen`)",
        ) from None
    if obj.type != "blob":
        raise ConfigError(f"keyring {where} is not a file")
    if obj.size > KEYRING_MAX_BYTES:
        raise ConfigError(f"keyring {where} is too large")
    return parse_keyring(obj.data_stream.read(), where)


# --- writing key files -----------------------------------------------------------------------------


def _write_new(path: Path, data: bytes, mode: int, force: bool) -> None:
    """Create `path` with `mode` from the first byte on (never briefly world-readable).

    Without force, O_EXCL refuses an existing file atomically; with force, a fresh private temp
    file replaces it, so the old key stays intact if anything fails halfway.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    target = path if not force else path.with_name(f".{path.name}.tmp{os.getpid()}")
    fd = os.open(target, flags, mode)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # the umask may only narrow the mode, but be explicit
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if force:
            os.replace(target, path)
    except BaseException:
        try:
            os.unlink(target)
        except OSError:
            pass
        raise


class KeyFiles(BaseModel):
    private: str
    public_pem: str
    public_hex: str


def key_file_paths(prefix: str) -> KeyFiles:
    return KeyFiles(private=f"{prefix}.key", public_pem=f"{prefix}.pub", public_hex=f"{prefix}.pub.hex")


def write_key_pair(key: SigningKey, prefix: str, *, force: bool = False) -> KeyFiles:
    """PREFIX.key (PKCS#8 PEM, 0600), PREFIX.pub (PEM), PREFIX.pub.hex (64 hex). Refuses to overwrite."""
    files = key_file_paths(prefix)
    paths = [Path(files.private), Path(files.public_pem), Path(files.public_hex)]
    if not force:
        existing = [str(p) for p in paths if p.exists() or p.is_symlink()]
        if existing:
            raise KeyError_(f"{', '.join(existing)} already exists; pass --force to overwrite")
    parent = paths[0].parent
    if not parent.is_dir():
        raise KeyError_(f"directory {parent} does not exist")
    try:
        _write_new(paths[0], key.private_pem(), 0o600, force)
        _write_new(paths[1], key.public_pem(), 0o644, force)
        _write_new(paths[2], (key.public_hex + "\n").encode("ascii"), 0o644, force)
    except FileExistsError as e:
        raise KeyError_(f"{e.filename} already exists; pass --force to overwrite") from None
    except OSError as e:
        raise KeyError_(f"cannot write key file: {e.strerror or type(e).__name__}") from None
    return files

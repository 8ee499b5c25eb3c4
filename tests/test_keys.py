"""Keys: keygen files and modes, loading signing keys from file or env, keyids, keyrings (file and git)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from receipt.errors import ConfigError, GitError, KeyError_
from receipt.keys import (
    compute_keyid,
    generate_signing_key,
    keyring_from_rev,
    keyring_json,
    load_keyring,
    load_public_key,
    load_signing_key,
    maybe_load_signing_key,
    parse_keyring,
    write_key_pair,
)
from tests.signing_support import git, init_repo, run_cli

SECRET_MARKER = "SECRETSECRET"


def _pem(private) -> str:
    return private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


# --- keygen --------------------------------------------------------------------------------------


def test_keygen_writes_private_0600_public_pem_and_hex_and_prints_keyid(tmp_path: Path) -> None:
    prefix = tmp_path / "ci"
    r = run_cli("keygen", "--out", str(prefix))
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    priv, pub, pubhex = Path(f"{prefix}.key"), Path(f"{prefix}.pub"), Path(f"{prefix}.pub.hex")
    if os.name == "posix":
        assert stat.S_IMODE(priv.stat().st_mode) == 0o600
    assert priv.read_text().startswith("-----BEGIN PRIVATE KEY-----")  # PKCS#8
    key = load_signing_key(str(priv), None)
    assert f"keyid: {key.keyid}" in out
    assert pubhex.read_text() == key.public_hex + "\n"
    assert load_public_key(str(pub)).keyid == key.keyid
    assert load_public_key(str(pubhex)).keyid == key.keyid
    # the printed keyring entry is valid keyring content
    entry_line = out.strip().splitlines()[-1]
    ring = parse_keyring(json.dumps({"keys": [json.loads(entry_line)]}).encode(), "printed")
    assert ring.keyids() == [key.keyid]
    # the private key itself is never printed
    assert "PRIVATE KEY" not in out and key.public_hex in out


def test_keygen_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    prefix = tmp_path / "k"
    assert run_cli("keygen", "--out", str(prefix)).returncode == 0
    before = Path(f"{prefix}.key").read_bytes()
    r = run_cli("keygen", "--out", str(prefix))
    assert r.returncode == 2
    assert "already exists" in r.stderr.decode() and "--force" in r.stderr.decode()
    assert Path(f"{prefix}.key").read_bytes() == before
    r = run_cli("keygen", "--out", str(prefix), "--force", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert Path(f"{prefix}.key").read_bytes() != before
    assert load_signing_key(f"{prefix}.key", None).keyid == doc["keyid"]
    if os.name == "posix":
        assert stat.S_IMODE(Path(f"{prefix}.key").stat().st_mode) == 0o600


def test_keygen_does_not_half_write_when_one_file_exists(tmp_path: Path) -> None:
    prefix = tmp_path / "p"
    Path(f"{prefix}.pub").write_text("keep me")
    with pytest.raises(KeyError_, match="already exists"):
        write_key_pair(generate_signing_key(), str(prefix))
    assert not Path(f"{prefix}.key").exists()
    assert Path(f"{prefix}.pub").read_text() == "keep me"


# --- loading signing keys --------------------------------------------------------------------------


def test_signing_key_from_file_env_pem_and_hex_seed_agree(tmp_path: Path) -> None:
    private = ed25519.Ed25519PrivateKey.generate()
    seed_hex = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    ).hex()
    f = tmp_path / "k.pem"
    f.write_text(_pem(private))
    from_file = load_signing_key(str(f), None)
    from_env_pem = load_signing_key(None, _pem(private))
    from_env_hex = load_signing_key(None, seed_hex.upper())
    from_env_escaped = load_signing_key(None, _pem(private).replace("\n", "\\n"))
    assert from_file.keyid == from_env_pem.keyid == from_env_hex.keyid == from_env_escaped.keyid
    # --sign-key wins over the environment
    other = generate_signing_key()
    assert load_signing_key(str(f), other.private_pem().decode()).keyid == from_file.keyid
    assert maybe_load_signing_key(None, "  ") is None
    with pytest.raises(KeyError_, match="no signing key"):
        load_signing_key(None, "")


def test_signing_key_repr_never_shows_material() -> None:
    key = generate_signing_key()
    pem = key.private_pem().decode()
    body = "".join(pem.splitlines()[1:-1])
    for text in (repr(key), str(key), f"{key}"):
        assert key.keyid in text
        assert body not in text and "PRIVATE" not in text


def _bad_keys(tmp_path: Path) -> dict[str, tuple[str, str]]:
    rsa_pem = _pem(rsa.generate_private_key(public_exponent=65537, key_size=2048))
    ec_pem = _pem(ec.generate_private_key(ec.SECP256R1()))
    enc = ed25519.Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pw"),
    ).decode()
    pub = generate_signing_key().public_pem().decode()
    garbage = f"-----BEGIN PRIVATE KEY-----\n{SECRET_MARKER}AAAA{SECRET_MARKER}\n-----END PRIVATE KEY-----\n"
    return {
        "rsa": (rsa_pem, "RSA"),
        "ecdsa": (ec_pem, "ECDSA"),
        "encrypted": (enc, "encrypted"),
        "public": (pub, "public key"),
        "garbage-pem": (garbage, "not a readable PEM"),
        "not-a-key": (f"{SECRET_MARKER}-{'ab' * 20}", "neither"),
        "short-hex": ("ab" * 31, "neither"),
    }


@pytest.mark.parametrize("case", ["rsa", "ecdsa", "encrypted", "public", "garbage-pem", "not-a-key", "short-hex"])
def test_bad_signing_keys_give_one_line_without_material(tmp_path: Path, case: str) -> None:
    text, expected = _bad_keys(tmp_path)[case]
    f = tmp_path / "bad.pem"
    f.write_text(text)
    for path, env in ((str(f), None), (None, text)):
        with pytest.raises(KeyError_) as info:
            load_signing_key(path, env)
        message = str(info.value)
        assert expected in message
        assert "\n" not in message
        assert SECRET_MARKER not in message
        for line in text.splitlines():
            if len(line) > 20 and not line.startswith("-----"):
                assert line not in message
    assert KeyError_.exit_code == 2


def test_unreadable_and_binary_key_files(tmp_path: Path) -> None:
    with pytest.raises(KeyError_, match="cannot read signing key file"):
        load_signing_key(str(tmp_path / "missing.pem"), None)
    b = tmp_path / "bin.key"
    b.write_bytes(b"\xff\xfe" + SECRET_MARKER.encode() + b"\x00")
    with pytest.raises(KeyError_) as info:
        load_signing_key(str(b), None)
    assert SECRET_MARKER not in str(info.value)
    if os.name == "posix" and os.geteuid() != 0:
        f = tmp_path / "noperm.pem"
        f.write_text(generate_signing_key().private_pem().decode())
        f.chmod(0)
        with pytest.raises(KeyError_, match="cannot read"):
            load_signing_key(str(f), None)


@pytest.mark.skipif(
    not hasattr(__import__("receipt.render", fromlist=["_"]), "render_markdown"),
    reason="trace-diff needs receipt.render.render_markdown (being written in parallel)",
)
def test_trace_diff_with_rsa_key_exits_2_without_echoing_it(tmp_path: Path) -> None:
    """The CLI edge: a wrong-type key is one stderr line, exit 2, nothing of the key in output."""
    repo = init_repo(tmp_path / "repo")
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    (repo / "a.py").write_text("x = 2\n")
    git(repo, "commit", "-qam", "two")
    rsa_pem = _pem(rsa.generate_private_key(public_exponent=65537, key_size=2048))
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo), env={"RECEIPT_SIGNING_KEY": rsa_pem})
    err = r.stderr.decode()
    assert r.returncode == 2, (r.stdout, err)
    assert "RSA" in err and "ed25519" in err
    assert len([ln for ln in err.splitlines() if ln.strip()]) == 1
    body_lines = [ln for ln in rsa_pem.splitlines() if not ln.startswith("-----")]
    for line in body_lines:
        assert line not in err and line not in r.stdout.decode()


# --- keyids and keyrings -------------------------------------------------------------------------


def test_keyid_is_sha256_of_the_securesystemslib_key_dict() -> None:
    from securesystemslib.signer import SSlibKey

    key = generate_signing_key()
    public = ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(key.public_hex))
    assert SSlibKey.from_crypto(public).keyid == key.keyid == compute_keyid(key.public_hex)


def test_keyring_file_rotation_and_validation(tmp_path: Path) -> None:
    k1, k2 = generate_signing_key(), generate_signing_key()
    ring_file = tmp_path / "keys.json"
    ring_file.write_text(keyring_json([k1.public_key, k2.public_key]))
    ring = load_keyring(str(ring_file))
    assert set(ring.keyids()) == {k1.keyid, k2.keyid}
    assert ring.find(k2.keyid) is not None and ring.find("0" * 64) is None

    def bad(doc: object, match: str) -> None:
        with pytest.raises(ConfigError, match=match):
            parse_keyring(json.dumps(doc).encode(), "ring")

    bad({"keys": [{"keyid": k2.keyid, "public": k1.public_hex}]}, "does not match its public key")
    bad({"keys": [{"public": "zz" * 32}]}, "64 hex")
    bad({"keys": []}, "no keys")
    bad({"keys": [{"public": k1.public_hex}, {"public": k1.public_hex}]}, "twice")
    bad({"keys": [{"public": k1.public_hex, "trusted": "yes"}]}, "malformed")
    bad([k1.public_hex], "malformed")
    with pytest.raises(ConfigError, match="not valid JSON"):
        parse_keyring(b"{nope", "ring")
    with pytest.raises(ConfigError, match="cannot read keyring"):
        load_keyring(str(tmp_path / "absent.json"))
    # keyid is optional (computed), and names are kept
    ring = parse_keyring(json.dumps({"keys": [{"public": k1.public_hex.upper(), "name": "ci-2026"}]}).encode(), "r")
    assert ring.keys[0].keyid == k1.keyid and ring.keys[0].name == "ci-2026"


def test_public_key_forms_and_rejections(tmp_path: Path) -> None:
    key = generate_signing_key()
    assert load_public_key(key.public_hex).keyid == key.keyid
    priv = tmp_path / "priv.pem"
    priv.write_bytes(key.private_pem())
    with pytest.raises(KeyError_, match="private key"):
        load_public_key(str(priv))
    rsa_pub = tmp_path / "rsa.pub"
    rsa_pub.write_bytes(
        rsa.generate_private_key(public_exponent=65537, key_size=2048)
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    with pytest.raises(KeyError_, match="RSA"):
        load_public_key(str(rsa_pub))


def test_keyring_from_rev_reads_committed_blob_not_worktree(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    k1, k2 = generate_signing_key(), generate_signing_key()
    (repo / ".github").mkdir()
    ring = repo / ".github" / "receipt-keys.json"
    ring.write_text(keyring_json([k1.public_key]))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "trust k1")
    base = git(repo, "rev-parse", "HEAD")
    ring.write_text(keyring_json([k1.public_key, k2.public_key]))
    git(repo, "commit", "-qam", "add k2")
    ring.write_text("not even json")  # the work tree is never read
    assert keyring_from_rev(str(repo), base).keyids() == [k1.keyid]
    at_head = keyring_from_rev(str(repo), "HEAD")
    assert set(at_head.keyids()) == {k1.keyid, k2.keyid}
    assert at_head.source == f".github/receipt-keys.json@{git(repo, 'rev-parse', 'HEAD')[:12]}"
    assert keyring_from_rev(str(repo / ".github"), "HEAD~1").keyids() == [k1.keyid]  # from a subfolder
    with pytest.raises(GitError, match="unknown revision") as info:
        keyring_from_rev(str(repo), "no-such-branch")
    assert info.value.exit_code == 3 and "git fetch" in (info.value.hint or "")
    with pytest.raises(ConfigError, match="no keyring at other/keys.json"):
        keyring_from_rev(str(repo), base, "other/keys.json")
    with pytest.raises(ConfigError, match="not a file"):
        keyring_from_rev(str(repo), base, ".github")
    with pytest.raises(GitError, match="not a git repository"):
        keyring_from_rev(str(tmp_path / "nowhere"), "HEAD")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))

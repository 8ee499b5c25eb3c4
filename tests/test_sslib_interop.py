"""Independent verification: securesystemslib's DSSE code accepts our envelopes, and the
third-party recipes in docs/verifying.md (Python and shell) work on a real signed receipt."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from securesystemslib.dsse import Envelope
from securesystemslib.exceptions import VerificationError
from securesystemslib.signer import SSlibKey

from receipt.keys import generate_signing_key, keyring_json
from receipt.sign import Binding, envelope_json, render_signed
from receipt.verify import extract
from tests.signing_support import ROOT, body_renderer, make_receipt

DOC = ROOT / "docs" / "verifying.md"
KEY = generate_signing_key()


def _sslib_key(key) -> SSlibKey:
    return SSlibKey(key.keyid, "ed25519", "ed25519", {"public": key.public_hex})


def _signed_comment() -> str:
    return render_signed(make_receipt(5), KEY, Binding(repository="octo/agents", pr=7), renderer=body_renderer())


def test_securesystemslib_verifies_a_bare_envelope() -> None:
    env = json.loads(envelope_json(make_receipt(3), KEY, Binding(repository="o/r", pr=1)))
    accepted = Envelope.from_dict(env).verify([_sslib_key(KEY)], 1)
    assert list(accepted) == [KEY.keyid]


def test_securesystemslib_verifies_the_embedded_envelope_and_rejects_other_keys() -> None:
    envelope_line = extract(_signed_comment()).envelope_text
    assert Envelope.from_dict(json.loads(envelope_line)).verify([_sslib_key(KEY)], 1)
    with pytest.raises(VerificationError):
        Envelope.from_dict(json.loads(envelope_line)).verify([_sslib_key(generate_signing_key())], 1)
    tampered = json.loads(envelope_line)
    tampered["payloadType"] = "application/json"
    with pytest.raises(VerificationError):
        Envelope.from_dict(tampered).verify([_sslib_key(KEY)], 1)


def test_our_keyid_and_pae_are_securesystemslib_s() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from receipt.sign import PAYLOAD_TYPE, pae

    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(KEY.public_hex))
    assert SSlibKey.from_crypto(public).keyid == KEY.keyid
    env = Envelope(b'{"a":1}', PAYLOAD_TYPE, {})
    assert env.pae() == pae(PAYLOAD_TYPE, b'{"a":1}')


def _doc_block(lang: str) -> str:
    blocks = re.findall(rf"^```{lang}\n(.*?)^```\n", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert blocks, f"docs/verifying.md has no ```{lang} block"
    return blocks[0]


@pytest.fixture(scope="module")
def recipe_files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("recipe")
    comment = _signed_comment()
    (d / "comment.md").write_text(comment, encoding="utf-8", newline="")
    (d / "comment-crlf.md").write_text(comment.replace("\n", "\r\n"), encoding="utf-8", newline="")
    (d / "tampered.md").write_text(comment.replace("tool", "t00l", 1), encoding="utf-8", newline="")
    env_line = extract(comment).envelope_text
    other = render_signed(make_receipt(2), KEY, Binding(repository="octo/agents", pr=8), renderer=body_renderer())
    (d / "moved.md").write_text(comment.replace(env_line, extract(other).envelope_text), encoding="utf-8", newline="")
    (d / "keys.json").write_text(keyring_json([KEY.public_key]))
    (d / "stranger.json").write_text(keyring_json([generate_signing_key().public_key]))
    (d / "ci.pub").write_bytes(KEY.public_pem())
    (d / "stranger.pub").write_bytes(generate_signing_key().public_pem())
    return d


def test_documented_python_recipe(recipe_files: Path) -> None:
    d = recipe_files
    script = d / "verify_receipt.py"
    script.write_text(_doc_block("python"))

    def run(comment: str, keys: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(script), str(d / comment), str(d / keys)], capture_output=True, text=True, timeout=60)

    for comment in ("comment.md", "comment-crlf.md"):
        r = run(comment, "keys.json")
        assert r.returncode == 0, r.stdout + r.stderr
        assert r.stdout.startswith("verified: ") and '"pr": 7' in r.stdout and "octo/agents" in r.stdout
    for comment, keys, why in (
        ("tampered.md", "keys.json", "differs from what was signed"),
        ("moved.md", "keys.json", "differs from what was signed"),
        ("comment.md", "stranger.json", "signature"),
    ):
        r = run(comment, keys)
        assert r.returncode == 1 and why in r.stdout, (comment, r.stdout, r.stderr)


@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("bash", "jq", "openssl", "sha256sum", "base64")),
    reason="the shell recipe needs bash, jq, openssl 3, sha256sum, base64",
)
def test_documented_shell_recipe(recipe_files: Path) -> None:
    d = recipe_files
    script = d / "verify-receipt.sh"
    script.write_text(_doc_block("bash"))

    def run(comment: str, pub: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(script), str(d / comment), str(d / pub)], capture_output=True, text=True, timeout=60)

    for comment in ("comment.md", "comment-crlf.md"):
        r = run(comment, "ci.pub")
        assert r.returncode == 0, r.stdout + r.stderr
        assert r.stdout.startswith("verified: ") and '"pr":7' in r.stdout
    for comment, pub in (("tampered.md", "ci.pub"), ("moved.md", "ci.pub"), ("comment.md", "stranger.pub")):
        r = run(comment, pub)
        assert r.returncode == 1 and "NOT VERIFIED" in r.stdout, (comment, r.stdout, r.stderr)

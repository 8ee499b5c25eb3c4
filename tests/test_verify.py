"""Verification: the checks in order, the CLI (exit codes, summary, json), trust from the base revision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from receipt.errors import UsageError, VerificationFailed
from receipt.keys import SigningKey, generate_signing_key, keyring_from_keys, keyring_json
from receipt.sign import Binding, b64, envelope_json, envelope_text, pae, render_signed
from receipt.verify import Expectations, extract, verify_text
from tests.signing_support import BASE_SHA, HEAD_SHA, body_renderer, git, init_repo, make_receipt, run_cli


def _signed(key: SigningKey, *, pr: int | None = 42, n: int = 3, repository: str = "octo/agents") -> str:
    return render_signed(make_receipt(n), key, Binding(repository=repository, pr=pr), renderer=body_renderer())


def _failed(text: str, ring, expect=None) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as info:
        verify_text(text, ring, expect)
    return info.value


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return generate_signing_key()


@pytest.fixture(scope="module")
def ring(key):
    return keyring_from_keys([key.public_key])


# --- library -------------------------------------------------------------------------------------


def test_valid_receipt_verifies_with_summary(key, ring) -> None:
    result = verify_text(_signed(key), ring, Expectations.create("Octo/Agents", 42, BASE_SHA[:7], HEAD_SHA))
    assert result.keyid == key.keyid and result.embedded
    assert result.binding == Binding(repository="octo/agents", pr=42, base_sha=BASE_SHA, head_sha=HEAD_SHA)
    text = "\n".join(result.summary_lines())
    for needle in (key.keyid, "octo/agents", "#42", BASE_SHA, HEAD_SHA, "verdict:    fail", "3 changes"):
        assert needle in text


def test_crlf_comment_body_still_verifies(key, ring) -> None:
    text = _signed(key)
    assert verify_text(text.replace("\n", "\r\n"), ring).embedded
    assert verify_text(text.rstrip("\n"), ring).embedded  # a copy that lost the final newline


def test_bare_envelope_verifies_without_a_body(key, ring) -> None:
    env = envelope_json(make_receipt(2), key, Binding(repository="o/r", pr=5))
    result = verify_text(env, ring, Expectations.create("o/r", 5))
    assert not result.embedded and result.body_sha256 is None
    pretty = json.dumps(json.loads(env), indent=2)  # reformatting a bare envelope changes nothing signed
    assert verify_text(pretty, ring).keyid == key.keyid
    assert "bare envelope" in "\n".join(result.summary_lines())


def test_an_envelope_signed_without_body_cannot_vouch_for_markdown(key, ring) -> None:
    signed = _signed(key)
    bare = envelope_json(make_receipt(3), key, Binding(repository="octo/agents", pr=42)).strip()
    forged = signed.replace(extract(signed).envelope_text, bare)
    assert _failed(forged, ring).check == "body-digest"


def test_untrusted_key_fails_at_signature_even_if_valid(key, ring) -> None:
    other = generate_signing_key()
    err = _failed(_signed(other), ring)
    assert err.check == "signature" and "not trusted" in str(err) and other.keyid in str(err)
    assert verify_text(_signed(other), keyring_from_keys([key.public_key, other.public_key])).keyid == other.keyid


def test_trusted_keyid_with_a_signature_from_another_key_fails(key, ring) -> None:
    """keyid selects the key, but the signature must verify under it: relabelling is not enough."""
    other = generate_signing_key()
    text = _signed(other)
    env = json.loads(extract(text).envelope_text)
    env["signatures"][0]["keyid"] = key.keyid
    relabelled = text.replace(extract(text).envelope_text, envelope_text(env))
    err = _failed(relabelled, ring)
    assert err.check == "signature" and "does not match" in str(err)


@pytest.mark.parametrize(
    "expect,needle",
    [
        (Expectations.create(repository="octo/other"), "expected \"octo/other\""),
        (Expectations.create(pr=41), "expected PR #41"),
        (Expectations.create(head_sha="3" * 40), "head"),
        (Expectations.create(base_sha="4" * 12), "base"),
    ],
)
def test_binding_expectations(key, ring, expect, needle) -> None:
    err = _failed(_signed(key), ring, expect)
    assert err.check == "binding" and needle in str(err)


def test_unbound_receipt_fails_expectations_it_cannot_meet(key, ring) -> None:
    text = _signed(key, pr=None, repository="")
    assert _failed(text, ring, Expectations.create(pr=1)).check == "binding"
    assert "no repository" in str(_failed(text, ring, Expectations.create(repository="o/r")))


def test_checks_run_in_order(key, ring) -> None:
    other = generate_signing_key()
    text = _signed(other)
    env = json.loads(extract(text).envelope_text)
    env["payloadType"] = "application/vnd.in-toto+json"
    wrong_type_untrusted = text.replace(extract(text).envelope_text, envelope_text(env))
    assert _failed(wrong_type_untrusted, ring).check == "payload-type"  # before signature
    edited_untrusted = "edited " + text
    assert _failed(edited_untrusted, ring).check == "signature"  # before body-digest
    edited = "edited " + _signed(key)
    assert _failed(edited, ring, Expectations.create(pr=7)).check == "body-digest"  # before binding


def test_expectation_values_are_validated() -> None:
    with pytest.raises(UsageError, match="--expect-head"):
        Expectations.create(head_sha="main")
    with pytest.raises(UsageError, match="--expect-base"):
        Expectations.create(base_sha="abc")
    with pytest.raises(UsageError, match="--expect-pr"):
        Expectations.create(pr=0)


def test_signed_payload_must_be_ours_even_under_a_valid_signature(key, ring) -> None:
    payload = b'{"hello":"world"}'
    env = {
        "payload": b64(payload),
        "payloadType": "application/vnd.behavior-receipt+json",
        "signatures": [{"keyid": key.keyid, "sig": b64(key.sign(pae("application/vnd.behavior-receipt+json", payload)))}],
    }
    err = _failed(envelope_text(env), ring)
    assert err.check == "envelope" and "payload" in str(err)


# --- CLI -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def signed_files(tmp_path_factory, key):
    d = tmp_path_factory.mktemp("signed")
    (d / "receipt.md").write_text(_signed(key), newline="")
    (d / "keys.json").write_text(keyring_json([key.public_key]))
    (d / "key.pub").write_bytes(key.public_pem())
    (d / "envelope.json").write_text(envelope_json(make_receipt(2), key, Binding(repository="o/r", pr=5)))
    return d


def test_cli_verify_success_summary_and_json(signed_files, key) -> None:
    d = signed_files
    r = run_cli("verify", str(d / "receipt.md"), "--key", key.public_hex, "--expect-pr", "42", "--expect-repository", "octo/agents")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert out.startswith("verified:") and key.keyid in out and "#42" in out and HEAD_SHA in out
    r = run_cli("verify", "-", "--keyring", str(d / "keys.json"), "--format", "json", input=(d / "receipt.md").read_bytes().replace(b"\n", b"\r\n"))
    assert r.returncode == 0, r.stderr
    payload = json.loads(r.stdout)
    assert payload["binding"]["pr"] == 42 and payload["receipt"]["summary"]["changes"] == 3
    r = run_cli("verify", str(d / "envelope.json"), "--key", str(d / "key.pub"))
    assert r.returncode == 0, r.stderr


def test_cli_verify_failures_exit_1_and_name_the_check(signed_files) -> None:
    d = signed_files
    stranger = generate_signing_key()
    r = run_cli("verify", str(d / "receipt.md"), "--key", stranger.public_hex)
    assert r.returncode == 1
    assert r.stderr.decode().startswith("error: verification failed at signature:")
    assert r.stdout == b""
    r = run_cli("verify", str(d / "receipt.md"), "--keyring", str(d / "keys.json"), "--expect-pr", "7")
    assert r.returncode == 1 and "verification failed at binding" in r.stderr.decode()
    tampered = (d / "receipt.md").read_bytes().replace(b"tool", b"t0ol", 1)
    assert tampered != (d / "receipt.md").read_bytes()
    r = run_cli("verify", "-", "--keyring", str(d / "keys.json"), input=tampered)
    assert r.returncode == 1 and "verification failed at body-digest" in r.stderr.decode()


@pytest.mark.parametrize(
    "args,needle",
    [
        ([], "exactly one source of trusted keys"),
        (["--key", "ab" * 32, "--keyring", "keys.json"], "exactly one source"),
        (["--keyring", "keys.json", "--keyring-path", "x.json"], "--keyring-path only applies"),
        (["--keyring", "keys.json", "--expect-head", "zzz"], "--expect-head"),
        (["--keyring", "missing.json"], "cannot read keyring"),
        (["--key", "no-such-file.pub"], "cannot read public key file"),
    ],
)
def test_cli_usage_errors_exit_2(signed_files, args, needle) -> None:
    r = run_cli("verify", "receipt.md", *args, cwd=signed_files)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert needle in r.stderr.decode()


def test_cli_missing_input_file_is_a_usage_error(signed_files, key) -> None:
    r = run_cli("verify", "nope.md", "--key", key.public_hex, cwd=signed_files)
    assert r.returncode == 2 and "cannot read nope.md" in r.stderr.decode()


# --- trust roots from the base revision ----------------------------------------------------------


def test_pr_adding_its_own_key_cannot_verify_against_the_base_keyring(tmp_path: Path) -> None:
    trusted, intruder = generate_signing_key(), generate_signing_key()
    repo = init_repo(tmp_path / "repo")
    (repo / ".github").mkdir()
    ring_path = repo / ".github" / "receipt-keys.json"
    ring_path.write_text(keyring_json([trusted.public_key]))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base: trust the CI key")
    git(repo, "checkout", "-qb", "pr")
    ring_path.write_text(keyring_json([trusted.public_key, intruder.public_key]))
    git(repo, "commit", "-qam", "PR: trust my own key too")

    forged = tmp_path / "forged.md"
    forged.write_text(_signed(intruder))
    genuine = tmp_path / "genuine.md"
    genuine.write_text(_signed(trusted))

    r = run_cli("verify", str(forged), "--keyring-from-rev", "main", "--repo", str(repo))
    assert r.returncode == 1 and "verification failed at signature" in r.stderr.decode()
    assert "receipt-keys.json@" in r.stderr.decode()  # says where trust came from
    # the same receipt does verify against the PR's own keyring: the base revision is what protects
    r = run_cli("verify", str(forged), "--keyring-from-rev", "pr", "--repo", str(repo))
    assert r.returncode == 0, r.stderr
    r = run_cli("verify", str(genuine), "--keyring-from-rev", "main", "--repo", str(repo))
    assert r.returncode == 0, r.stderr


def test_keyring_from_rev_errors_and_custom_path(tmp_path: Path, key) -> None:
    repo = init_repo(tmp_path / "repo")
    (repo / "trust").mkdir()
    (repo / "trust" / "keys.json").write_text(keyring_json([key.public_key]))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "keys elsewhere")
    receipt = tmp_path / "r.md"
    receipt.write_text(_signed(key))
    r = run_cli("verify", str(receipt), "--keyring-from-rev", "HEAD", "--repo", str(repo))
    assert r.returncode == 2 and "no keyring at .github/receipt-keys.json" in r.stderr.decode()
    r = run_cli("verify", str(receipt), "--keyring-from-rev", "HEAD", "--keyring-path", "trust/keys.json", "--repo", str(repo))
    assert r.returncode == 0, r.stderr
    r = run_cli("verify", str(receipt), "--keyring-from-rev", "deadbeef", "--repo", str(repo))
    assert r.returncode == 3 and "unknown revision" in r.stderr.decode() and "git fetch" in r.stderr.decode()

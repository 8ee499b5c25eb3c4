"""Signing: payload, PAE, envelope, the block at the end of the receipt, determinism, size budget."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from receipt.canonical import canonical_json, sha256_hex
from receipt.errors import UsageError
from receipt.keys import compute_keyid, generate_signing_key, keyring_from_keys, load_signing_key
from receipt.sign import (
    PAYLOAD_SCHEMA,
    PAYLOAD_TYPE,
    SIGNATURE_MARKER,
    Binding,
    envelope_json,
    pae,
    render_signed,
)
from receipt.verify import extract, verify_text
from tests.signing_support import BASE_SHA, HEAD_SHA, ROOT, body_renderer, make_receipt, standin_render_markdown

SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"  # RFC 8032 test 1 secret


def _signed(receipt=None, key=None, binding=None, **kw) -> str:
    return render_signed(
        receipt or make_receipt(4),
        key or load_signing_key(None, SEED),
        binding or Binding(repository="octo/agents", pr=42),
        renderer=kw.pop("renderer", body_renderer()),
        **kw,
    )


def _envelope_of(text: str) -> dict:
    return json.loads(extract(text).envelope_text)


def _payload_of(envelope: dict) -> dict:
    return json.loads(base64.standard_b64decode(envelope["payload"]))


def test_pae_is_the_dsse_v1_encoding() -> None:
    assert pae("http://example.com/HelloWorld", b"hello world") == (
        b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
    )
    assert pae(PAYLOAD_TYPE, "é".encode()) == b"DSSEv1 37 " + PAYLOAD_TYPE.encode() + b" 2 \xc3\xa9"


def test_signed_receipt_layout_envelope_and_payload() -> None:
    receipt = make_receipt(4)
    key = load_signing_key(None, SEED)
    text = _signed(receipt, key)
    assert text.count(SIGNATURE_MARKER) == 1
    assert text.endswith("```\n\n</details>\n")
    block_start = text.index("\n<details><summary>Signature</summary>")
    body = text[:block_start]
    assert body.endswith("\n") and "\r" not in text

    env = _envelope_of(text)
    assert list(env) == ["payload", "payloadType", "signatures"]
    assert env["payloadType"] == PAYLOAD_TYPE and PAYLOAD_TYPE.isascii()
    assert base64.standard_b64encode(base64.standard_b64decode(env["payload"])).decode() == env["payload"]
    [sig] = env["signatures"]
    assert sig["keyid"] == key.keyid == compute_keyid(key.public_hex)

    raw = base64.standard_b64decode(env["payload"])
    payload = json.loads(raw)
    assert raw == canonical_json(payload)  # the payload is canonical JSON
    assert payload["schema"] == PAYLOAD_SCHEMA
    assert payload["receipt"] == receipt.to_json_dict(include_surfaces=False)
    assert payload["body_sha256"] == sha256_hex(body)
    assert payload["binding"] == {"repository": "octo/agents", "pr": 42, "base_sha": BASE_SHA, "head_sha": HEAD_SHA}
    # the signature is a plain ed25519 signature over the PAE
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key.public_hex))
    public.verify(base64.standard_b64decode(sig["sig"]), pae(PAYLOAD_TYPE, raw))


def test_same_inputs_and_key_give_byte_identical_receipts() -> None:
    receipt = make_receipt(30)
    a = _signed(receipt, load_signing_key(None, SEED))
    b = _signed(make_receipt(30), load_signing_key(None, SEED))
    assert a == b
    assert envelope_json(receipt, load_signing_key(None, SEED), Binding()) == envelope_json(
        receipt, load_signing_key(None, SEED), Binding()
    )
    # and a different key, PR or body changes the signature block
    assert _signed(receipt, generate_signing_key()) != a
    assert _signed(receipt, binding=Binding(repository="octo/agents", pr=43)) != a


def test_signed_receipt_is_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from tests.signing_support import make_receipt, standin_render_markdown\n"
        "from receipt.keys import load_signing_key\n"
        "from receipt.sign import Binding, render_signed\n"
        "sys.stdout.write(render_signed(make_receipt(25), load_signing_key(None, %r), Binding(repository='o/r', pr=1),"
        " renderer=standin_render_markdown))\n"
    ) % (str(ROOT), SEED)
    outs = set()
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True).stdout)
    assert len(outs) == 1
    expected = render_signed(
        make_receipt(25), load_signing_key(None, SEED), Binding(repository="o/r", pr=1), renderer=standin_render_markdown
    )
    assert outs.pop().decode() == expected


def test_binding_shas_default_to_the_receipt_and_explicit_values_win() -> None:
    receipt = make_receipt(1)
    payload = _payload_of(_envelope_of(_signed(receipt, binding=Binding())))
    assert payload["binding"] == {"repository": "", "pr": None, "base_sha": BASE_SHA, "head_sha": HEAD_SHA}
    explicit = Binding(repository="o/r", pr=9, base_sha="c" * 40, head_sha="d" * 40)
    payload = _payload_of(_envelope_of(_signed(receipt, binding=explicit)))
    assert payload["binding"] == {"repository": "o/r", "pr": 9, "base_sha": "c" * 40, "head_sha": "d" * 40}
    with pytest.raises(ValueError):
        Binding(pr=0)


def test_renderer_gets_exactly_the_room_the_block_leaves() -> None:
    seen = {}

    def recording(receipt, *, max_chars, header_comment=None, template_text=None, **_):
        seen["max_chars"] = max_chars
        seen["header_comment"] = header_comment
        return standin_render_markdown(receipt, max_chars=max_chars, header_comment=header_comment)

    text = _signed(make_receipt(5), renderer=recording, max_chars=30000, header_comment="<!-- behavior-receipt:comment -->")
    block_len = len(text) - text.index("\n<details><summary>Signature</summary>")
    assert seen == {"max_chars": 30000 - block_len, "header_comment": "<!-- behavior-receipt:comment -->"}
    assert text.startswith("<!-- behavior-receipt:comment -->\n")


@pytest.mark.parametrize("n_changes,max_chars", [(3000, 60000), (400, 60000), (200, 20000), (40, 8000), (0, 4000)])
def test_size_budget_holds_and_the_block_is_never_cut(n_changes: int, max_chars: int) -> None:
    receipt = make_receipt(n_changes)
    key = load_signing_key(None, SEED)
    text = _signed(receipt, key, max_chars=max_chars)
    assert len(text) <= max_chars
    verified = verify_text(text, keyring_from_keys([key.public_key]))
    payload = verified.payload
    assert payload["receipt"]["summary"]["changes"] == n_changes
    assert payload["receipt"]["verdict"] == receipt.verdict.model_dump(mode="json")
    if payload.get("changes_elided"):
        full = receipt.to_json_dict()["changes"]
        assert payload["changes_elided"] == n_changes and payload["receipt"]["changes"] == []
        assert payload["changes_sha256"] == sha256_hex(canonical_json(full))
    else:
        assert len(payload["receipt"]["changes"]) == n_changes
    if n_changes >= 400:
        assert payload["changes_elided"] == n_changes  # thousands of changes cannot fit a comment


def test_skipped_files_are_elided_before_changes() -> None:
    receipt = make_receipt(3, n_skipped=2000)
    key = load_signing_key(None, SEED)
    text = _signed(receipt, key)
    assert len(text) <= 60000
    payload = verify_text(text, keyring_from_keys([key.public_key])).payload
    assert payload["skipped_elided"] == 2000 and "changes_elided" not in payload
    assert len(payload["receipt"]["changes"]) == 3


def test_a_budget_too_small_for_the_block_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="max_chars"):
        _signed(make_receipt(2), max_chars=2500)


def test_a_body_that_carries_the_marker_is_refused() -> None:
    def template_with_marker(receipt, **_):
        return f"hello\n{SIGNATURE_MARKER}\n"

    with pytest.raises(UsageError, match="signature marker"):
        _signed(make_receipt(1), renderer=template_with_marker)


def test_envelope_json_is_the_full_unelided_envelope() -> None:
    receipt = make_receipt(500)
    key = load_signing_key(None, SEED)
    text = envelope_json(receipt, key, Binding(repository="o/r", pr=3))
    assert text.endswith("\n") and text.count("\n") == 1
    env = json.loads(text)
    payload = _payload_of(env)
    assert payload["body_sha256"] is None
    assert len(payload["receipt"]["changes"]) == 500 and "changes_elided" not in payload
    with_body = _payload_of(json.loads(envelope_json(receipt, key, Binding(), "body\r\n")))
    assert with_body["body_sha256"] == sha256_hex("body\n")

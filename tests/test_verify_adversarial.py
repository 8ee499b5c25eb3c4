"""Adversarial verification: any single-byte edit, swapped fields, dropped or duplicated blocks,
blocks moved between PRs, fake blocks smuggled in through analysed code, and the size budget."""

from __future__ import annotations

import json
import random

import pytest

from receipt.canonical import canonical_json, sha256_hex
from receipt.errors import VerificationFailed
from receipt.keys import generate_signing_key, keyring_from_keys, load_signing_key
from receipt.sign import BLOCK_HEAD, SIGNATURE_MARKER, Binding, envelope_text, render_signed, sign_payload
from receipt.verify import Expectations, extract, verify_bytes, verify_text
from tests.signing_support import body_renderer, make_receipt

SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
KEY = load_signing_key(None, SEED)
RING = keyring_from_keys([KEY.public_key])
N_POSITIONS = 200


def _signed(receipt=None, pr: int = 42, key=KEY) -> str:
    return render_signed(
        receipt or make_receipt(6), key, Binding(repository="octo/agents", pr=pr), renderer=body_renderer()
    )


SIGNED = _signed()
DATA = SIGNED.encode("utf-8")
BLOCK_AT = DATA.index(BLOCK_HEAD.encode())
ENV_BYTES = extract(SIGNED).envelope_text.encode()
ENV_AT = DATA.index(ENV_BYTES)
ENV_END = ENV_AT + len(ENV_BYTES)


def _check_of(data: bytes, expect: Expectations | None = None) -> str | None:
    try:
        verify_bytes(data, RING, expect)
    except VerificationFailed as e:
        return e.check
    return None


def _mutations(rng: random.Random, data: bytes, start: int, end: int):
    positions = rng.sample(range(start, end), min(N_POSITIONS, end - start))
    for i in positions:
        flipped = data[i] ^ (1 << rng.randrange(8))
        yield "flip", i, data[:i] + bytes([flipped]) + data[i + 1 :]
        yield "insert", i, data[:i] + bytes([rng.randrange(256)]) + data[i:]
        yield "delete", i, data[:i] + data[i + 1 :]


def test_the_unmodified_receipt_verifies() -> None:
    assert _check_of(DATA) is None
    assert BLOCK_AT > N_POSITIONS and ENV_END - ENV_AT > N_POSITIONS  # enough positions to sample


def test_any_single_byte_edit_of_the_body_fails_at_body_digest() -> None:
    rng = random.Random(20260101)
    seen = 0
    for kind, i, mutated in _mutations(rng, DATA, 0, BLOCK_AT):
        assert _check_of(mutated) == "body-digest", (kind, i)
        seen += 1
    assert seen == 3 * N_POSITIONS


def test_any_single_byte_edit_of_the_envelope_fails_before_the_body() -> None:
    rng = random.Random(7)
    checks = set()
    for kind, i, mutated in _mutations(rng, DATA, ENV_AT, ENV_END):
        check = _check_of(mutated)
        assert check in {"envelope", "payload-type", "signature"}, (kind, i, check)
        checks.add(check)
    assert {"envelope", "signature"} <= checks  # both malformed and forged-content edits occurred


def test_any_single_byte_edit_of_the_block_framing_fails() -> None:
    framing = [i for i in range(BLOCK_AT, len(DATA)) if not ENV_AT <= i < ENV_END]
    for i in framing:
        for mutated in (DATA[:i] + bytes([DATA[i] ^ 0x20]) + DATA[i + 1 :], DATA[:i] + b"x" + DATA[i:]):
            assert _check_of(mutated) is not None, i
        if i != len(DATA) - 1:  # losing the very last newline (copy/paste, editors) is tolerated
            assert _check_of(DATA[:i] + DATA[i + 1 :]) is not None, i
    assert _check_of(DATA[:-1]) is None
    assert _check_of(DATA + b"\n") == "envelope"
    assert _check_of(DATA + b" ") == "envelope"


def test_crlf_conversion_verifies_but_partial_conversion_does_not() -> None:
    crlf = DATA.replace(b"\n", b"\r\n")
    assert _check_of(crlf) is None
    first_lf = DATA.index(b"\n")
    assert _check_of(DATA[:first_lf] + b"\r" + DATA[first_lf:]) == "body-digest"  # one stray CR is an edit
    assert _check_of(crlf.replace(b"\r\n", b"\n", 1)) is not None


def _with_envelope(text: str, env: dict) -> str:
    return text.replace(extract(text).envelope_text, envelope_text(env))


def test_swapped_payload_type_fails_at_payload_type_even_when_resigned() -> None:
    env = json.loads(extract(SIGNED).envelope_text)
    env["payloadType"] = "application/vnd.in-toto+json"
    assert _check_of(_with_envelope(SIGNED, env).encode()) == "payload-type"
    env["payloadType"] = "application/vnd.behavior-receipt+JSON"
    assert _check_of(_with_envelope(SIGNED, env).encode()) == "payload-type"


def test_dropped_or_extra_signatures_fail_at_envelope() -> None:
    env = json.loads(extract(SIGNED).envelope_text)
    for signatures in ([], [{"keyid": KEY.keyid}], env["signatures"] * 2):
        forged = _with_envelope(SIGNED, {**env, "signatures": signatures})
        assert _check_of(forged.encode()) == "envelope", signatures
    # an extra signature by some other key cannot ride along either
    other = generate_signing_key()
    extra = sign_payload({"x": 1}, other)["signatures"][0]
    assert _check_of(_with_envelope(SIGNED, {**env, "signatures": [*env["signatures"], extra]}).encode()) == "envelope"
    # the whole block removed: an unsigned receipt
    err = pytest.raises(VerificationFailed, verify_text, SIGNED[: SIGNED.index(BLOCK_HEAD)], RING).value
    assert err.check == "envelope" and "no signature block" in str(err)


def test_pretty_printed_or_reordered_embedded_envelope_fails() -> None:
    env = json.loads(extract(SIGNED).envelope_text)
    spaced = SIGNED.replace(extract(SIGNED).envelope_text, json.dumps(env))
    assert _check_of(spaced.encode()) == "envelope"
    reordered = SIGNED.replace(extract(SIGNED).envelope_text, json.dumps(dict(reversed(env.items())), separators=(",", ":")))
    assert _check_of(reordered.encode()) == "envelope"


def test_duplicated_block_fails_at_envelope() -> None:
    block = SIGNED[SIGNED.index(BLOCK_HEAD) :]
    body = SIGNED[: SIGNED.index(BLOCK_HEAD)]
    for forged in (SIGNED + block, body + block + block, block + SIGNED, body[:50] + block + body[50:] + block):
        err = pytest.raises(VerificationFailed, verify_text, forged, RING).value
        assert err.check == "envelope" and "2 signature blocks" in str(err)


def test_block_moved_from_another_pr_fails() -> None:
    other_pr = _signed(make_receipt(6), pr=41)
    block = other_pr[other_pr.index(BLOCK_HEAD) :]
    body = SIGNED[: SIGNED.index(BLOCK_HEAD)]
    # the same change in two PRs: the visible body names its PR, so a moved block fails on the body
    moved = body + block
    assert _check_of(moved.encode()) == "body-digest"
    assert _check_of(moved.encode(), Expectations.create(repository="octo/agents", pr=42)) in ("binding", "body-digest")
    # a block from a PR with different content also fails on the body
    different = _signed(make_receipt(2), pr=41)
    moved = body + different[different.index(BLOCK_HEAD) :]
    assert _check_of(moved.encode(), Expectations.create(pr=42)) == "body-digest"
    # and another repository's receipt for "PR 42" fails on the repository
    foreign = render_signed(make_receipt(6), KEY, Binding(repository="evil/fork", pr=42), renderer=body_renderer())
    moved = body + foreign[foreign.index(BLOCK_HEAD) :]
    assert _check_of(moved.encode(), Expectations.create(repository="octo/agents", pr=42)) in ("binding", "body-digest")


def test_a_signature_from_another_receipt_does_not_transfer() -> None:
    env = json.loads(extract(SIGNED).envelope_text)
    other = json.loads(extract(_signed(make_receipt(6), pr=41)).envelope_text)
    forged = _with_envelope(SIGNED, {**env, "signatures": other["signatures"]})
    assert _check_of(forged.encode()) == "signature"


def test_fake_signature_block_in_a_tool_name_is_inert() -> None:
    fake_block = SIGNED[SIGNED.index(BLOCK_HEAD) :]
    names = [fake_block, SIGNATURE_MARKER, "x" + fake_block.replace("\n", " ")]
    receipt = make_receipt(len(names), tool_names=names)
    render = body_renderer()

    # Unsigned, with a perfect copy of a valid block in a tool name: not a signed receipt.
    unsigned = render(receipt, max_chars=60000)
    assert SIGNATURE_MARKER not in unsigned  # the renderer escaped it
    err = pytest.raises(VerificationFailed, verify_text, unsigned, RING).value
    assert err.check == "envelope" and "no signature block" in str(err)
    # Appending the real block after it does not help: the body is not what was signed.
    assert _check_of((unsigned + fake_block).encode()) == "body-digest"

    # Signed by the trusted key: verifies, and what verifies is the real block with the real names.
    signed = render_signed(receipt, KEY, Binding(repository="octo/agents", pr=42), renderer=render)
    assert signed.count(SIGNATURE_MARKER) == 1
    result = verify_text(signed, RING, Expectations.create(pr=42))
    assert result.keyid == KEY.keyid
    full_changes = receipt.to_json_dict()["changes"]
    if result.payload.get("changes_elided"):  # three copies of a block make a big payload
        assert result.payload["changes_sha256"] == sha256_hex(canonical_json(full_changes))
    else:
        assert result.receipt["changes"] == full_changes

    # A renderer that failed to escape would put a second marker in the comment: refused on both sides.
    unescaped = unsigned + "\n" + fake_block
    assert pytest.raises(VerificationFailed, verify_text, unescaped + fake_block, RING).value.check == "envelope"


@pytest.mark.parametrize("max_chars", [60000, 30000, 12000])
def test_signed_receipts_respect_the_size_budget_with_hostile_names(max_chars: int) -> None:
    names = [f"<details>{i}|`x`|**{'<!--' * 40}**" for i in range(1500)]
    text = render_signed(make_receipt(len(names), tool_names=names), KEY, Binding(pr=1), max_chars=max_chars, renderer=body_renderer())
    assert len(text) <= max_chars
    assert text.count(SIGNATURE_MARKER) == 1
    result = verify_text(text, RING, Expectations.create(pr=1))
    assert result.payload["changes_elided"] == 1500 and result.receipt["summary"]["changes"] == 1500

"""Signing: the signed payload, the DSSE v1 envelope, and its block at the end of the markdown receipt.

Layout of a signed receipt (docs/verifying.md is the normative description for third parties):

    <markdown body, exactly as rendered>
    \\n<details><summary>Signature</summary>\\n\\n<!-- behavior-receipt:signature:v1 -->\\n\\n```json\\n
    <envelope: canonical JSON, one line>\\n```\\n\\n</details>\\n

The payload signs the receipt, the sha256 of the body, and the binding (repository, PR, base,
head). Every field of the block has a fixed length except the payload, and the payload depends on
the body only through a 64-hex digest, so the block's length is known before the body is rendered:
the body gets exactly the room that is left, and the block is never truncated.
"""

from __future__ import annotations

import base64
from typing import Any, Callable, Optional

from receipt.canonical import canonical_json, sha256_hex
from receipt.errors import UsageError
from receipt.keys import SigningKey
from receipt.models import Binding, Receipt  # noqa: F401  (Binding: re-exported, its home was here)

PAYLOAD_TYPE = "application/vnd.behavior-receipt+json"
PAYLOAD_SCHEMA = "behavior-receipt-payload/v1"
SIGNATURE_MARKER = "<!-- behavior-receipt:signature:v1 -->"
# The block is this head, the marker, then BLOCK_TAIL around the envelope line.
BLOCK_HEAD = "\n<details><summary>Signature</summary>\n\n"
BLOCK_FENCE_OPEN = "\n\n```json\n"
BLOCK_TAIL = "\n```\n\n</details>\n"

DEFAULT_MAX_CHARS = 60000
MIN_BODY_CHARS = 2000  # below this the visible receipt could not even hold its verdict
# Lists the embedded payload may drop (keeping their count and digest) so the block fits, in order.
ELIDABLE = ("skipped", "errors", "traffic", "changes")

Renderer = Callable[..., str]


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE v1 pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body."""
    t = payload_type.encode("utf-8")
    return b"DSSEv1 %d %b %d %b" % (len(t), t, len(payload), payload)


def b64(data: bytes) -> str:
    return base64.standard_b64encode(data).decode("ascii")


def normalize_newlines(text: str) -> str:
    """CRLF -> LF when every line break is CRLF (what a browser textarea or Windows tool produces).

    All or nothing on purpose: a single stray CR inserted before one LF is an edit, not a
    line-ending convention, and must change the digest.
    """
    crlf = text.count("\r\n")
    if crlf and crlf == text.count("\n"):
        return text.replace("\r\n", "\n")
    return text


def body_digest(body: str) -> str:
    return sha256_hex(normalize_newlines(body))


def build_payload(
    receipt: Receipt, binding: Binding, body_sha256: Optional[str], *, elide: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The signed statement. `elide` names receipt lists replaced by their count and digest."""
    receipt_dict = receipt.to_json_dict(include_surfaces=False)
    payload: dict[str, Any] = {
        "schema": PAYLOAD_SCHEMA,
        "receipt": receipt_dict,
        "body_sha256": body_sha256,
        "binding": binding.as_payload(),
    }
    for field in elide:
        items = receipt_dict.get(field) or []
        if items:
            payload[f"{field}_elided"] = len(items)
            payload[f"{field}_sha256"] = sha256_hex(canonical_json(items))
            receipt_dict[field] = []
    return payload


def sign_payload(payload: dict[str, Any], key: SigningKey) -> dict[str, Any]:
    data = canonical_json(payload)
    sig = key.sign(pae(PAYLOAD_TYPE, data))
    return {"payload": b64(data), "payloadType": PAYLOAD_TYPE, "signatures": [{"keyid": key.keyid, "sig": b64(sig)}]}


def envelope_text(envelope: dict[str, Any]) -> str:
    """The envelope's one and only serialisation: canonical JSON (ASCII, one line)."""
    return canonical_json(envelope).decode("utf-8")


def signature_block(envelope: dict[str, Any]) -> str:
    return f"{BLOCK_HEAD}{SIGNATURE_MARKER}{BLOCK_FENCE_OPEN}{envelope_text(envelope)}{BLOCK_TAIL}"


def envelope_json(receipt: Receipt, key: SigningKey, binding: Binding, body: Optional[str] = None) -> str:
    """The envelope alone (`--format json` with a key): full payload, nothing elided; one line + LF.

    With `body`, the payload carries its digest (as in the markdown block); without, `body_sha256`
    is null and such an envelope never verifies under a markdown body.
    """
    digest = body_digest(body) if body is not None else None
    payload = build_payload(receipt, binding.resolved(receipt), digest)
    return envelope_text(sign_payload(payload, key)) + "\n"


def _fit_block(receipt: Receipt, binding: Binding, key: SigningKey, max_chars: int) -> tuple[tuple[str, ...], int]:
    """Which lists to elide so the block takes at most half the budget, and the block's length."""
    placeholder = "0" * 64  # same length as the real digest, so the same block length
    budget = max_chars // 2
    elide: tuple[str, ...] = ()
    for step in range(len(ELIDABLE) + 1):
        elide = ELIDABLE[:step]
        length = len(signature_block(sign_payload(build_payload(receipt, binding, placeholder, elide=elide), key)))
        if length <= budget:
            return elide, length
    if length <= max_chars - MIN_BODY_CHARS:
        return elide, length
    raise UsageError(
        f"a signed receipt needs more than max_chars={max_chars} characters "
        f"(the signature block alone takes {length}); raise the limit"
    )


def _default_renderer() -> Renderer:
    from receipt.render import render_markdown  # late: signing must import without the renderer

    return render_markdown


def render_signed(
    receipt: Receipt,
    key: SigningKey,
    binding: Binding,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    header_comment: Optional[str] = None,
    template_text: Optional[str] = None,
    renderer: Optional[Renderer] = None,
) -> str:
    """The markdown receipt with its signature block; at most `max_chars` characters in total.

    The body is rendered into the room the block leaves (the renderer cuts the change list, never
    the verdict); the block is never cut. Deterministic: ed25519 signatures are, so the same
    receipt, binding and key give byte-identical text.
    """
    binding = binding.resolved(receipt)
    receipt = receipt.model_copy(update={"binding": binding})  # the body shows what the signature binds
    elide, block_len = _fit_block(receipt, binding, key, max_chars)
    render = renderer or _default_renderer()
    room = max_chars - block_len
    body = render(receipt, max_chars=room, header_comment=header_comment, template_text=template_text)
    if len(body) > room:
        raise UsageError(f"renderer exceeded its budget ({len(body)} > {room} characters)")
    if SIGNATURE_MARKER in body:  # the renderer escapes analysed code, so only a template could do this
        raise UsageError("the rendered body contains the signature marker; check the template")
    if "\r" in body:  # the digest is over LF text; a CR here would make the signed bytes ambiguous
        raise UsageError("the rendered body contains a carriage return; receipts are LF-only")
    block = signature_block(sign_payload(build_payload(receipt, binding, sha256_hex(body), elide=elide), key))
    if len(block) != block_len:  # pragma: no cover - an invariant of the layout, not an input condition
        raise RuntimeError("signature block length changed with the body")
    return body + block

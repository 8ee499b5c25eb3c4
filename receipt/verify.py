"""Verification of a signed receipt: a markdown comment body (LF or CRLF) or a bare DSSE envelope.

Checks run in a fixed order and stop at the first failure, which is named:

    envelope      exactly one signature block, at the very end; the envelope is well-formed
                  (and, embedded, in its one canonical serialisation)
    payload-type  the DSSE payloadType is ours
    signature     a signature by a trusted key (selected by keyid) over the PAE verifies
    body-digest   the visible body hashes to the signed digest
    binding       repository / PR / base / head are what the caller expects
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, ValidationError

from receipt.canonical import sha256_hex
from receipt.errors import UsageError, VerificationFailed
from receipt.keys import Keyring
from receipt.sign import (
    BLOCK_FENCE_OPEN,
    BLOCK_HEAD,
    BLOCK_TAIL,
    PAYLOAD_SCHEMA,
    PAYLOAD_TYPE,
    SIGNATURE_MARKER,
    Binding,
    envelope_text,
    normalize_newlines,
    pae,
)

CHECKS = ("envelope", "payload-type", "signature", "body-digest", "binding")
MAX_INPUT_BYTES = 10_000_000

_SHA_PREFIX = re.compile(r"[0-9a-fA-F]{7,64}")
# After the marker: the fenced envelope line, then the fixed tail (one optional final newline).
_AFTER_MARKER = re.compile(
    re.escape(BLOCK_FENCE_OPEN) + r"(?P<envelope>[^\n`]*)" + re.escape(BLOCK_TAIL.rstrip("\n")) + r"\n?"
)


def _show(value: Any, limit: int = 80) -> str:
    """Untrusted text for a message: quoted, control characters escaped, bounded."""
    s = value if isinstance(value, str) else repr(value)
    if len(s) > limit:
        s = s[:limit] + "..."
    return json.dumps(s)


class Expectations(BaseModel):
    """What the caller requires of the binding; None = not checked. Shas may be abbreviated (>= 7 hex)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    repository: Optional[str] = None
    pr: Optional[int] = None
    base_sha: Optional[str] = None
    head_sha: Optional[str] = None

    @classmethod
    def create(
        cls,
        repository: Optional[str] = None,
        pr: Optional[int] = None,
        base_sha: Optional[str] = None,
        head_sha: Optional[str] = None,
    ) -> Expectations:
        """Validated construction for user input (bad values are usage errors, exit 2)."""
        for flag, sha in (("--expect-base", base_sha), ("--expect-head", head_sha)):
            if sha is not None and not _SHA_PREFIX.fullmatch(sha):
                raise UsageError(f"{flag} must be a commit sha (7 to 64 hex characters)")
        if pr is not None and pr < 1:
            raise UsageError("--expect-pr must be a positive PR number")
        if repository is not None and not repository.strip():
            raise UsageError("--expect-repository must not be empty")
        return cls(
            repository=repository.strip() if repository is not None else None,
            pr=pr,
            base_sha=base_sha.lower() if base_sha else None,
            head_sha=head_sha.lower() if head_sha else None,
        )


    def checked(self) -> list[str]:
        """Which parts of the binding these expectations check, in display order."""
        fields = (("repository", self.repository), ("pr", self.pr), ("base", self.base_sha), ("head", self.head_sha))
        return [name for name, value in fields if value is not None]


class VerifiedReceipt(BaseModel):
    """A receipt whose every check passed. `payload` is the signed statement as signed."""

    model_config = ConfigDict(frozen=True)

    keyid: str
    key_name: str = ""
    keyring_source: str = ""
    embedded: bool  # True: from a markdown body, whose digest was checked; False: a bare envelope
    body_sha256: Optional[str] = None
    binding: Binding
    payload: dict[str, Any]

    @property
    def receipt(self) -> dict[str, Any]:
        return self.payload["receipt"]

    def summary_lines(self, expect: Optional[Expectations] = None) -> list[str]:
        """What was verified, including the binding and, per part, whether it was checked against an expectation."""
        b = self.binding
        checked = set((expect or Expectations()).checked())

        def bound(part: str, value: str) -> str:
            if not value:
                return "(not bound)"
            return f"{value} ({'checked' if part in checked else 'NOT checked'})"

        receipt = self.receipt
        verdict = receipt.get("verdict") if isinstance(receipt.get("verdict"), dict) else {}
        summary = receipt.get("summary") if isinstance(receipt.get("summary"), dict) else {}
        key = self.keyid + (f" ({_clean(self.key_name)})" if self.key_name else "")
        def count(key: str, one: str) -> str:
            n = summary.get(key, "?")
            return f"{n} {one if n == 1 else one + 's'}"

        changes = f"{count('changes', 'change')}, {count('regressions', 'regression')}, {count('warnings', 'warning')}"
        elided = self.payload.get("changes_elided")
        if elided:
            changes += f" (change list elided from the signed payload; changes_sha256 {_clean(str(self.payload.get('changes_sha256')))})"
        lines = [
            "verified: signature valid, " + ("body matches the signed digest" if self.embedded else "bare envelope (no markdown body)"),
            f"keyid:      {key} from {_clean(self.keyring_source)}",
            f"repository: {bound('repository', _clean(b.repository))}",
            f"pr:         {bound('pr', ('#' + str(b.pr)) if b.pr is not None else '')}",
            f"base:       {bound('base', _clean(b.base_sha))}",
            f"head:       {bound('head', _clean(b.head_sha))}",
            f"verdict:    {'pass' if verdict.get('ok') else 'fail'} (fail-on {_clean(str(verdict.get('fail_on', '?')))}; {changes})",
        ]
        traces = receipt.get("traces")
        if isinstance(traces, dict):  # what the traffic figures rest on (receipt.traces)
            lines.append(
                f"traces:     {_clean(str(traces.get('traces', '?')))} traces from {_clean(str(traces.get('files', '?')))} files"
                f" (files_sha256 {_clean(str(traces.get('files_sha256', '?')))})"
            )
        return lines


def _clean(s: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in s)


@dataclass(frozen=True)
class Extracted:
    envelope_text: str
    body: Optional[str]  # the visible body (newlines normalised); None for a bare envelope

    @property
    def embedded(self) -> bool:
        return self.body is not None


def extract(text: str) -> Extracted:
    """Split a comment into visible body and envelope; the block must be unique and the tail."""
    text = normalize_newlines(text)
    count = text.count(SIGNATURE_MARKER)
    if count > 1:
        raise VerificationFailed("envelope", f"found {count} signature blocks; a receipt has exactly one")
    if count == 0:
        if text.lstrip().startswith("{"):
            return Extracted(envelope_text=text, body=None)
        raise VerificationFailed("envelope", "no signature block found (unsigned receipt, or the block was altered)")
    at = text.index(SIGNATURE_MARKER)
    start = at - len(BLOCK_HEAD)
    if start < 0 or text[start:at] != BLOCK_HEAD:
        raise VerificationFailed("envelope", "the signature block's opening was altered")
    m = _AFTER_MARKER.fullmatch(text, at + len(SIGNATURE_MARKER))
    if m is None:
        raise VerificationFailed("envelope", "the signature block is malformed or is not the end of the text")
    return Extracted(envelope_text=m.group("envelope"), body=text[:start])


@dataclass(frozen=True)
class Envelope:
    payload: bytes
    payload_type: str
    signatures: tuple[tuple[str, bytes], ...]  # (keyid, sig)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _strict_b64(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise VerificationFailed("envelope", f"{what} is not a string")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise VerificationFailed("envelope", f"{what} is not standard base64") from None
    if base64.standard_b64encode(raw).decode("ascii") != value:  # non-zero pad bits: a second spelling
        raise VerificationFailed("envelope", f"{what} is not canonical base64")
    return raw


def parse_envelope(text: str, *, canonical: bool) -> Envelope:
    """Parse and check the shape. `canonical`: the text must be our exact serialisation (embedded)."""
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except (ValueError, RecursionError):
        raise VerificationFailed("envelope", "the envelope is not valid JSON (or repeats a key)") from None
    if not isinstance(obj, dict) or set(obj) != {"payload", "payloadType", "signatures"}:
        raise VerificationFailed("envelope", "the envelope must be an object with payload, payloadType, signatures")
    payload = _strict_b64(obj["payload"], "payload")
    if not isinstance(obj["payloadType"], str):
        raise VerificationFailed("envelope", "payloadType is not a string")
    sigs = obj["signatures"]
    if not isinstance(sigs, list) or not sigs:
        raise VerificationFailed("envelope", "the envelope has no signatures")
    # DSSE allows several; a receipt carries one, so that nothing can be added to a signed envelope
    # and still verify (an extra signature would be a visible edit that changes nothing checked).
    if len(sigs) != 1:
        raise VerificationFailed("envelope", f"the envelope has {len(sigs)} signatures; a receipt carries exactly one")
    parsed: list[tuple[str, bytes]] = []
    for s in sigs:
        if not isinstance(s, dict) or set(s) != {"keyid", "sig"} or not isinstance(s["keyid"], str):
            raise VerificationFailed("envelope", "each signature must be an object with keyid and sig")
        parsed.append((s["keyid"], _strict_b64(s["sig"], "sig")))
    if canonical and envelope_text(obj) != text:
        raise VerificationFailed("envelope", "the envelope is not in its canonical serialisation (it was edited)")
    return Envelope(payload=payload, payload_type=obj["payloadType"], signatures=tuple(parsed))


def _check_signature(env: Envelope, trusted: Keyring) -> tuple[str, str]:
    candidates = [(kid, sig, trusted.find(kid)) for kid, sig in env.signatures]
    known = [(kid, sig, key) for kid, sig, key in candidates if key is not None]
    if not known:
        ids = ", ".join(_show(k, 64) for k, _, _ in candidates)
        raise VerificationFailed(
            "signature", f"signed by a key that is not trusted ({ids}); trusted keys come from {trusted.source or 'the keyring'}"
        )
    message = pae(env.payload_type, env.payload)
    for kid, sig, key in known:
        if key.verify(sig, message):
            return kid, key.name
    raise VerificationFailed("signature", f"the signature by key {known[0][0]} does not match the signed content")


def _parse_payload(raw: bytes) -> tuple[dict[str, Any], Binding]:
    try:
        payload = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicate_keys)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise VerificationFailed("envelope", "the signed payload is not JSON") from None
    if not isinstance(payload, dict) or payload.get("schema") != PAYLOAD_SCHEMA:
        raise VerificationFailed("envelope", f"the signed payload is not a {PAYLOAD_SCHEMA} statement")
    if not isinstance(payload.get("receipt"), dict):
        raise VerificationFailed("envelope", "the signed payload has no receipt")
    digest = payload.get("body_sha256")
    if digest is not None and not isinstance(digest, str):
        raise VerificationFailed("envelope", "body_sha256 in the signed payload is not a string")
    try:
        binding = Binding.model_validate(payload.get("binding"))
    except ValidationError:
        raise VerificationFailed("envelope", "the signed payload's binding is malformed") from None
    return payload, binding


def _check_binding(b: Binding, expect: Expectations) -> None:
    if expect.repository is not None and b.repository.casefold() != expect.repository.casefold():
        got = _show(b.repository) if b.repository else "no repository"
        raise VerificationFailed("binding", f"receipt is bound to {got}, expected {_show(expect.repository)}")
    if expect.pr is not None and b.pr != expect.pr:
        got = f"PR #{b.pr}" if b.pr is not None else "no PR"
        raise VerificationFailed("binding", f"receipt is bound to {got}, expected PR #{expect.pr}")
    for label, got, want in (("base", b.base_sha, expect.base_sha), ("head", b.head_sha, expect.head_sha)):
        if want is not None and not (got and got.lower().startswith(want)):
            raise VerificationFailed(
                "binding", f"receipt {label} is {_show(got) if got else 'not bound'}, expected {want}"
            )


def verify_text(text: str, trusted: Keyring, expect: Optional[Expectations] = None) -> VerifiedReceipt:
    """All checks, in order; raises VerificationFailed(check, message) at the first that fails."""
    extracted = extract(text)
    env = parse_envelope(extracted.envelope_text, canonical=extracted.embedded)
    if env.payload_type != PAYLOAD_TYPE:
        raise VerificationFailed("payload-type", f"payloadType is {_show(env.payload_type)}, expected {PAYLOAD_TYPE!r}")
    keyid, key_name = _check_signature(env, trusted)
    payload, binding = _parse_payload(env.payload)
    digest = payload.get("body_sha256")
    if extracted.body is not None:
        if digest is None:
            raise VerificationFailed("body-digest", "this envelope was signed without a markdown body; it cannot vouch for one")
        if sha256_hex(extracted.body) != digest:
            raise VerificationFailed("body-digest", "the visible receipt differs from what was signed (it was edited)")
    _check_binding(binding, expect or Expectations())
    return VerifiedReceipt(
        keyid=keyid,
        key_name=key_name,
        keyring_source=trusted.source,
        embedded=extracted.embedded,
        body_sha256=digest,
        binding=binding,
        payload=payload,
    )


def verify_bytes(data: bytes, trusted: Keyring, expect: Optional[Expectations] = None) -> VerifiedReceipt:
    """As read from a file or stdin. Invalid UTF-8 is replaced, which can only make a digest fail."""
    if len(data) > MAX_INPUT_BYTES:
        raise VerificationFailed("envelope", f"input is larger than {MAX_INPUT_BYTES} bytes; not a receipt")
    return verify_text(data.decode("utf-8", errors="replace"), trusted, expect)

"""The receipt's own trust roots and configuration, compared base -> head: keyring keys, template,
scan limits that match nothing. Pure: bytes in, changes out (the pipeline reads the files from git).

A PR can change what will be trusted after merge (a key it adds signs receipts everyone accepts; a
template it edits decides what reviewers see), so each of these is a change in its own receipt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from receipt.canonical import sha256_hex
from receipt.diff import make_change
from receipt.errors import ConfigError
from receipt.models import Change, Subject

if TYPE_CHECKING:  # cryptography loads only when a keyring is there to compare
    from receipt.keys import TrustedKey


def _keys(path: str, data: bytes | None) -> dict[str, TrustedKey] | None:
    """keyid -> key; {} when the file is absent, None when it cannot be parsed."""
    if data is None:
        return {}
    from receipt.keys import parse_keyring

    try:
        return {k.keyid: k for k in parse_keyring(data, path, allow_empty=True).keys}
    except ConfigError:
        return None


def _key_subject(path: str, keyid: str) -> Subject:
    return Subject(kind="keyring", name=keyid, path=path, key=f"keyring:{path}:{keyid}")


def keyring_changes(path: str, base: bytes | None, head: bytes | None) -> list[Change]:
    """`keyring.key_added` / `key_removed` per keyid, or `keyring.invalid` when head cannot be parsed."""
    if base == head:
        return []
    before, after = _keys(path, base), _keys(path, head)
    if after is None:
        subject = Subject(kind="keyring", name=path, path=path, key=f"keyring:{path}")
        digest = sha256_hex(head or b"")[:12]
        return [make_change("keyring.invalid", subject, None, digest, f"keyring '{path}' changed and cannot be parsed")]
    before = before or {}  # an unreadable base keyring trusted nothing: every head key is new
    out: list[Change] = []
    for keyid in sorted(after.keys() - before.keys()):
        name = f" ({after[keyid].name})" if after[keyid].name else ""
        out.append(
            make_change("keyring.key_added", _key_subject(path, keyid), None, keyid, f"keyring '{path}' now trusts key {keyid}{name}")
        )
    for keyid in sorted(before.keys() - after.keys()):
        out.append(
            make_change("keyring.key_removed", _key_subject(path, keyid), keyid, None, f"keyring '{path}' no longer trusts key {keyid}")
        )
    return out


def template_change(path: str, base: bytes | None, head: bytes | None) -> Change | None:
    """`template.changed` with the first 12 hex of each version's sha256 (null when absent)."""
    if base == head:
        return None
    before = sha256_hex(base)[:12] if base is not None else None
    after = sha256_hex(head)[:12] if head is not None else None
    subject = Subject(kind="template", name=path, path=path, key=f"template:{path}")
    return make_change("template.changed", subject, before, after, f"receipt template '{path}' changed ({before} -> {after})")


def unmatched_config_changes(config_path: str, *, paths: Sequence[str], excludes: Sequence[str]) -> list[Change]:
    """`config.unmatched` per `paths` entry or `exclude` pattern that matched nothing at either revision."""
    out: list[Change] = []
    for setting, values, consequence in (
        ("paths", paths, "nothing under it was scanned"),
        ("exclude", excludes, "it excludes nothing"),
    ):
        for value in values:
            subject = Subject(kind="config", name=config_path, path=config_path, key=f"config:{config_path}:{setting}:{value}")
            message = f"config `{setting}` entry '{value}' matches no file at base or head: {consequence}"
            out.append(make_change("config.unmatched", subject, None, {setting: value}, message))
    return out


__all__ = ["keyring_changes", "template_change", "unmatched_config_changes"]

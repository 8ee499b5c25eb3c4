"""The sticky PR comment: one receipt per PR and receipt key, found by marker *and* author.

Marker (first line of the body, hidden when rendered):

    <!-- behavior-receipt:comment key=<receipt key> head=<head sha> base=<base sha> -->

A comment counts as ours only when it starts with a marker for our key **and** its author is exactly
the token's own identity (GraphQL `viewer { login __typename }` against REST `user.login` and
`user.type`, or the App of `performed_via_github_app`; see `api.Identity`). Anyone can paste the
marker into a comment; such a comment is ignored, never edited or deleted. Nothing is deleted before
the new body is in place: duplicates left by a race go only after the update succeeded.

Modes:
- `update` (default): edit our comment in place; identical body -> no write; several of ours (two
  runs raced) -> keep the oldest, delete the rest.
- `new`: post a new comment per run (unless the latest of ours already says exactly this).
- `hide-and-new`: post a new one, then minimize (GraphQL `minimizeComment`, OUTDATED) the old ones.
  Posting first means a failure never leaves the PR without a visible receipt.
- `off`: no API call at all.

A receipt for a newer head is never overwritten: the caller supplies `is_newer(their_head)`, which
`receipt ci` answers from git ancestry (see receipt.cli.ci).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Literal

from receipt.errors import UsageError
from receipt.github.api import AmbiguousWrite, Comment, GitHubClient, GitHubError, Identity

Mode = Literal["update", "new", "hide-and-new", "off"]
MODES: tuple[str, ...] = ("update", "new", "hide-and-new", "off")
DEFAULT_KEY = "default"

_KEY_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_SHA_RE = re.compile(r"^[0-9a-f]{4,64}$")
_MARKER_RE = re.compile(
    r"^<!-- behavior-receipt:comment key=(?P<key>[A-Za-z0-9._-]{1,64})"
    r" head=(?P<head>[0-9a-f]{4,64}) base=(?P<base>[0-9a-f]{4,64}) -->[ \t]*(?:\r?\n|$)"
)


@dataclass(frozen=True)
class Marker:
    key: str
    head: str
    base: str

    def render(self) -> str:
        return f"<!-- behavior-receipt:comment key={self.key} head={self.head} base={self.base} -->"


def validate_key(key: str) -> str:
    """The receipt key comes from workflow input: it must be harmless inside an HTML comment."""
    if not _KEY_RE.match(key):
        raise UsageError(f"invalid receipt key {key!r}: use 1-64 characters from A-Z a-z 0-9 . _ -")
    return key


def validate_mode(mode: str) -> str:
    if mode not in MODES:
        raise UsageError(f"invalid comment mode {mode!r}: use one of {', '.join(MODES)}")
    return mode


def make_marker(key: str, head: str, base: str) -> Marker:
    validate_key(key)
    for name, sha in (("head", head), ("base", base)):
        if not _SHA_RE.match(sha):
            raise UsageError(f"invalid {name} sha {sha!r}")
    return Marker(key=key, head=head, base=base)


def parse_marker(body: str) -> Marker | None:
    """The marker on the body's first line, or None. A marker anywhere else does not count."""
    m = _MARKER_RE.match(body.lstrip("\ufeff"))
    if not m:
        return None
    return Marker(key=m.group("key"), head=m.group("head"), base=m.group("base"))


def _normalise(body: str) -> str:
    return body.replace("\r\n", "\n")


@dataclass
class SyncResult:
    """What happened to the PR comment; `action` is one word for logs and outputs."""

    action: Literal["created", "updated", "unchanged", "stale", "off"]
    comment: Comment | None = None
    deleted: list[int] = field(default_factory=list)
    minimized: list[int] = field(default_factory=list)
    ignored_foreign: int = 0  # marker comments by someone else, left alone
    newer_head: str = ""  # for "stale": the head of the receipt we refused to overwrite
    problems: list[str] = field(default_factory=list)  # follow-up steps that failed after the receipt was posted


def find_ours(comments: list[Comment], key: str, viewer: Identity) -> tuple[list[Comment], int]:
    """Our marker comments for this key, oldest first; and how many foreign ones carry the marker."""
    ours: list[Comment] = []
    foreign = 0
    for c in comments:
        marker = parse_marker(c.body)
        if marker is None or marker.key != key:
            continue
        if viewer.wrote(c):
            ours.append(c)
        else:
            foreign += 1
    ours.sort(key=lambda c: (c.created_at, c.id))
    return ours, foreign


def sync_comment(
    client: GitHubClient,
    repository: str,
    number: int,
    body: str,
    marker: Marker,
    mode: str = "update",
    *,
    is_newer: Callable[[str], bool] = lambda _head: False,
) -> SyncResult:
    """Bring the PR's receipt comment up to date per `mode`. Raises api errors unchanged."""
    validate_mode(mode)
    if mode == "off":
        return SyncResult(action="off")
    if parse_marker(body) != marker:
        raise ValueError("the body must start with its marker")  # a programming error, not a user one

    viewer = client.viewer()
    ours, foreign = find_ours(client.list_issue_comments(repository, number), marker.key, viewer)

    # Any of ours for a newer head means this run is stale: write nothing (not even cleanup; the
    # newer run owns the thread and does its own).
    for c in reversed(ours):
        theirs = parse_marker(c.body)
        if theirs and theirs.head != marker.head and is_newer(theirs.head):
            return SyncResult(action="stale", comment=c, ignored_foreign=foreign, newer_head=theirs.head)

    if mode == "update":
        return _update(client, repository, number, body, viewer, ours, foreign)
    latest = ours[-1] if ours else None
    if latest is not None and _normalise(latest.body) == _normalise(body):
        return SyncResult(action="unchanged", comment=latest, ignored_foreign=foreign)
    created = create_once(client, repository, number, body, viewer)
    result = SyncResult(action="created", comment=created, ignored_foreign=foreign)
    if mode == "hide-and-new":
        old = [c for c in ours if c.id != created.id and c.node_id]
        try:
            state = client.minimized([c.node_id for c in old]) if old else {}
        except GitHubError as e:
            result.problems.append(f"could not read which receipts are minimized: {e}")
            old, state = [], {}
        for c in old:
            if not state.get(c.node_id, False):
                try:
                    client.minimize_comment(c.node_id, "OUTDATED")
                except GitHubError as e:  # the new receipt is up; an old one left visible is cosmetic
                    result.problems.append(f"could not minimize comment {c.id}: {e}")
                    continue
                result.minimized.append(c.id)
    return result


def _update(
    client: GitHubClient,
    repository: str,
    number: int,
    body: str,
    viewer: Identity,
    ours: list[Comment],
    foreign: int,
) -> SyncResult:
    if not ours:
        created = create_once(client, repository, number, body, viewer)
        return SyncResult(action="created", comment=created, ignored_foreign=foreign)
    keep, extra = ours[0], ours[1:]
    # The new body goes in first: if that fails, every earlier receipt is still there.
    if _normalise(keep.body) == _normalise(body):
        result = SyncResult(action="unchanged", comment=keep, ignored_foreign=foreign)
    else:
        result = SyncResult(action="updated", comment=client.update_issue_comment(repository, keep.id, body), ignored_foreign=foreign)
    for c in extra:  # a race between two runs left duplicates: the oldest one stays
        client.delete_issue_comment(repository, c.id)
        result.deleted.append(c.id)
    return result


def create_once(client: GitHubClient, repository: str, number: int, body: str, viewer: Identity) -> Comment:
    """POST the comment; if the outcome is unknown (5xx, connection lost), look before posting again.

    GitHub may have stored a comment even though we never saw the response. Re-reading the thread
    and finding our exact body there means it did: return that comment instead of a duplicate.
    """
    attempts = max(1, client.retry.attempts)
    for attempt in range(attempts):
        try:
            return client.create_issue_comment(repository, number, body)
        except AmbiguousWrite:
            if attempt == attempts - 1:
                raise
            client.sleep(client.backoff_delay(attempt))
            marker = parse_marker(body)
            for c in client.list_issue_comments(repository, number):
                if viewer.wrote(c) and parse_marker(c.body) == marker and _normalise(c.body) == _normalise(body):
                    return c
    raise AssertionError("unreachable")  # pragma: no cover

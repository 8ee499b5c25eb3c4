"""The receipt's configuration: `[tool.receipt]` in pyproject.toml, or `.receipt.toml`. Parsing only, no I/O.

Strict on purpose: an unknown key or an unknown change id is an error, because a typo in a gating
setting (`fail-on`, `severty`) must not silently turn gating off.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import math
import posixpath
import re
import sys
from typing import Any, Literal, Mapping, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from receipt import DEFAULT_KEYRING_PATH
from receipt.canonical import canonical_json, sha256_hex
from receipt.catalogue import CATALOGUE, suggest
from receipt.errors import ConfigError
from receipt.models import FailOn, Severity

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONFIG_FILES = (".receipt.toml", "pyproject.toml")  # looked up in this order at the repository root
DEFAULT_KEYRING = DEFAULT_KEYRING_PATH

_FINGERPRINT = re.compile(r"[0-9a-f]{12}")
_COMMENT_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # it ends up inside an HTML comment marker


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _repo_relative(value: str, what: str) -> str:
    """A repo-relative posix path, normalised ("./a/" -> "a"); absolute paths and ".." are refused."""
    v = value.strip().replace("\\", "/")
    if not v:
        raise ValueError(f"{what} must not be empty")
    if v.startswith("/") or re.match(r"[A-Za-z]:/", v):
        raise ValueError(f"{what} {value!r} must be relative to the repository root")
    norm = posixpath.normpath(v)
    if norm == ".." or norm.startswith("../"):
        raise ValueError(f"{what} {value!r} points outside the repository")
    return "" if norm == "." else norm


class Acceptance(_Strict):
    """A change the team accepted: it stays in the receipt, marked accepted, and does not fail the check."""

    fingerprint: str
    reason: str
    expires: datetime.date | None = None  # valid through this day (inclusive)

    @field_validator("fingerprint", mode="before")
    @classmethod
    def _fingerprint(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = v.strip().lower()
            if not _FINGERPRINT.fullmatch(v):
                raise ValueError(f"{v!r} is not a fingerprint (12 hex digits, as shown in the receipt)")
        return v

    @field_validator("reason")
    @classmethod
    def _reason(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("a reason is required")
        return v.strip()

    @field_validator("expires", mode="before")
    @classmethod
    def _expires(cls, v: Any) -> Any:
        # TOML has native dates; strings must be plain ISO dates. Timestamps or datetimes would make
        # "expired" depend on a time zone, so they are refused.
        if v is None:
            return None
        if isinstance(v, datetime.datetime) or not isinstance(v, (datetime.date, str)):
            raise ValueError("must be a date like 2026-12-31")
        if isinstance(v, str):
            try:
                return datetime.date.fromisoformat(v.strip())
            except ValueError:
                raise ValueError(f"{v!r} is not a date like 2026-12-31") from None
        return v


class CommentConfig(_Strict):
    mode: Literal["update", "new", "hide-and-new", "off"] = "update"
    key: str = "default"  # one comment per PR and key (several workflows can each keep their own)

    @field_validator("key")
    @classmethod
    def _key(cls, v: str) -> str:
        if not _COMMENT_KEY.fullmatch(v):
            raise ValueError("must be 1-64 characters of letters, digits, '.', '_' or '-'")
        return v


class TracesConfig(_Strict):
    """`[tool.receipt.traces]`: policy for recorded traces given with --traces (docs/traces.md)."""

    # Raise a change's severity one level (info -> warning -> regression) when more than this share
    # of the recorded traces exercise its subject. Traces can only make a verdict stricter.
    escalate_above: Optional[float] = Field(None, ge=0, lt=1)


# Test code is not the shipped surface: excluded unless `include_tests = true` (glob patterns as
# the tree listing matches them: `**/` also matches at the root, `*` spans folders).
TEST_EXCLUDE: tuple[str, ...] = ("**/tests/**", "**/test/**", "**/test_*.py", "*_test.py", "**/conftest.py")


class Config(_Strict):
    paths: list[str] = Field(default_factory=list)  # scan limits; [] = whole tree
    exclude: list[str] = Field(default_factory=list)  # globs on repo-relative posix paths, `**` allowed
    include_tests: bool = False  # scan tests too (TEST_EXCLUDE is skipped by default)
    exports: list[str] = Field(default_factory=list)  # extra export roots: entry names or "module:symbol"
    fail_on: FailOn = "regression"
    severity: dict[str, Severity] = Field(default_factory=dict)  # change id -> severity override
    accept: list[Acceptance] = Field(default_factory=list)
    comment: CommentConfig = Field(default_factory=CommentConfig)
    keyring: str = DEFAULT_KEYRING
    max_file_bytes: int = Field(1_000_000, gt=0, le=1_000_000_000, strict=True)
    template: str | None = None  # repo-relative path of a user markdown template
    traces: TracesConfig = Field(default_factory=TracesConfig)

    @field_validator("paths")
    @classmethod
    def _paths(cls, v: list[str]) -> list[str]:
        return sorted({_repo_relative(p, "path") for p in v} - {""}) if v else []

    @field_validator("exclude")
    @classmethod
    def _exclude(cls, v: list[str]) -> list[str]:
        for pattern in v:
            if not pattern.strip().strip("/"):
                raise ValueError("exclude patterns must not be empty")
        return v

    @field_validator("exports")
    @classmethod
    def _exports(cls, v: list[str]) -> list[str]:
        if any(not e.strip() for e in v):
            raise ValueError("export names must not be empty")
        return sorted({e.strip() for e in v})

    @field_validator("severity")
    @classmethod
    def _severity(cls, v: dict[str, Severity]) -> dict[str, Severity]:
        for change_id in v:
            if change_id not in CATALOGUE:
                hint = suggest(change_id)
                mean = f" (did you mean {hint!r}?)" if hint else " (see `receipt explain`)"
                raise ValueError(f"unknown change id {change_id!r}{mean}")
        return dict(sorted(v.items()))

    @field_validator("accept")
    @classmethod
    def _accept(cls, v: list[Acceptance]) -> list[Acceptance]:
        seen: set[str] = set()
        for a in v:
            if a.fingerprint in seen:
                raise ValueError(f"fingerprint {a.fingerprint!r} is accepted twice")
            seen.add(a.fingerprint)
        return v

    @field_validator("keyring", "template")
    @classmethod
    def _file(cls, v: str | None) -> str | None:
        return None if v is None else _repo_relative(v, "file")

    def is_excluded(self, path: str) -> bool:
        """Whether a repo-relative posix path is excluded: a pattern matches the path or a parent directory.

        gitignore-like: a pattern without "/" matches at any depth ("*.pyc", "vendor"); a leading "/"
        anchors at the root; a trailing "/" matches directories only; "**" spans directories.
        """
        path = posixpath.normpath(path.replace("\\", "/")).lstrip("/")
        if path in ("", "."):
            return False
        parts = path.split("/")
        for pattern in self.exclude:
            regex, dir_only = _glob(pattern)
            last = len(parts) - 1 if dir_only else len(parts)
            if any(regex.fullmatch("/".join(parts[:i])) for i in range(1, last + 1)):
                return True
        return False

    def acceptance(self, fingerprint: str) -> Acceptance | None:
        return next((a for a in self.accept if a.fingerprint == fingerprint), None)


@functools.lru_cache(maxsize=512)
def _glob(pattern: str) -> tuple[re.Pattern[str], bool]:
    """A glob as a regex over a whole repo-relative path, and whether it only matches directories."""
    p = pattern.strip().replace("\\", "/")
    dir_only = p.endswith("/")
    anchored = p.startswith("/")
    p = p.strip("/")
    if not anchored and "/" not in p:
        p = "**/" + p
    out: list[str] = []
    i = 0
    while i < len(p):
        if p.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif p.startswith("**", i):
            out.append(".*")
            i += 2
        elif p[i] == "*":
            out.append("[^/]*")
            i += 1
        elif p[i] == "?":
            out.append("[^/]")
            i += 1
        elif p[i] == "[" and (end := p.find("]", i + 2)) != -1:
            body = p[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\").replace("/", "") + "]")
            i = end + 1
        else:
            out.append(re.escape(p[i]))
            i += 1
    return re.compile("".join(out)), dir_only


# --------------------------------------------------------------------------------------------------
# parsing

_KNOWN_KEYS = sorted(
    set(Config.model_fields) | set(CommentConfig.model_fields) | set(Acceptance.model_fields) | set(TracesConfig.model_fields)
)


def _loc(prefix: str, loc: tuple[Any, ...]) -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _describe(errors: list[Any], prefix: str) -> str:
    parts: list[str] = []
    for err in errors[:3]:
        loc = _loc(prefix, tuple(err["loc"]))
        if err["type"] == "extra_forbidden":
            last = str(err["loc"][-1])
            close = difflib.get_close_matches(last.replace("-", "_"), _KNOWN_KEYS, n=1, cutoff=0.6)
            mean = f" (did you mean {close[0]!r}?)" if close else ""
            parts.append(f"unknown key {loc!r}{mean}")
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
            parts.append(f"{loc}: {msg}" if loc else msg)
    if len(errors) > 3:
        parts.append(f"and {len(errors) - 3} more")
    return "; ".join(parts)


def _is_pyproject(filename: str) -> bool:
    return posixpath.basename(filename.replace("\\", "/")) == "pyproject.toml"


def _receipt_table(doc: dict[str, Any], filename: str) -> tuple[Any, str] | None:
    """The receipt's table in a parsed document and its location prefix for messages."""
    tool = doc.get("tool")
    nested = isinstance(tool, dict) and "receipt" in tool
    if _is_pyproject(filename):
        return (tool["receipt"], "tool.receipt") if nested else None
    if not nested:
        return doc, ""
    # .receipt.toml may wrap its keys in [tool.receipt] (handy when moving a pyproject section).
    others = sorted({f"tool.{k}" for k in tool if k != "receipt"} | {k for k in doc if k != "tool"})
    if others:
        raise ConfigError(
            f"invalid configuration in {filename}: use either top-level keys or a [tool.receipt] table, "
            f"not both (also found: {', '.join(others)})"
        )
    return tool["receipt"], "tool.receipt"


def _load(text: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"invalid configuration in {filename}: TOML syntax error: {' '.join(str(e).split())}") from None
    except (ValueError, RecursionError):  # e.g. a 5,000-digit integer, which int() refuses
        raise ConfigError(f"invalid configuration in {filename}: a value is out of range") from None


def parse_config(text: str, filename: str) -> Config | None:
    """The configuration in a file's text; None for a pyproject.toml without [tool.receipt].

    Any other file name holds the keys at top level (as `.receipt.toml` does).
    """
    found = _receipt_table(_load(text, filename), filename)
    if found is None:
        return None
    table, prefix = found
    if not isinstance(table, dict):
        raise ConfigError(f"invalid configuration in {filename}: {prefix or 'the file'} must be a table")
    try:
        return Config.model_validate(table)
    except ValidationError as e:
        raise ConfigError(f"invalid configuration in {filename}: {_describe(e.errors(), prefix)}") from None


def select_config(files: Mapping[str, str | None]) -> tuple[str | None, Config]:
    """Pick the configuration among the CONFIG_FILES texts at one revision (None = file absent).

    Returns the file it came from (None: defaults). Two files that both configure the receipt are
    an error: editing the one that is ignored would silently change nothing.
    """
    found: list[tuple[str, Config]] = []
    for name in CONFIG_FILES:
        text = files.get(name)
        if text is not None:
            config = parse_config(text, name)
            if config is not None:
                found.append((name, config))
    if len(found) > 1:
        raise ConfigError(
            f"invalid configuration: both {found[0][0]} and {found[1][0]} configure behavior-receipt; keep one"
        )
    return found[0] if found else (None, Config())


def _plain(value: Any) -> Any:
    """TOML values as JSON values, for digests (dates as ISO text, non-finite floats as text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
        return f"int:{value:x}"  # beyond what JSON readers agree on (and str() refuses > 4,300 digits)
    return value


def config_digest(text: str | None, filename: str) -> str | None:
    """First 12 hex of the digest of the receipt's own configuration in a file's text.

    Parsed and canonicalised, so comments and formatting are not a change, and for pyproject.toml
    only [tool.receipt] counts. None when the file or the section is absent; text that is not valid
    TOML is digested as is (a broken config is still a change).
    """
    if text is None:
        return None
    try:
        doc = tomllib.loads(text)
    except (ValueError, RecursionError):  # TOMLDecodeError is a ValueError; so is a 5,000-digit integer
        return sha256_hex(text)[:12]
    if _is_pyproject(filename):
        tool = doc.get("tool")
        if not (isinstance(tool, dict) and "receipt" in tool):
            return None
        doc = tool["receipt"]
    return sha256_hex(canonical_json(_plain(doc)))[:12]


__all__ = [
    "CONFIG_FILES",
    "Acceptance",
    "CommentConfig",
    "Config",
    "config_digest",
    "parse_config",
    "select_config",
]

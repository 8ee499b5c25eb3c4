"""The GitHub Actions runtime, as files and variables: the event, outputs, job summary, commands.

Pure parsing (`revisions_from_event`, `escape_*`, `output_lines`) is separate from the few
functions that append to the files Actions gives us (`write_outputs`, `append_summary`).
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from receipt.errors import UsageError

PR_EVENTS = ("pull_request", "pull_request_target")
PUSH_EVENTS = ("push",)
_ZERO_SHA = re.compile(r"^0+$")
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")  # sha1 or sha256 repositories


@dataclass(frozen=True)
class ActionsEnv:
    """The standard Actions variables `receipt ci` reads (empty string when absent)."""

    event_name: str
    event_path: str
    repository: str
    api_url: str
    graphql_url: str
    workspace: str
    step_summary: str
    output: str
    runner_temp: str

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ActionsEnv:
        return cls(
            event_name=env.get("GITHUB_EVENT_NAME", ""),
            event_path=env.get("GITHUB_EVENT_PATH", ""),
            repository=env.get("GITHUB_REPOSITORY", ""),
            api_url=env.get("GITHUB_API_URL", ""),
            graphql_url=env.get("GITHUB_GRAPHQL_URL", ""),
            workspace=env.get("GITHUB_WORKSPACE", ""),
            step_summary=env.get("GITHUB_STEP_SUMMARY", ""),
            output=env.get("GITHUB_OUTPUT", ""),
            runner_temp=env.get("RUNNER_TEMP", ""),
        )


@dataclass(frozen=True)
class EventRevisions:
    """What one event asks us to compare."""

    kind: str  # "pull_request" | "push"
    base: str  # PR: pull_request.base.sha; push: before ("" for a new branch)
    head: str  # PR: pull_request.head.sha; push: after
    pr: int | None  # PR number, None for push
    repository: str  # owner/name, from the event when the environment lacks it


def load_event(path: str) -> dict[str, Any]:
    if not path:
        raise UsageError("GITHUB_EVENT_PATH is not set: `receipt ci` runs inside GitHub Actions (use trace-diff locally)")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read the event file {path}: {e.strerror}") from None
    except ValueError as e:
        raise UsageError(f"the event file {path} is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise UsageError(f"the event file {path} is not a JSON object")
    return data


def _sha(value: Any, what: str, *, allow_zero: bool = False) -> str:
    sha = str(value or "").strip().lower()
    if allow_zero and (not sha or _ZERO_SHA.match(sha)):
        return ""
    if not _SHA.match(sha):
        raise UsageError(f"the event has no valid {what} (got {str(value)[:80]!r})")
    return sha


def revisions_from_event(event_name: str, event: Mapping[str, Any], repository: str = "") -> EventRevisions:
    """Base and head from the event payload (not GITHUB_SHA, which is a merge commit for PRs)."""
    repo = repository or str(((event.get("repository") or {}).get("full_name")) or "")
    if event_name in PR_EVENTS:
        pr = event.get("pull_request")
        if not isinstance(pr, dict):
            raise UsageError(f"a {event_name} event without a pull_request object")
        number = pr.get("number", event.get("number"))
        if not isinstance(number, int) or number < 1:
            raise UsageError("the pull_request event has no PR number")
        return EventRevisions(
            kind="pull_request",
            base=_sha((pr.get("base") or {}).get("sha"), "pull_request.base.sha"),
            head=_sha((pr.get("head") or {}).get("sha"), "pull_request.head.sha"),
            pr=number,
            repository=repo,
        )
    if event_name in PUSH_EVENTS:
        return EventRevisions(
            kind="push",
            base=_sha(event.get("before"), "before", allow_zero=True),
            head=_sha(event.get("after"), "after", allow_zero=True),
            pr=None,
            repository=repo,
        )
    supported = ", ".join(PR_EVENTS + PUSH_EVENTS)
    raise UsageError(f"unsupported event {event_name or '(none)'!r}: receipt ci runs on {supported}")


# -- workflow commands ------------------------------------------------------------------------------


def escape_data(text: str) -> str:
    """The message part of `::cmd ...::message` (as in @actions/core)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value of `::cmd key=value,...::`: also `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **props: str | int | None) -> str:
    """One workflow command line, e.g. `::notice title=behavior-receipt::text`."""
    fields = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v not in (None, ""))
    return f"::{name}{' ' + fields if fields else ''}::{escape_data(message)}"


# -- outputs and summary -------------------------------------------------------------------------------


def output_lines(outputs: Mapping[str, str]) -> str:
    """`$GITHUB_OUTPUT` text: `name=value`, or a heredoc whose delimiter cannot occur in the value."""
    out: list[str] = []
    for name, value in outputs.items():
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_-]*$", name):
            raise ValueError(f"invalid output name {name!r}")
        if "\n" not in value and "\r" not in value:
            out.append(f"{name}={value}\n")
            continue
        # Deterministic delimiter derived from the value; checked, not assumed, to be absent.
        delimiter = "ghadelimiter_" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:32]
        if delimiter in value:  # pragma: no cover - would need a sha256 fixed point
            raise ValueError("output value contains its own delimiter")
        out.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return "".join(out)


def _append(path: str, text: str, what: str) -> None:
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise UsageError(f"cannot write {what} ({path}): {e.strerror}") from None


def write_outputs(path: str, outputs: Mapping[str, str]) -> None:
    if path:
        _append(path, output_lines(outputs), "GITHUB_OUTPUT")


def append_summary(path: str, markdown: str) -> bool:
    """Append to the job summary; False when there is none (a local run)."""
    if not path:
        return False
    _append(path, markdown if markdown.endswith("\n") else markdown + "\n", "GITHUB_STEP_SUMMARY")
    return True


def default_output_dir(env: ActionsEnv, receipt_key: str) -> Path:
    """$RUNNER_TEMP/behavior-receipt/<receipt key>: several receipts in one job do not collide."""
    base = env.runner_temp or tempfile.gettempdir()
    return Path(base) / "behavior-receipt" / receipt_key

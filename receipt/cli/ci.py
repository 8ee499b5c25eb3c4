"""`receipt ci`: the GitHub Action's entry point. Reads the Actions environment, computes the receipt
for what the PR introduces, signs it, keeps one PR comment up to date, writes the job summary,
outputs and annotations, and exits by policy.

Options come from flags or the matching `RECEIPT_*` variables (action.yml sets those), then from
the configuration at the base revision, then defaults:

    flag            variable               config            default
    PATH...         RECEIPT_PATHS          paths             whole tree
    --config        RECEIPT_CONFIG         -                 .receipt.toml / pyproject.toml
    --fail-on       RECEIPT_FAIL_ON        fail_on           regression
    --comment       RECEIPT_COMMENT        comment.mode      update
    --receipt-key   RECEIPT_COMMENT_KEY    comment.key       default
    --sign-key      RECEIPT_SIGN_KEY_FILE  -                 (RECEIPT_SIGNING_KEY holds the key itself)
    --output-dir    RECEIPT_OUTPUT_DIR     -                 $RUNNER_TEMP/behavior-receipt/<receipt key>
    --traces        RECEIPT_TRACES         -                 none (recorded traces: files or folders on the runner)

Order of writes, so that nothing is lost: receipt files first, then the PR comment, then the job
summary (always, with a note when the comment could not be written), outputs, annotations.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Mapping, Optional

import typer

from receipt.cli.app import app, emit, handles_errors
from receipt.errors import EXIT_FINDINGS, EXIT_OK, GitError, OutputError, ReceiptError, UsageError
from receipt.github import actions_env as ae

if TYPE_CHECKING:  # the GitHub client (httpx) loads only when `receipt ci` runs, not for every command
    from receipt.github.comments import Marker

FAIL_ON = ("regression", "warning", "never")
TITLE = "behavior-receipt"
UNSIGNED_NOTE = (
    "This receipt is not signed: no signing key was configured "
    "(set the action's `signing-key` input, or RECEIPT_SIGNING_KEY)."
)
# Every step output, always written (empty when not applicable); action.yml maps each one.
OUTPUT_NAMES = (
    "verdict",
    "changes",
    "regressions",
    "warnings",
    "receipt-path",
    "receipt-sha256",
    "comment-id",
    "comment-url",
    "comment-action",
)
CHECKOUT_HINT = "fix: check the repository out first: actions/checkout with `fetch-depth: 0`"


def _env_value(env: Mapping[str, str], name: str) -> Optional[str]:
    value = env.get(name, "").strip()
    return value or None


def split_paths(raw: Optional[str]) -> list[str]:
    """RECEIPT_PATHS: one path per line, or (on one line) separated by spaces or commas."""
    if not raw:
        return []
    lines = [ln.strip() for ln in raw.splitlines() if ln.strip()]
    if len(lines) == 1:
        lines = [p for p in lines[0].replace(",", " ").split() if p]
    return lines


@dataclass
class Settings:
    paths: list[str]
    config_file: Optional[str]
    fail_on: Optional[str]  # None: the base config's fail_on
    comment_mode: Optional[str]  # None: the base config's comment.mode
    receipt_key: Optional[str]  # None: the base config's comment.key
    sign_key_file: Optional[str]
    output_dir: Optional[Path]
    repo: Path
    traces: list[str] = field(default_factory=list)


def resolve_settings(
    env: Mapping[str, str],
    *,
    paths: list[str],
    config: Optional[str],
    fail_on: Optional[str],
    comment: Optional[str],
    receipt_key: Optional[str],
    sign_key: Optional[str],
    output_dir: Optional[Path],
    repo: Optional[Path],
    traces: Optional[list[str]] = None,
) -> Settings:
    """Flags win over RECEIPT_* variables; both are validated before any work is done."""
    from receipt.github.comments import validate_key, validate_mode

    s = Settings(
        paths=paths or split_paths(env.get("RECEIPT_PATHS")),
        config_file=config or _env_value(env, "RECEIPT_CONFIG"),
        fail_on=fail_on or _env_value(env, "RECEIPT_FAIL_ON"),
        comment_mode=comment or _env_value(env, "RECEIPT_COMMENT"),
        receipt_key=receipt_key if receipt_key is not None else _env_value(env, "RECEIPT_COMMENT_KEY"),
        sign_key_file=sign_key or _env_value(env, "RECEIPT_SIGN_KEY_FILE"),
        output_dir=output_dir or (Path(env["RECEIPT_OUTPUT_DIR"]) if _env_value(env, "RECEIPT_OUTPUT_DIR") else None),
        repo=repo or Path(_env_value(env, "GITHUB_WORKSPACE") or os.getcwd()),
        traces=traces or split_paths(env.get("RECEIPT_TRACES")),
    )
    if s.fail_on is not None and s.fail_on not in FAIL_ON:
        raise UsageError(f"invalid fail-on {s.fail_on!r}: use one of {', '.join(FAIL_ON)}")
    if s.comment_mode is not None:
        validate_mode(s.comment_mode)
    if s.receipt_key is not None:
        validate_key(s.receipt_key)
    return s


# -- git checks with GitHub-specific fixes ------------------------------------------------------------


def _open_repo(path: Path):  # -> GitRepo (late import: gitpython is slow to import)
    from receipt.gitsource import GitRepo

    try:
        return GitRepo(path)
    except GitError as e:
        raise GitError(str(e), hint=CHECKOUT_HINT) from None


def _has_commit(git_repo, sha: str) -> bool:
    try:
        git_repo.resolve(sha)
        return True
    except GitError:
        return False


def require_commits(git_repo, shas: list[str]) -> None:
    """Exit 3 with the one `git fetch` command that brings every missing commit in."""
    missing = [s for s in dict.fromkeys(shas) if s and not _has_commit(git_repo, s)]
    if not missing:
        return
    unshallow = " --unshallow" if git_repo.is_shallow else ""
    what = "commit" if len(missing) == 1 else "commits"
    raise GitError(
        f"{what} {', '.join(m[:12] for m in missing)} not in this clone"
        + (" (shallow clone)" if git_repo.is_shallow else ""),
        hint=f"fix: git fetch --no-tags{unshallow} origin {' '.join(missing)}"
        "   (or use actions/checkout with fetch-depth: 0)",
    )


def make_is_newer(git_repo, this_head: str, pr_head: Callable[[], str]) -> Callable[[str], bool]:
    """Is a posted receipt's head newer than ours? (Then we must not overwrite it.)

    - the same head: no;
    - both known to git: yes iff ours is an ancestor of theirs (theirs descends from ours);
    - theirs unknown here (a run for a later push usually is: our clone predates it): yes iff it is
      the PR's current head according to GitHub. Otherwise (a force-pushed-away head) we overwrite.
    """
    cache: dict[str, str] = {}

    def current_head() -> str:
        if "head" not in cache:
            from receipt.github.api import GitHubError

            try:
                cache["head"] = pr_head()
            except GitHubError:
                cache["head"] = ""  # cannot tell: overwrite (documented)
        return cache["head"]

    def is_newer(their_head: str) -> bool:
        if their_head == this_head:
            return False
        if _has_commit(git_repo, their_head):
            return git_repo.is_ancestor(this_head, their_head)
        current = current_head()
        return bool(current) and current != this_head and current.startswith(their_head)

    return is_newer


# -- output helpers --------------------------------------------------------------------------------------


def _say(line: str) -> None:
    emit(line + "\n")


_MORE = re.compile(r"^::notice title=behavior-receipt::(\d+) more changes not annotated \((.*?)\)")


def _cap_notices(annotations: str, reserved: int, max_per_level: int = 10) -> str:
    """Keep the step within GitHub's 10 notices when we already printed `reserved` of our own.

    Change notices are dropped from the end and counted into the "N more changes" summary line
    (added when there was none), so the annotations still account for every change.
    """
    lines = annotations.splitlines()
    summary_at = next((i for i, ln in enumerate(lines) if _MORE.match(ln)), None)
    change_notices = [i for i, ln in enumerate(lines) if ln.startswith("::notice") and i != summary_at]
    budget = max_per_level - reserved
    if reserved <= 0 or len(change_notices) + (summary_at is not None) <= budget:
        return annotations
    drop = set(change_notices[max(budget - 1, 0) :])  # one slot stays for the summary
    counts = {"errors": 0, "warnings": 0, "notices": 0}
    if summary_at is not None:
        m = _MORE.match(lines[summary_at])
        assert m is not None
        for n, level in re.findall(r"(\d+) (errors|warnings|notices)", m.group(2)):
            counts[level] += int(n)
    counts["notices"] += len(drop)
    detail = ", ".join(f"{n} {level}" for level, n in counts.items() if n)
    summary = ae.command(
        "notice", f"{sum(counts.values())} more changes not annotated ({detail}); the receipt lists them all", title=TITLE
    )
    kept = [ln for i, ln in enumerate(lines) if i not in drop and i != summary_at]
    return "".join(ln + "\n" for ln in [*kept, summary])


def _write_receipt_files(out_dir: Path, body: str, json_text: str, sarif_text: Optional[str] = None) -> tuple[Path, str]:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        md_path = out_dir / "receipt.md"
        data = body.encode("utf-8")
        md_path.write_bytes(data)
        (out_dir / "receipt.json").write_bytes(json_text.encode("utf-8"))
        if sarif_text is not None:  # for github/codeql-action/upload-sarif (docs/github-action.md)
            (out_dir / "receipt.sarif").write_bytes(sarif_text.encode("utf-8"))
    except OSError as e:
        raise OutputError(f"cannot write the receipt to {out_dir}: {e.strerror or type(e).__name__}") from None
    return md_path, hashlib.sha256(data).hexdigest()


_FIX_BY_EXIT = {
    2: "check the action inputs (or RECEIPT_* variables) and the configuration file named above, then re-run.",
    3: "check the repository out with its history (actions/checkout with `fetch-depth: 0`) and re-run.",
}
_FIX_UNKNOWN = "re-run with RECEIPT_DEBUG=1 to get a traceback, and report it."


def report_ci_error(env: Mapping[str, str], message: str, hint: Optional[str], exit_code: int) -> None:
    """A failed run still tells the PR: an `::error::` annotation, a job summary saying what failed
    and how to fix it, and the `verdict` output set to `error` (other outputs empty)."""
    from receipt.render.escape import md

    fix = hint.removeprefix("fix: ") if hint else _FIX_BY_EXIT.get(exit_code, _FIX_UNKNOWN)
    _say(ae.command("error", f"{message}. Fix: {fix}", title=f"{TITLE}: no receipt"))
    summary = (
        "## Behavior receipt\n\n> [!CAUTION]\n> **ERROR** — no receipt: the run failed before it could compare "
        "the agent surface, so this pull request has no verdict.\n\n"
        f"**What failed:** {md(message, 2000)}\n\n**How to fix:** {md(fix, 2000)}\n"
    )
    try:
        ae.append_summary(env.get("GITHUB_STEP_SUMMARY", ""), summary)
        ae.write_outputs(env.get("GITHUB_OUTPUT", ""), {name: ("error" if name == "verdict" else "") for name in OUTPUT_NAMES})
    except ReceiptError:
        pass  # the error itself is still printed by the caller


def _reports_errors(fn: Callable[..., None]) -> Callable[..., None]:
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except ReceiptError as e:
            report_ci_error(os.environ, str(e), e.hint, e.exit_code)
            raise
        except Exception as e:  # noqa: BLE001 - reported, then handles_errors turns it into one line
            report_ci_error(os.environ, f"internal error: {type(e).__name__}: {e}", None, 3)
            raise

    return wrapper


@app.command("ci")
@handles_errors
@_reports_errors
def ci(
    paths: Optional[List[str]] = typer.Argument(None, help="Limit the scan to these paths (or RECEIPT_PATHS)."),
    repo: Optional[Path] = typer.Option(None, "--repo", help="Git work tree (default: GITHUB_WORKSPACE, else cwd)."),
    config: Optional[str] = typer.Option(None, "--config", help="Config file, read from the base revision (or RECEIPT_CONFIG)."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", help="regression|warning|never (or RECEIPT_FAIL_ON; default: config, else regression)."),
    comment: Optional[str] = typer.Option(None, "--comment", help="update|new|hide-and-new|off (or RECEIPT_COMMENT; default: config, else update)."),
    receipt_key: Optional[str] = typer.Option(None, "--receipt-key", help="One comment per PR and key, [A-Za-z0-9._-]{1,64} (or RECEIPT_COMMENT_KEY)."),
    sign_key: Optional[str] = typer.Option(None, "--sign-key", help="Ed25519 private key file (or RECEIPT_SIGN_KEY_FILE; the key itself: RECEIPT_SIGNING_KEY)."),
    output_dir: Optional[Path] = typer.Option(None, "--output-dir", help="Where receipt.md and receipt.json go (or RECEIPT_OUTPUT_DIR)."),
    traces: Optional[List[str]] = typer.Option(None, "--traces", metavar="PATH", help="Recorded traces on the runner, file or folder; repeat for more (or RECEIPT_TRACES, one per line)."),
) -> None:
    """Run inside GitHub Actions: receipt for the PR (or push), PR comment, job summary, outputs.

    Exit 0 ok, 1 findings at or above fail-on, 2 usage or configuration error, 3 git error (with
    the exact `git fetch` command that fixes it). A token that cannot write (fork PRs) is not an
    error: the receipt goes to the job summary with a notice.
    """
    from receipt.github.comments import DEFAULT_KEY, make_marker, validate_key, validate_mode

    env = os.environ
    settings = resolve_settings(
        env,
        paths=list(paths or []),
        config=config,
        fail_on=fail_on,
        comment=comment,
        receipt_key=receipt_key,
        sign_key=sign_key,
        output_dir=output_dir,
        repo=repo,
        traces=list(traces or []),
    )
    actions = ae.ActionsEnv.from_env(env)
    event = ae.load_event(actions.event_path)
    revs = ae.revisions_from_event(actions.event_name, event, actions.repository)
    repository = actions.repository or revs.repository
    if revs.kind == "pull_request" and "/" not in repository:
        raise UsageError("GITHUB_REPOSITORY is not set (owner/name)")

    if not revs.base or not revs.head:  # a push that created or deleted a branch
        note = "No receipt: this push created or deleted a branch, so there is no before -> after to compare."
        ae.append_summary(actions.step_summary, f"## Behavior receipt\n\n{note}\n")
        skipped = {"verdict": "skipped", "changes": "0", "regressions": "0", "warnings": "0", "comment-action": "none"}
        ae.write_outputs(actions.output, {name: skipped.get(name, "") for name in OUTPUT_NAMES})
        _say(ae.command("notice", note, title=TITLE))
        raise typer.Exit(EXIT_OK)

    from receipt.keys import SIGNING_KEY_ENV, maybe_load_signing_key
    from receipt.cli.progress import progress_on_stderr
    from receipt.pipeline import build_receipt, load_config, template_text_for

    git_repo = _open_repo(settings.repo)
    require_commits(git_repo, [revs.base, revs.head])
    is_pr = revs.kind == "pull_request"
    compared_base = git_repo.merge_base(revs.base, revs.head) if is_pr else revs.base
    # The gating config is the base's, and only from the repository: never the work tree, which
    # holds the PR's version, nor a file outside it that the environment names.
    cfg = load_config(git_repo, compared_base, settings.config_file, allow_outside=False, required=False).config

    mode = settings.comment_mode or cfg.comment.mode
    key_name = settings.receipt_key or cfg.comment.key or DEFAULT_KEY
    validate_mode(mode)
    validate_key(key_name)
    if is_pr and mode != "off" and not env.get("GITHUB_TOKEN"):
        raise UsageError("GITHUB_TOKEN is not set; it is needed to post the PR comment (or use --comment off)")
    signing_key = maybe_load_signing_key(settings.sign_key_file, env.get(SIGNING_KEY_ENV))

    with progress_on_stderr() as progress:
        receipt = build_receipt(
            git_repo,
            revs.base,
            revs.head,
            paths=settings.paths,
            config_file=settings.config_file,
            fail_on=settings.fail_on,
            merge_base=is_pr,
            traces=settings.traces,
            allow_outside_config=False,
            progress=progress,
        )

    marker = make_marker(key_name, revs.head, revs.base)
    template = template_text_for(git_repo, compared_base, settings.config_file, allow_outside_config=False)  # from the base
    body = render_body(receipt, marker, signing_key, repository, revs, template)
    from receipt.render import render_annotations, render_json

    out_dir = settings.output_dir or ae.default_output_dir(actions, key_name)
    from receipt.render.sarif import render_sarif

    md_path, md_sha = _write_receipt_files(out_dir, body, render_json(receipt), render_sarif(receipt))

    comment_id = comment_url = ""
    comment_action = "none"
    summary_note = ""
    own_notices: list[str] = []
    try:
        if is_pr and mode != "off":
            comment_action, comment_id, comment_url, summary_note, lines = publish(
                env, repository, revs, body, marker, mode, git_repo, md_path
            )
            own_notices = [ln for ln in lines if ln.startswith("::notice")]
            for ln in lines:
                _say(ln)
        elif is_pr:
            comment_action = "off"
    finally:
        summary = body if not summary_note else f"> [!NOTE]\n> {summary_note}\n\n{body}"
        ae.append_summary(actions.step_summary, summary)

    verdict = "pass" if receipt.verdict.ok else "fail"
    outputs = {
        "verdict": verdict,
        "changes": str(receipt.summary.changes),
        "regressions": str(receipt.summary.regressions),
        "warnings": str(receipt.summary.warnings),
        "receipt-path": str(md_path),
        "receipt-sha256": md_sha,
        "comment-id": comment_id,
        "comment-url": comment_url,
        "comment-action": comment_action,
    }
    assert tuple(outputs) == OUTPUT_NAMES
    ae.write_outputs(actions.output, outputs)
    annotations = _cap_notices(render_annotations(receipt, max_per_level=10), len(own_notices))
    if annotations:
        sys.stdout.write(annotations)
    signed = "signed" if signing_key is not None else "unsigned"
    from receipt.render.view import plural

    _say(
        f"behavior-receipt: {verdict}: {plural(receipt.summary.changes, 'change', 'changes')}, "
        f"{plural(receipt.summary.regressions, 'regression', 'regressions')}, "
        f"{plural(receipt.summary.warnings, 'warning', 'warnings')} ({signed}); comment: {comment_action}; receipt: {md_path}"
    )
    raise typer.Exit(EXIT_OK if receipt.verdict.ok else EXIT_FINDINGS)


def render_body(
    receipt, marker: Marker, signing_key, repository: str, revs: ae.EventRevisions, template: str | None = None
) -> str:
    """The comment body: marker first, then the receipt; signed when a key is configured."""
    import functools

    from receipt.models import Binding
    from receipt.render import render_markdown

    # Bound to what the PR shows (its base and head), so a verifier can check against the PR page;
    # the body shows the binding, signed or not.
    binding = Binding(repository=repository, pr=revs.pr, base_sha=revs.base, head_sha=revs.head)
    receipt = receipt.model_copy(update={"binding": binding})
    # Locations link to the files at the PR head on this server (GitHub Enterprise Server included).
    renderer = functools.partial(render_markdown, repository=repository or None, server_url=os.environ.get("GITHUB_SERVER_URL") or None)
    if signing_key is not None:
        from receipt.sign import render_signed

        return render_signed(receipt, signing_key, binding, header_comment=marker.render(), template_text=template, renderer=renderer)
    return renderer(receipt, header_comment=marker.render(), footer_note=UNSIGNED_NOTE, template_text=template)


def publish(
    env: Mapping[str, str],
    repository: str,
    revs: ae.EventRevisions,
    body: str,
    marker: Marker,
    mode: str,
    git_repo,
    md_path: Path,
) -> tuple[str, str, str, str, list[str]]:
    """Post per `mode`. Returns (action, comment id, url, job-summary note, workflow-command lines).

    Never raises for GitHub trouble: a read-only token or an API failure leaves the receipt in the
    job summary and at md_path, and the run exits by policy only.
    """
    import httpx

    from receipt.github.api import GitHubClient, GitHubError, ReadOnlyToken
    from receipt.github.comments import sync_comment

    assert revs.pr is not None
    lines: list[str] = []
    try:
        with GitHubClient.from_env(env, log=lambda msg: lines.append(f"behavior-receipt: {msg}")) as client:
            is_newer = make_is_newer(git_repo, revs.head, lambda: client.pull_request_head(repository, revs.pr or 0))
            result = sync_comment(client, repository, revs.pr, body, marker, mode, is_newer=is_newer)
    except ReadOnlyToken:
        note = (
            "The token cannot write to this pull request (a fork PR, or the workflow lacks "
            "`pull-requests: write`), so the receipt is in this job summary instead of a PR comment."
        )
        lines.append(ae.command("notice", note, title=TITLE))
        return "read-only", "", "", note, lines
    except (GitHubError, ReceiptError, httpx.HTTPError, ValueError) as e:  # ValueError: a non-JSON answer
        note = f"The PR comment could not be written ({e}); the receipt is in this job summary and at {md_path.name}."
        lines.append(ae.command("warning", note, title=TITLE))
        return "failed", "", "", note, lines
    c = result.comment
    if result.action == "stale":
        lines.append(
            ae.command(
                "notice",
                f"The PR already shows the receipt for a newer head ({result.newer_head[:12]}); not overwritten by this run's "
                f"({revs.head[:12]}).",
                title=TITLE,
            )
        )
    if result.ignored_foreign:
        lines.append(f"behavior-receipt: ignored {result.ignored_foreign} comment(s) by other users that carry the receipt marker")
    if result.deleted:
        lines.append(f"behavior-receipt: removed {len(result.deleted)} duplicate receipt comment(s) left by a race")
    if result.minimized:
        lines.append(f"behavior-receipt: minimized {len(result.minimized)} previous receipt comment(s)")
    for problem in result.problems:
        lines.append(ae.command("warning", problem, title=TITLE))
    return result.action, str(c.id) if c else "", c.html_url if c else "", "", lines

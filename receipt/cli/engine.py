"""Engine commands: trace-diff, surface, explain, demo."""

from __future__ import annotations

import enum
import functools
import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from receipt.cli.app import app, emit, handles_errors
from receipt.errors import EXIT_FINDINGS, EXIT_OK, OutputError, UsageError


class Format(str, enum.Enum):
    markdown = "markdown"
    json = "json"
    github = "github"
    sarif = "sarif"


class FailOn(str, enum.Enum):
    regression = "regression"
    warning = "warning"
    never = "never"


RepoOpt = typer.Option(".", "--repo", help="Git repository (work tree or bare git dir). Default: current directory.")
OutputOpt = typer.Option(None, "--output", "-o", help="Write the result to FILE instead of stdout.")
ConfigOpt = typer.Option(
    None, "--config", help="Config file ([tool.receipt] in pyproject.toml, or .receipt.toml); read from the BASE revision."
)


def stdout_is_tty() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def repo_relative(paths: List[str], git_repo) -> List[str]:  # type: ignore[no-untyped-def]
    """PATH arguments are relative to the current folder when it is inside the work tree (so
    `trace-diff HEAD~1 HEAD tools.py` in src/ means src/tools.py); otherwise relative to the root."""
    root_path = git_repo.work_tree
    if not paths or root_path is None:
        return paths
    cwd = Path.cwd().resolve()
    if cwd != root_path and root_path not in cwd.parents:
        return paths
    out = []
    for p in paths:
        try:
            rel = (cwd / p).resolve().relative_to(root_path).as_posix()
        except ValueError:
            rel = p
        out.append("" if rel == "." else rel)
    return [] if "" in out else out


def server_url() -> str | None:
    """Where file links point (GitHub Enterprise Server sets it in Actions); github.com otherwise."""
    return os.environ.get("GITHUB_SERVER_URL") or None


def write_output(text: str, output: Optional[Path]) -> None:
    if output is None:
        emit(text)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise OutputError(f"cannot write {output}: {e.strerror or type(e).__name__}") from None


def _start_listing(git_repo, base: str, head: str) -> None:  # type: ignore[no-untyped-def]
    """git lists both trees (every object's size) while this process loads the pipeline: on two
    cores, the listing is no longer waited for. Errors are left to the run, which reports them in
    its own order (a trace file it cannot read comes first)."""
    from receipt.errors import GitError

    try:
        git_repo.prefetch_trees(git_repo.resolve(base), git_repo.resolve(head))
    except GitError:
        pass


@app.command("trace-diff")
@handles_errors
def trace_diff(
    base: str = typer.Argument(..., metavar="BASE", help="Base revision (sha, branch, tag, HEAD~1, ...)."),
    head: str = typer.Argument(..., metavar="HEAD", help="Head revision: the change under review."),
    paths: Optional[List[str]] = typer.Argument(None, metavar="PATH", help="Limit the scan to these files or folders (default: whole tree)."),
    repo: Path = RepoOpt,
    fmt: Format = typer.Option(Format.markdown, "--format", "-f", help="markdown (the PR comment; plain text on a terminal), json (machine-readable), github (workflow annotations), sarif (code scanning)."),
    output: Optional[Path] = OutputOpt,
    config: Optional[str] = ConfigOpt,
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", help="Exit 1 when a change at or above this severity is found (default: regression, or the config's fail_on)."),
    merge_base: bool = typer.Option(False, "--merge-base", help="Compare merge-base(BASE, HEAD) -> HEAD: what a branch introduces (as CI does)."),
    include_surfaces: bool = typer.Option(False, "--include-surfaces", help="With --format json: add both full surfaces."),
    sign_key: Optional[str] = typer.Option(None, "--sign-key", help="Ed25519 private key file (PKCS#8 PEM or 64-hex seed) to sign the receipt; or env RECEIPT_SIGNING_KEY."),
    repository: str = typer.Option("", "--repository", help="owner/name the receipt is for: locations link to files at HEAD, and a signed receipt is bound to it."),
    pr: Optional[int] = typer.Option(None, "--pr", help="Binding: pull request number (signed receipts)."),
    traces: Optional[List[str]] = typer.Option(None, "--traces", metavar="PATH", help="Recorded traces (file or folder; repeat for more) as evidence: which traces exercise each changed entry."),
) -> None:
    """Receipt for BASE -> HEAD: what the change does to the exported agents and tools.

    Reads both revisions from git objects (nothing is checked out, imported or executed) and prints
    the same markdown receipt CI posts. Exit 0 ok, 1 findings at or above --fail-on, 2 usage or
    configuration error, 3 git or extraction error.

    Example: trace-diff HEAD~1 HEAD
    """
    from receipt.gitsource import GitRepo

    # A bad key fails before any work is done.
    env_key = os.environ.get("RECEIPT_SIGNING_KEY")
    key = None
    if sign_key or env_key:
        from receipt.keys import load_signing_key

        key = load_signing_key(sign_key, None if sign_key else env_key)
    git_repo = GitRepo(repo)
    if not merge_base:
        _start_listing(git_repo, base, head)
    from receipt.cli.progress import progress_on_stderr
    from receipt.pipeline import build_receipt
    from receipt.render import render_annotations, render_json, render_markdown

    with progress_on_stderr() as progress:
        receipt = build_receipt(
            git_repo,
            base,
            head,
            paths=repo_relative(paths or [], git_repo),
            config_file=config,
            fail_on=fail_on.value if fail_on else None,
            merge_base=merge_base,
            progress=progress,
            traces=traces or (),
        )
    if repository or pr is not None:  # the body shows what the receipt is for (signed receipts always do)
        from receipt.models import Binding

        receipt.binding = Binding(repository=repository, pr=pr).resolved(receipt)
    template = None
    if fmt is Format.markdown:
        from receipt.pipeline import template_text_for

        template = template_text_for(git_repo, receipt.base.sha, config)
    git_repo.close()  # git is not read past this point: its cat-file process ends before rendering
    if fmt is Format.json:
        if key is not None:
            from receipt.sign import envelope_json
            from receipt.models import Binding

            binding = Binding(repository=repository, pr=pr, base_sha=receipt.base.sha, head_sha=receipt.head.sha)
            text = envelope_json(receipt, key, binding, None)
        else:
            text = render_json(receipt, include_surfaces=include_surfaces)
    elif fmt is Format.github:
        text = render_annotations(receipt)
    elif fmt is Format.sarif:
        from receipt.render import render_sarif

        text = render_sarif(receipt)
    elif output is None and stdout_is_tty():
        # A person reading a terminal: plain text, colour, verdict last; the markdown CI posts (and
        # its signature block) is what --output and pipes get.
        from receipt.render import render_terminal

        text = render_terminal(receipt, colour=not os.environ.get("NO_COLOR"))
        if key is not None:
            text += "(signed markdown receipt: use --output FILE or a pipe)\n"
    elif key is not None:
        from receipt.sign import render_signed
        from receipt.models import Binding

        binding = Binding(repository=repository, pr=pr, base_sha=receipt.base.sha, head_sha=receipt.head.sha)
        renderer = functools.partial(render_markdown, repository=repository or None, server_url=server_url())
        text = render_signed(receipt, key, binding, template_text=template, renderer=renderer)
    else:
        text = render_markdown(receipt, template_text=template, repository=repository or None, server_url=server_url())
    write_output(text, output)
    raise typer.Exit(EXIT_OK if receipt.verdict.ok else EXIT_FINDINGS)


@app.command("surface")
@handles_errors
def surface(
    rev: str = typer.Argument(..., metavar="REV", help="Revision to read."),
    paths: Optional[List[str]] = typer.Argument(None, metavar="PATH", help="Limit the scan to these files or folders."),
    repo: Path = RepoOpt,
    fmt: Format = typer.Option(Format.markdown, "--format", "-f", help="json for the full machine-readable surface; markdown for a table."),
    output: Optional[Path] = OutputOpt,
    config: Optional[str] = ConfigOpt,
    exported_only: bool = typer.Option(False, "--exported-only", help="Only entries a caller can reach."),
) -> None:
    """The extracted agent surface at one revision: agents, tools and prompts with their attributes."""
    from receipt.cli.progress import progress_on_stderr
    from receipt.gitsource import GitRepo
    from receipt.pipeline import build_surface, load_config

    git_repo = GitRepo(repo)
    sha = git_repo.resolve(rev)
    cfg = load_config(git_repo, sha, config).config
    with progress_on_stderr() as progress:
        s = build_surface(git_repo, rev, paths=paths or (), config=cfg, progress=progress)
    git_repo.close()
    if exported_only:
        s.agents = [e for e in s.agents if e.exported]
        s.tools = [e for e in s.tools if e.exported]
        s.prompts = [e for e in s.prompts if e.exported]
    if fmt is Format.json:
        data = s.model_dump(mode="json", by_alias=True)
        text = json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    else:
        from receipt.render.surface import render_surface_markdown

        text = render_surface_markdown(s)
    write_output(text, output)
    if s.errors:
        raise typer.Exit(EXIT_OK)


@app.command("explain")
@handles_errors
def explain(change_id: Optional[str] = typer.Argument(None, metavar="[ID]", help="A change id, e.g. tool.approval_lowered. Without it: list all.")) -> None:
    """Explain a change kind: what it means, its default severity, and how to respond."""
    from receipt import catalogue

    if change_id is None:
        for kind in sorted(catalogue.CATALOGUE.values(), key=lambda k: k.id):
            typer.echo(f"{kind.id:32} {kind.default_severity:10} {kind.title}")
        return
    typer.echo(catalogue.explain(change_id))


@app.command("demo")
@handles_errors
def demo(
    keep: Optional[Path] = typer.Option(None, "--keep", help="Build the demo repository in this (new) folder and keep it."),
) -> None:
    """Self-contained run: a throwaway repo with two commits, a signed receipt, and its verification."""
    from receipt.demo import run_demo

    terminal = stdout_is_tty()  # as trace-diff: plain text for a person, the exact markdown for a pipe
    raise typer.Exit(run_demo(keep, terminal=terminal, colour=terminal and not os.environ.get("NO_COLOR")))

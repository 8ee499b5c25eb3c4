"""`receipt keygen` and `receipt verify`."""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Mapping, Optional

import typer

from receipt import DEFAULT_KEYRING_PATH
from receipt.cli.app import app, handles_errors
from receipt.errors import UsageError

if TYPE_CHECKING:  # keys and verification (cryptography, pydantic models) load when a command runs
    from receipt.keys import Keyring


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


@app.command()
@handles_errors
def keygen(
    out: str = typer.Option(
        "receipt-signing-key",
        "--out",
        metavar="PREFIX",
        help="Write PREFIX.key (private, PKCS#8 PEM, mode 0600), PREFIX.pub (PEM) and PREFIX.pub.hex.",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite existing key files."),
    in_repo: bool = typer.Option(False, "--in-repo", help="Allow writing the private key inside a git work tree (it would be one `git add .` from being committed)."),
    fmt: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text or json (keyid, paths, keyring entry)."),
) -> None:
    """Create an ed25519 key pair for signing receipts, and print its keyid."""
    from receipt.keys import generate_signing_key, keyring_json, write_key_pair

    work_tree = _work_tree_of(Path(out).expanduser().absolute().parent)
    if work_tree is not None and not in_repo:
        raise UsageError(
            f"refusing to write a private key inside the git work tree {work_tree}",
            hint="fix: write it elsewhere, e.g. receipt keygen --out ~/.config/behavior-receipt/signing   (or pass --in-repo)",
        )
    key = generate_signing_key()
    files = write_key_pair(key, str(Path(out).expanduser()), force=force)
    entry = json.loads(keyring_json([key.public_key]))["keys"][0]
    if fmt is TextOrJson.json:
        doc = {"keyid": key.keyid, "public": key.public_hex, "files": files.model_dump(), "keyring_entry": entry}
        typer.echo(json.dumps(doc, indent=2, sort_keys=True))
        return
    typer.echo(f"keyid: {key.keyid}")
    typer.echo(f"public key: {key.public_hex}")
    typer.echo(f"private key: {files.private} (mode 0600; store it as the RECEIPT_SIGNING_KEY secret, never commit it)")
    typer.echo(f"public key files: {files.public_pem}, {files.public_hex}")
    typer.echo(f"trust it by adding this entry to the \"keys\" list of {DEFAULT_KEYRING_PATH} on the base branch:")
    typer.echo("  " + json.dumps(entry, sort_keys=True))


def _work_tree_of(folder: Path) -> Optional[Path]:
    """The git work tree `folder` is in, if any (a `.git` entry in it or a parent)."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _read_input(source: str) -> bytes:
    if source == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("no receipt to verify: give FILE, or pipe the comment body in (receipt verify - < receipt.md)")
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as e:
        raise UsageError(f"cannot read {source}: {e.strerror or type(e).__name__}") from None


def _trusted(
    keys: List[str], keyring: Optional[str], from_rev: Optional[str], keyring_path: Optional[str], repo: str
) -> Keyring:
    from receipt.keys import keyring_from_keys, keyring_from_rev, load_keyring, load_public_key

    chosen = [flag for flag, given in (("--key", bool(keys)), ("--keyring", keyring), ("--keyring-from-rev", from_rev)) if given]
    if len(chosen) != 1:
        raise UsageError(
            "give exactly one source of trusted keys: --key PUB, --keyring FILE or --keyring-from-rev REV"
            + (f" (got {', '.join(chosen)})" if chosen else "")
        )
    if keyring_path is not None and not from_rev:
        raise UsageError("--keyring-path only applies with --keyring-from-rev")
    if keys:
        return keyring_from_keys([load_public_key(k) for k in keys])
    if keyring:
        return load_keyring(keyring)
    assert from_rev is not None
    return keyring_from_rev(repo, from_rev, keyring_path or DEFAULT_KEYRING_PATH)


@app.command()
@handles_errors
def verify(
    file: str = typer.Argument("-", metavar="[FILE|-]", help="Markdown comment body or envelope JSON; - for stdin."),
    key: List[str] = typer.Option(
        [], "--key", metavar="PUB", help="Trusted public key: 64 hex, or a file with a PEM or hex public key. Repeatable."
    ),
    keyring: Optional[str] = typer.Option(None, "--keyring", metavar="FILE", help="Keyring JSON file of trusted keys."),
    keyring_from_rev_: Optional[str] = typer.Option(
        None, "--keyring-from-rev", metavar="REV", help="Read the keyring from git at REV (use the PR's base)."
    ),
    keyring_path: Optional[str] = typer.Option(
        None, "--keyring-path", metavar="PATH", help=f"Keyring path inside REV [default: {DEFAULT_KEYRING_PATH}]."
    ),
    repo: str = typer.Option(".", "--repo", metavar="DIR", help="Git repository for --keyring-from-rev."),
    expect_repository: Optional[str] = typer.Option(None, "--expect-repository", metavar="OWNER/NAME"),
    expect_pr: Optional[int] = typer.Option(None, "--expect-pr", metavar="N"),
    expect_head: Optional[str] = typer.Option(None, "--expect-head", metavar="SHA"),
    expect_base: Optional[str] = typer.Option(None, "--expect-base", metavar="SHA"),
    fmt: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text: a summary; json: the verified payload."),
) -> None:
    """Verify a signed receipt: signature by a trusted key, unedited body, expected repository/PR/commits.

    Prints the binding and which parts of it were checked; warns on stderr about parts that were
    not. In GitHub Actions (GITHUB_ACTIONS=true) the expectations default to GITHUB_REPOSITORY and,
    for a pull_request event, its number and base/head shas; flags override them.

    Exit 0 when every check passes, 1 naming the first check that failed, 2 on usage errors.
    """
    from receipt.verify import Expectations, verify_bytes

    given = {"repository": expect_repository, "pr": expect_pr, "base_sha": expect_base, "head_sha": expect_head}
    defaults = expectations_from_actions(os.environ)
    if defaults:
        used = sorted(k for k in defaults if given[k] is None)
        if used:
            typer.echo(f"note: expecting {', '.join(f'{k}={defaults[k]}' for k in used)} (from the GitHub Actions environment)", err=True)
    merged = {k: v if v is not None else defaults.get(k) for k, v in given.items()}
    expect = Expectations.create(merged["repository"], merged["pr"], merged["base_sha"], merged["head_sha"])
    trusted = _trusted(key, keyring, keyring_from_rev_, keyring_path, repo or os.getcwd())
    result = verify_bytes(_read_input(file), trusted, expect)
    unchecked = [part for part in ("repository", "pr", "base", "head") if part not in expect.checked()]
    if unchecked:
        typer.echo(
            f"warning: the binding's {', '.join(unchecked)} {'was' if len(unchecked) == 1 else 'were'} not checked: "
            "this receipt may be for another repository, PR or commit (give --expect-repository, --expect-pr, "
            "--expect-base, --expect-head)",
            err=True,
        )
    if fmt is TextOrJson.json:
        typer.echo(json.dumps(result.payload, indent=2, sort_keys=True, ensure_ascii=False))
        return
    for line in result.summary_lines(expect):
        typer.echo(line)


def expectations_from_actions(env: Mapping[str, str]) -> dict[str, Any]:
    """In a GitHub Actions run: the repository, and for a PR event its number and base/head shas.

    So that `receipt verify` in a workflow checks the binding against the PR it runs for, by default.
    """
    if env.get("GITHUB_ACTIONS") != "true":
        return {}
    from receipt.github import actions_env as ae

    out: dict[str, Any] = {}
    repository = env.get("GITHUB_REPOSITORY", "").strip()
    if repository:
        out["repository"] = repository
    event_name, event_path = env.get("GITHUB_EVENT_NAME", ""), env.get("GITHUB_EVENT_PATH", "")
    if event_path and event_name in ae.PR_EVENTS:
        revs = ae.revisions_from_event(event_name, ae.load_event(event_path), repository)
        out.update(pr=revs.pr, base_sha=revs.base, head_sha=revs.head)
    return out

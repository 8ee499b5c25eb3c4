"""Test helpers shared by every test module: surfaces from source dicts, and real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Mapping

from receipt.demo import git_env
from receipt.dialects.registry import dialects
from receipt.extract import extract_file
from receipt.extract.program import Program
from receipt.link import link
from receipt.models import Entry, ExtractionIssue

ROOT = Path(__file__).resolve().parent.parent


def surface_of(files: Mapping[str, str | bytes], exports: tuple[str, ...] = ()) -> dict[str, Entry]:
    """Extract + link in memory (no git): {entry key: Entry} for every entry, exported or not."""
    entries, _ = link_files(files, exports)
    return {e.key: e for e in entries}


def link_files(files: Mapping[str, str | bytes], exports: tuple[str, ...] = ()) -> tuple[list[Entry], list[ExtractionIssue]]:
    facts = []
    for path, text in sorted(files.items()):
        data = text if isinstance(text, bytes) else textwrap.dedent(text).encode("utf-8")
        facts.append(extract_file(path, data))
    program = Program([f for f in facts if not f.error])
    return link(program, [d.extract(program) for d in dialects()], exports)


def exported(files: Mapping[str, str | bytes], exports: tuple[str, ...] = ()) -> dict[str, Entry]:
    return {k: e for k, e in surface_of(files, exports).items() if e.exported}


_GIT_ENV = git_env("Test", "test@example.invalid")


class GitRepoBuilder:
    """A real git repository in a temp dir; `commit` writes files (None deletes) and returns the sha."""

    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "commit.gpgsign", "false")
        self._n = 0

    def git(self, *args: str, check: bool = True) -> str:
        env = {**os.environ, **_GIT_ENV, "HOME": str(self.path)}
        out = subprocess.run(["git", *args], cwd=self.path, env=env, capture_output=True, text=True)
        if check and out.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} failed: {out.stderr}")
        return out.stdout.strip()

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        for rel, content in files.items():
            p = self.path / rel
            if content is None:
                if p.exists() or p.is_symlink():
                    p.unlink()
                continue
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                p.write_bytes(content)
            else:
                p.write_text(textwrap.dedent(content), encoding="utf-8")

    def commit(self, files: Mapping[str, str | bytes | None], message: str | None = None) -> str:
        self.write(files)
        self._n += 1
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message or f"commit {self._n}")
        return self.git("rev-parse", "HEAD")


def run_cli(*args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess (`python -m receipt ...`), as a user would."""
    full_env = {**os.environ, "RECEIPT_CACHE_DIR": os.environ.get("RECEIPT_CACHE_DIR", ""), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "receipt", *args], cwd=cwd, env=full_env, capture_output=True, text=True, input=stdin
    )


def receipt_of(repo: "GitRepoBuilder", *extra: str) -> tuple[int, dict]:
    """`trace-diff HEAD~1 HEAD --format json` on a real repository: (exit code, JSON receipt)."""
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", *extra)
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, json.loads(out.stdout)


def seen(receipt: dict) -> list[tuple[str, str, str]]:
    """What a reviewer sees: (change id, subject name, severity), sorted."""
    return sorted((c["id"], c["subject"]["name"], c["severity"]) for c in receipt["changes"])

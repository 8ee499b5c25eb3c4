"""Check every third-party GitHub Action this project pins (README, docs/, action.yml, workflows):
the 40-hex sha must be the commit its `# vX.Y.Z` comment names, as the action's own repository
tags it. Run by hand (it needs the network or local mirrors), not in CI:

    python scripts/check_action_pins.py                       # git ls-remote https://github.com/...
    python scripts/check_action_pins.py --mirrors /work/.mirror   # bare mirrors named owner+name/repo

Prints one line per pin (`ok`, `MISMATCH`, `NO TAG`, `UNCHECKED`) and exits 1 unless every pin is ok.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"uses:\s*([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)(?:/[A-Za-z0-9_./-]+)?@([0-9a-f]{40})(?:\s*#\s*(v[0-9][\w.-]*))?")
PLACEHOLDER_OWNERS = {"OWNER"}  # the docs' "your fork of this action" example


def pins(root: Path) -> list[tuple[str, int, str, str, str]]:
    """(file, line, owner/name, sha, tag or "") for every pinned `uses:` in the shipped text."""
    files = [root / "README.md", root / "action.yml", *sorted((root / "docs").glob("*.md")), *sorted((root / ".github" / "workflows").glob("*.yml"))]
    out = []
    for f in files:
        if not f.exists():
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = PIN.search(line)
            if m and m.group(1) not in PLACEHOLDER_OWNERS:
                out.append((str(f.relative_to(root)), n, f"{m.group(1)}/{m.group(2)}", m.group(3), m.group(4) or ""))
    return out


def tag_commit(repo: str, tag: str, mirrors: Path | None) -> str | None:
    """The commit `tag` names (annotated tags peeled), from a mirror or `git ls-remote`; None: no such tag."""
    if mirrors is not None:
        git_dir = mirrors / repo.replace("/", "+") / "repo"
        if not git_dir.exists():
            raise LookupError(f"no mirror at {git_dir}")
        p = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}"], capture_output=True, text=True)
        return p.stdout.strip() or None
    p = subprocess.run(["git", "ls-remote", f"https://github.com/{repo}", f"refs/tags/{tag}", f"refs/tags/{tag}^{{}}"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise LookupError(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"git ls-remote exit {p.returncode}")
    refs = dict(reversed(line.split("\t")) for line in p.stdout.splitlines() if "\t" in line)
    return refs.get(f"refs/tags/{tag}^{{}}") or refs.get(f"refs/tags/{tag}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", type=Path, help="folder of bare mirrors named OWNER+NAME/repo (no network)")
    ap.add_argument("--root", type=Path, default=ROOT, help="project to check (default: this one)")
    args = ap.parse_args()
    bad = 0
    for where, line, repo, sha, tag in pins(args.root):
        label = f"{where}:{line}  {repo}@{sha[:12]} # {tag or '?'}"
        if not tag:
            print(f"UNCHECKED  {label}  (no '# vX.Y.Z' comment says which release this is)")
            bad += 1
            continue
        try:
            commit = tag_commit(repo, tag, args.mirrors)
        except (LookupError, subprocess.TimeoutExpired) as e:
            print(f"UNCHECKED  {label}  ({e})")
            bad += 1
            continue
        if commit is None:
            print(f"NO TAG     {label}  ({repo} has no tag {tag})")
            bad += 1
        elif commit != sha:
            print(f"MISMATCH   {label}  ({tag} is {commit})")
            bad += 1
        else:
            print(f"ok         {label}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

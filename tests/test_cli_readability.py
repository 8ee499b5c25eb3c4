"""What a person at a terminal sees: --version, one-line errors that say why, keys kept out of the
work tree, paths relative to where you stand, and plain text (not markdown) on a TTY."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from receipt import __version__
from tests.helpers import GitRepoBuilder, run_cli

TOOLS = """
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shop")

@mcp.tool({annotations})
def refund_order(order_id: str) -> str:
    '''Refund an order.'''
    return order_id
"""
SAFE = 'annotations={"readOnlyHint": True}'
UNSAFE = ""


def _on_tty(args: list[str], cwd: Path, stdin_tty: bool = False) -> tuple[int, str]:
    """Run the CLI with stdout (and optionally stdin) on a pseudo-terminal; returns (code, output)."""
    master, slave = pty.openpty()
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    p = subprocess.Popen(
        [sys.executable, "-m", "receipt", *args], cwd=cwd, env=env, stdout=slave, stderr=subprocess.PIPE,
        stdin=slave if stdin_tty else subprocess.DEVNULL,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=120)
    os.close(master)
    return p.returncode, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n") + p.stderr.read().decode()


def test_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"behavior-receipt {__version__}"


def test_explain_unknown_id_is_one_line_with_close_matches() -> None:
    out = run_cli("explain", "tool.aproval_lowerd")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "did you mean 'tool.approval_lowered'" in lines[0] and "config.changed" not in lines[0]


def test_unknown_revision_says_why(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"a.py": "x = 1\n"}, "only commit")
    one = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    assert one.returncode == 3 and "HEAD has only 1 commit of history (it is the first commit: it has no parent)" in one.stderr
    typo = run_cli("trace-diff", "HAED", "HEAD", "--repo", str(git_repo.path))
    assert typo.returncode == 3 and "did you mean 'HEAD'?" in typo.stderr


def test_unknown_revision_in_an_empty_repository(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True)
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(tmp_path / "empty"))
    assert out.returncode == 3 and "no commits yet" in out.stderr


def test_short_sha_fetch_hint_is_a_command_that_works(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"a.py": "x = 1\n"})
    out = run_cli("trace-diff", "deadbeef12", "HEAD", "--repo", str(git_repo.path))
    assert out.returncode == 3
    assert "fix: git fetch --no-tags origin   (then retry" in out.stderr and "origin deadbeef12" not in out.stderr


def test_keygen_refuses_to_write_a_private_key_into_a_work_tree(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    git_repo.commit({"a.py": "x = 1\n"})
    out = run_cli("keygen", "--out", "receipt-signing", cwd=git_repo.path)
    assert out.returncode == 2 and "refusing to write a private key inside the git work tree" in out.stderr
    assert not (git_repo.path / "receipt-signing.key").exists()
    outside = run_cli("keygen", "--out", str(tmp_path / "keys"))
    assert outside.returncode == 0 and (tmp_path / "keys.key").exists()


def test_verify_with_no_file_and_a_terminal_on_stdin_errors_instead_of_waiting(tmp_path: Path) -> None:
    keys = run_cli("keygen", "--out", str(tmp_path / "k"))
    assert keys.returncode == 0
    code, text = _on_tty(["verify", "--key", str(tmp_path / "k.pub")], tmp_path, stdin_tty=True)
    assert code == 2 and "no receipt to verify" in text


def test_terminal_gets_plain_text_and_the_verdict_last_pipes_get_markdown(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=SAFE)}, "v1")
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=UNSAFE)}, "v2")
    code, text = _on_tty(["trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path)], git_repo.path)
    assert code == 1
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    assert lines[0].startswith("Behavior receipt: FAIL — 1 regression")
    assert lines[-1].startswith("FAIL — 1 regression")
    assert "\\_" not in text and "\\." not in text and "[!CAUTION]" not in text and "&gt;" not in text
    assert "refund_order is now marked dangerous" in text
    piped = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    assert piped.stdout.startswith("## Behavior receipt\n\n> [!CAUTION]")


def test_path_argument_is_relative_to_the_current_folder(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=SAFE), "other/tools.py": TOOLS.format(annotations=SAFE)}, "v1")
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=UNSAFE), "other/tools.py": TOOLS.format(annotations=UNSAFE)}, "v2")
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "tools.py", "--format", "json", cwd=git_repo.path / "src")
    assert out.returncode == 1, out.stderr
    import json

    changes = json.loads(out.stdout)["changes"]
    assert {c["subject"]["path"] for c in changes} == {"src/tools.py"}


def test_sarif_format_from_the_cli(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=SAFE)}, "v1")
    git_repo.commit({"src/tools.py": TOOLS.format(annotations=UNSAFE)}, "v2")
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "sarif")
    assert out.returncode == 1
    import json

    log = json.loads(out.stdout)
    assert log["version"] == "2.1.0" and log["runs"][0]["results"][0]["ruleId"] == "tool.dangerous_gained"

"""`receipt demo`: the whole product in one self-contained run, on a throwaway repository.

Builds a small agent codebase (an MCP server, an OpenAI Agents SDK agent, native markers), commits a
"pull request" that quietly lets `refund_order` run without approval, then prints the signed receipt
and verifies it offline, exactly as a reviewer or auditor would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from receipt.errors import UsageError

BASE_FILES = {
    "shop/server.py": '''
        """Order tools exposed to any MCP client."""
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("shop")

        @mcp.tool(annotations={"readOnlyHint": True})
        def lookup_order(order_id: str) -> dict:
            """Look an order up by id."""
            return {}
        ''',
    "shop/agent.py": '''
        from agents import Agent, function_tool

        @function_tool(needs_approval=True)
        def refund_order(order_id: str, amount: float) -> str:
            """Refund (part of) an order to the customer's card."""
            return "ok"

        support = Agent(
            name="Support",
            instructions="Help customers with their orders.",
            model="gpt-5",
            tools=[refund_order],
        )
        ''',
}

HEAD_FILES = {
    "shop/server.py": BASE_FILES["shop/server.py"]
    + '''
        @mcp.tool()
        def delete_customer(customer_id: str) -> None:
            """Delete a customer and their order history."""
        ''',
    "shop/agent.py": BASE_FILES["shop/agent.py"]
    .replace("@function_tool(needs_approval=True)", "@function_tool")
    .replace('model="gpt-5"', 'model="gpt-5-mini"'),
    "shop/internal.py": '''
        def _format_money(cents: int) -> str:
            # an internal refactor: no agent can reach this, so the receipt stays quiet about it
            return f"{cents / 100:.2f}"
        ''',
}


def git_env(name: str, email: str) -> dict[str, str]:
    """Environment for reproducible commits: a fixed identity and date and no system git config, so
    a throwaway repository (the demo's, a test's) gets the same shas on every machine."""
    return {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, **git_env("Demo", "demo@example.invalid")}
    out = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise UsageError(f"demo: git {args[0]} failed: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}")
    return out.stdout.strip()


def _commit(repo: Path, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


def build_demo_repo(path: Path) -> tuple[str, str]:
    path.mkdir(parents=True, exist_ok=True)
    _git(path, "init", "-q", "-b", "main")
    _git(path, "config", "commit.gpgsign", "false")
    base = _commit(path, BASE_FILES, "Support agent with an approval-gated refund tool")
    head = _commit(path, HEAD_FILES, "Speed up refunds; add customer deletion")
    return base, head


def run_demo(keep: Path | None = None, *, terminal: bool = False, colour: bool = False) -> int:
    """Print the demo. `terminal`: a person reads stdout, so the receipt is shown as `trace-diff`
    shows it on a terminal (plain text, verdict last); otherwise the exact signed markdown CI posts."""
    from receipt.keys import generate_signing_key, keyring_from_keys, write_key_pair
    from receipt.pipeline import build_receipt
    from receipt.sign import Binding, render_signed
    from receipt.verify import Expectations, verify_text

    if keep is not None and keep.exists() and any(keep.iterdir()):
        raise UsageError(f"--keep folder is not empty: {keep}")
    work = keep or Path(tempfile.mkdtemp(prefix="receipt-demo-"))
    try:
        repo = work / "shop"
        base, head = build_demo_repo(repo)
        key = generate_signing_key()
        files = write_key_pair(key, str(work / "demo-key"))
        receipt = build_receipt(repo, base, head)
        binding = Binding(repository="demo/shop", pr=1, base_sha=receipt.base.sha, head_sha=receipt.head.sha)
        signed = render_signed(receipt, key, binding)
        (work / "receipt.md").write_text(signed, encoding="utf-8")

        say = sys.stdout.write
        h1, h2 = ("", "") if terminal else ("# ", "## ")
        say(f"{h1}behavior-receipt demo\n\nA throwaway repository at {'<temp dir>' if keep is None else repo} with two commits:\n")
        say(f"  base {base[:12]}  Support agent with an approval-gated refund tool\n")
        say(f"  head {head[:12]}  Speed up refunds; add customer deletion\n\n")
        if terminal:
            from receipt.render import render_terminal

            where = "pipe this command, e.g. `receipt demo | less`" if keep is None else f"see {work / 'receipt.md'}"
            say(f"The receipt CI would post on this pull request, as a terminal shows it\n(the signed markdown: {where}):\n\n")
            say(render_terminal(receipt.model_copy(update={"binding": binding.resolved(receipt)}), colour=colour))
        else:
            say(f"{h2}The receipt CI would post on this pull request\n\n")
            say(signed)
        say(f"\n{h2}Verification (offline, with the public key only)\n\n")
        keyring = keyring_from_keys([key.public_key], source="the demo's public key")
        expect = Expectations.create(repository="demo/shop", pr=1, base_sha=receipt.base.sha, head_sha=receipt.head.sha)
        verified = verify_text(signed, keyring, expect)
        for line in verified.summary_lines(expect):
            say(f"  {line}\n")
        tampered = signed.replace("FAIL", "PASS", 1) if "FAIL" in signed else signed.replace("PASS", "FAIL", 1)
        try:
            verify_text(tampered, keyring)
            say("\n  tampered copy: VERIFIED (unexpected!)\n")
            return 1
        except Exception as e:  # noqa: BLE001 - shown to the user as the demo's point
            say(f"\n  the same receipt with its verdict edited: rejected ({e})\n")
        say(
            "\nTry it on your own repository:  trace-diff HEAD~1 HEAD\n"
            f"Public key of this demo: {files.public_pem if keep is not None else '(deleted with the temp dir)'}\n"
        )
        return 0
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)

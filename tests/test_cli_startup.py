"""What the CLI loads: `trace-diff` without signing never loads the signing stack (cryptography, keys,
verification) or the GitHub client, and `--help` loads none of the engine. Start-up time is measured by
benchmarks/bench_trace_diff.py; here, the imports that decide it are checked in a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder

# Runs an entry point as its console script would, then records which of WATCHED were loaded.
# The entry point ends the process itself (receipt.cli._exiting): what was loaded is recorded by an
# exit handler, which it runs before it ends.
PROBE = """
import atexit, json, sys
entry, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.argv = [entry, *args]
watched = %r

@atexit.register
def record():
    with open(out, "w") as f:
        json.dump(sorted(m for m in watched if m in sys.modules), f)

import receipt.cli
getattr(receipt.cli, "main" if entry == "receipt" else "trace_diff_main")()
"""
SIGNING = ("cryptography", "receipt.keys", "receipt.sign", "receipt.verify")
GITHUB = ("httpx", "receipt.github.api")
ENGINE = ("pydantic", "jinja2", "git", "receipt.models", "receipt.pipeline")
# Read by pydantic's plugin loader to find plugins the CLI turns off (receipt.cli._no_pydantic_plugins).
PLUGINS = ("importlib.metadata",)
WATCHED = (*SIGNING, *GITHUB, *ENGINE, *PLUGINS)

TOOLS = """
from receipt.markers import agent, tool

@tool(dangerous=True, approval="always")
def refund_order(order_id: str):
    '''Refund an order.'''

@agent(model="gpt-5")
def support(q):
    return refund_order(q)
"""


def loaded(tmp_path: Path, entry: str, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    record = tmp_path / "modules.json"
    full_env = {k: v for k, v in os.environ.items() if k != "RECEIPT_SIGNING_KEY"}
    full_env.update({"RECEIPT_CACHE_DIR": str(tmp_path / "cache"), **(env or {})})
    out = subprocess.run(
        [sys.executable, "-c", PROBE % (WATCHED,), entry, str(record), *args], env=full_env, capture_output=True, text=True
    )
    return out, set(json.loads(record.read_text()))


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS})
    git_repo.commit({"shop/tools.py": TOOLS.replace('approval="always"', 'approval="never"')})
    return git_repo


@pytest.mark.parametrize("entry", ["trace-diff", "receipt"])
def test_help_loads_neither_the_engine_nor_signing(tmp_path: Path, entry: str) -> None:
    out, modules = loaded(tmp_path, entry, "--help")
    assert out.returncode == 0, out.stderr
    assert "Usage:" in out.stdout
    assert modules == set()


def test_an_unsigned_receipt_never_loads_cryptography_or_the_github_client(repo: GitRepoBuilder, tmp_path: Path) -> None:
    out, modules = loaded(tmp_path, "trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "-o", str(tmp_path / "r.md"))
    assert out.returncode == 1, out.stderr  # approval lowered: a regression
    assert "**FAIL**" in (tmp_path / "r.md").read_text()
    assert modules.isdisjoint((*SIGNING, *GITHUB)), modules
    assert "git" not in modules  # GitPython: its import and `git version` processes cost every run ~50 ms
    assert "importlib.metadata" not in modules  # ~15 ms to look for pydantic plugins that are off
    assert {"pydantic", "receipt.pipeline"} <= modules  # the probe sees what the run did load


def test_a_signed_receipt_loads_the_signing_stack_when_asked(repo: GitRepoBuilder, tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    seed = Ed25519PrivateKey.generate().private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
    out, modules = loaded(
        tmp_path, "trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "-o", str(tmp_path / "r.md"), env={"RECEIPT_SIGNING_KEY": seed}
    )
    assert out.returncode == 1, out.stderr
    assert "signature" in (tmp_path / "r.md").read_text().lower()
    assert {"cryptography", "receipt.keys", "receipt.sign"} <= modules


def test_the_stand_in_plugin_loader_finds_none_and_defers_anything_else_to_pydantics() -> None:
    probe = """
import sys
from receipt.cli import _no_pydantic_plugins
_no_pydantic_plugins()
from pydantic import BaseModel
class M(BaseModel):
    x: int
assert M(x="1").x == 1
from pydantic.plugin._loader import get_plugins  # as pydantic asks for it
assert list(get_plugins()) == [] and "importlib.metadata" not in sys.modules
from pydantic.plugin._loader import PYDANTIC_ENTRY_POINT_GROUP  # a name the stand-in does not have
assert PYDANTIC_ENTRY_POINT_GROUP == "pydantic"
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert (out.returncode, out.stdout.strip()) == (0, "ok"), out.stderr

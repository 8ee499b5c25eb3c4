"""Fail closed: code the analyser cannot read is reported, and agent code it cannot read fails the
gate. Every case is a real two-commit repository run through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder, run_cli, receipt_of, seen

SERVER = '''
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ops")


@mcp.tool(annotations={"readOnlyHint": True})
def status() -> str:
    return "ok"
'''

WIPE = '''

@mcp.tool()
def wipe(path: str) -> str:
    return path
'''




def test_a_1200_term_expression_does_not_hide_a_new_dangerous_tool(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER})
    big = "\nLIMITS = " + " + ".join(["1"] * 1200) + "\n"
    git_repo.commit({"server.py": SERVER + big + WIPE})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("tool.added", "wipe", "regression")]


def _longest_chain_this_python_compiles() -> str:
    """Under the interpreter's default recursion limit, as `python server.py` runs the file: the
    compiler's depth bound follows that limit, and a test before this one in the same process
    may have left it raised (the chain found was then 20,000 terms, past what the extractor reads)."""
    best = ""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        for n in range(500, 20_001, 500):
            chain = "Z = " + " - ".join(["x"] * n) + "\n"
            try:
                compile(chain, "chain.py", "exec")
            except (RecursionError, MemoryError, SyntaxError):
                break
            best = chain
    finally:
        sys.setrecursionlimit(saved)
    return best


def _deepest_code_cpython_accepts() -> str:
    """Nesting at CPython's own limits: 199 brackets and calls (its tokenizer allows 200), 98
    indented blocks (it allows 100), the longest binary chain this interpreter compiles."""
    brackets = "X = " + "(" * 199 + "1" + ")" * 199 + "\n"
    lists = "Y = " + "[" * 199 + "]" * 199 + "\n"
    calls = "W = " + "f(" * 199 + ")" * 199 + "\n"
    blocks = "".join("    " * i + "if True:\n" for i in range(98)) + "    " * 98 + "pass\n"
    return brackets + lists + calls + blocks + _longest_chain_this_python_compiles()


def test_code_at_cpythons_nesting_limits_is_analysed(git_repo: GitRepoBuilder) -> None:
    deep = _deepest_code_cpython_accepts()
    compile(deep, "deep.py", "exec")  # valid Python on this host: the analyser must read it too
    git_repo.commit({"server.py": SERVER})
    git_repo.commit({"server.py": SERVER + "\n" + deep + WIPE})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (1, [("tool.added", "wipe", "regression")])


def test_padding_a_comment_past_max_file_bytes_does_not_hide_a_tool(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER, ".receipt.toml": "max_file_bytes = 10000\n"})
    padding = "# " + "x" * 50_000 + "\n"
    docstring = '"""' + "y" * 50_000 + '"""\n'
    git_repo.commit({"server.py": docstring + SERVER + padding + WIPE})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (1, [("tool.added", "wipe", "regression")])


def test_code_past_max_file_bytes_in_agent_code_fails_closed(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER, ".receipt.toml": "max_file_bytes = 2000\n"})
    filler = "".join(f"V{i} = {i}\n" for i in range(400))
    git_repo.commit({"server.py": SERVER + filler + WIPE})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("surface.unanalysed_agent_code", "server.py", "regression")]
    assert "too-large" in receipt["changes"][0]["message"]


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param("def wipe(path: str) -> str\n    return path\n", id="syntax-error"),
        pytest.param(b"x = '\xff\xfe'\n", id="non-utf8"),
    ],
)
def test_an_unreadable_file_importing_a_framework_fails_closed(git_repo: GitRepoBuilder, broken: str | bytes) -> None:
    git_repo.commit({"server.py": SERVER})
    extra = broken if isinstance(broken, bytes) else broken.encode()
    git_repo.commit({"more_tools.py": b"from server import mcp\nimport mcp.types\n" + extra})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("surface.unanalysed_agent_code", "more_tools.py", "regression")]


@pytest.mark.parametrize("framework_import", ["from langchain_classic.agents import AgentExecutor", "import langchain_classic"])
def test_an_unreadable_file_importing_the_legacy_langchain_package_fails_closed(git_repo: GitRepoBuilder, framework_import: str) -> None:
    # langchain_classic is where AgentExecutor lives since LangChain 1.0: a broken file importing it may hold agents.
    git_repo.commit({"server.py": SERVER})
    git_repo.commit({"support_agent.py": framework_import + "\n\ndef build(:\n    pass\n"})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("surface.unanalysed_agent_code", "support_agent.py", "regression")]


def test_a_broken_file_that_held_exported_tools_fails_closed_even_without_framework_imports(git_repo: GitRepoBuilder) -> None:
    tools = "from receipt.markers import tool\n\n@tool(dangerous=True, approval='always')\ndef wipe(p):\n    return p\n"
    git_repo.commit({"tools.py": tools})
    # The import line itself is what breaks: no framework import is visible any more.
    git_repo.commit({"tools.py": tools.replace("from receipt.markers import tool", "from receipt.markers import tool,")})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("surface.unanalysed_agent_code", "tools.py", "regression")]


def test_an_unreadable_non_agent_file_is_a_warning(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER})
    git_repo.commit({"scripts/report.py": "def f(:\n    pass\n"})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [("surface.extraction_error", "scripts/report.py", "warning")])


def test_the_severity_can_be_lowered_by_the_base_config_only(git_repo: GitRepoBuilder) -> None:
    broken = b"from mcp.server.fastmcp import Context\ndef f(:\n"
    git_repo.commit({"server.py": SERVER})
    # The PR lowers the severity in its own config: ignored for gating (config comes from base).
    git_repo.commit({"more.py": broken, ".receipt.toml": '[severity]\n"surface.unanalysed_agent_code" = "info"\n'})
    code, receipt = receipt_of(git_repo)
    assert code == 1 and ("surface.unanalysed_agent_code", "more.py", "regression") in seen(receipt)
    git_repo.commit({"more.py": broken + b"# edited\n"})
    code, receipt = receipt_of(git_repo)  # now the base has the config
    assert code == 0 and seen(receipt) == [("surface.unanalysed_agent_code", "more.py", "info")]


def test_a_file_broken_identically_at_both_revisions_is_listed_not_reported(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER, "legacy.py": "from agents import Agent\nx = (\n"})
    git_repo.commit({"server.py": SERVER.replace('return "ok"', 'return "fine"')})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])
    assert [(e["path"], e["touched"]) for e in receipt["errors"]] == [("legacy.py", False)]


def _interpreter(name: str) -> str | None:
    """A Python of that version: on PATH, else pyenv's copy (its shims refuse versions not selected)."""
    import glob
    import shutil

    found = sorted(glob.glob(str(Path.home() / ".pyenv" / "versions" / f"{name.removeprefix('python')}*" / "bin" / name)))
    if found:
        return found[-1]
    exe = shutil.which(name)
    return exe if exe and ".pyenv/shims" not in exe else None


NEWER = {
    "3.12": "def wipe[T](path: T) -> T:\n    return path\n",
    "3.12f": 'def wipe(path: str) -> str:\n    return f"{path + f"{"x"}"}"\n',
}


@pytest.mark.parametrize("python", ["python3.10", "python3.12", "python3.13"])
def test_newer_syntax_is_analysed_where_parseable_and_fails_closed_naming_the_python_elsewhere(
    git_repo: GitRepoBuilder, python: str, tmp_path
) -> None:
    """PEP 695 generics on a tool: analysed on 3.12+, fail closed on 3.10 with the Python it needs."""
    exe = _interpreter(python)
    if exe is None:
        pytest.skip(f"{python} not installed")
    git_repo.commit({"server.py": SERVER})
    git_repo.commit({"server.py": SERVER + "\n\n@mcp.tool()\n" + NEWER["3.12"]})
    root = Path(__file__).resolve().parent.parent
    # The host Python runs only the analyser's own code (from source, no install): a stand-in for that runner.
    script = textwrap.dedent(f"""
        import sys, json
        sys.path.insert(0, {str(root)!r})
        from receipt.extract import extract_file
        data = open({str(git_repo.path / "server.py")!r}, "rb").read()
        f = extract_file("server.py", data)
        print(json.dumps({{"error": f.error, "functions": [x.name for x in f.functions]}}))
    """)
    out = subprocess.run([exe, "-c", script], capture_output=True, text=True)
    if out.returncode != 0 and "ModuleNotFoundError" in out.stderr:
        pytest.skip(f"{python} lacks the analyser's dependencies")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    if python == "python3.10":
        assert result["error"]["reason"] == "newer-syntax"
        assert "3.12" in result["error"]["message"] and "PEP 695" in result["error"]["message"]
        assert result["error"]["frameworks"] == ["mcp"]
    else:
        assert result["error"] is None and "wipe" in result["functions"]


def test_newer_syntax_on_this_host_fails_closed_with_the_python_needed(git_repo: GitRepoBuilder) -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("this host parses PEP 695")
    git_repo.commit({"server.py": SERVER})
    git_repo.commit({"server.py": SERVER + "\n\n@mcp.tool()\n" + NEWER["3.12"]})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("surface.unanalysed_agent_code", "server.py", "regression")]
    assert "Python 3.12 (PEP 695" in receipt["changes"][0]["message"]


def test_tests_are_excluded_by_default_and_can_be_included(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": SERVER})
    test_server = SERVER.replace('"ops"', '"fixture"') + WIPE
    git_repo.commit({"tests/test_server.py": test_server, "pkg/conftest.py": test_server, "pkg/wipe_test.py": test_server})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])
    git_repo.commit({".receipt.toml": "include_tests = true\n"})
    out = run_cli("surface", "HEAD", "--repo", str(git_repo.path), "--format", "json")
    assert "wipe" in {t["name"] for t in json.loads(out.stdout)["tools"]}


def test_a_cached_entry_of_a_file_now_past_max_file_bytes_does_not_hide_that_it_is_unread(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    # The facts of server.py are cached by an earlier run without a limit; the base then sets one
    # the file is over. The limit decides, as with no cache: the cache only accelerates.
    git_repo.commit({"server.py": SERVER + WIPE, "other.py": "X = 1\n"})
    git_repo.commit({".receipt.toml": "max_file_bytes = 60\n"})
    git_repo.commit({"other.py": "X = 2\n"})
    cache = str(tmp_path / "cache")
    warm = run_cli("surface", "HEAD~2", "--repo", str(git_repo.path), "--format", "json", env={"RECEIPT_CACHE_DIR": cache})
    assert warm.returncode == 0, warm.stderr
    outs = []
    for where in (cache, "off"):
        out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "json", env={"RECEIPT_CACHE_DIR": where})
        assert out.returncode in (0, 1), out.stderr
        outs.append(json.loads(out.stdout))
    with_cache, without = outs
    assert with_cache == without
    assert "too-large" in json.dumps(with_cache)  # server.py is reported unread at both revisions


def test_a_file_whose_name_is_not_utf8_is_reported_not_a_crash(git_repo: GitRepoBuilder) -> None:
    # git lists the name's bytes; it cannot be said exactly (nor hashed into a cache key): the file
    # is reported under its escaped name, never silently dropped, and the run does not crash.
    git_repo.commit({"server.py": SERVER})
    (git_repo.path / os.fsdecode(b"caf\xe9.py")).write_text("from server import mcp\n\n@mcp.tool()\ndef wipe(path: str) -> str:\n    return path\n")
    git_repo.commit({})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [("surface.extraction_error", "caf\\xe9.py", "warning")])
    assert "not valid UTF-8" in receipt["changes"][0]["message"]


def test_a_module_building_agents_with_a_framework_no_dialect_reads_is_noted(git_repo: GitRepoBuilder) -> None:
    # The receipt is blind to these agents: a PR moving an agent onto one must not read as a removal alone.
    git_repo.commit({"app/__init__.py": "", "app/rag.py": "from llama_index.core.vector_stores import SimpleVectorStore\n"})
    git_repo.commit({
        "app/coder.py": "from strands import Agent, tool\n\n@tool\ndef run_shell(cmd: str) -> str:\n    return cmd\n\nagent = Agent(tools=[run_shell])\n",
        "app/rag.py": "from llama_index.core.vector_stores import SimpleVectorStore\nfrom llama_index.core.tools import FunctionTool\n",
        "app/names.py": "import swarmlib\nfrom agnostic import x\n",
    })
    _, receipt = receipt_of(git_repo)
    notes = {c["subject"]["name"]: c["message"] for c in receipt["changes"] if c["id"] == "surface.unresolved"}
    assert sorted(notes) == ["app/coder.py", "app/rag.py"]
    assert "strands (Strands Agents)" in notes["app/coder.py"] and "llama_index.core.tools" in notes["app/rag.py"]


def test_extraction_in_several_threads_leaves_the_callers_recursion_limit_as_it_was() -> None:
    # Two threads' extractions interleaved as a library caller's pool may run them: the first to
    # enter raises the limit, the first to leave is not the last. Each once restored the limit it
    # saw on entry, and the second had seen the first's raise: 20,000 was left behind.
    from receipt.extract.python import _deep_recursion

    before = sys.getrecursionlimit()
    first, second = _deep_recursion(), _deep_recursion()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert sys.getrecursionlimit() >= 20_000  # the second is still reading deep code
    second.__exit__(None, None, None)
    assert sys.getrecursionlimit() == before

"""`trace-diff` end to end on real git repositories, through the real CLI in subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder, run_cli

TOOLS_V1 = """
from receipt.markers import agent, tool

@tool(dangerous=True, approval="always")
def refund_order(order_id: str, amount: float = 0.0):
    '''Refund an order.'''

@tool(read_only=True)
def lookup_order(order_id: str):
    '''Look an order up.'''

def _internal_helper(x):
    return x * 2

@agent(model="gpt-5")
def support(q):
    lookup_order(q)
    return refund_order(q)
"""


def changes_of(repo: GitRepoBuilder, base: str, head: str, *extra: str) -> tuple[int, dict]:
    out = run_cli("trace-diff", base, head, "--repo", str(repo.path), "--format", "json", *extra)
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, json.loads(out.stdout)


def ids(receipt: dict) -> list[str]:
    return sorted(c["id"] for c in receipt["changes"])


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS_V1}, "v1")
    return git_repo


def test_approval_removed_is_a_regression_and_fails_the_run(repo: GitRepoBuilder) -> None:
    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"')})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert code == 1
    assert ids(receipt) == ["tool.approval_lowered"]
    change = receipt["changes"][0]
    assert change["severity"] == "regression"
    assert change["subject"] == {**change["subject"], "kind": "tool", "name": "refund_order", "path": "shop/tools.py", "line": 5}
    assert (change["before"], change["after"]) == ("always", "never")
    assert receipt["verdict"] == {"ok": False, "fail_on": "regression", "flags": receipt["verdict"]["flags"]}
    assert receipt["summary"]["regressions"] == 1


def test_internal_refactor_and_file_split_report_nothing(repo: GitRepoBuilder) -> None:
    # Move the tools to their own module, re-export them, rename an internal helper: no surface change.
    tools_only, agent_part = TOOLS_V1.split("@agent")
    repo.commit(
        {
            "shop/tools.py": tools_only.replace("_internal_helper", "_double"),
            "shop/agents.py": "from receipt.markers import agent\nfrom shop.tools import lookup_order, refund_order\n\n@agent" + agent_part,
        }
    )
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert code == 0
    assert receipt["changes"] == []
    assert receipt["summary"] == {"agents": 1, "tools": 2, "changes": 0, "regressions": 0, "warnings": 0}


def test_new_dangerous_tool_without_approval_is_a_regression_not_info(repo: GitRepoBuilder) -> None:
    repo.commit(
        {
            "shop/tools.py": TOOLS_V1
            + "\n@tool(dangerous=True)\ndef wipe_account(user_id: str): ...\n",
            "shop/extra.py": "from receipt.markers import agent\nfrom shop.tools import wipe_account\n\n@agent\ndef janitor():\n    wipe_account('x')\n",
        }
    )
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    by_id = {c["id"]: c for c in receipt["changes"]}
    assert by_id["tool.added"]["severity"] == "regression"
    assert by_id["tool.added"]["after"]["dangerous"] is True
    assert by_id["agent.added"]["severity"] == "info"
    assert code == 1


def test_unexported_tools_never_appear(repo: GitRepoBuilder) -> None:
    # A marked tool no exported agent reaches is not part of the surface, whatever it does.
    repo.commit({"shop/tools.py": TOOLS_V1 + "\n@tool(dangerous=True)\ndef orphan(): ...\n"})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert (code, receipt["changes"]) == (0, [])


def test_model_reach_and_signature_changes(repo: GitRepoBuilder) -> None:
    v2 = (
        TOOLS_V1.replace('model="gpt-5"', 'model="gpt-5-mini"')
        .replace("lookup_order(q)\n", "")
        .replace("amount: float = 0.0", "amount: float, reason: str")
    )
    repo.commit({"shop/tools.py": v2})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert "agent.model_changed" in ids(receipt)
    assert "agent.reach_removed" in ids(receipt)
    assert "tool.signature_changed" in ids(receipt)
    assert "tool.removed" in ids(receipt)  # lookup_order is no longer reachable, so no longer exported


def test_syntax_error_reports_extraction_error_and_the_rest_still_works(repo: GitRepoBuilder) -> None:
    repo.commit(
        {
            "shop/broken.py": "def oops(:\n",
            "shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'),
        }
    )
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert ids(receipt) == ["surface.extraction_error", "tool.approval_lowered"]
    err = next(c for c in receipt["changes"] if c["id"] == "surface.extraction_error")
    assert err["subject"]["path"] == "shop/broken.py"


def test_broken_file_at_head_does_not_claim_its_tools_were_removed(repo: GitRepoBuilder) -> None:
    repo.commit({"shop/tools.py": TOOLS_V1 + "\ndef broken(:\n"})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    # One finding, not a removal per tool: the file's agent code can no longer be seen, so it fails closed.
    assert ids(receipt) == ["surface.unanalysed_agent_code"]
    assert code == 1


def test_non_utf8_python_at_head_is_an_error_not_silence(repo: GitRepoBuilder) -> None:
    repo.commit({"shop/latin.py": b"name = '\xe9t\xe9'\n"})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert ids(receipt) == ["surface.extraction_error"]
    assert "offset" in receipt["changes"][0]["message"] or receipt["errors"][0]["reason"] == "non-utf8"


def test_fail_on_levels_and_exit_codes(repo: GitRepoBuilder) -> None:
    repo.commit({"shop/tools.py": TOOLS_V1.replace('model="gpt-5"', 'model="gpt-5-mini"')})  # a warning
    assert changes_of(repo, "HEAD~1", "HEAD")[0] == 0
    assert changes_of(repo, "HEAD~1", "HEAD", "--fail-on", "warning")[0] == 1
    assert changes_of(repo, "HEAD~1", "HEAD", "--fail-on", "never")[0] == 0
    bad = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--fail-on", "sometimes")
    assert bad.returncode == 2


def test_gating_config_is_read_from_the_base_revision(repo: GitRepoBuilder) -> None:
    repo.commit({".receipt.toml": 'fail_on = "regression"\n'}, "add config")
    # The PR relaxes its own gate and lowers approval in the same change: the base config still rules.
    repo.commit(
        {
            ".receipt.toml": 'fail_on = "never"\n',
            "shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'),
        }
    )
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    assert code == 1
    assert "config.changed" in ids(receipt)


def test_json_contract_keys(repo: GitRepoBuilder) -> None:
    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"')})
    _, r = changes_of(repo, "HEAD~1", "HEAD", "--include-surfaces")
    assert r["schema"] == "behavior-receipt/v1"
    assert set(r["tool"]) >= {"name", "version"}
    for side in ("base", "head"):
        assert set(r[side]) >= {"rev", "sha", "surface_sha256"} and len(r[side]["sha"]) == 40
    assert set(r["summary"]) >= {"agents", "tools", "changes", "regressions", "warnings"}
    assert set(r["verdict"]) >= {"ok", "fail_on", "flags"}
    for c in r["changes"]:
        assert set(c) >= {"id", "severity", "subject", "before", "after", "message", "fingerprint"}
        assert set(c["subject"]) >= {"kind", "name", "path", "line"}
        assert len(c["fingerprint"]) == 12
    assert set(r["surfaces"]) == {"base", "head"}


def test_surface_command_json_contract(repo: GitRepoBuilder) -> None:
    out = run_cli("surface", "HEAD", "--repo", str(repo.path), "--format", "json")
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["schema"] == "behavior-receipt-surface/v1"
    assert set(s) >= {"rev", "sha", "agents", "tools", "prompts", "errors"}
    for e in s["agents"] + s["tools"]:
        assert set(e) >= {"name", "kind", "path", "line", "exported"}
    assert [t["name"] for t in s["tools"]] == ["lookup_order", "refund_order"]
    table = run_cli("surface", "HEAD", "--repo", str(repo.path))
    assert "refund\\_order" in table.stdout and table.returncode == 0


def test_bad_revisions_and_repos_exit_3_with_one_line(repo: GitRepoBuilder, tmp_path: Path) -> None:
    out = run_cli("trace-diff", "nope", "HEAD", "--repo", str(repo.path))
    assert out.returncode == 3
    assert out.stderr.startswith("error: unknown revision 'nope'") and "Traceback" not in out.stderr
    out = run_cli("trace-diff", "HEAD", "HEAD", "--repo", str(tmp_path / "nowhere"))
    assert out.returncode == 3 and "Traceback" not in out.stderr
    out = run_cli("trace-diff", "HEAD", "HEAD", "missing/dir", "--repo", str(repo.path))
    assert out.returncode == 3 and "path not found" in out.stderr
    assert out.stdout == ""  # never a false "no changes"


def test_shallow_clone_missing_base_prints_the_fetch_command(repo: GitRepoBuilder, tmp_path: Path) -> None:
    base = repo.git("rev-parse", "HEAD")
    repo.commit({"shop/tools.py": TOOLS_V1 + "\n# more\n"})
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth=1", f"file://{repo.path}", str(shallow)], check=True)
    out = run_cli("trace-diff", base, "HEAD", "--repo", str(shallow))
    assert out.returncode == 3
    assert f"git fetch --no-tags origin {base}" in out.stderr
    assert out.stdout == ""


def test_output_file_and_paths_argument(repo: GitRepoBuilder, tmp_path: Path) -> None:
    repo.commit({"other/__init__.py": ""})
    repo.commit(
        {
            "shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'),
            "other/agent.py": "from receipt.markers import agent\n@agent(model='x')\ndef other(): pass\n",
        }
    )
    target = tmp_path / "out" / "receipt.md"
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "other", "--repo", str(repo.path), "--output", str(target))
    assert out.returncode == 0, out.stderr  # the regression is outside the scanned path
    assert out.stdout == ""
    assert "agent\\.added" in target.read_text()  # ids are escaped like all text


def test_receipt_is_byte_identical_under_any_hash_seed(repo: GitRepoBuilder) -> None:
    repo.commit(
        {
            "shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"').replace('model="gpt-5"', "model=MODEL")
            + "\nimport os\nMODEL = os.environ['M']\n",
            "shop/more.py": "from receipt.markers import agent, tool\n"
            + "".join(f"@tool(dangerous={i % 2 == 0})\ndef t{i}(a{i}: int): ...\n" for i in range(30))
            + "@agent\ndef many():\n" + "".join(f"    t{i}(1)\n" for i in range(30)),
        }
    )
    outputs = set()
    for seed in ("0", "1", "42", "random"):
        for fmt in ("markdown", "json"):
            env = {"PYTHONHASHSEED": seed}
            out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", fmt, env=env)
            assert out.returncode == 1, out.stderr
            outputs.add((fmt, out.stdout))
    assert len(outputs) == 2  # one markdown, one json: identical across seeds
    md = next(text for fmt, text in outputs if fmt == "markdown")
    assert "\r" not in md and all(line == line.rstrip() for line in md.splitlines())
    assert str(repo.path) not in md


def test_cache_makes_the_second_run_reuse_facts(repo: GitRepoBuilder, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {"RECEIPT_CACHE_DIR": str(cache)}
    first = run_cli("trace-diff", "HEAD", "HEAD", "--repo", str(repo.path), "--format", "json", env=env)
    entries = sorted(p.name for p in cache.rglob("*.zjson"))
    assert entries, "cold run writes the cache"
    second = run_cli("trace-diff", "HEAD", "HEAD", "--repo", str(repo.path), "--format", "json", env=env)
    assert first.stdout == second.stdout
    assert sorted(p.name for p in cache.rglob("*.zjson")) == entries


def _rotate(cache: Path) -> int:
    """Each entry file gets the next one's content, as a mixed-up shared or restored cache would."""
    files = sorted(cache.rglob("*.zjson"))
    contents = [p.read_bytes() for p in files]
    for p, data in zip(files, contents[1:] + contents[:1]):
        p.write_bytes(data)
    return len(files)


def _relabel(cache: Path, python: str) -> None:
    """Rewrite every entry as if another interpreter had computed it, with another entry's facts for
    the same path: only the interpreter check can tell."""
    import zlib

    import zstandard

    from receipt.extract import moduleindex
    from receipt.extract.cache import pack, unpack

    def unpacked(data: bytes) -> bytes:  # facts entries are zstandard frames (cache.pack), surfaces and screens zlib streams
        for read in (unpack, moduleindex.plain):  # module indexes: checked zstandard frames
            try:
                return read(data)
            except Exception:  # noqa: BLE001 - not a zstandard frame of that kind
                pass
        return zlib.decompress(data)

    for p in sorted(cache.glob("modules/*/*.zjson")):  # module indexes: one checked zstandard frame each
        try:
            head, _, body = moduleindex.plain(p.read_bytes()).partition(b"\n")
        except Exception:  # noqa: BLE001 - another entry's bytes, rotated in: left as they are
            continue
        header = json.loads(head)
        header["bound"]["python"] = python
        p.write_bytes(zstandard.ZstdCompressor(write_checksum=True).compress(json.dumps(header).encode() + b"\n" + body))
    files = sorted(f for f in cache.rglob("*.zjson") if f.parts[-3] != "modules")
    raw = [unpacked(p.read_bytes()) for p in files]
    files, raw = [list(x) for x in zip(*[(p, r) for p, r in zip(files, raw) if b'"format":"modules-' not in r.partition(b"\n")[0]])]
    facts = [(p, json.loads(r)) for p, r in zip(files, raw) if b"\n" not in r]  # a surface entry is a header line, then its parts
    for p, e in facts:
        donor = next((d for q, d in facts if q != p and d["bound"].get("path") == e["bound"].get("path")), e)
        p.write_bytes(pack(json.dumps({"bound": {**e["bound"], "python": python}, "facts": donor["facts"]}).encode()))
    for p, r in zip(files, raw):
        if b"\n" in r and "parts" not in json.loads(r.partition(b"\n")[0]):  # screens kept with a surface
            head, _, body = r.partition(b"\n")
            header = json.loads(head)
            header["bound"]["python"] = python
            p.write_bytes(zlib.compress(json.dumps(header).encode() + b"\n" + body))
        elif b"\n" in r:
            header, parts = _parse_surface_entry(r)
            _write_surface_entry(p, {**header, "bound": {**header["bound"], "python": python}}, parts)


def test_a_rotated_or_foreign_cache_never_changes_the_verdict(repo: GitRepoBuilder, tmp_path: Path) -> None:
    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'), "shop/util.py": "X = 1\n"})
    repo.commit({"shop/util.py": "X = 2\n"})
    repo.commit({"shop/tools.py": TOOLS_V1, "shop/util.py": "X = 3\n"})
    env = {"RECEIPT_CACHE_DIR": str(tmp_path / "cache")}
    cold = run_cli("trace-diff", "HEAD~3", "HEAD~2", "--repo", str(repo.path), "--format", "json", env=env)
    assert cold.returncode == 1 and "tool.approval_lowered" in cold.stdout
    surfaces = {rev: run_cli("surface", rev, "--repo", str(repo.path), "--format", "json", env={"RECEIPT_CACHE_DIR": ""}).stdout for rev in ("HEAD~3", "HEAD~2", "HEAD")}
    for rev in surfaces:  # fill the cache with every revision's facts
        run_cli("surface", rev, "--repo", str(repo.path), "--format", "json", env=env)
    assert _rotate(tmp_path / "cache") >= 4
    again = run_cli("trace-diff", "HEAD~3", "HEAD~2", "--repo", str(repo.path), "--format", "json", env=env)
    assert (again.returncode, again.stdout) == (1, cold.stdout)  # FAIL stays FAIL
    for rev, text in surfaces.items():  # one revision alone: no file is "changed", only the binding protects it
        _rotate(tmp_path / "cache")
        assert run_cli("surface", rev, "--repo", str(repo.path), "--format", "json", env=env).stdout == text
    _relabel(tmp_path / "cache", "cpython-3.99.0")
    for rev, text in surfaces.items():
        assert run_cli("surface", rev, "--repo", str(repo.path), "--format", "json", env=env).stdout == text


def _surface_entries(cache: Path) -> list[tuple[Path, tuple[dict, dict[str, bytes]]]]:
    """Each linked-surface entry: its header (binding, digests, part lengths, sha256) and its parts."""
    import zlib

    return [(p, _parse_surface_entry(zlib.decompress(p.read_bytes()))) for p in sorted((cache / "surfaces").rglob("*.zjson"))]


def _parse_surface_entry(data: bytes) -> tuple[dict, dict[str, bytes]]:
    head, _, body = data.partition(b"\n")
    header = json.loads(head)
    parts, at = {}, 0
    for name, size in header["parts"]:
        parts[name], at = body[at : at + size], at + size
    return header, parts


def _write_surface_entry(path: Path, header: dict, parts: dict[str, bytes], *, seal: bool = True) -> None:
    """Write an entry in the cache's layout; `seal`: with the sha256 of the parts written (else the
    header's stays, as a partial edit leaves it)."""
    import hashlib
    import zlib

    body = b"".join(parts.values())
    header = {**header, "parts": [[k, len(v)] for k, v in parts.items()]}
    if seal:
        header["sha256"] = hashlib.sha256(body).hexdigest()
    path.write_bytes(zlib.compress(json.dumps(header).encode() + b"\n" + body))


def test_a_rerun_reuses_linked_surfaces_but_never_one_linked_from_other_facts_of_a_changed_file(
    repo: GitRepoBuilder, tmp_path: Path
) -> None:
    import zlib

    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'), "shop/util.py": "X = 1\n"})
    cache = tmp_path / "cache"
    env = {"RECEIPT_CACHE_DIR": str(cache)}
    cold = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", env=env)
    assert cold.returncode == 1 and "tool.approval_lowered" in cold.stdout
    entries = _surface_entries(cache)
    # base and head, each with the facts of every file it was linked from
    assert sorted(sorted(h["digests"]) for _, (h, _) in entries) == [["shop/tools.py"], ["shop/tools.py", "shop/util.py"]]
    for path, (header, parts) in entries:
        # A surface that says the approval is still there, recorded as linked from other facts of
        # the file the change touches (as a surface computed by another extractor would be).
        parts = {k: v.replace(b'"never"', b'"always"') for k, v in parts.items()}
        header["digests"]["shop/tools.py"] = "0" * 64
        _write_surface_entry(path, header, parts)
    again = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", env=env)
    assert (again.returncode, again.stdout) == (1, cold.stdout)  # FAIL stays FAIL: relinked from the blobs
    rerun = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", env=env)
    assert (rerun.returncode, rerun.stdout) == (1, cold.stdout)
    assert [p for p, _ in _surface_entries(cache)] == [p for p, _ in entries]  # relinked under the same binding


MORE = "from receipt.markers import tool\n\n@tool\ndef {name}():\n    '''Ping.'''\n"


def test_a_corrupt_or_partly_edited_surface_entry_is_linked_again_and_the_receipt_stays_right(
    repo: GitRepoBuilder, tmp_path: Path
) -> None:
    """The receipt's surface digests are made from a surface entry's stored bytes: an entry whose
    bytes are not the ones it was sealed with must never be read, whatever else it still matches."""
    import zlib

    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'), "shop/more.py": MORE.format(name="ping")})
    repo.commit({"shop/broken.py": "def (:\n", "shop/more.py": MORE.format(name="ping_é")})
    cache = tmp_path / "cache"
    env = {"RECEIPT_CACHE_DIR": str(cache)}
    args = ("trace-diff", "HEAD~2", "HEAD", "--repo", str(repo.path), "--format", "json", "--include-surfaces")
    cold = run_cli(*args, env=env)
    assert cold.returncode == 1 and "tool.approval_lowered" in cold.stdout, cold.stderr
    assert '"touched":true' in cold.stdout.replace(" ", "") and "ping_é" in cold.stdout
    assert run_cli(*args, env={"RECEIPT_CACHE_DIR": ""}).stdout == cold.stdout
    rerun = run_cli(*args, env=env)  # digests made from the stored bytes: the same receipt, byte for byte
    assert (rerun.returncode, rerun.stdout) == (1, cold.stdout)
    entries = _surface_entries(cache)
    assert len(entries) == 2 and all(set(parts) >= {"agents", "tools", "prompts", "errors", "skipped"} for _, (_, parts) in entries)
    honest = {p: p.read_bytes() for p, _ in entries}

    def lowered_back(parts: dict[str, bytes]) -> dict[str, bytes]:
        # The approval back at both revisions, as if nothing were lowered; binding and facts digests untouched.
        return {k: v.replace(b'"never"', b'"always"') for k, v in parts.items()}

    def swap(entries: list) -> None:
        (pa, (ha, a)), (pb, (hb, b)) = entries
        _write_surface_entry(pa, ha, b, seal=False)
        _write_surface_entry(pb, hb, a, seal=False)

    tampers = {
        "parts edited, sha256 kept": lambda es: [_write_surface_entry(p, h, lowered_back(parts), seal=False) for p, (h, parts) in es],
        "sha256 replaced": lambda es: [_write_surface_entry(p, {**h, "sha256": "0" * 64}, parts, seal=False) for p, (h, parts) in es],
        "parts swapped between entries": swap,
        "part lengths shifted": lambda es: [
            p.write_bytes(zlib.compress(json.dumps({**h, "parts": [[k, n + (1, -1)[i] if i < 2 else n] for i, (k, n) in enumerate(h["parts"])]}).encode()
                                        + b"\n" + b"".join(parts.values())))
            for p, (h, parts) in es
        ],
        "truncated": lambda es: [p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]) for p, _ in es],
        "header only": lambda es: [p.write_bytes(zlib.compress(json.dumps(h).encode())) for p, (h, _) in es],
    }
    for what, tamper in tampers.items():
        tamper(_surface_entries(cache))
        again = run_cli(*args, env=env)
        assert (again.returncode, again.stdout) == (1, cold.stdout), what
        assert {p: p.read_bytes() for p in honest} == honest, what  # linked again and stored as before
    # The sealed edit cannot be told from an honest entry (it is bound to the tree and facts it
    # names): the edited parts are what the receipt then reads.
    for p, (h, parts) in _surface_entries(cache):
        _write_surface_entry(p, h, lowered_back(parts))
    assert run_cli(*args, env=env).returncode == 0


def test_a_sealed_surface_entry_this_version_cannot_read_is_linked_again(repo: GitRepoBuilder, tmp_path: Path) -> None:
    """Sealed (its sha256 matches) but not a surface this version reads: an old or foreign layout
    of the parts is a miss, linked again from the blobs, never a crash or a half-read surface."""
    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"')})
    cache = tmp_path / "cache"
    env = {"RECEIPT_CACHE_DIR": str(cache)}
    args = ("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", "--include-surfaces")
    cold = run_cli(*args, env=env)
    assert cold.returncode == 1 and "tool.approval_lowered" in cold.stdout, cold.stderr
    honest = {p: p.read_bytes() for p, _ in _surface_entries(cache)}
    edits = {
        "an unknown field": lambda parts: {**parts, "tools": parts["tools"].replace(b'"approval"', b'"approval_v0"', 1)},
        "not JSON": lambda parts: {**parts, "tools": parts["tools"][:-1]},
        "a part missing": lambda parts: {k: v for k, v in parts.items() if k != "agents"},
        "a revision stored": lambda parts: {**parts, "rev": b'"HEAD~1"'},
        "a list that is an object": lambda parts: {**parts, "errors": b"{}"},
    }
    for what, edit in edits.items():
        for path, (header, parts) in _surface_entries(cache):
            _write_surface_entry(path, header, edit(parts))
        again = run_cli(*args, env=env)
        assert (again.returncode, again.stdout, again.stderr) == (1, cold.stdout, ""), what
        assert {p: p.read_bytes() for p in honest} == honest, what  # linked again and stored as before


def test_help_is_readable_and_trace_diff_alias_works(repo: GitRepoBuilder) -> None:
    out = run_cli("--help")
    assert out.returncode == 0 and "trace-diff" in out.stdout and "verify" in out.stdout
    exe = Path(sys.executable).parent / "trace-diff"
    if exe.exists():
        alias = subprocess.run([str(exe), "HEAD", "HEAD", "--repo", str(repo.path), "--format", "json"], capture_output=True, text=True)
        assert alias.returncode == 0, alias.stderr
        assert json.loads(alias.stdout)["changes"] == []
        helptext = subprocess.run([str(exe), "--help"], capture_output=True, text=True)
        assert "BASE" in helptext.stdout and "HEAD" in helptext.stdout


def test_explain_prints_the_catalogue_entry() -> None:
    out = run_cli("explain", "tool.approval_lowered")
    assert out.returncode == 0 and "regression" in out.stdout
    assert run_cli("explain", "no.such_change").returncode == 2
    listing = run_cli("explain")
    assert "tool.dangerous_gained" in listing.stdout


def test_no_traceback_on_unexpected_input(repo: GitRepoBuilder) -> None:
    out = run_cli("trace-diff", "--", "-x", "HEAD", "--repo", str(repo.path))
    assert "Traceback" not in out.stderr and out.returncode in (2, 3)


def test_progress_is_quiet_when_stderr_is_not_a_terminal(repo: GitRepoBuilder) -> None:
    out = run_cli("trace-diff", "HEAD", "HEAD", "--repo", str(repo.path), env={"GITHUB_ACTIONS": ""})
    assert out.stderr == ""  # no progress noise in logs and pipes
    assert out.returncode == 0 and out.stdout.startswith("## Behavior receipt")


def test_user_template_is_read_from_the_base_revision(repo: GitRepoBuilder) -> None:
    repo.commit(
        {
            ".receipt.toml": 'template = ".github/receipt.md.j2"\n',
            ".github/receipt.md.j2": "## Our receipt\n\nVerdict {{ verdict }} ({{ counts }})\n{{ tool_line }}\n",
        },
        "team template",
    )
    # The PR rewrites the template to hide its verdict: the base's template is still used.
    repo.commit(
        {
            ".github/receipt.md.j2": "## All good\n",
            "shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'),
        }
    )
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path))
    assert out.returncode == 1, out.stderr
    assert out.stdout.startswith("## Our receipt\n\nVerdict FAIL")
    assert "All good" not in out.stdout


def test_thousands_of_changes_fit_the_comment_budget_signed_and_verifiable(repo: GitRepoBuilder, tmp_path: Path) -> None:
    n = 3000
    tools = "from receipt.markers import agent, tool\n" + "".join(
        f"@tool(dangerous={i % 3 == 0})\ndef tool_{i:04d}(x: int): ...\n" for i in range(n)
    )
    tools += "@agent\ndef everything():\n" + "".join(f"    tool_{i:04d}(1)\n" for i in range(n))
    repo.commit({"shop/many.py": tools})
    keys = run_cli("keygen", "--out", str(tmp_path / "k"))
    assert keys.returncode == 0, keys.stderr
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--sign-key", str(tmp_path / "k.key"))
    assert out.returncode == 1, out.stderr
    assert len(out.stdout) <= 60_000
    assert "> [!CAUTION]\n> **FAIL**" in out.stdout and "changes are not shown here" in out.stdout
    assert out.stdout.rstrip().endswith("</details>")  # the signature block is intact, at the end
    (tmp_path / "r.md").write_text(out.stdout)
    verified = run_cli("verify", str(tmp_path / "r.md"), "--key", str(tmp_path / "k.pub"))
    assert verified.returncode == 0, verified.stderr
    full = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json")
    assert json.loads(full.stdout)["summary"]["changes"] == n + 1  # every tool and the agent: JSON is never cut


def test_a_new_registration_that_cannot_be_resolved_is_a_warning_once(repo: GitRepoBuilder) -> None:
    agent = (
        "from agents import Agent\nfrom vendor_toolkit import load_tools\n"
        "support = Agent(name='support', tools=load_tools())\n"
    )
    repo.commit({"shop/oa.py": agent})
    code, receipt = changes_of(repo, "HEAD~1", "HEAD")
    unresolved = [c for c in receipt["changes"] if c["id"] == "surface.unresolved"]
    assert len(unresolved) == 1 and unresolved[0]["severity"] == "warning"
    assert unresolved[0]["subject"]["path"] == "shop/oa.py"
    # A standing limitation is not news: the next unrelated change does not repeat it.
    repo.commit({"shop/oa.py": agent + "# touched\n"})
    _, again = changes_of(repo, "HEAD~1", "HEAD")
    assert [c for c in again["changes"] if c["id"] == "surface.unresolved"] == []


CREW_TOOL = '''
from crewai.tools import tool

@tool("Refund", max_usage_count={count})
def refund(order_id: str) -> str:
    """Refund an order."""

@tool("Lookup")
def lookup(order_id: str) -> str:
    """Look an order up."""
'''


def test_a_rerun_reads_each_head_entry_as_stored_even_where_it_equals_the_base_one_in_python(
    git_repo: GitRepoBuilder, tmp_path: Path
) -> None:
    """A rerun validates the entries its head shares with its base once; shared means the same JSON,
    not equal Python values: 1 and true are equal in Python, and the head surface says true."""
    git_repo.commit({"crew/tools.py": CREW_TOOL.format(count="1")})
    git_repo.commit({"crew/tools.py": CREW_TOOL.format(count="True")})
    args = ("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "json", "--include-surfaces")
    env = {"RECEIPT_CACHE_DIR": str(tmp_path / "cache")}
    cold = run_cli(*args, env=env)
    assert cold.returncode == 0, cold.stderr
    surfaces = json.loads(cold.stdout)["surfaces"]
    refund = {side: [t for t in surfaces[side]["tools"] if t["name"] == "Refund"][0] for side in ("base", "head")}
    assert (refund["base"]["extra"]["max_usage_count"], refund["head"]["extra"]["max_usage_count"]) == (1, True)
    rerun = run_cli(*args, env=env)
    assert (rerun.returncode, rerun.stdout) == (0, cold.stdout)
    assert run_cli(*args, env={"RECEIPT_CACHE_DIR": ""}).stdout == cold.stdout


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs two usable cores")
def test_a_rerun_checks_the_files_that_differ_the_same_on_one_core_and_on_two(repo: GitRepoBuilder, tmp_path: Path) -> None:
    """On two cores a child process extracts the files that differ while the run reads its cached
    surfaces; on one, the run does. Either way a cached surface recorded from other facts of such a
    file is never used."""
    repo.commit({"shop/tools.py": TOOLS_V1.replace('approval="always"', 'approval="never"'), "shop/util.py": "X = 1\n"})
    args = ("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json")
    one_core = {"preexec_fn": lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})}
    for cores, extra in (("two", {}), ("one", one_core)):
        cache = tmp_path / cores
        env = {**os.environ, "RECEIPT_CACHE_DIR": str(cache)}
        cli = [sys.executable, "-m", "receipt", *args]
        cold = subprocess.run(cli, env=env, capture_output=True, text=True, **extra)
        assert cold.returncode == 1 and "tool.approval_lowered" in cold.stdout, (cores, cold.stderr)
        rerun = subprocess.run(cli, env=env, capture_output=True, text=True, **extra)
        assert (rerun.returncode, rerun.stdout) == (1, cold.stdout), cores
        for path, (header, parts) in _surface_entries(cache):
            header["digests"]["shop/tools.py"] = "0" * 64  # "linked from other facts" of the changed file
            _write_surface_entry(path, header, {k: v.replace(b'"never"', b'"always"') for k, v in parts.items()})
        again = subprocess.run(cli, env=env, capture_output=True, text=True, **extra)
        assert (again.returncode, again.stdout) == (1, cold.stdout), cores


@pytest.mark.skipif(not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2, reason="needs fork and two usable cores")
def test_a_child_that_cannot_extract_a_file_that_differs_leaves_it_to_the_run(repo: GitRepoBuilder, monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt import pipeline
    from receipt.errors import GitError
    from receipt.extract.cache import FactsCache
    from receipt.gitsource import GitRepo, SourceFile

    git = GitRepo(repo.path)
    listing = git.list_files(git.resolve("HEAD"))
    missing = SourceFile(path="shop/gone.py", blob="0" * 40, size=10)
    monkeypatch.setattr(pipeline.threading, "active_count", lambda: 1)  # the CLI's one thread, as it forks
    for files in (listing.files, [*listing.files, missing]):
        seen = pipeline._SeenEntries(files)
        cache = FactsCache(None)
        seen.start_digests(git, cache, 1_000_000)
        assert seen.digests is not None
        fresh = frozenset((f.blob, f.path) for f in files)
        here = {f.path: FactsCache(None).digest(f.blob, f.path, pipeline._extracted(git, f, FactsCache(None), 1_000_000)) for f in listing.files}
        if missing not in files:
            assert pipeline._same_facts(git, listing, cache, fresh, 1_000_000, here, seen)
            assert not pipeline._same_facts(git, listing, cache, fresh, 1_000_000, {**here, "shop/tools.py": "0" * 64}, seen)
            continue
        with pytest.raises(GitError):  # the child failed: the run reads the file itself, and fails as it always did
            pipeline._same_facts(git, type(listing)(files=files, skipped=[]), cache, fresh, 1_000_000, here, seen)
        assert seen.digest(listing.files[0], 1_000_000) is None


@pytest.mark.skipif(not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2, reason="needs fork and two usable cores")
def test_the_files_that_differ_extracted_by_the_child_are_not_extracted_again_by_the_run(
    repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child checking the files that differ hands their entries over: the run's facts of those
    files are the child's, decoded, equal to what extracting them here makes, and nothing is
    extracted here. A file over the size limit has facts made for this run's limit only: none is
    handed over, none is cached."""
    from receipt import pipeline
    from receipt.extract import extract_file
    from receipt.extract.cache import FactsCache, entry_file
    from receipt.gitsource import GitRepo

    repo.commit({"shop/util.py": "X = 1\n" + "".join(f"Y{i} = {i}\n" for i in range(300))})
    git = GitRepo(repo.path)
    listing = git.list_files(git.resolve("HEAD"))
    monkeypatch.setattr(pipeline.threading, "active_count", lambda: 1)  # the CLI's one thread, as it forks
    limit = max(f.size for f in listing.files if f.path == "shop/tools.py") + 1  # shop/util.py is over it
    assert [f.path for f in listing.files if f.size > limit] == ["shop/util.py"]
    cache = FactsCache(tmp_path / "cache")
    seen = pipeline._SeenEntries(listing.files)
    seen.start_digests(git, cache, limit)
    extracted: list[str] = []
    monkeypatch.setattr(pipeline, "extract_file", lambda path, data: extracted.append(path) or extract_file(path, data))
    recorded = {f.path: seen.digest(f, limit) for f in listing.files}
    tools = next(f for f in listing.files if f.path == "shop/tools.py")
    util = next(f for f in listing.files if f.path == "shop/util.py")
    handed = cache.get(tools.blob, tools.path, disk=False)
    assert handed is not None and handed == extract_file(tools.path, git.read_blob(tools.blob))
    assert recorded["shop/tools.py"] == FactsCache(None).digest(tools.blob, tools.path, handed)
    assert pipeline._extracted(git, tools, cache, limit) is handed and "shop/tools.py" not in extracted
    assert cache.get(util.blob, util.path, disk=False) is None and not entry_file(cache.root, util.blob, util.path).exists()  # type: ignore[arg-type]
    assert pipeline._extracted(git, util, cache, limit).error is not None  # too large, here as in the child

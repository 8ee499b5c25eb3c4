"""The head's dialects reuse what the base's scans selected in the modules both revisions share
(`Program.scan`, `receipt.extract.screens`), and that reuse never hides what the change does.

Each case changes only a module B that decides whether an untouched module A registers something:
an alias, a variable holding a decorator, a re-export, a module that appears where an import
failed, a module that goes away. A's screens were computed for the base; the head's surface in the
receipt must be the surface of the head computed alone (no memo), byte for byte, and the change must
show. Real git repositories, the real pipeline and cache.

Every case runs two ways (`how`): "shared", the base's screens handed to the head within one
receipt (`pipeline.SHARE_SCREENS`); "kept", the base's surface computed by one run (`build_surface`,
which keeps its screens in the cache, screenstore.py) and the receipt by another, whose base is read
from the surface cache and whose head reuses the kept screens: no object of the first run reaches
the second, only the cache directory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from receipt import pipeline
from receipt.extract import screenstore
from receipt.extract.screens import ScreenMemo
from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from tests.helpers import GitRepoBuilder

SERVER = "from fastmcp import FastMCP\n\nmcp = FastMCP('ops')\n"
PLAIN_HOOKS = "def add(f):\n    return f\n\n\ndef register(f):\n    return f\n"
SERVER_HOOKS = "from ops.server import mcp\n\nadd = mcp.add_tool\nregister = mcp.tool()\n"
TOOLS = '''
from ops.hooks import add, register


def wipe(path: str) -> str:
    """Delete everything under a path."""
    return path


handle = add(wipe)  # an assigned call: its callee is resolved (and cached) before any screen runs


@register
def purge(path: str) -> str:
    """Purge a path."""
    return path
'''
# Enough untouched modules that most screens are reused.
FILLER = {f"ops/util{i}.py": f"def helper{i}(x):\n    return x + {i}\n\n\nVALUE{i} = helper{i}(1)\n" for i in range(5)}


def _surface_json(surface) -> str:
    return json.dumps(surface.model_dump(mode="json", by_alias=True, exclude={"rev"}), sort_keys=True)


@pytest.fixture(params=["shared", "kept"])
def how(request: pytest.FixtureRequest) -> str:
    return request.param


def _check(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> tuple[set[str], set[str]]:
    """The receipt's two surfaces are those computed alone; returns (base tools, head tools)."""
    memos: list[ScreenMemo] = []
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "receipt-cache"))
    if how == "shared":

        class Spy(ScreenMemo):
            def __init__(self) -> None:
                super().__init__()
                memos.append(self)

        monkeypatch.setattr(pipeline, "ScreenMemo", Spy)
        monkeypatch.setattr(pipeline, "SHARE_SCREENS", True)
    else:
        monkeypatch.setattr(pipeline, "KEEP_SCREENS", True)  # off by default: its memory (see pipeline)
        build_surface(GitRepo(repo), "HEAD~1")  # an earlier run: the base's surface and screens kept

        class KeptSpy(screenstore.KeptMemo):
            def __init__(self, *args: Any) -> None:
                super().__init__(*args)
                memos.append(self)

        monkeypatch.setattr(screenstore, "KeptMemo", KeptSpy)
    receipt = build_receipt(repo, "HEAD~1", "HEAD")
    assert memos and memos[0].reused > 0  # the head did reuse the base's screens
    git = GitRepo(repo)
    for side, rev in (("base", "HEAD~1"), ("head", "HEAD")):
        monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / f"alone-{side}"))
        alone = build_surface(git, rev)
        alone.sha = receipt.surfaces[side].sha
        assert _surface_json(receipt.surfaces[side]) == _surface_json(alone), side
    return ({t.name for t in receipt.surfaces["base"].tools}, {t.name for t in receipt.surfaces["head"].tools})


def test_an_alias_defined_in_another_module_makes_an_untouched_call_a_registration(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": PLAIN_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/hooks.py": SERVER_HOOKS})  # ops/tools.py is untouched
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == set() and head == {"wipe", "purge"}


def test_an_alias_that_stops_naming_a_registration_removes_what_it_registered(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/hooks.py": PLAIN_HOOKS})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == {"wipe", "purge"} and head == set()


def test_a_module_added_where_an_import_failed_turns_untouched_calls_into_registrations(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # At the base, `from ops.hooks import ...` names nothing in the tree: every lookup of it fails.
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/hooks.py": SERVER_HOOKS})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == set() and head == {"wipe", "purge"}


def test_a_deleted_module_takes_the_registrations_it_decided_with_it(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/hooks.py": None})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == {"wipe", "purge"} and head == set()


def test_a_reexport_switched_to_another_module_changes_what_an_untouched_module_registers(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    tools = TOOLS.replace("from ops.hooks import add, register", "from ops import add, register")
    files = {"ops/server.py": SERVER, "ops/plain.py": PLAIN_HOOKS, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": tools, **FILLER}
    git_repo.commit({"ops/__init__.py": "from ops.plain import add, register\n", **files})
    git_repo.commit({"ops/__init__.py": "from ops.hooks import add, register\n"})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == set() and head == {"wipe", "purge"}


def test_a_server_that_moves_to_a_new_module_keeps_its_untouched_registrations(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # The server module is renamed; `ops/hooks.py` follows it, `ops/tools.py` is untouched.
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/server.py": None, "ops/app.py": SERVER, "ops/hooks.py": SERVER_HOOKS.replace("ops.server", "ops.app")})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == head == {"wipe", "purge"}


def test_every_index_a_program_answers_from_is_recorded_while_a_screen_runs(git_repo: GitRepoBuilder) -> None:
    """A screen's reads are recorded by putting a view in front of each Program index it could
    read. An index added to Program and left out of `screens.INDEXES` would be read unrecorded, and
    a reused screen could then hide a change: this lists what a real program holds."""
    from receipt.extract.program import Program
    from receipt.extract.screens import INDEXES
    from receipt.pipeline import _listing, _facts_for
    from receipt.config import Config
    from receipt.extract.cache import FactsCache

    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS})
    git = GitRepo(git_repo.path)
    facts, _, _ = _facts_for(git, _listing(git, "HEAD", (), Config(), False), FactsCache(None), lambda _: None)
    program = Program(facts)
    program.screens = ScreenMemo()
    list(program.scan("probe", lambda p, m: [p.canonical("ops.tools.add")]))
    derived = {"_canon_cache", "_canon_span", "_recording_"}  # answers kept with their reads (see Program.canonical)
    held = {name for name, value in vars(program).items() if isinstance(value, (dict, list, set, tuple))}
    assert held - derived - {"_calls"} <= set(INDEXES), held - derived - set(INDEXES)


def test_a_decorator_that_becomes_a_framework_one_elsewhere_declares_the_untouched_tools(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # LangChain's `@tool` and OpenAI Agents' `@function_tool`, reached through a module of the
    # repository that starts re-exporting them; the decorated functions' module is untouched.
    tools = (
        "from ops.deco import tool, function_tool\n\n\n@tool\ndef search(q: str) -> str:\n    '''Search.'''\n    return q\n\n\n"
        "@function_tool\ndef fetch(url: str) -> str:\n    '''Fetch.'''\n    return url\n"
    )
    plain = "def tool(f):\n    return f\n\n\ndef function_tool(f):\n    return f\n"
    real = "from langchain_core.tools import tool\nfrom agents import function_tool\n"
    # Both frameworks are imported at the base already: their dialects run on both revisions.
    other = "from langchain_core.tools import BaseTool\nfrom agents import Agent\n"
    git_repo.commit({"ops/__init__.py": "", "ops/deco.py": plain, "ops/tools.py": tools, "ops/other.py": other, **FILLER})
    git_repo.commit({"ops/deco.py": real})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == set() and head == {"search", "fetch"}


def test_a_reexport_that_hands_an_untouched_call_to_a_registration_function_registers_its_tools(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # `register(mcp)` in ops/main.py and `def register(server): @server.tool() ...` in ops/tools.py are
    # untouched; ops/hooks.py, which main.py imports `register` from, starts re-exporting the one
    # of ops/tools.py. The call site index (which call passes which server to which function) changes.
    tools = "def register(server):\n    @server.tool()\n    def wipe(path: str) -> str:\n        '''Wipe a path.'''\n        return path\n"
    main = "from ops.server import mcp\nfrom ops.hooks import register\n\nregister(mcp)\n"
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": "def register(server):\n    return server\n",
                     "ops/tools.py": tools, "ops/main.py": main, **FILLER})
    git_repo.commit({"ops/hooks.py": "from ops.tools import register\n"})
    base, head = _check(git_repo.path, tmp_path, monkeypatch, how)
    assert base == set() and head == {"wipe"}

"""Attacks on the gate by spelling (issue 10, items 2-3): each registers a dangerous MCP tool (no
annotations: the protocol default is destructive) or weakens one, in a way that once read as "no
changes". Every case is a real two-commit repository run through the CLI, as a reviewer would."""

from __future__ import annotations

import json

import pytest

from tests.helpers import GitRepoBuilder, run_cli

SERVER = """\
from fastmcp import FastMCP

mcp = FastMCP("ops")


@mcp.tool(annotations={"readOnlyHint": True})
def status(service: str) -> str:
    return "ok"
"""

# (id, files added at head, the tool a client now sees)
IDIOMS = [
    ("stored_decorator", {"ops/extra.py": "from ops.server import mcp\n\nd = mcp.tool()\n\n@d\ndef wipe(path: str) -> str: ...\n"}, "wipe"),
    ("decorator_alias", {"ops/extra.py": "from ops.server import mcp\n\nregister = mcp.tool\n\n@register()\ndef wipe(path: str) -> str: ...\n"}, "wipe"),
    ("getattr_literal", {"ops/extra.py": "from ops.server import mcp\n\ndef wipe(path: str) -> str: ...\n\ngetattr(mcp, 'tool')()(wipe)\n"}, "wipe"),
    ("loop_over_literal_list", {"ops/extra.py": "from ops.server import mcp\n\ndef wipe(path: str) -> str: ...\ndef ping() -> str: ...\n\nfor f in [ping, wipe]:\n    mcp.tool()(f)\n"}, "wipe"),
    ("comprehension", {"ops/extra.py": "from ops.server import mcp\n\ndef wipe(path: str) -> str: ...\n\n[mcp.tool()(f) for f in (wipe,)]\n"}, "wipe"),
    ("partial_decorator", {"ops/extra.py": "import functools\n\nfrom ops.server import mcp\n\nops_tool = functools.partial(mcp.tool, name='wipe_all')\n\n@ops_tool()\ndef wipe(path: str) -> str: ...\n"}, "wipe_all"),
    ("local_factory", {"ops/extra.py": "from fastmcp import FastMCP\n\ndef make():\n    return FastMCP('extra')\n\nextra = make()\n\n@extra.tool\ndef wipe(path: str) -> str: ...\n\nif __name__ == '__main__':\n    extra.run()\n"}, "wipe"),
    ("tool_manager", {"ops/extra.py": "from ops.server import mcp\n\ndef wipe(path: str) -> str: ...\n\nmcp._tool_manager.add_tool(wipe)\n"}, "wipe"),
    ("import_module_literal", {"ops/extra.py": "import importlib\n\nsrv = importlib.import_module('ops.server').mcp\n\n@srv.tool\ndef wipe(path: str) -> str: ...\n"}, "wipe"),
    ("server_passed_to_constructor", {
        "ops/cost.py": "class CostTools:\n    def __init__(self, mcp):\n        mcp.tool(name='purge_costs')(self.run)\n\n    def run(self, month: str) -> str: ...\n",
        "ops/wiring.py": "from ops.cost import CostTools\nfrom ops.server import mcp\n\nCostTools(mcp)\n",
    }, "purge_costs"),
    ("server_passed_to_function", {
        "ops/reg.py": "def register(app):\n    @app.tool()\n    def wipe(path: str) -> str: ...\n",
        "ops/wiring.py": "from ops.reg import register\nfrom ops.server import mcp\n\nregister(mcp)\n",
    }, "wipe"),
]


def _receipt(repo: GitRepoBuilder, base: str, head: str) -> tuple[int, dict]:
    out = run_cli("trace-diff", base, head, "--repo", str(repo.path), "--format", "json")
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, json.loads(out.stdout)


@pytest.mark.parametrize("files,tool", [pytest.param(f, t, id=i) for i, f, t in IDIOMS])
def test_dangerous_tool_registered_through_an_idiom_fails_the_gate(git_repo: GitRepoBuilder, files: dict, tool: str) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit(files)
    code, receipt = _receipt(git_repo, base, head)
    added = [(c["id"], c["subject"]["name"], c["severity"]) for c in receipt["changes"]]
    assert ("tool.added", tool, "regression") in added, added
    assert code == 1


def test_hints_dict_changed_after_it_is_built_is_read_with_the_change(git_repo: GitRepoBuilder) -> None:
    base = git_repo.commit({
        "ops/__init__.py": "",
        "ops/server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('ops')\nANN = {'readOnlyHint': True}\n\n"
                         "@mcp.tool(annotations=ANN)\ndef wipe(path: str) -> str: ...\n",
    })
    head = git_repo.commit({"ops/server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('ops')\nANN = {'readOnlyHint': True}\n"
                                             "ANN['readOnlyHint'] = False\n\n@mcp.tool(annotations=ANN)\ndef wipe(path: str) -> str: ...\n"})
    code, receipt = _receipt(git_repo, base, head)
    ids = sorted((c["id"], c["severity"]) for c in receipt["changes"])
    assert ("tool.dangerous_gained", "regression") in ids and ("tool.read_only_lost", "warning") in ids, ids
    assert code == 1


def test_hints_changed_under_a_condition_are_dynamic_not_guessed(git_repo: GitRepoBuilder) -> None:
    server = "import os\n\nfrom fastmcp import FastMCP\n\nmcp = FastMCP('ops')\nANN = {'readOnlyHint': True}\n{extra}\n@mcp.tool(annotations=ANN)\ndef wipe(path: str) -> str: ...\n"
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": server.replace("{extra}", "")})
    head = git_repo.commit({"ops/server.py": server.replace("{extra}", "if os.environ.get('X'):\n    ANN['readOnlyHint'] = False\n")})
    code, receipt = _receipt(git_repo, base, head)
    assert "attribute.dynamic" in {c["id"] for c in receipt["changes"]}, receipt["changes"]
    assert code == 0  # a warning: the reviewer sees it, the default gate (regression) does not fail


def _changes(receipt: dict) -> list[tuple[str, str, str]]:
    return sorted((c["id"], c["subject"]["name"], c["severity"]) for c in receipt["changes"])


def test_exec_of_a_file_at_module_level_is_code_the_receipt_cannot_see(git_repo: GitRepoBuilder) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit({
        "ops/server.py": SERVER + "\nexec(open('more_tools.txt').read())\n",
        "more_tools.txt": "@mcp.tool()\ndef wipe(path: str) -> str: ...\n",
    })
    code, receipt = _receipt(git_repo, base, head)
    assert _changes(receipt) == [("surface.dynamic_code", "ops/server.py", "regression")]
    assert "exec(open('more_tools.txt').read())" in receipt["changes"][0]["message"]
    assert code == 1
    # Standing at both revisions, it is not news on the next PR.
    later = git_repo.commit({"ops/server.py": SERVER + "\n\nexec(open('more_tools.txt').read())\n"})
    code, receipt = _receipt(git_repo, head, later)
    assert receipt["changes"] == [] and code == 0


@pytest.mark.parametrize("spelling", [
    "exec('@mcp.tool()\\ndef wipe(path: str) -> str: ...')",
    "globals().update(load_overrides())",
])
def test_code_in_a_string_or_names_bound_at_run_time_are_code_the_receipt_cannot_see(git_repo: GitRepoBuilder, spelling: str) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit({"ops/server.py": SERVER + f"\n{spelling}\n"})
    code, receipt = _receipt(git_repo, base, head)
    assert _changes(receipt) == [("surface.dynamic_code", "ops/server.py", "regression")]
    assert spelling.split("(")[0] in receipt["changes"][0]["message"]
    assert code == 1


def test_import_of_a_computed_module_name_is_reported(git_repo: GitRepoBuilder) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit({"ops/plugins.py": "import importlib\nimport os\n\nplugin = importlib.import_module(os.environ['OPS_PLUGIN'])\n"})
    code, receipt = _receipt(git_repo, base, head)
    assert _changes(receipt) == [("surface.dynamic_code", "ops/plugins.py", "regression")]
    assert code == 1


@pytest.mark.parametrize("name", ["ops/hidden.pyc", "ops/__pycache__/extra.cpython-311.pyc", "ops/_native.so", "ops/_native.pyd", "ops/boot.pth", "ops/legacy.pyo"])
def test_committed_compiled_code_is_reported(git_repo: GitRepoBuilder, name: str) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit({name: b"\x00\x0d\x0d\x0a compiled", "ops/server.py": SERVER + "\nimport ops.hidden  # noqa\n"})
    code, receipt = _receipt(git_repo, base, head)
    assert ("surface.compiled_code", name, "regression") in _changes(receipt)
    assert code == 1


@pytest.mark.parametrize("spelling", [
    "delete_repo.needs_approval = False",
    "delete_repo.__dict__['needs_approval'] = False",
    "vars(delete_repo)['needs_approval'] = False",
    "object.__setattr__(delete_repo, 'needs_approval', False)",
    "delete_repo.__dict__.update(needs_approval=False)",
    "vars(delete_repo).update({'needs_approval': False})",
    "for t in [delete_repo]:\n    t.needs_approval = False",
    "RISKY = [delete_repo]\nfor t in RISKY:\n    setattr(t, 'needs_approval', False)",
    "import dataclasses\ndelete_repo = dataclasses.replace(delete_repo, needs_approval=False)",
])
def test_approval_switched_off_after_the_decorator_is_an_approval_lowered(git_repo: GitRepoBuilder, spelling: str) -> None:
    agent = ("from agents import Agent, function_tool\n\n@function_tool(needs_approval=True)\ndef delete_repo(name: str) -> str: ...\n\n"
             "bot = Agent(name='bot', tools=[delete_repo])\n")
    base = git_repo.commit({"app/__init__.py": "", "app/bot.py": agent})
    head = git_repo.commit({"app/bot.py": agent + f"\n{spelling}\n"})
    code, receipt = _receipt(git_repo, base, head)
    assert ("tool.approval_lowered", "delete_repo", "regression") in _changes(receipt), _changes(receipt)
    assert code == 1
    head2 = git_repo.commit({"app/bot.py": agent + "\nimport os\nsetattr(delete_repo, os.environ['ATTR'], False)\n"})
    code, receipt = _receipt(git_repo, base, head2)
    assert ("attribute.dynamic", "delete_repo") in {c[:2] for c in _changes(receipt)}, _changes(receipt)


def test_exported_agent_calling_through_globals_is_reported(git_repo: GitRepoBuilder) -> None:
    agent = ("from receipt.markers import agent, tool\n\n@tool(dangerous=True)\ndef wipe_db() -> None: ...\n\n"
             "@agent(exported=False)\ndef helper(q):\n    wipe_db()\n\n@agent\ndef support(q):\n    return {call}\n")
    base = git_repo.commit({"app/__init__.py": "", "app/bot.py": agent.replace("{call}", "q")})
    head = git_repo.commit({"app/bot.py": agent.replace("{call}", "globals()['hel' + 'per'](q)")})
    code, receipt = _receipt(git_repo, base, head)
    changes = receipt["changes"]
    assert [(c["id"], c["severity"]) for c in changes] == [("surface.unresolved", "warning")], changes
    assert "agent 'support' calls globals()['hel' + 'per']" in changes[0]["message"]
    assert code == 0


@pytest.mark.parametrize("files,needle", [
    pytest.param({"ops/extra.py": "import os\n\nfrom ops.server import mcp\n\ndef wipe(path: str) -> str: ...\n\n"
                                  "getattr(mcp, os.environ['REGISTER'])()(wipe)\n"}, "the attribute name is computed at run time", id="getattr_computed"),
    pytest.param({"ops/extra.py": "from plugins import install\n\nfrom ops.server import mcp\n\ninstall(mcp.tool)\n"},
                 "is passed to plugins.install()", id="decorator_handed_to_other_code"),
    pytest.param({"ops/reg.py": "from fastmcp import FastMCP\n\ndef register(app):\n    @app.tool()\n    def wipe(path: str) -> str: ...\n"},
                 "registration on parameter 'app' of register()", id="parameter_no_known_server"),
])
def test_uses_of_a_server_that_cannot_be_followed_are_reported(git_repo: GitRepoBuilder, files: dict, needle: str) -> None:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER})
    head = git_repo.commit(files)
    code, receipt = _receipt(git_repo, base, head)
    changes = receipt["changes"]
    assert [(c["id"], c["severity"]) for c in changes] == [("surface.unresolved", "warning")], changes
    assert needle in changes[0]["message"]
    assert code == 0  # visible as a warning; the default gate fails on regressions only


def test_tool_classes_instantiated_in_a_loop_register_on_the_server_they_are_given(git_repo: GitRepoBuilder) -> None:
    tools = ("class MemoryTools:\n    def __init__(self, factory):\n        self._factory = factory\n\n"
             "    def register(self, mcp):\n        mcp.tool(name='memory_get', annotations={'readOnlyHint': True})(self.get)\n{extra}\n"
             "    def get(self, memory_id: str) -> str: ...\n\n    def delete(self, memory_id: str) -> str: ...\n")
    wiring = ("from ops.memory import MemoryTools\nfrom ops.server import mcp\n\n\ndef register_all(server):\n"
              "    for cls in [MemoryTools]:\n        cls(None).register(server)\n\n\nregister_all(mcp)\n")
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/wiring.py": wiring,
                            "ops/memory.py": tools.replace("{extra}", "")})
    head = git_repo.commit({"ops/memory.py": tools.replace("{extra}", "        mcp.tool(name='memory_delete')(self.delete)\n")})
    code, receipt = _receipt(git_repo, base, head)
    assert _changes(receipt) == [("tool.added", "memory_delete", "regression")]
    assert code == 1

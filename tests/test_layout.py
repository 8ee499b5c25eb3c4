"""Package layouts: import names from the layout files committed in the tree, and what a receipt
says when a project changes layout (nothing) or a layout file cannot be read (reported)."""

from __future__ import annotations

from pathlib import Path

import pytest

from receipt.extract.facts import Ref
from receipt.layout import read_layout
from tests.helpers import GitRepoBuilder, receipt_of, seen


def where(files: dict[str, str], path: str, sources: tuple[str, ...] = ()) -> tuple[str, str]:
    loc = read_layout(files, (path, *sources)).locate(path)
    return loc.project, loc.module


@pytest.mark.parametrize(
    ("files", "path", "expected"),
    [
        # No layout file: the path is the import name, except under src/ (the convention).
        ({}, "shop/tools.py", ("", "shop.tools")),
        ({}, "src/shop/tools.py", ("", "shop.tools")),
        ({}, "src/shop/__init__.py", ("", "shop")),
        ({"pyproject.toml": '[tool.setuptools.package-dir]\nshop = "lib"\n'}, "lib/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.setuptools.package-dir]\nshop = "lib"\n'}, "lib/__init__.py", ("", "shop")),
        ({"pyproject.toml": '[tool.setuptools.package-dir]\n"" = "code"\n'}, "code/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["python"]\n'}, "python/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.hatch.build.targets.wheel]\npackages = ["lib/shop"]\n'}, "lib/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.hatch.build.targets.wheel.sources]\n"lib/impl" = "shop"\n'}, "lib/impl/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.hatch.build]\nsources = ["pkgs"]\n'}, "pkgs/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.poetry]\npackages = [{include = "shop", from = "lib"}]\n'}, "lib/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.pdm.build]\npackage-dir = "code"\n'}, "code/shop/tools.py", ("", "shop.tools")),
        ({"pyproject.toml": '[tool.uv.build-backend]\nmodule-root = "code"\n'}, "code/shop/tools.py", ("", "shop.tools")),
        ({"setup.cfg": "[options]\npackage_dir =\n    =code\n"}, "code/shop/tools.py", ("", "shop.tools")),
        ({"setup.cfg": "[options]\npackage_dir =\n    shop = lib\n"}, "lib/tools.py", ("", "shop.tools")),
        ({"setup.cfg": "[options.packages.find]\nwhere = code\n"}, "code/shop/tools.py", ("", "shop.tools")),
        # Nested projects of a monorepo: each is its own import root, flat or src/.
        ({"servers/a/pyproject.toml": "[project]\nname = 'a'\n"}, "servers/a/a_srv/server.py", ("servers/a", "a_srv.server")),
        ({"servers/a/pyproject.toml": "[project]\nname = 'a'\n"}, "servers/a/src/a_srv/server.py", ("servers/a", "a_srv.server")),
        ({"servers/a/pyproject.toml": '[tool.setuptools.package-dir]\na_srv = "impl"\n'}, "servers/a/impl/server.py", ("servers/a", "a_srv.server")),
        ({"servers/a/setup.py": "from setuptools import setup\nsetup()\n"}, "servers/a/a_srv/server.py", ("servers/a", "a_srv.server")),
    ],
)
def test_import_name_follows_the_declared_layout(files: dict[str, str], path: str, expected: tuple[str, str]) -> None:
    assert where(files, path) == expected


def test_src_that_is_a_package_keeps_its_name() -> None:
    assert where({}, "src/shop/tools.py", ("src/__init__.py",)) == ("", "src.shop.tools")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[tool.setuptools.package-dir\nshop = "lib"\n', "TOML syntax error"),
        ('[tool.setuptools]\npackage-dir = "lib"\n', "tool.setuptools.package-dir must be a table"),
        ('[tool.setuptools.package-dir]\nshop = "../../elsewhere"\n', "points outside the repository"),
        ('[tool.setuptools.package-dir]\n"not a name" = "lib"\n', "is not a package name"),
        ("[tool.poetry]\npackages = 3\n", "tool.poetry.packages must be a list"),
        ("x = 1" + "0" * 5000 + "\n", "out of range"),
    ],
)
def test_unreadable_layout_file_is_reported_and_keeps_the_flat_default(text: str, says: str) -> None:
    layout = read_layout({"pkg/pyproject.toml": text}, ("pkg/lib/tools.py",))
    [issue] = layout.issues
    assert issue.path == "pkg/pyproject.toml" and issue.kind == "error" and issue.reason == "unreadable-layout"
    assert says in issue.message
    assert layout.locate("pkg/lib/tools.py").module == "lib.tools"


def test_unreadable_setup_cfg_and_non_utf8_are_reported() -> None:
    layout = read_layout({"a/setup.cfg": "[options\npackage_dir = =src\n", "b/pyproject.toml": b"\xff\xfe"}, ())
    assert sorted((i.path, i.reason) for i in layout.issues) == [("a/setup.cfg", "unreadable-layout"), ("b/pyproject.toml", "unreadable-layout")]


TOOLS = '''
from agents import function_tool


@function_tool(needs_approval=True)
def refund(order_id: str, amount: float) -> str:
    """Refund an order."""
    return "ok"
'''

AGENT = '''
from agents import Agent
from shop.tools import refund

support = Agent(name="support", instructions="Help customers.", tools=[refund])
'''


def _repo(tmp_path: Path) -> GitRepoBuilder:
    return GitRepoBuilder(tmp_path / "repo")


def test_move_to_src_layout_is_no_change(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    flat = {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/__init__.py": "", "shop/tools.py": TOOLS, "shop/main.py": AGENT,
            # two tools one name in two modules, both moved: each pairs with itself by where it lives
            "shop/legacy.py": TOOLS.replace("needs_approval=True", "needs_approval=False"),
            "shop/old_main.py": AGENT.replace("shop.tools", "shop.legacy").replace('"support"', '"legacy_support"')}
    repo.commit(flat)
    moved = {**{k: None for k in flat if k.startswith("shop/")}, **{f"src/{k}": v for k, v in flat.items() if k.startswith("shop/")}}
    moved["pyproject.toml"] = "[project]\nname = 'shop'\n\n[tool.setuptools.packages.find]\nwhere = ['src']\n"
    repo.commit(moved)
    code, receipt = receipt_of(repo)
    assert code == 0, receipt
    assert receipt["changes"] == []
    assert receipt["summary"]["tools"] >= 1


def test_package_dir_resolved_at_both_revisions(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    layout = '[project]\nname = "shop"\n\n[tool.setuptools.package-dir]\nshop = "lib"\n'
    repo.commit({"pyproject.toml": layout, "lib/__init__.py": "", "lib/tools.py": TOOLS, "app/main.py": AGENT})
    # The PR removes the approval: visible only if `from shop.tools import refund` reaches lib/tools.py.
    repo.commit({"lib/tools.py": TOOLS.replace("needs_approval=True", "needs_approval=False")})
    code, receipt = receipt_of(repo)
    assert code == 1
    assert ("tool.approval_lowered", "refund", "regression") in seen(receipt)
    assert not any(c["id"].startswith("agent.reach") for c in receipt["changes"])


def test_layout_declared_in_the_pr_resolves_at_head_only_without_noise(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.commit({"shop/__init__.py": "", "shop/tools.py": TOOLS, "app/main.py": AGENT})
    # Moved under lib/ with the mapping that keeps `shop.tools` importable: the same program.
    repo.commit({"shop/__init__.py": None, "shop/tools.py": None, "lib/__init__.py": "", "lib/tools.py": TOOLS,
                 "pyproject.toml": '[tool.setuptools.package-dir]\nshop = "lib"\n'})
    code, receipt = receipt_of(repo)
    assert (code, receipt["changes"]) == (0, [])


def test_broken_layout_file_the_pr_touches_is_reported(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    repo.commit({"pyproject.toml": '[tool.setuptools.package-dir]\nshop = "lib"\n', "lib/__init__.py": "", "lib/tools.py": TOOLS,
                 "app/main.py": AGENT})
    repo.commit({"pyproject.toml": '[tool.setuptools.package-dir\nshop = "lib"\n'})
    code, receipt = receipt_of(repo)
    assert ("surface.extraction_error", "pyproject.toml", "warning") in seen(receipt)
    assert any(e["path"] == "pyproject.toml" and e["reason"] == "unreadable-layout" for e in receipt["errors"])


def test_a_package_name_two_projects_define_resolves_to_the_importing_projects_own() -> None:
    from receipt.extract import extract_file
    from receipt.extract.program import Program

    sources = {
        "trips/pyproject.toml": "[project]\nname = 'trips'\n",
        "trips/tools/calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
        "trips/main.py": "from tools.calc import add\nTOOLS = [add]\n",
        "stocks/pyproject.toml": "[project]\nname = 'stocks'\n",
        "stocks/tools/calc.py": "def add(a: float, b: float) -> float:\n    return a + b\n",
        "stocks/main.py": "import tools.calc\nTOOLS = [tools.calc.add]\n",
    }
    layout = read_layout({p: t for p, t in sources.items() if p.endswith(".toml")}, [p for p in sources if p.endswith(".py")])
    program = Program([extract_file(p, t.encode()) for p, t in sources.items() if p.endswith(".py")], layout)
    for project in ("trips", "stocks"):
        [item] = program.items(Ref(f"{project}.main.TOOLS"))
        assert program.origin(item.expr) == f"{project}.tools.calc.add"

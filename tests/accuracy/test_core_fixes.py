"""Core fixes found by the accuracy corpus, tested where they live (the program's name resolution)."""

from __future__ import annotations

import textwrap

from receipt.extract import extract_file
from receipt.extract.program import Program
from tests.helpers import exported


def _program(files: dict[str, str]) -> Program:
    return Program([extract_file(p, textwrap.dedent(s).encode()) for p, s in sorted(files.items())])


def test_a_package_attribute_rebinding_a_same_named_submodule_is_the_reexported_object() -> None:
    p = _program(
        {
            "pkg/__init__.py": "from pkg.deploys import deploys\n",
            "pkg/deploys.py": "deploys = make()\ndef helper(): pass\n",
            "pkg/plain.py": "def f(): pass\n",
            "app/use.py": "from pkg import deploys\nfrom pkg import plain\nimport pkg.deploys\n",
        }
    )
    assert p.canonical("app.use.deploys") == "pkg.deploys.deploys"  # what Python returns
    assert p.canonical("app.use.plain") == "pkg.plain"  # no rebinding: still the module
    assert p.canonical("pkg.deploys.helper") == "pkg.deploys.helper"  # attributes of the module


def test_a_server_mounted_through_a_package_reexport_keeps_its_prefixed_tools() -> None:
    files = {
        "hub/servers/__init__.py": "from hub.servers.deploys import deploys\n",
        "hub/servers/deploys.py": """
            from fastmcp import FastMCP
            deploys = FastMCP("Deploys")

            @deploys.tool
            def rollback(service: str) -> str: ...
            """,
        "hub/server.py": """
            from fastmcp import FastMCP
            from hub.servers import deploys
            mcp = FastMCP("Hub")
            mcp.mount(deploys, prefix="deploy")
            """,
    }
    assert set(exported(files)) == {"tool:Hub/deploy_rollback"}

"""The standalone `fastmcp` package (`from fastmcp import FastMCP`): tags, dict annotations,
`enabled=`, `exclude_args=`, bare `@mcp.tool`, `mount`/`import_server` namespaces, the 2.x tag
filters (`FastMCP(include_tags=, exclude_tags=)`) and the 3.x visibility rules that replace them
(`mcp.enable(...)` / `mcp.disable(names=, keys=, tags=, components=, only=)`, in order, over the
server's own components and those mounted on it, as each server names them).

The analysis is shared with the MCP SDK dialect (`receipt.dialects.mcp`), because both describe MCP
servers with the same annotation semantics; only the import origin of the server class differs.
"""

from __future__ import annotations

from receipt.dialects.base import DialectResult
from receipt.dialects.mcp import extract_flavor
from receipt.extract.program import Program

NAME = "fastmcp"


def extract(program: Program) -> DialectResult:
    return extract_flavor(program, "fastmcp")

from typing import Dict, List, Optional, Union

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("search")


@mcp.tool(annotations={"readOnlyHint": True})
def search(query: str, tags: Optional[List[str]] = None, limit: Union[int, None] = None) -> Dict[str, List[str]]:
    """Search the index."""
    return {}


@mcp.tool(annotations={"readOnlyHint": True})
def suggest(prefix: "Optional[str]" = None) -> "List[str]":
    """Suggest completions."""
    return []

from typing import Annotated
from pydantic import Field
from fastmcp import FastMCP

mcp = FastMCP("pages")


@mcp.tool(annotations={"readOnlyHint": True})
def fetch(url: Annotated[str, Field(description="The page URL if any.")], raw: bool = False) -> str:
    """Fetch a page."""
    return url

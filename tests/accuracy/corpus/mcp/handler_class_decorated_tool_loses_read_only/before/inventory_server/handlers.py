"""Tool handlers. Each keeps the server on the instance and registers bound methods."""

from typing import Annotated

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
from pydantic import Field

READ_ONLY = ToolAnnotations(readOnlyHint=True)


class StockHandler:
    def __init__(self, mcp: FastMCP, allow_write: bool = False) -> None:
        self.mcp = mcp
        self.allow_write = allow_write
        self.mcp.tool(name="get_stock_level", annotations=READ_ONLY)(self.get_stock_level)
        self.mcp.tool(name="adjust_stock")(self.adjust_stock)

    async def get_stock_level(
        self,
        sku: Annotated[str, Field(description="The product's stock-keeping unit")],
    ) -> int:
        """Return how many units of a product are in stock."""
        return 0

    async def adjust_stock(
        self,
        sku: Annotated[str, Field(description="The product's stock-keeping unit")],
        delta: Annotated[int, Field(description="Units to add (negative to remove)")],
    ) -> int:
        """Add or remove units of a product."""
        if not self.allow_write:
            raise PermissionError("write access is disabled")
        return delta


class ShelfHandler:
    def __init__(self, mcp: FastMCP) -> None:
        self.mcp = mcp
        self._register()

    def _register(self) -> None:
        @self.mcp.tool(annotations=READ_ONLY)
        def find_shelf(sku: str) -> str:
            """Return the shelf a product is stored on."""
            return "A1"

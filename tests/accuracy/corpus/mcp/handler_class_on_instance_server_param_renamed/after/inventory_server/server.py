"""Inventory MCP server: each handler class registers its own tools on the server it is given."""

from mcp.server.fastmcp import FastMCP

from inventory_server.handlers import ShelfHandler, StockHandler


def create_server() -> FastMCP:
    return FastMCP("inventory", instructions="Answer questions about the warehouse inventory.")


def main() -> None:
    mcp = create_server()
    StockHandler(mcp, allow_write=False)
    ShelfHandler(mcp)
    mcp.run()


if __name__ == "__main__":
    main()

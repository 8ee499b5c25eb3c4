"""A relay that serves another MCP server's resources as its own."""

from mcp import types
from mcp.client.session import ClientSession
from mcp.server import Server


async def relay_server(remote: ClientSession) -> Server:
    app = Server(name="relay")

    async def _list_resources(_: object) -> types.ServerResult:
        return types.ServerResult(await remote.list_resources())

    app.request_handlers[types.ListResourcesRequest] = _list_resources
    return app

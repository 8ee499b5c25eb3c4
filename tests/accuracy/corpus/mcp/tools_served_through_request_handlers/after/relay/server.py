"""A relay that serves another MCP server's resources and tools as its own."""

from mcp import types
from mcp.client.session import ClientSession
from mcp.server import Server


async def relay_server(remote: ClientSession) -> Server:
    app = Server(name="relay")

    async def _list_resources(_: object) -> types.ServerResult:
        return types.ServerResult(await remote.list_resources())

    app.request_handlers[types.ListResourcesRequest] = _list_resources

    # Whatever the remote server lists, this one lists and runs: no decorator, no tool of its own.
    async def _list_tools(_: object) -> types.ServerResult:
        return types.ServerResult(await remote.list_tools())

    async def _call_tool(req: types.CallToolRequest) -> types.ServerResult:
        return types.ServerResult(await remote.call_tool(req.params.name, req.params.arguments or {}))

    app.request_handlers[types.ListToolsRequest] = _list_tools
    app.request_handlers[types.CallToolRequest] = _call_tool
    return app

"""A relay installing handlers on the server it is handed."""

from mcp import types
from mcp.server import Server

app = Server(name="relay")


def install(server: Server, remote) -> None:
    async def _list_resources(_):
        return types.ServerResult(await remote.list_tools())
    server.request_handlers[types.ListToolsRequest] = _list_resources


install(app, None)

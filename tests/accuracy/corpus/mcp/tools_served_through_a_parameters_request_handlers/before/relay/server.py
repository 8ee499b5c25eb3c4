"""A relay installing handlers on the server it is handed."""

from mcp import types
from mcp.server import Server

app = Server(name="relay")


def install(server: Server, remote) -> None:
    async def _list_resources(_):
        return types.ServerResult(await remote.list_resources())
    server.request_handlers[types.ListResourcesRequest] = _list_resources


install(app, None)

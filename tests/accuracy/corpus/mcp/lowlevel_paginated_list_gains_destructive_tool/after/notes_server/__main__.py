import anyio
from mcp.server.stdio import stdio_server

from notes_server.server import server


async def serve() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


anyio.run(serve)

from mcp.server.fastmcp import FastMCP

from .config import SERVER_NAME

mcp = FastMCP(SERVER_NAME)

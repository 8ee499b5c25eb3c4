"""Low-level MCP server over the metrics store."""

from mcp.server import Server
from mcp.types import TextContent, Tool

server = Server("metrics")

QUERY_SCHEMA = {"type": "object", "properties": {"promql": {"type": "string"}}, "required": ["promql"]}


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="query_metrics", description="Run a PromQL query.", inputSchema=QUERY_SCHEMA)]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    return [TextContent(type="text", text=arguments["promql"])]

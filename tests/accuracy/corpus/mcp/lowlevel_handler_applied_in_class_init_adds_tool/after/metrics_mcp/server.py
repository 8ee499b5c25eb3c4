"""Low-level MCP server over the metrics store, as a class holding its connection."""

from mcp.server import Server
from mcp.types import TextContent, Tool

QUERY_SCHEMA = {"type": "object", "properties": {"promql": {"type": "string"}}, "required": ["promql"]}
DELETE_SCHEMA = {"type": "object", "properties": {"series": {"type": "string"}}, "required": ["series"]}


class MetricsServer:
    def __init__(self, url: str) -> None:
        self.url = url
        self.server = Server("metrics")
        self.server.list_tools()(self.list_tools)
        self.server.call_tool()(self.call_tool)

    async def list_tools(self) -> list[Tool]:
        return [
            Tool(name="query_metrics", description="Run a PromQL query.", inputSchema=QUERY_SCHEMA),
            Tool(name="delete_series", description="Delete a time series and all its samples.", inputSchema=DELETE_SCHEMA),
        ]

    async def call_tool(self, name: str, arguments: dict) -> list[TextContent]:
        return [TextContent(type="text", text=str(arguments))]


async def main(url: str) -> None:
    await MetricsServer(url).server.run(None, None, None)

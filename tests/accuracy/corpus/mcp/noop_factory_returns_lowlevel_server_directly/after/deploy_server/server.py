"""Deployment tools on a low-level server (SDK v2), built by a factory the launcher calls."""

from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

ENV_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]}


def build_server() -> Server[Any]:
    async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(name="deploy", description="Deploy the current build to an environment.", input_schema=ENV_SCHEMA),
                types.Tool(
                    name="last_deploy",
                    description="When the environment was last deployed.",
                    input_schema=ENV_SCHEMA,
                    annotations=types.ToolAnnotations(read_only_hint=True),
                ),
            ]
        )

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        env = (params.arguments or {})["env"]
        return types.CallToolResult(content=[types.TextContent(text=f"{params.name} {env}")])

    return Server("deployer", on_list_tools=list_tools, on_call_tool=call_tool)

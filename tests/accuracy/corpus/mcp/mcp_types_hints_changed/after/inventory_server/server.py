"""Low-level server listing stock tools, plus a high-level server for reports."""

import mcp_types as types
from mcp.server import Server, ServerRequestContext

STOCK = {"widget": 4, "gadget": 0}


async def list_stock_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name="stock_level",
                description="How many units of an item are in stock.",
                input_schema={"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]},
                annotations=types.ToolAnnotations(read_only_hint=True),
            ),
            types.Tool(
                name="write_off",
                description="Remove damaged units of an item from stock.",
                input_schema={
                    "type": "object",
                    "properties": {"item": {"type": "string"}, "units": {"type": "integer"}},
                    "required": ["item", "units"],
                },
                annotations=types.ToolAnnotations(destructive_hint=False),
            ),
        ]
    )


async def call_stock_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    item = (params.arguments or {})["item"]
    if params.name == "write_off":
        STOCK[item] = max(0, STOCK.get(item, 0) - int((params.arguments or {})["units"]))
    return types.CallToolResult(content=[types.TextContent(type="text", text=str(STOCK.get(item, 0)))])


server = Server("inventory", on_list_tools=list_stock_tools, on_call_tool=call_stock_tool)

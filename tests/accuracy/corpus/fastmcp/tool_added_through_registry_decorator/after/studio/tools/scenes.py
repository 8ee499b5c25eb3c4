from mcp.types import ToolAnnotations

from studio.registry import studio_tool


@studio_tool(description="List the open scenes.", annotations=ToolAnnotations(readOnlyHint=True))
def list_scenes() -> list[str]:
    return []

from mcp.types import ToolAnnotations

from studio.registry import studio_tool


@studio_tool(description="Run C# code inside the editor.", annotations=ToolAnnotations(destructiveHint=True))
def execute_code(source: str) -> str:
    return source

"""Operations tools, registered on whichever server is handed in."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations


def register(server: FastMCP) -> None:
    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def disk_usage(host: str) -> dict:
        """Disk usage of a host, per mount point."""
        return {}

    @server.tool()
    def restart_service(host: str, service: str) -> bool:
        """Restart a systemd service on a host."""
        return True

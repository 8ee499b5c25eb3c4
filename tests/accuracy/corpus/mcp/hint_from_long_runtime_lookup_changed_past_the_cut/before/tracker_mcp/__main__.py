from tracker_mcp import tools  # noqa: F401  (registers the tools)
from tracker_mcp.server import mcp

if __name__ == "__main__":
    mcp.run()

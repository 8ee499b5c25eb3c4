from fastmcp import FastMCP

from studio.tools import install_tools

mcp = FastMCP("studio")
install_tools(mcp)

if __name__ == "__main__":
    mcp.run()

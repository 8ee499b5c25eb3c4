"""The notes servers: one for readers, one for the support team."""

import logging
import os

from mcp.server.fastmcp import FastMCP

from notes_mcp import tools
from notes_mcp.tools import register

log = logging.getLogger(__name__)

mcp = FastMCP("notes")
register(mcp)

support = FastMCP("notes-support")

if __name__ == "__main__":
    mcp.run()

from mcp.server.fastmcp import FastMCP

from crm.texts import SUMMARY, WARNING

mcp = FastMCP("crm")


@mcp.tool(description="\n".join([SUMMARY, WARNING]))
def delete_customer(customer_id: str) -> str:
    return f"deleted {customer_id}"

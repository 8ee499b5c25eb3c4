from mcp.server.fastmcp import FastMCP

from crm.texts import DELETE_SUMMARY, WARNING

mcp = FastMCP("crm")


@mcp.tool(description="\n".join([DELETE_SUMMARY, WARNING]))
def delete_customer(customer_id: str) -> str:
    return f"deleted {customer_id}"

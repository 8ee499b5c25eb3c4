from agents import Agent, ToolSearchTool, function_tool, tool_namespace

from support_desk.crm import find_customer, merge_customers


@function_tool
def invoice_status(invoice_id: str) -> str:
    """Whether an invoice is paid, open or overdue."""
    return f"{invoice_id}: open"


crm_tools = tool_namespace(
    name="crm",
    description="Customer record lookups and clean-up.",
    tools=[find_customer, merge_customers],
)

desk_agent = Agent(
    name="Support desk",
    instructions="Answer support tickets; load the CRM tools only when a ticket needs them.",
    tools=[*crm_tools, invoice_status, ToolSearchTool()],
)

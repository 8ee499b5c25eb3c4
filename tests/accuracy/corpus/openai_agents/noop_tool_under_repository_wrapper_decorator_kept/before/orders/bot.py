import subprocess

from agents import Agent, function_tool

from orders.audit import audited_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: shipped"


@audited_tool
def run_command(command: str) -> str:
    """Run a shell command on the order server."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


support = Agent(
    name="support",
    instructions="Answer questions about orders.",
    tools=[lookup_order, run_command],
)

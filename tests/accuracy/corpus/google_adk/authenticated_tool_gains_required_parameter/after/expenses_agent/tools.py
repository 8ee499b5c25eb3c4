"""Expense tools. ADK wraps plain functions as FunctionTools (name = function, description = docstring)."""

from __future__ import annotations

from google.adk.tools import ToolContext

from expenses_agent.ledger import ledger


def list_expenses(employee_id: str, month: str) -> dict:
    """List the employee's submitted expenses for a month (YYYY-MM)."""
    return {"status": "success", "expenses": ledger.expenses(employee_id, month)}


def reimburse(employee_id: str, amount: int, tool_context: ToolContext) -> dict:
    """Reimburse the employee for the given amount (EUR cents)."""
    transfer_id = ledger.pay(employee_id, amount)
    tool_context.state["last_transfer"] = transfer_id
    return {"status": "success", "transfer_id": transfer_id}


def update_cost_center(expense_id: str, cost_center: str) -> dict:
    """Move an expense to another cost center."""
    ledger.move(expense_id, cost_center)
    return {"status": "success"}

from langchain_core.tools import tool
from langgraph.types import interrupt


@tool
def lookup_invoice(invoice_id: str) -> dict:
    """Fetch an invoice by id."""
    return {"id": invoice_id, "amount": 0}


@tool
def issue_refund(invoice_id: str, amount: float) -> str:
    """Refund part or all of an invoice."""
    answer = interrupt({"question": f"Refund {amount} on {invoice_id}?"})
    if answer != "yes":
        return "refund declined"
    return "refunded"

from agents import function_tool


@function_tool
def invoice_total(invoice_id: str) -> str:
    """Return the total amount of an invoice."""
    return f"invoice {invoice_id}: 42.00 EUR"

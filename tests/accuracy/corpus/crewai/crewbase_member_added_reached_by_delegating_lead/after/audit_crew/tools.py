from crewai.tools import tool


@tool("Read Ledger")
def read_ledger(account: str, quarter: str) -> str:
    """Read the ledger lines of one account for one quarter."""
    with open(f"ledgers/{account}-{quarter}.csv", encoding="utf-8") as f:
        return f.read()


@tool("Fetch Invoices")
def fetch_invoices(account: str, quarter: str) -> list[str]:
    """List the invoice numbers billed to one account in one quarter."""
    with open(f"invoices/{account}-{quarter}.txt", encoding="utf-8") as f:
        return f.read().split()

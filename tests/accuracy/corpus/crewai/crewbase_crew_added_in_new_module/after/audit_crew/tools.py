from crewai.tools import tool


@tool("Read Ledger")
def read_ledger(account: str, quarter: str) -> str:
    """Read the ledger lines of one account for one quarter."""
    with open(f"ledgers/{account}-{quarter}.csv", encoding="utf-8") as f:
        return f.read()

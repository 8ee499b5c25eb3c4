from langchain_core.tools import tool


@tool
def delete_customer(customer_id: str) -> str:
    """Delete a customer record."""
    return customer_id

from langchain_core.tools import tool

from shop.resilience import with_fallback


@tool
def delete_customer(customer_id: str) -> str:
    """Delete a customer record."""
    return customer_id


delete_customer = with_fallback(delete_customer)

from agents import function_tool


@function_tool
def find_customer(email: str) -> str:
    """Look up a customer record by e-mail address."""
    return f"customer for {email}"


@function_tool(needs_approval=True)
def merge_customers(primary_id: str, duplicate_id: str) -> str:
    """Merge a duplicate customer record into the primary one."""
    return f"merged {duplicate_id} into {primary_id}"

from bank_support.agent import support_agent


@support_agent.tool_plain
def exchange_rate(currency: str) -> float:
    """Today's exchange rate from EUR to the given currency."""
    return {"USD": 1.08, "GBP": 0.85}.get(currency.upper(), 1.0)

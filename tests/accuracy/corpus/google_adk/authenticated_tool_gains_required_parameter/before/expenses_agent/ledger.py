"""In-memory stand-in for the finance ledger."""

from __future__ import annotations


class Ledger:
    def __init__(self) -> None:
        self._expenses: dict[str, list[dict]] = {}

    def expenses(self, employee_id: str, month: str) -> list[dict]:
        return [e for e in self._expenses.get(employee_id, []) if e["month"] == month]

    def pay(self, employee_id: str, amount: int) -> str:
        return f"tr-{employee_id}-{amount}"

    def move(self, expense_id: str, cost_center: str) -> None:
        return None


ledger = Ledger()

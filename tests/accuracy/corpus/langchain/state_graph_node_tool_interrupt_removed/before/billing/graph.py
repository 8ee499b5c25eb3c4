from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from billing.tools import issue_refund, lookup_invoice


class RefundState(TypedDict):
    invoice_id: str
    invoice: dict
    result: str


def load_invoice(state: RefundState) -> dict:
    return {"invoice": lookup_invoice.invoke({"invoice_id": state["invoice_id"]})}


def refund(state: RefundState) -> dict:
    invoice = state["invoice"]
    result = issue_refund.invoke({"invoice_id": invoice["id"], "amount": invoice["amount"]})
    return {"result": result}


workflow = StateGraph(RefundState)
workflow.add_node("load", load_invoice)
workflow.add_node("refund", refund)
workflow.add_edge(START, "load")
workflow.add_edge("load", "refund")
workflow.add_edge("refund", END)
refund_flow = workflow.compile()

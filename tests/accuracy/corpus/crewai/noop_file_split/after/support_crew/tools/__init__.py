from support_crew.tools.orders import lookup_order
from support_crew.tools.refunds import RefundTool

__all__ = ["RefundTool", "lookup_order"]

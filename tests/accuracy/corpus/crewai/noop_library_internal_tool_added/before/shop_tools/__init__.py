"""Shop tools for CrewAI agents: `from shop_tools import CatalogSearchTool`."""

from shop_tools.catalog import CatalogSearchTool
from shop_tools.orders import OrderLookupTool

__all__ = ["CatalogSearchTool", "OrderLookupTool"]

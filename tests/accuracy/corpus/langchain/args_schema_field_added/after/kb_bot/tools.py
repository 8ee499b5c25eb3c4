from __future__ import annotations

from typing import Optional

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field


class SearchInput(BaseModel):
    query: str = Field(description="What to look for in the knowledge base")
    collection: str = Field(default="all", description="Which collection to search")


class KnowledgeBaseSearch(BaseTool):
    name: str = "kb_search"
    description: str = "Search the internal knowledge base and return the best matching passages."
    args_schema: type[BaseModel] = SearchInput

    def _run(self, query: str, run_manager: Optional[CallbackManagerForToolRun] = None) -> str:
        return f"results for {query}"


def _create_page(title: str, body: str) -> str:
    """Create a knowledge base page."""
    return title


create_page = StructuredTool.from_function(func=_create_page, name="create_page", description="Create a new knowledge base page.")

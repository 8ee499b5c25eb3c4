from __future__ import annotations

from langchain.agents import create_agent

from kb_bot.tools import KnowledgeBaseSearch, create_page

kb_agent = create_agent(
    "openai:gpt-4.1",
    tools=[KnowledgeBaseSearch(), create_page],
    system_prompt="Answer from the knowledge base. Create a page only when asked.",
    name="kb_agent",
)

"""Code the analyser cannot read is said, once per thing it cannot read (dialects/unseen.py)."""

from __future__ import annotations

from tests.helpers import link_files


def notes(files: dict[str, str]) -> list[str]:
    return [i.message for i in link_files(files)[1]]


def test_a_module_importing_an_unread_frameworks_agents_and_tools_is_noted_once() -> None:
    # mem0's LlamaIndex example imports both: one framework the receipt does not read, said once
    found = notes({"learning.py": "from llama_index.core.agent.workflow import FunctionAgent\n"
                                  "from llama_index.core.tools import FunctionTool\n"
                                  "from strands import Agent\n"})
    assert found == [
        "imports llama_index.core.agent and llama_index.core.tools (LlamaIndex), an agent framework the receipt does not read: "
        "the agents and tools this module builds with it are not in the surface",
        "imports strands (Strands Agents), an agent framework the receipt does not read: "
        "the agents and tools this module builds with it are not in the surface",
    ]


def test_a_module_importing_nothing_of_an_unread_framework_is_not_noted() -> None:
    assert notes({"plain.py": "from llama_index.core.llms import ChatMessage\nimport json\n"}) == []

"""Helpers shared by several dialects (receipt/dialects/base.py, _agentkit.py, extract/facts.walk)."""

from __future__ import annotations

import pytest

from receipt.dialects.base import is_injected, lowest, origin_matches, split_method, stricter
from receipt.extract.facts import Attr, Call, Concat, Const, Dyn, Map, Ref, Seq, Splat, walk
from receipt.models import Dynamic
from tests.helpers import surface_of

_AGENTS = {
    "pydantic_ai": ("from pydantic_ai import Agent", "Agent('openai:gpt-4o', name='helper')"),
    "crewai": ("from crewai import Agent", "Agent(role='helper', goal='g', backstory='b')"),
    "google_adk": ("from google.adk.agents import LlmAgent", "LlmAgent(name='helper', model='m')"),
    "smolagents": ("from smolagents import CodeAgent", "CodeAgent(tools=[], model='m', name='helper')"),
    "langchain": ("from langchain.agents import create_agent", "create_agent('openai:gpt-4o', tools=[], name='helper')"),
}


@pytest.mark.parametrize("framework", sorted(_AGENTS))
def test_every_agent_dialect_exports_the_same_public_names(framework: str) -> None:
    imp, ctor = _AGENTS[framework]
    s = surface_of({
        "pkg/__init__.py": "",
        "pkg/sub.py": "X = 1\n",
        "pkg/agents.py": f"{imp}\nimport pkg.sub as sub\n\nhelper = {ctor}\n_private = {ctor.replace('helper', 'private')}\nsub.patched = {ctor.replace('helper', 'patched')}\n\n"
        f"def build():\n    inner = {ctor.replace('helper', 'inner')}\n    return inner\n",
    })
    roots = {e.name: e.root for e in s.values() if e.kind == "agent"}
    # A public module-level name is a root, also one set on another module (importers see it there);
    # private names are not; one built inside a public factory is a (conditional) root.
    assert roots == {"helper": True, "private": False, "patched": True, "inner": True}


def test_walk_visits_every_subexpression_parents_first_in_source_order() -> None:
    inner = Call(Ref("f"), (Const(1),))
    expr = Call(Ref("g"), (Seq((inner, Splat(Ref("xs")))),), (("k", Map(((Const("a"), Concat(Ref("l"), Dyn("p", "parameter"))),))),))
    seen = list(walk(expr))
    assert seen[0] is expr
    assert [e for e in seen if isinstance(e, Call)] == [expr, inner]
    assert [e.name for e in seen if isinstance(e, Ref)] == ["g", "f", "xs", "l"]
    assert any(isinstance(e, Dyn) and e.why == "parameter" for e in seen)


def test_approval_algebra() -> None:
    d = Dynamic(dynamic="flag")
    assert stricter("never", "conditional") == "conditional"
    assert stricter(d, "always") == "always"
    assert stricter("never", d) == d
    assert lowest(["always", "conditional"]) == "conditional"
    assert lowest([d, "never"]) == "never"
    assert lowest(["always", d]) == d


def test_split_method() -> None:
    assert split_method(Ref("pkg.mod.mcp.tool")) == (Ref("pkg.mod.mcp"), "tool")
    made = Call(Ref("pkg.make"))
    assert split_method(Attr(made, "tool")) == (made, "tool")
    assert split_method(Ref("tool")) == (None, None)
    # A parameter's method only when asked for (MCP registration helpers take the server as a parameter).
    assert split_method(Dyn("mcp.tool", "parameter")) == (None, None)
    assert split_method(Dyn("mcp.tool", "parameter"), parameters=True) == (Dyn("mcp", "parameter"), "tool")


def test_origin_matches_a_re_export_and_a_method_by_its_class_never_by_the_method_name_alone() -> None:
    # A re-export is the same object under another module path, a class or a module-level name alike.
    assert origin_matches("agents.tool.function_tool", "agents.function_tool")
    assert origin_matches("langchain_core.prompts.chat.ChatPromptTemplate", "langchain_core.prompts.ChatPromptTemplate")
    assert origin_matches("langchain_core.prompts.chat.SystemMessagePromptTemplate.from_template", "langchain_core.prompts.SystemMessagePromptTemplate.from_template")
    # The same method name on another class is another thing: the human turn is not the system one.
    assert not origin_matches("langchain_core.prompts.chat.HumanMessagePromptTemplate.from_template", "langchain_core.prompts.SystemMessagePromptTemplate.from_template")
    assert not origin_matches("langchain_core.tools.BaseTool.tool", "langchain_core.tools.tool")
    # A method called on a value is compared by where the value comes from: the result of
    # `from_template(...)` is not the class, whatever its method is named.
    assert not origin_matches("langchain_core.prompts.PromptTemplate.from_template.partial", "langchain_core.prompts.PromptTemplate.partial")
    assert origin_matches("langchain_core.prompts.prompt.PromptTemplate.partial", "langchain_core.prompts.PromptTemplate.partial")
    assert not origin_matches("langchain_core.prompts.PromptTemplate", "langchain_core.prompts.PromptTemplate.from_template")
    assert not origin_matches("langchain_community.tools.tool", "langchain_core.tools.tool")


@pytest.mark.parametrize(
    ("annotation", "injected"),
    [
        ("Context", True),
        ("Context | None", True),  # FastMCP looks through Optional and unions for its Context
        ("Optional[Context]", True),
        ("typing.Union[None, Context]", True),
        ("RunContext[Deps]", True),
        ("str | None", False),
        ("dict[str, Context] | None", False),  # a Context inside a container is a value, not the context
        ("list[Context]", False),
    ],
)
def test_an_injected_parameter_is_found_inside_a_union(annotation: str, injected: bool) -> None:
    assert is_injected("c", annotation, None) is injected

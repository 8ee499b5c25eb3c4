"""Google ADK dialect: agents, function tools, confirmation, sub-agents, AgentTool, roots."""

from __future__ import annotations

from receipt.dialects.base import digest
from receipt.models import Dynamic
from tests.helpers import exported, link_files, surface_of

TOOLS = '''
from google.adk.tools import ToolContext

def get_weather(city: str, tool_context: ToolContext) -> dict:
    """Weather for a city."""
    return {}

def cancel_order(order_id: str, tool_context) -> str:
    """Cancel an order."""
    return ""

def is_large(order_id: str) -> bool:
    return True
'''


def _adk(files: dict[str, str]) -> dict:
    return {k: e for k, e in surface_of(files).items() if e.dialect == "google-adk"}


def _portable(entries: dict) -> dict:
    """Entries without their location: what must not change when code only moves."""
    return {k: e.model_dump(exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def test_agent_with_plain_function_tool() -> None:
    s = _adk({
        "app/tools.py": TOOLS,
        "app/agent.py": '''
from google.adk.agents import Agent
from app.tools import get_weather, cancel_order

root_agent = Agent(name="weather", model="gemini-2.0-flash", instruction="Be brief.",
                   description="Answers weather questions", tools=[get_weather, cancel_order])
''',
    })
    agent = s["agent:weather"]
    assert agent.root and agent.exported and agent.model == "gemini-2.0-flash"
    assert agent.instructions_sha256 == digest("Be brief.")
    assert agent.description_sha256 == digest("Answers weather questions")
    assert agent.reaches == ["tool:cancel_order", "tool:get_weather"]
    tool = s["tool:get_weather"]
    assert tool.exported and tool.approval == "never" and tool.trust_tier == "autonomous"
    assert tool.path == "app/tools.py" and tool.description_sha256 == digest("Weather for a city.")
    # ToolContext is injected by ADK, by annotation or by the conventional name.
    assert [p.name for p in tool.signature.params] == ["city"]
    assert [p.name for p in s["tool:cancel_order"].signature.params] == ["order_id"]


def test_require_confirmation_forms() -> None:
    s = _adk({
        "app/tools.py": TOOLS,
        "app/agent.py": '''
import os
from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
from app.tools import get_weather, cancel_order, is_large

always = FunctionTool(cancel_order, require_confirmation=True)
sometimes = FunctionTool(func=get_weather, require_confirmation=is_large)
root_agent = LlmAgent(name="a", model="m", tools=[always, sometimes])
other = LlmAgent(name="b", model="m", tools=[
    FunctionTool(is_large, require_confirmation=lambda order_id: order_id.startswith("x")),
])
env = LlmAgent(name="c", model="m", tools=[FunctionTool(cancel_order, require_confirmation=os.getenv("CONFIRM"))])
''',
    })
    assert s["tool:cancel_order@app.agent#always"].approval == "always"
    assert s["tool:cancel_order@app.agent#always"].trust_tier == "human_required"
    assert s["tool:get_weather"].approval == "conditional"
    assert s["tool:get_weather"].trust_tier == "human_supervised"
    assert s["tool:is_large"].approval == "conditional"  # a lambda decides per call
    assert isinstance(s["tool:cancel_order@app.agent#1"].approval, Dynamic)


def test_explicit_default_confirmation_is_no_change() -> None:
    plain = {"app/tools.py": TOOLS, "app/agent.py": '''
from google.adk.agents import Agent
from google.adk.tools import FunctionTool
from app.tools import cancel_order
root_agent = Agent(name="a", model="m", tools=[FunctionTool(cancel_order)])
'''}
    explicit = {"app/tools.py": TOOLS, "app/agent.py": '''
from google.adk.agents import Agent
from google.adk.tools import FunctionTool
from app.tools import cancel_order
root_agent = Agent(name="a", model="m", tools=[FunctionTool(cancel_order, require_confirmation=False)])
'''}
    assert _portable(_adk(plain)) == _portable(_adk(explicit))


def test_import_spellings_and_aliases() -> None:
    s = _adk({
        "app/a.py": '''
import google.adk.agents as adk_agents
from google.adk import Agent as RootAgent
from google.adk.agents.llm_agent import LlmAgent as L
one = adk_agents.LlmAgent(name="one", model="m")
two = RootAgent(name="two", model="m")
three = L(name="three", model="m")
''',
    })
    assert {"agent:one", "agent:two", "agent:three"} <= set(s)
    assert all(s[k].root for k in ("agent:one", "agent:two", "agent:three"))


def test_other_frameworks_agents_are_not_adk() -> None:
    s = _adk({
        "app/a.py": '''
from pydantic_ai import Agent as PAgent
from agents import Agent as OAgent
from crewai import Agent as CAgent

class LlmAgent:
    def __init__(self, **kw): ...

p = PAgent("openai:gpt-4o", name="p")
o = OAgent(name="o")
c = CAgent(role="c", goal="g", backstory="b")
local = LlmAgent(name="local", model="m")
''',
    })
    assert s == {}


def test_sub_agents_agent_tool_and_workflow_agents() -> None:
    s = exported({
        "app/a.py": '''
from google.adk.agents import LlmAgent, SequentialAgent, ParallelAgent, LoopAgent
from google.adk.tools.agent_tool import AgentTool

_billing = LlmAgent(name="billing", model="m", description="Handles billing")
_search = LlmAgent(name="search", model="m")
root_agent = LlmAgent(
    name="router", model="m",
    tools=[AgentTool(agent=_search)],
    sub_agents=[_billing, LlmAgent(name="inline_helper", model="m")],
)
pipeline = SequentialAgent(name="pipeline", sub_agents=[ParallelAgent(name="fan", sub_agents=[_search]), LoopAgent(name="loop", sub_agents=[_billing])])
''',
    })
    router = s["agent:router"]
    assert router.reaches == ["agent:billing", "agent:inline_helper", "tool:search"]
    assert s["tool:search"].reaches == ["agent:search"] and s["tool:search"].dialect == "google-adk"
    assert [p.name for p in s["tool:search"].signature.params] == ["request"]
    # Private agents are exported because an exported agent reaches them, not as roots.
    assert s["agent:billing"].exported and not s["agent:billing"].root
    assert s["agent:pipeline"].reaches == ["agent:fan", "agent:loop"]
    assert s["agent:pipeline"].model is None and s["agent:pipeline"].extra == {"workflow": "SequentialAgent"}
    assert s["agent:fan"].reaches == ["agent:search"]


def test_models_and_instructions() -> None:
    s = _adk({
        "app/a.py": '''
import os
from google.adk.agents import LlmAgent
from google.adk.models.lite_llm import LiteLlm

def provider(ctx):
    return "Help " + ctx.state["user"]

def fixed(ctx):
    return "fixed instructions"

MODEL = "gemini-2.5-pro"
a = LlmAgent(name="a", model=LiteLlm(model="openai/gpt-4o"), instruction="x", global_instruction="y")
b = LlmAgent(name="b", model=os.environ["ADK_MODEL"], instruction=provider)
c = LlmAgent(name="c", model=MODEL, instruction=f"no placeholders")
d = LlmAgent(name="d", model=MODEL, instruction=fixed)
''',
    })
    assert s["agent:a"].model == "openai/gpt-4o"
    assert s["agent:a"].instructions_sha256 not in (digest("x"), digest("y"), None)
    assert s["agent:b"].model == Dynamic(dynamic="os.environ['ADK_MODEL']")
    assert s["agent:b"].instructions_sha256.startswith("dynamic:")
    assert s["agent:c"].model == "gemini-2.5-pro"
    assert s["agent:c"].instructions_sha256 == digest("no placeholders")
    # A provider that always returns one literal is that literal (what the model reads).
    assert s["agent:d"].instructions_sha256 == digest("fixed instructions")


def test_unreached_private_agent_is_not_exported_and_name_falls_back_to_variable() -> None:
    s = surface_of({
        "app/a.py": '''
import os
from google.adk.agents import LlmAgent
_internal = LlmAgent(name="internal", model="m")
named_by_env = LlmAgent(name=os.getenv("NAME"), model="m")
''',
    })
    assert not s["agent:internal"].exported
    assert s["agent:named_by_env"].root


def test_conditional_tools_and_factories() -> None:
    s = exported({
        "app/tools.py": TOOLS,
        "app/agent.py": '''
import os
from google.adk.agents import LlmAgent
from app.tools import get_weather, cancel_order

tools = [get_weather]
if os.getenv("ALLOW_CANCEL"):
    tools.append(cancel_order)
root_agent = LlmAgent(name="main", model="m", tools=tools)

def build_support():
    helper_tools = [cancel_order]
    agent = LlmAgent(name="support", model="m", tools=helper_tools)
    return agent

def _hidden():
    return LlmAgent(name="hidden", model="m")
''',
    })
    assert not s["tool:get_weather"].conditional
    # Attached under a flag and inside a factory: never unconditionally there.
    assert s["tool:cancel_order"].conditional
    assert s["agent:support"].root and s["agent:support"].conditional
    assert s["agent:support"].reaches == ["tool:cancel_order"]
    assert "agent:hidden" not in s


def test_tool_only_attached_under_a_flag_is_conditional() -> None:
    s = exported({
        "app/tools.py": TOOLS,
        "app/agent.py": '''
import os
from google.adk.agents import LlmAgent
from app.tools import get_weather, cancel_order
tools = [get_weather]
if os.getenv("ALLOW_CANCEL"):
    tools.append(cancel_order)
root_agent = LlmAgent(name="main", model="m", tools=tools)
''',
    })
    assert s["tool:cancel_order"].conditional and not s["tool:get_weather"].conditional


def test_factory_result_bound_to_root_agent() -> None:
    s = exported({
        "app/agent.py": '''
from google.adk.agents import LlmAgent
def _make():
    return LlmAgent(name="made", model="m")
root_agent = _make()
''',
    })
    assert s["agent:made"].root and s["agent:made"].conditional


def test_file_split_keeps_the_surface() -> None:
    one = {"app/agent.py": TOOLS + '''
from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
root_agent = LlmAgent(name="main", model="m", tools=[get_weather, FunctionTool(cancel_order, require_confirmation=True)])
'''}
    split = {
        "app/tools.py": TOOLS,
        "app/agent.py": '''
from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
from app.tools import get_weather, cancel_order
root_agent = LlmAgent(name="main", model="m", tools=[get_weather, FunctionTool(cancel_order, require_confirmation=True)])
''',
    }
    assert _portable(_adk(one)) == _portable(_adk(split))


def test_toolsets_and_external_tools() -> None:
    entries, issues = link_files({
        "app/agent.py": '''
from google.adk.agents import LlmAgent
from google.adk.tools import google_search
from google.adk.tools.mcp_tool.mcp_toolset import McpToolset
from google.adk.tools.openapi_tool import OpenAPIToolset
from langchain_community.tools import TavilySearchResults
root_agent = LlmAgent(name="main", model="m", tools=[google_search, McpToolset(connection_params=None), OpenAPIToolset(spec_str="{}"), TavilySearchResults()])
''',
    })
    by_key = {e.key: e for e in entries}
    assert by_key["tool:google_search@google.adk.tools.google_search"].exported
    assert by_key["tool:google_search@google.adk.tools.google_search"].extra == {"external": "google.adk.tools.google_search"}
    messages = [i.message for i in issues if i.path == "app/agent.py"]
    # An MCP toolset without a tool filter stands for the tools its server lists: one `*` entry whose
    # danger is not known statically; other toolsets are reported.
    mcp = [e for e in entries if e.kind == "tool" and e.name == "*"]
    assert len(mcp) == 1 and isinstance(mcp[0].dangerous, Dynamic) and mcp[0].approval == "never"
    assert any("OpenAPIToolset" in m for m in messages)
    assert not any("McpToolset" in m for m in messages)
    assert any("TavilySearchResults" in m for m in messages)
    assert by_key["agent:main"].exported
    assert mcp[0].key in by_key["agent:main"].reaches


def test_unknown_tool_list_is_reported_and_agent_kept() -> None:
    entries, issues = link_files({
        "app/agent.py": '''
from google.adk.agents import LlmAgent
from app.registry import load_tools
root_agent = LlmAgent(name="main", model="m", tools=load_tools())
''',
    })
    assert any(e.key == "agent:main" for e in entries)
    assert any("tools not statically known" in i.message for i in issues)


def test_public_sub_agent_defined_in_a_later_module_is_still_a_root() -> None:
    s = exported({
        "app/a_root.py": '''
from google.adk.agents import LlmAgent
from app.z_billing import billing
root_agent = LlmAgent(name="router", model="m", sub_agents=[billing])
''',
        "app/z_billing.py": '''
from google.adk.agents import LlmAgent
billing = LlmAgent(name="billing", model="m")
''',
    })
    assert s["agent:router"].reaches == ["agent:billing"]
    assert s["agent:billing"].root and s["agent:billing"].path == "app/z_billing.py"


def test_adapter_around_another_frameworks_tool_reaches_that_tool() -> None:
    s = exported({
        "app/agent.py": '''
from google.adk.agents import LlmAgent
from google.adk.tools.crewai_tool import CrewaiTool
from crewai.tools import tool

@tool("Lookup")
def lookup(q: str) -> str:
    """Look up."""

root_agent = LlmAgent(name="main", model="m", tools=[CrewaiTool(name="lookup", description="d", tool=lookup)])
''',
    })
    assert s["agent:main"].reaches == ["tool:Lookup"]
    assert s["tool:Lookup"].dialect == "crewai" and s["tool:Lookup"].exported


def test_empty_mcp_tool_filter_exposes_every_tool() -> None:
    # ADK's `_is_tool_selected` selects every tool when the filter is falsy: `[]` is no filter at all.
    template = '''
from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import McpToolset

files = McpToolset(connection_params=CONN, tool_filter=FILTER)
root_agent = LlmAgent(name="librarian", model="m", tools=[files])
'''
    names = {}
    for flt in ('["read_file"]', "[]", "None"):
        names[flt] = sorted(e.name for e in _adk({"app/agent.py": template.replace("FILTER", flt)}).values() if e.kind == "tool")
    assert names == {'["read_file"]': ["read_file"], "[]": ["*"], "None": ["*"]}


def test_code_executor_that_may_come_from_kwargs_is_dynamic() -> None:
    code = '''
from google.adk.agents import LlmAgent
from google.adk.code_executors import UnsafeLocalCodeExecutor

EXTRA = dict(code_executor=UnsafeLocalCodeExecutor())
root_agent = LlmAgent(name="analyst", model="m", instruction="Answer.", **EXTRA)
'''
    (agent,) = [e for e in _adk({"app/agent.py": code}).values() if e.kind == "agent"]
    assert isinstance(agent.dangerous, Dynamic)
    plain = [e for e in _adk({"app/agent.py": code.replace(", **EXTRA", "")}).values() if e.kind == "agent"]
    assert plain[0].dangerous is False


def test_container_code_executor_with_network_is_dangerous() -> None:
    # ADK starts the container without networking; `network_enabled=True` lets model-written code
    # reach the network (and the cloud metadata endpoint).
    template = '''
import os
from google.adk.agents import LlmAgent
from google.adk.code_executors import ContainerCodeExecutor

root_agent = LlmAgent(name="analyst", model="m", instruction="Answer.", code_executor=ContainerCodeExecutor(image="python:3.12-slim"ARGS))
'''
    seen = {}
    for args in ("", ", network_enabled=False", ", network_enabled=True", ", network_enabled=os.environ.get('NET') == '1'"):
        (agent,) = [e for e in _adk({"app/agent.py": template.replace("ARGS", args)}).values() if e.kind == "agent"]
        seen[args] = "dynamic" if isinstance(agent.dangerous, Dynamic) else agent.dangerous
    assert list(seen.values()) == [False, False, True, "dynamic"]

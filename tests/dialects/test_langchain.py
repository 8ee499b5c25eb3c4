"""LangChain / LangGraph dialect: tools, prebuilt agents, and the human-in-the-loop gates."""

from __future__ import annotations

from typing import Any

from receipt.models import Dynamic, Entry
from tests.helpers import exported, link_files, surface_of

TOOLS = "from langchain_core.tools import tool\n"
AGENT = "from langchain.agents import create_agent\nfrom langchain.agents.middleware import HumanInTheLoopMiddleware\n"


def comparable(entries: dict[str, Entry]) -> dict[str, Any]:
    return {k: e.model_dump(mode="json", exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def params(e: Entry) -> list[str]:
    assert e.signature is not None
    return [p.name for p in e.signature.params]


def issues_of(files: dict[str, str]) -> list[str]:
    return [i.message for i in link_files(files)[1]]


# -- tools -------------------------------------------------------------------------------------


def test_tool_decorator_forms() -> None:
    s = surface_of(
        {
            "app/tools.py": TOOLS
            + """
from pydantic import BaseModel

class RefundInput(BaseModel):
    order_id: str

@tool
def lookup(order_id: str) -> str:
    '''Look up an order.'''

@tool("refund_order")
def refund(order_id: str) -> str:
    '''Refund an order.'''

@tool(args_schema=RefundInput, return_direct=True, description="Cancel an order.")
async def cancel(order_id: str) -> str:
    '''Ignored: description= wins.'''
"""
        }
    )
    assert {"tool:lookup", "tool:refund_order", "tool:cancel"} <= set(s)
    assert all(s[k].dialect == "langchain" for k in ("tool:lookup", "tool:refund_order", "tool:cancel"))
    assert params(s["tool:refund_order"]) == ["order_id"]
    assert not s["tool:lookup"].exported  # no agent reaches it
    assert s["tool:lookup"].approval == "never"


def test_description_is_the_docstring_unless_given() -> None:
    def desc(decorator: str, doc: str) -> str | None:
        src = TOOLS + f"{decorator}\ndef refund(order_id: str) -> str:\n    '''{doc}'''\n"
        return surface_of({"app/t.py": src})["tool:refund"].description_sha256

    assert desc("@tool", "Refund.") != desc("@tool", "Refund money.")
    assert desc('@tool(description="X")', "Refund.") == desc('@tool(description="X")', "Anything else.")


def test_import_origin_discrimination() -> None:
    s = surface_of(
        {
            "app/crew.py": "from crewai.tools import tool\n@tool('Search')\ndef search(q: str) -> str:\n    '''S.'''\n",
            "app/smol.py": "from smolagents import tool\n@tool\ndef fetch(url: str) -> str:\n    '''F.'''\n",
            "app/local.py": "def tool(f):\n    return f\n@tool\ndef helper(x: int) -> int:\n    '''H.'''\n",
            "app/aliased.py": "from langchain_core.tools import tool as lc_tool\n@lc_tool\ndef aliased(x: int) -> int:\n    '''A.'''\n",
            "app/module.py": "import langchain_core.tools as lct\n@lct.tool\ndef via_module(x: int) -> int:\n    '''M.'''\n",
            "app/legacy.py": "from langchain.tools import tool\n@tool\ndef legacy(x: int) -> int:\n    '''L.'''\n",
        }
    )
    ours = {e.name for e in s.values() if e.dialect == "langchain"}
    assert ours == {"aliased", "via_module", "legacy"}


def test_injected_arguments_are_not_part_of_the_signature() -> None:
    s = surface_of(
        {
            "app/t.py": TOOLS
            + """
from typing import Annotated, Any, Optional
from langchain_core.tools import InjectedToolArg, InjectedToolCallId
from langchain_core.runnables import RunnableConfig
from langchain.tools import ToolRuntime
from langgraph.prebuilt import InjectedState, InjectedStore

@tool
def refund(
    order_id: str,
    amount: float = 0.0,
    *,
    user_id: Annotated[str, InjectedToolArg],
    state: Annotated[dict, InjectedState],
    store: Annotated[Any, InjectedStore()],
    call_id: Annotated[str, InjectedToolCallId],
    runtime: ToolRuntime,
    config: Optional[RunnableConfig] = None,
    run_manager=None,
    callbacks=None,
) -> str:
    '''Refund.'''
"""
        }
    )
    assert params(s["tool:refund"]) == ["order_id", "amount"]


def test_structured_tool_simple_tool_and_call_forms() -> None:
    s = surface_of(
        {
            "app/t.py": """
from langchain_core.tools import StructuredTool, Tool, tool

def _wipe(disk: str) -> str:
    '''Wipe.'''

async def _awipe(disk: str) -> str:
    '''Async wipe.'''

def _calc(expr: str) -> str:
    '''Calculate.'''

wipe = StructuredTool.from_function(func=_wipe, name="wipe_disk", description="Wipe a disk.")
awipe = StructuredTool.from_function(coroutine=_awipe, name="awipe")
calc = Tool(name="calculator", func=_calc, description="Math.")
calc2 = Tool.from_function(_calc, "calculator2", "Math again.")
plain = tool(_calc)
"""
        }
    )
    assert {"tool:wipe_disk", "tool:awipe", "tool:calculator", "tool:calculator2", "tool:_calc"} <= set(s)
    assert params(s["tool:wipe_disk"]) == ["disk"]
    assert params(s["tool:awipe"]) == ["disk"]


def test_base_tool_subclasses() -> None:
    s = surface_of(
        {
            "app/t.py": """
from typing import Optional
from langchain_core.tools import BaseTool
from langchain_core.callbacks import CallbackManagerForToolRun
from langgraph.types import interrupt

class CompanyTool(BaseTool):
    '''Shared base: no name, not a tool by itself.'''
    def _run(self, *args, **kwargs):
        raise NotImplementedError

class Refund(CompanyTool):
    name: str = "refund"
    description: str = "Refund an order."

    def _run(self, order_id: str, run_manager: Optional[CallbackManagerForToolRun] = None) -> str:
        if not interrupt({"order": order_id}):
            return "denied"
        return "ok"

class Lookup(BaseTool):
    name = "lookup"
    description = "Look up."

    async def _arun(self, query: str) -> str:
        return ""
"""
        }
    )
    tools = {k for k, e in s.items() if e.dialect == "langchain"}
    assert tools == {"tool:refund", "tool:lookup"}
    assert params(s["tool:refund"]) == ["order_id"]
    assert s["tool:refund"].approval == "conditional"
    assert params(s["tool:lookup"]) == ["query"]


def test_interrupt_in_the_body_is_conditional() -> None:
    s = surface_of(
        {
            "app/t.py": TOOLS
            + """
from langgraph.types import interrupt as ask_human

@tool
def transfer(amount: float) -> str:
    '''Transfer.'''
    answer = ask_human({"amount": amount})
    return "ok" if answer else "no"

@tool
def interrupt_free(amount: float) -> str:
    '''Not gated.'''
    def interrupt(x):
        return x
    return interrupt(amount)
"""
        }
    )
    assert s["tool:transfer"].approval == "conditional"
    assert s["tool:transfer"].trust_tier == "human_supervised"
    assert s["tool:interrupt_free"].approval == "never"


# -- agents ------------------------------------------------------------------------------------


def test_create_agent_and_create_react_agent() -> None:
    s = surface_of(
        {
            "app/tools.py": TOOLS + "@tool\ndef lookup(q: str) -> str:\n    '''L.'''\n",
            "app/agents.py": AGENT
            + """
from langgraph.prebuilt import create_react_agent
from langchain_openai import ChatOpenAI
from langchain.chat_models import init_chat_model
from app.tools import lookup

def calc(expr: str) -> str:
    '''Plain functions are tools too.'''

support = create_agent("openai:gpt-4o", tools=[lookup, calc], system_prompt="Help.", name="support-bot")
react = create_react_agent(ChatOpenAI(model="gpt-4o-mini"), [lookup], prompt="Be brief.")
chat = create_agent(init_chat_model("gpt-4o", model_provider="openai"), tools=[])
_internal = create_agent("openai:gpt-4o", tools=[calc])
""",
        }
    )
    assert s["agent:support-bot"].reaches == ["tool:calc", "tool:lookup"]
    assert s["agent:support-bot"].model == "openai:gpt-4o"
    assert s["agent:react"].model == "ChatOpenAI:gpt-4o-mini"
    assert s["agent:chat"].model == "openai:gpt-4o"
    assert s["agent:react"].reaches == ["tool:lookup"]
    assert s["agent:support-bot"].root and s["agent:react"].root
    assert not s["agent:_internal"].exported
    assert s["tool:calc"].exported and s["tool:lookup"].exported


def test_a_legacy_langchain_create_react_agent_is_not_langgraph() -> None:
    s = surface_of({"app/a.py": "from langchain.agents import create_react_agent\nagent = create_react_agent(llm, tools, prompt)\n"})
    assert "agent:agent" not in s


def test_prompt_digest() -> None:
    def digest_of(expr: str, kw: str = "system_prompt", factory: str = "create_agent") -> str | None:
        src = AGENT + "from langgraph.prebuilt import create_react_agent\nfrom langchain_core.messages import SystemMessage\n"
        src += f'agent = {factory}("openai:gpt-4o", tools=[], {kw}={expr})\n'
        return surface_of({"app/a.py": src})["agent:agent"].instructions_sha256

    base = digest_of('"Help."')
    assert base is not None
    assert base == digest_of('SystemMessage(content="Help.")')
    assert base == digest_of('"Help."', "prompt", "create_react_agent")
    assert base != digest_of('"Help more."')
    assert digest_of("None") is None
    env = digest_of('__import__("os").environ["PROMPT"]')
    assert env is not None and env.startswith("dynamic:")


def test_unresolved_tools_are_reported_and_the_agent_kept() -> None:
    files = {
        "app/a.py": AGENT
        + """
from langchain_tavily import TavilySearch
from app.registry import load_tools

search = TavilySearch(max_results=2)
agent = create_agent("openai:gpt-4o", tools=[search, TavilySearch()])
other = create_agent("openai:gpt-4o", tools=load_tools())
"""
    }
    s = surface_of(files)
    assert "agent:agent" in s and "agent:other" in s
    assert s["agent:agent"].reaches == []
    messages = issues_of(files)
    assert sum("TavilySearch" in m for m in messages) == 2
    assert any("load_tools()" in m for m in messages)


# -- human in the loop -------------------------------------------------------------------------

HITL_TOOLS = (
    TOOLS
    + """
@tool
def refund(order_id: str) -> str:
    '''Refund.'''

@tool
def lookup(order_id: str) -> str:
    '''Lookup.'''

@tool
def wipe(disk: str) -> str:
    '''Wipe.'''

@tool
def email(to: str) -> str:
    '''Email.'''
"""
)


def _hitl(prelude: str, interrupt_on: str, tools: str = "[refund, lookup, wipe, email]", **extra: str) -> dict[str, Entry]:
    kwargs = "".join(f", {k}={v}" for k, v in extra.items())
    return exported(
        {
            "app/tools.py": HITL_TOOLS,
            "app/agent.py": AGENT
            + "from app.tools import refund, lookup, wipe, email\n"
            + prelude
            + f"\nagent = create_agent('openai:gpt-4o', tools={tools}, middleware=[HumanInTheLoopMiddleware(interrupt_on={interrupt_on})]{kwargs})\n",
        }
    )


def test_hitl_literal_map() -> None:
    s = _hitl(
        "def only_big(request):\n    return request.tool_call['args']['amount'] > 100\n",
        '{"refund": True, "lookup": False, "wipe": {"allowed_decisions": ["approve", "reject"]}, "email": {"allowed_decisions": ["approve"], "when": only_big}}',
    )
    assert s["tool:refund"].approval == "always" and s["tool:refund"].trust_tier == "human_required"
    assert s["tool:lookup"].approval == "never"
    assert s["tool:wipe"].approval == "always"
    assert s["tool:email"].approval == "conditional"


def test_hitl_map_from_a_module_dict_a_helper_or_tool_names() -> None:
    via_dict = _hitl('APPROVALS = {"refund": True}\n', "APPROVALS")
    via_helper = _hitl('def approvals():\n    return {"refund": True, **{"wipe": True}}\n', "approvals()")
    via_names = _hitl("", "{refund.name: True, wipe.name: True}")
    assert via_dict["tool:refund"].approval == "always" and via_dict["tool:wipe"].approval == "never"
    assert via_helper["tool:refund"].approval == "always" and via_helper["tool:wipe"].approval == "always"
    assert via_names["tool:refund"].approval == "always" and via_names["tool:wipe"].approval == "always"
    assert via_names["tool:lookup"].approval == "never"


def test_hitl_map_from_env_is_dynamic_never_guessed() -> None:
    whole = _hitl("import json, os\n", 'json.loads(os.environ["HITL"])')
    assert all(isinstance(whole[k].approval, Dynamic) for k in ("tool:refund", "tool:lookup", "tool:wipe", "tool:email"))
    one = _hitl("import os\n", '{"refund": os.getenv("GATE") == "1", "wipe": True}')
    assert isinstance(one["tool:refund"].approval, Dynamic)
    assert one["tool:wipe"].approval == "always"
    assert one["tool:lookup"].approval == "never"


def test_hitl_keeps_the_stricter_of_body_and_map() -> None:
    s = exported(
        {
            "app/a.py": TOOLS
            + AGENT
            + """
from langgraph.types import interrupt

@tool
def transfer(amount: float) -> str:
    '''Transfer.'''
    interrupt("ok?")

@tool
def pay(amount: float) -> str:
    '''Pay.'''
    interrupt("ok?")

agent = create_agent("m", tools=[transfer, pay], middleware=[HumanInTheLoopMiddleware(interrupt_on={"transfer": True, "pay": False})])
"""
        }
    )
    assert s["tool:transfer"].approval == "always"
    assert s["tool:pay"].approval == "conditional"


def test_two_agents_with_different_maps_take_the_lowest_approval() -> None:
    files = {
        "app/tools.py": HITL_TOOLS,
        "app/agents.py": AGENT
        + """
from app.tools import refund, wipe

careful = create_agent("m", tools=[refund, wipe], middleware=[HumanInTheLoopMiddleware(interrupt_on={"refund": True, "wipe": True})])
""",
    }
    assert exported(files)["tool:refund"].approval == "always"
    files["app/agents.py"] += 'hasty = create_agent("m", tools=[refund], middleware=[HumanInTheLoopMiddleware(interrupt_on={"refund": False})])\n'
    s = exported(files)
    assert s["tool:refund"].approval == "never"
    assert s["tool:wipe"].approval == "always"


def test_interrupt_before_the_tools_node_gates_every_tool() -> None:
    def graph(kw: str) -> dict[str, Entry]:
        return exported(
            {
                "app/tools.py": HITL_TOOLS,
                "app/a.py": f"from langgraph.prebuilt import create_react_agent\nfrom app.tools import refund\nagent = create_react_agent('m', [refund]{kw})\n",
            }
        )

    assert graph(", interrupt_before=['tools']")["tool:refund"].approval == "always"
    assert graph(", interrupt_before=['agent']")["tool:refund"].approval == "never"
    assert graph(", interrupt_after=['tools']")["tool:refund"].approval == "never"
    assert isinstance(graph(", interrupt_before=__import__('os').environ['NODES']")["tool:refund"].approval, Dynamic)


def test_custom_middleware_calling_interrupt_is_conditional_for_all_tools() -> None:
    s = exported(
        {
            "app/tools.py": HITL_TOOLS,
            "app/a.py": AGENT
            + """
from langchain.agents.middleware import AgentMiddleware
from langgraph.types import interrupt
from app.tools import refund

class AskForBigOnes(AgentMiddleware):
    def wrap_tool_call(self, request, handler):
        if request.tool_call["args"].get("amount", 0) > 100:
            interrupt("ok?")
        return handler(request)

agent = create_agent("m", tools=[refund], middleware=[AskForBigOnes()])
""",
        }
    )
    assert s["tool:refund"].approval == "conditional"


# -- structure ---------------------------------------------------------------------------------


def test_conditional_tool_lists_and_factories() -> None:
    s = surface_of(
        {
            "app/tools.py": HITL_TOOLS,
            "app/a.py": AGENT
            + """
import os
from app.tools import refund, lookup, wipe, email

TOOLS = [lookup]
if os.getenv("REFUNDS"):
    TOOLS.append(refund)
TOOLS += [email]

main = create_agent("m", tools=TOOLS)

def build_admin():
    admin = create_agent("m", tools=[wipe], name="admin")
    return admin
""",
        }
    )
    assert s["tool:lookup"].conditional is False
    assert s["tool:email"].conditional is False
    assert s["tool:refund"].conditional is True and s["tool:refund"].exported
    assert s["agent:admin"].root and s["agent:admin"].conditional
    assert s["tool:wipe"].conditional and s["tool:wipe"].exported


def test_file_split_changes_nothing() -> None:
    one = {
        "app/main.py": TOOLS
        + AGENT
        + """
@tool("refund_order")
def refund(order_id: str) -> str:
    '''Refund.'''

agent = create_agent("m", tools=[refund], middleware=[HumanInTheLoopMiddleware(interrupt_on={"refund_order": True})])
"""
    }
    split = {
        "app/tools/__init__.py": "from app.tools.money import refund\n",
        "app/tools/money.py": TOOLS + "@tool('refund_order')\ndef refund(order_id: str) -> str:\n    '''Refund.'''\n",
        "app/main.py": AGENT
        + "from app.tools import refund\n"
        + 'agent = create_agent("m", tools=[refund], middleware=[HumanInTheLoopMiddleware(interrupt_on={"refund_order": True})])\n',
    }
    assert set(exported(one)) == {"agent:agent", "tool:refund_order"}
    assert exported(one)["tool:refund_order"].approval == "always"
    assert comparable(exported(one)) == comparable(exported(split))


def test_renaming_the_function_keeps_the_key_renaming_the_tool_does_not() -> None:
    def src(fn: str, name: str) -> dict[str, str]:
        return {
            "app/a.py": TOOLS
            + AGENT
            + f"""
@tool("{name}")
def {fn}(order_id: str) -> str:
    '''Refund.'''

agent = create_agent("m", tools=[{fn}])
"""
        }

    before = exported(src("refund", "refund_order"))
    assert set(before) == {"agent:agent", "tool:refund_order"}
    assert comparable(before) == comparable(exported(src("issue_refund", "refund_order")))
    after = exported(src("refund", "give_money_back"))
    assert set(after) == {"agent:agent", "tool:give_money_back"}


def test_a_misspelt_hitl_key_is_reported() -> None:
    files = {
        "app/tools.py": HITL_TOOLS,
        "app/agent.py": AGENT
        + "from app.tools import refund\n"
        + 'agent = create_agent("m", tools=[refund], middleware=[HumanInTheLoopMiddleware(interrupt_on={"refnud": True})])\n',
    }
    assert exported(files)["tool:refund"].approval == "never"
    assert any("'refnud'" in m for m in issues_of(files))
    files["app/agent.py"] = files["app/agent.py"].replace("refnud", "refund")
    assert not [m for m in issues_of(files) if "interrupt_on" in m]


def test_pre_1_0_tool_configs_spelling_of_the_map() -> None:
    s = exported(
        {
            "app/tools.py": HITL_TOOLS,
            "app/a.py": AGENT
            + "from app.tools import refund\n"
            + 'agent = create_agent("m", tools=[refund], middleware=[HumanInTheLoopMiddleware(tool_configs={"refund": {"allow_accept": True}})])\n',
        }
    )
    assert s["tool:refund"].approval == "always"


# -- hand-built graphs: what the nodes reach ----------------------------------------------------

GRAPH = "from langgraph.graph import StateGraph, MessagesState\nfrom langchain_openai import ChatOpenAI\n"


def test_graph_model_is_what_its_nodes_build_not_the_compile_argument() -> None:
    src = GRAPH + (
        "from langgraph.checkpoint.memory import InMemorySaver\n"
        "fast = ChatOpenAI(model='gpt-4o-mini')\n"
        "def plan(state):\n    return {'messages': [fast.with_structured_output(dict).invoke(state['messages'])]}\n"
        "def write(state):\n    llm = ChatOpenAI(model='gpt-4o')\n    return {'messages': [llm.invoke(state['messages'])]}\n"
        "g = StateGraph(MessagesState)\ng.add_node('plan', plan)\ng.add_node(write)\napp = g.compile(InMemorySaver())\n"
    )
    assert exported({"app.py": src})["agent:app"].model == "ChatOpenAI:gpt-4o, ChatOpenAI:gpt-4o-mini"


def test_graph_reaches_agents_given_as_nodes_and_through_partial() -> None:
    src = GRAPH + (
        "import functools\nfrom langgraph.prebuilt import create_react_agent\n"
        "from langchain_core.tools import tool\n"
        "@tool\ndef search(q: str) -> str:\n    '''Search.'''\n    return q\n"
        "def _researcher():\n    return create_react_agent(ChatOpenAI(model='gpt-4o'), [search], name='researcher')\n"
        "def agent_node(state, agent, name):\n    return agent.invoke(state)\n"
        "researcher = _researcher()\n"
        "g = StateGraph(MessagesState)\ng.add_node('research', functools.partial(agent_node, agent=researcher, name='R'))\n"
        "team = g.compile()\n"
    )
    entries = exported({"app.py": src})
    assert entries["agent:team"].reaches == ["agent:researcher"]
    assert "tool:search" in entries  # reached through the graph, though the factory is private


def test_graph_node_that_cannot_be_read_is_reported() -> None:
    src = GRAPH + (
        "def a(state):\n    return state\n"
        "def b(state):\n    return state\n"
        "NODES = [('a', a), ('b', b)]\n"
        "g = StateGraph(MessagesState)\nfor name, node in NODES:\n    g.add_node(name, node)\napp = g.compile()\n"
    )
    assert not issues_of({"app.py": src})  # a loop over a literal list of nodes is read
    looped = src.replace("for name, node in NODES:", "for name, node in load_nodes():")
    assert any("graph node 'node' taken from 'app.load_nodes()' could not be resolved statically" in m for m in issues_of({"app.py": looped}))


def test_graph_tools_a_node_runs_are_gated_only_when_that_node_is() -> None:
    src = GRAPH + (
        "from langchain_core.tools import tool\n"
        "@tool\ndef refund(order: str) -> str:\n    '''Refund an order.'''\n    return order\n"
        "@tool\ndef lookup(order: str) -> str:\n    '''Look an order up.'''\n    return order\n"
        "def act(state):\n    return {'messages': [refund.invoke(state['order'])]}\n"
        "def read(state):\n    return {'messages': [lookup.invoke(state['order'])]}\n"
        "g = StateGraph(MessagesState)\ng.add_node('act', act)\ng.add_node('read', read)\n"
        "app = g.compile(interrupt_before=['act'])\n"
    )
    entries = exported({"app.py": src})
    assert entries["tool:refund"].approval == "always"
    assert entries["tool:lookup"].approval == "never"


def test_graph_tools_bound_to_the_model_without_a_tool_node_follow_the_unnamed_executor() -> None:
    src = GRAPH + (
        "from langchain_core.tools import tool\n"
        "@tool\ndef refund(order: str) -> str:\n    '''Refund an order.'''\n    return order\n"
        "TOOLS = [refund]\nBY_NAME = {t.name: t for t in TOOLS}\n"
        "def model(state):\n    return {'messages': [ChatOpenAI(model='gpt-4o').bind_tools(TOOLS).invoke(state['messages'])]}\n"
        "def tools(state):\n    call = state['messages'][-1].tool_calls[0]\n    return {'messages': [BY_NAME[call['name']].invoke(call)]}\n"
        "g = StateGraph(MessagesState)\ng.add_node('model', model)\ng.add_node('tools', tools)\n"
        "app = g.compile(interrupt_before=['tools'])\nplain = g.compile()\n"
    )
    entries = exported({"app.py": src})
    # `plain` runs the same tool without the interrupt: the lowest gate is what a reviewer must see.
    assert entries["tool:refund"].approval == "never"
    assert sorted(entries["agent:app"].reaches) == sorted(entries["agent:plain"].reaches) == ["tool:refund"]
    gated = src.replace("plain = g.compile()\n", "")
    assert isinstance(exported({"app.py": gated})["tool:refund"].approval, Dynamic)


def test_graph_model_chosen_by_branch_is_every_model_it_may_be() -> None:
    src = GRAPH + (
        "from langchain_anthropic import ChatAnthropic\n"
        "anth = ChatAnthropic(model_name='claude-3-5-haiku-latest')\nanth = anth.bind_tools([])\n"
        "oai = ChatOpenAI(model='gpt-4o')\n"
        "def call_model(state, runtime):\n"
        "    if runtime.context.get('model') == 'anthropic':\n        model = anth\n    else:\n        model = oai\n"
        "    return {'messages': [model.invoke(state['messages'])]}\n"
        "g = StateGraph(MessagesState)\ng.add_node('agent', call_model)\napp = g.compile()\n"
    )
    assert exported({"app.py": src})["agent:app"].model == "ChatAnthropic:claude-3-5-haiku-latest, ChatOpenAI:gpt-4o"


# -- the legacy AgentExecutor's prompt template ----------------------------------------------------

EXECUTOR = """
from langchain import hub
from langchain_classic.agents import AgentExecutor, create_openai_tools_agent
from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder, PromptTemplate
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="gpt-4o-mini")


@tool
def lookup(order_id: str) -> str:
    '''Look up an order.'''
    return order_id


prompt = {prompt}
executor = AgentExecutor(agent=create_openai_tools_agent(llm, [lookup], prompt), tools=[lookup])
"""


def executor_instructions(prompt: str) -> tuple[str | None, str | None]:
    agent = surface_of({"app/agent.py": EXECUTOR.replace("{prompt}", prompt)})["agent:executor"]
    return agent.instructions_sha256, agent.instructions_text


def test_an_executor_s_instructions_are_the_system_messages_of_its_agent_s_prompt_template() -> None:
    pair = 'ChatPromptTemplate.from_messages([("system", "Answer about orders."), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")])'
    message = 'ChatPromptTemplate.from_messages([SystemMessage(content="Answer about orders."), "{input}", MessagesPlaceholder("agent_scratchpad")])'
    digest, text = executor_instructions(pair)
    assert text == "Answer about orders." and digest == executor_instructions(message)[0]
    # Two system messages are both instructions, in order; the human turn is the run's input.
    both = executor_instructions('ChatPromptTemplate.from_messages([("system", "Answer about orders."), ("system", "Be brief."), ("human", "Q: {input}")])')
    assert both[1] == "Answer about orders.\n\nBe brief."
    # Values filled in by `.partial(...)` are read with it.
    partial = pair.replace('("system", "Answer about orders.")', '("system", "Answer about orders. {rules}")') + '.partial(rules="Be brief.")'
    assert executor_instructions(partial)[1] == "Answer about orders. {rules}\n\nBe brief."
    # A single template is the whole prompt.
    assert executor_instructions('PromptTemplate.from_template("Answer about orders: {input} {agent_scratchpad}")')[1] == "Answer about orders: {input} {agent_scratchpad}"


def test_an_executor_prompt_that_cannot_be_read_is_dynamic_never_none() -> None:
    for prompt in ('hub.pull("hwchase17/openai-tools-agent")', 'ChatPromptTemplate.from_messages(load_messages())'):
        digest, _ = executor_instructions(prompt)
        assert digest is not None and digest.startswith("dynamic:"), prompt


def _dynamic(digest: str | None) -> bool:
    return digest is not None and digest.startswith("dynamic:")


SYSTEM_RULES = 'ChatPromptTemplate.from_messages([("system", "Answer about orders. {rules}"), ("human", "{input}")])'


def test_a_partial_chain_that_loops_back_is_dynamic_not_a_crash() -> None:
    # `prompt = prompt.partial(...)` over an imported `prompt`: the right side is the imported
    # template, the name the module's own from then on; its partial value is read, and a change of it seen.
    files = {
        "app/__init__.py": "",
        "app/prompts.py": f"from langchain_core.prompts import ChatPromptTemplate\nprompt = {SYSTEM_RULES}\n",
        "app/agent.py": EXECUTOR.replace("prompt = {prompt}", 'from app.prompts import prompt\nprompt = prompt.partial(rules="Be brief.")'),
    }
    brief = surface_of(files)["agent:executor"]
    assert not _dynamic(brief.instructions_sha256) and "Be brief." in (brief.instructions_text or "")
    files["app/agent.py"] = files["app/agent.py"].replace("Be brief.", "Be thorough.")
    assert surface_of(files)["agent:executor"].instructions_sha256 != brief.instructions_sha256
    # Two templates each the other's partial.
    mutual = EXECUTOR.replace("prompt = {prompt}", 'a = b.partial(x="1")\nb = a.partial(y="2")\nprompt = a')
    assert _dynamic(surface_of({"app/agent.py": mutual})["agent:executor"].instructions_sha256)


def test_a_template_reassigned_with_partial_values_is_dynamic_so_the_values_are_not_lost() -> None:
    reassigned = EXECUTOR.replace("prompt = {prompt}", f'prompt = {SYSTEM_RULES}\nprompt = prompt.partial(rules="Be brief.")')
    digest = surface_of({"app/agent.py": reassigned})["agent:executor"].instructions_sha256
    changed = surface_of({"app/agent.py": reassigned.replace("Be brief.", "Be thorough.")})["agent:executor"].instructions_sha256
    assert _dynamic(digest) and digest != changed


def test_star_arguments_that_may_carry_the_prompt_are_dynamic() -> None:
    spread = executor_instructions(f'{SYSTEM_RULES}.partial(**RULES)')[0]
    assert _dynamic(spread)
    assert _dynamic(surface_of({"app/agent.py": EXECUTOR.replace("[lookup], prompt)", "[lookup], **KW)")})["agent:executor"].instructions_sha256)
    no_agent = EXECUTOR.replace("AgentExecutor(agent=create_openai_tools_agent(llm, [lookup], prompt), tools=[lookup])", "AgentExecutor(tools=[lookup], **kw)")
    assert _dynamic(surface_of({"app/agent.py": no_agent})["agent:executor"].instructions_sha256)


def test_a_message_built_by_a_call_that_is_not_a_known_turn_is_dynamic() -> None:
    for message in (
        "system_message()",
        'SystemMessagePromptTemplate(prompt=PromptTemplate.from_template("Answer about orders."))',
        'SystemMessagePromptTemplate.from_template_file("system.txt", input_variables=[])',
    ):
        digest, _ = executor_instructions(f'ChatPromptTemplate.from_messages([{message}, ("human", "{{input}}")])')
        assert _dynamic(digest), message
    # Known human/AI turns and placeholders are the run's input, read as before.
    known = 'ChatPromptTemplate.from_messages([("system", "Answer about orders."), HumanMessagePromptTemplate.from_template("{input}"), HumanMessage(content="hi"), MessagesPlaceholder("agent_scratchpad")])'
    src = EXECUTOR.replace("{prompt}", known).replace("import SystemMessage", "import HumanMessage, SystemMessage").replace("MessagesPlaceholder, PromptTemplate", "HumanMessagePromptTemplate, MessagesPlaceholder, PromptTemplate")
    assert surface_of({"app/agent.py": src})["agent:executor"].instructions_text == "Answer about orders."


def test_a_partial_value_filled_into_the_human_turn_only_is_not_an_instruction() -> None:
    human_fmt = 'ChatPromptTemplate.from_messages([("system", "Answer about orders."), ("human", "{input} as {fmt}")])'
    json, yaml = (executor_instructions(f'{human_fmt}.partial(fmt="{fmt}")') for fmt in ("json", "yaml"))
    assert json == yaml and json[1] == "Answer about orders."
    # Filled into the system text, it is one.
    assert executor_instructions(f'{SYSTEM_RULES}.partial(rules="Be brief.")')[1] == "Answer about orders. {rules}\n\nBe brief."


def test_a_partial_fills_a_placeholder_as_the_template_s_format_spells_it() -> None:
    jinja = 'ChatPromptTemplate.from_messages([("system", "Answer about orders. {{ rules }}"), ("human", "{{ input }}")], template_format="jinja2")'
    assert executor_instructions(f'{jinja}.partial(rules="Be brief.")')[1] == "Answer about orders. {{ rules }}\n\nBe brief."
    # Filled into the human turn only, it is the run's input; a name after a dot is an attribute.
    human = jinja.replace("{{ input }}", "{{ input }} as {{ fmt }}").replace("{{ rules }}", "{{ order.fmt }}")
    json, yaml = (executor_instructions(f'{human}.partial(fmt="{fmt}")') for fmt in ("json", "yaml"))
    assert json == yaml and json[1] == "Answer about orders. {{ order.fmt }}"
    # Jinja statements read variables too; so do mustache tags, sections included.
    statement = jinja.replace("{{ rules }}", "{% if strict %}Be brief.{% endif %}")
    assert executor_instructions(f'{statement}.partial(strict="yes")')[1].endswith("\n\nyes")
    mustache = jinja.replace("jinja2", "mustache").replace("{{ rules }}", "{{#rules}}{{.}}{{/rules}}")
    assert executor_instructions(f'{mustache}.partial(rules="Be brief.")')[1].endswith("\n\nBe brief.")
    # A set-delimiter tag changes how the rest of a mustache text spells its tags: the default tags
    # do not find what it reads, so whatever a partial names may be read.
    delimited = mustache.replace("{{#rules}}{{.}}{{/rules}}", "{{=<% %>=}}<% rules %>")
    assert executor_instructions(f'{delimited}.partial(rules="Be brief.")')[1].endswith("\n\nBe brief.")
    single = 'PromptTemplate.from_template("Answer about orders. {{ rules }} {{ input }}", template_format="jinja2")'
    assert executor_instructions(f'{single}.partial(rules="Be brief.")')[1].endswith("\n\nBe brief.")
    system = 'ChatPromptTemplate.from_messages([SystemMessagePromptTemplate.from_template("Answer. {{ rules }}", "jinja2"), ("human", "{input}")])'
    src = EXECUTOR.replace("{prompt}", f'{system}.partial(rules="Be brief.")').replace("MessagesPlaceholder, PromptTemplate", "MessagesPlaceholder, PromptTemplate, SystemMessagePromptTemplate")
    assert surface_of({"app/agent.py": src})["agent:executor"].instructions_text == "Answer. {{ rules }}\n\nBe brief."


def test_an_f_string_placeholder_is_what_python_formats_not_a_brace_spelling() -> None:
    # `{{rules}}` in an f-string template is the literal text `{rules}`: nothing fills it.
    escaped = 'ChatPromptTemplate.from_messages([("system", "Answer about orders. {{rules}}"), ("human", "{input} {rules}")])'
    assert executor_instructions(f'{escaped}.partial(rules="Be brief.")')[1] == "Answer about orders. {{rules}}"
    spec = 'ChatPromptTemplate.from_messages([("system", "Answer about orders. {rules!s:>10}"), ("human", "{input}")])'
    assert executor_instructions(f'{spec}.partial(rules="Be brief.")')[1].endswith("\n\nBe brief.")
    # A SystemMessage is never formatted: a partial cannot reach it.
    literal = 'ChatPromptTemplate.from_messages([SystemMessage(content="Answer about orders. {rules}"), ("human", "{input} {rules}")])'
    assert executor_instructions(f'{literal}.partial(rules="Be brief.")')[1] == "Answer about orders. {rules}"


def test_a_template_format_that_is_not_a_known_literal_is_dynamic_never_guessed() -> None:
    for fmt in ('os.environ["PROMPT_FORMAT"]', '"jinja3"'):
        prompt = f'ChatPromptTemplate.from_messages([("system", "Answer about orders. {{{{ rules }}}}"), ("human", "{{input}}")], template_format={fmt}).partial(rules="Be brief.")'
        assert _dynamic(executor_instructions(prompt)[0]), fmt
    assert _dynamic(executor_instructions('PromptTemplate.from_template("Answer about orders: {input}", **OPTIONS)')[0])
    # Spelt out as a constant, it is known.
    known = EXECUTOR.replace("prompt = {prompt}", 'FORMAT = "jinja2"\nprompt = ChatPromptTemplate.from_messages([("system", "Answer. {{ rules }}")], template_format=FORMAT).partial(rules="Be brief.")')
    assert surface_of({"app/agent.py": known})["agent:executor"].instructions_text == "Answer. {{ rules }}\n\nBe brief."


def test_partial_variables_given_at_construction_are_read_as_a_partial() -> None:
    single = 'PromptTemplate.from_template("Answer about orders. {rules} {input}", partial_variables={"rules": "Be brief.", "input": "x"})'
    assert executor_instructions(single)[1] == "Answer about orders. {rules} {input}\n\nx\n\nBe brief."  # by name, as .partial
    jinja = 'PromptTemplate.from_template("Answer. {{ rules }}", template_format="jinja2", partial_variables={"rules": "Be brief.", "fmt": "json"})'
    assert executor_instructions(jinja)[1] == "Answer. {{ rules }}\n\nBe brief."
    chat = 'ChatPromptTemplate([("system", "Answer about orders. {rules}"), ("human", "{input} as {fmt}")], partial_variables={"rules": "Be brief.", "fmt": "json"})'
    assert executor_instructions(chat)[1] == "Answer about orders. {rules}\n\nBe brief."
    system = 'ChatPromptTemplate.from_messages([SystemMessagePromptTemplate.from_template("Answer. {rules}", partial_variables={"rules": "Be brief."}), ("human", "{input}")])'
    src = EXECUTOR.replace("{prompt}", system).replace("MessagesPlaceholder, PromptTemplate", "MessagesPlaceholder, PromptTemplate, SystemMessagePromptTemplate")
    assert surface_of({"app/agent.py": src})["agent:executor"].instructions_text == "Answer. {rules}\n\nBe brief."
    # Values the analysis cannot see are dynamic, never dropped.
    assert _dynamic(executor_instructions('PromptTemplate.from_template("Answer. {rules}", partial_variables=load_rules())')[0])
    assert _dynamic(executor_instructions('PromptTemplate.from_template("Answer. {rules}", partial_variables={**RULES})')[0])
    # Spread arguments may carry partial_variables: what they fill into a system text is not seen.
    spread = 'ChatPromptTemplate([SystemMessagePromptTemplate.from_template("Answer. {rules}"), ("human", "{input}")], **OPTIONS)'
    src = EXECUTOR.replace("{prompt}", spread).replace("MessagesPlaceholder, PromptTemplate", "MessagesPlaceholder, PromptTemplate, SystemMessagePromptTemplate")
    assert _dynamic(surface_of({"app/agent.py": src})["agent:executor"].instructions_sha256)


# -- deepagents --------------------------------------------------------------------------------

DEEP = "from deepagents import create_deep_agent\nfrom deepagents.backends import FilesystemBackend\n"


def _deep(backend: str = "", subagents: str = "[]", gates: str = "{}") -> dict[str, str]:
    return {
        "app/agent.py": DEEP
        + f"""
import os

def refund_order(order_id: str) -> str:
    \"\"\"Refund an order.\"\"\"
    return order_id

agent = create_deep_agent(model="openai:gpt-4.1", tools=[refund_order], subagents={subagents}, interrupt_on={gates}{backend})
"""
    }


def test_a_deep_agents_built_in_tools_are_as_dangerous_as_its_backend_lets_them_be() -> None:
    state = exported(_deep())
    assert {k for k, e in state.items() if e.dangerous is True} == set()
    assert state["tool:read_file"].read_only is True and "tool:task" in state["agent:agent"].reaches
    disk = exported(_deep(", backend=FilesystemBackend(root_dir='/srv')"))
    assert {e.name for e in disk.values() if e.dangerous is True} == {"write_file", "edit_file", "delete"}
    unknown = exported(_deep(", backend=os.environ['BACKEND']"))["tool:execute"].dangerous
    assert isinstance(unknown, Dynamic) and "BACKEND" in unknown.dynamic


def test_a_deep_agents_subagent_is_an_agent_it_reaches_gated_by_the_inherited_map_unless_it_sets_its_own() -> None:
    inherited = exported(_deep(subagents='[{"name": "billing", "description": "d", "system_prompt": "p", "tools": [refund_order]}]', gates='{"refund_order": True}'))
    assert "agent:billing" in inherited["agent:agent"].reaches
    assert inherited["tool:refund_order"].approval == "always"
    own = exported(_deep(subagents='[{"name": "billing", "description": "d", "system_prompt": "p", "tools": [refund_order], "interrupt_on": {}}]',
                         gates='{"refund_order": True}'))
    assert own["tool:refund_order"].approval == "never"  # the main agent's path is gated, the subagent's is not


def test_a_deep_agents_subagent_that_cannot_be_read_is_reported() -> None:
    notes = issues_of(_deep(subagents="load_subagents()"))
    assert any("subagents 'app.agent.load_subagents()' could not be resolved statically" in n for n in notes)


def test_a_deep_agents_remote_subagent_is_reported_not_read_as_a_local_one() -> None:
    files = _deep(subagents='[{"name": "researcher", "description": "d", "graph_id": "research", "url": "http://127.0.0.1:2024"}]')
    assert "agent:researcher" not in exported(files)
    assert any("subagent graph 'research' runs on a LangGraph server" in n for n in issues_of(files))


def test_a_deep_agents_interrupt_permissions_gate_its_file_tools_and_its_interrupt_on_wins_per_tool() -> None:
    rule = "FilesystemPermission(operations=['write'], paths=['/policies/**'], mode='interrupt')"
    files = _deep(f", permissions=[{rule}]", gates='{"delete": False}')
    files["app/agent.py"] = files["app/agent.py"].replace("from deepagents import", "from deepagents import FilesystemPermission\nfrom deepagents import", 1)
    s = exported(files)
    assert (s["tool:write_file"].approval, s["tool:edit_file"].approval, s["tool:delete"].approval) == ("conditional", "conditional", "never")
    assert s["tool:read_file"].approval == "never"
    unread = exported(_deep(", permissions=load_rules()"))["tool:write_file"].approval
    assert isinstance(unread, Dynamic)


GRAPH_UNDER_FLAG = '''
import os
from langchain_core.tools import tool
from langgraph.graph import END, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode


@tool
def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return order_id


def chat(state: MessagesState) -> dict:
    return {"messages": []}


workflow = StateGraph(MessagesState)
workflow.add_node("chat", chat)
workflow.add_node("tools", ToolNode([lookup_order]))
workflow.set_entry_point("chat")
workflow.add_edge("chat", "tools")
workflow.add_edge("tools", END)

if os.environ.get("FAST_API"):
    graph = workflow.compile(ALTERNATIVE)
else:
    graph = workflow.compile()
'''


def test_a_graph_compiled_twice_alike_but_for_where_state_is_kept_is_one_agent_said_once() -> None:
    # Only the checkpointer differs: one agent, no "assigned more than once" note.
    alike = issues_of({"app/graph.py": GRAPH_UNDER_FLAG.replace("ALTERNATIVE", "checkpointer=object()")})
    assert not [i for i in alike if "assigned more than once" in i]
    # Another interrupt_before is another agent's gate: which one runs is said to be unknown.
    unlike = issues_of({"app/graph.py": GRAPH_UNDER_FLAG.replace("ALTERNATIVE", 'interrupt_before=["tools"]')})
    assert [i for i in unlike if "assigned more than once" in i]


# -- tool factories (LangMem's create_manage_memory_tool / create_search_memory_tool) -----------

FACTORIES = TOOLS + """
from langchain_core.tools import StructuredTool


def make_lookup(prefix: str):
    @tool
    def lookup(q: str) -> str:
        '''Look an order up.'''
        return prefix + q
    return lookup


def make_refund(limit: int):
    def refund(order_id: str, amount: float) -> str:
        return order_id
    return StructuredTool.from_function(refund, name="refund_order", description="Refund an order.")


def shared():
    return lookup_everywhere


@tool
def lookup_everywhere(q: str) -> str:
    '''Look anything up.'''
    return q
"""


def test_an_agent_listing_tools_its_factories_make_reaches_them_without_a_note() -> None:
    files = {
        "shop/factories.py": FACTORIES,
        "shop/app.py": AGENT + "from shop.factories import make_lookup, make_refund\n"
        "bot = create_agent('openai:gpt-4o', tools=[make_lookup('x'), make_refund(limit=10)])\n",
    }
    found = exported(files)
    assert sorted(found["agent:bot"].reaches) == ["tool:lookup", "tool:refund_order"]
    assert found["tool:refund_order"].conditional is True  # made when a caller calls the factory
    assert params(found["tool:refund_order"]) == ["order_id", "amount"]
    assert issues_of(files) == []  # once: "tool 'make_lookup('x')' could not be resolved statically"


def test_a_published_tool_factory_exports_its_tool_and_a_function_handing_out_a_module_tool_makes_none() -> None:
    files = {"shop/__init__.py": "from shop.factories import make_refund, shared\n", "shop/factories.py": FACTORIES}
    assert set(exported(files)) == {"tool:refund_order"}
    every = surface_of(files)
    assert [k for k in every if "lookup_everywhere" in k] == ["tool:lookup_everywhere"]
    assert every["tool:lookup_everywhere"].conditional is False  # `shared()` hands out the module's one tool, it makes none

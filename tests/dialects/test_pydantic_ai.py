"""PydanticAI dialect: what a reviewer sees for agents, tools and their approval gates."""

from __future__ import annotations

from typing import Any

from receipt.models import Dynamic, Entry
from tests.helpers import exported, link_files, surface_of

HEAD = "from pydantic_ai import Agent, RunContext, Tool\n"


def comparable(entries: dict[str, Entry]) -> dict[str, Any]:
    """Everything a receipt compares, without where the code sits."""
    return {k: e.model_dump(mode="json", exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def issues_of(files: dict[str, str]) -> list[str]:
    return [i.message for i in link_files(files)[1]]


def params(e: Entry) -> list[str]:
    assert e.signature is not None
    return [p.name for p in e.signature.params]


# -- agents ------------------------------------------------------------------------------------


def test_agent_name_model_and_root() -> None:
    s = surface_of(
        {
            "app/a.py": HEAD
            + """
support = Agent("openai:gpt-4o", name="support-bot")
billing = Agent(model="anthropic:claude-sonnet-4-5")
_internal = Agent("openai:gpt-4o-mini")
bare = Agent()
"""
        }
    )
    assert s["agent:support-bot"].model == "openai:gpt-4o"
    assert s["agent:support-bot"].root and s["agent:support-bot"].exported
    assert s["agent:billing"].model == "anthropic:claude-sonnet-4-5"
    assert s["agent:bare"].model is None
    assert not s["agent:_internal"].exported
    assert {e.dialect for e in s.values()} == {"pydantic-ai"}


def test_model_from_env_is_dynamic_and_model_objects_are_named() -> None:
    s = surface_of(
        {
            "app/a.py": HEAD
            + """
import os
from pydantic_ai.models.openai import OpenAIChatModel
a = Agent(os.environ["MODEL"])
b = Agent(OpenAIChatModel("gpt-4o"))
"""
        }
    )
    assert isinstance(s["agent:a"].model, Dynamic)
    assert "MODEL" in s["agent:a"].model.dynamic
    assert s["agent:b"].model == "OpenAIChatModel:gpt-4o"


def test_model_from_a_getenv_call_with_a_default_is_dynamic() -> None:
    s = surface_of({"app/a.py": HEAD + '\nimport os\na = Agent(os.getenv("MODEL", "openai:gpt-4o"))\n'})
    assert isinstance(s["agent:a"].model, Dynamic) and "MODEL" in s["agent:a"].model.dynamic


def test_import_origin_aliases_and_module_import() -> None:
    s = surface_of(
        {
            "app/a.py": """
import pydantic_ai as pai
from pydantic_ai import Agent as PA

one = pai.Agent("openai:gpt-4o")
two = PA("openai:gpt-4o")

@one.tool_plain
def ping() -> str:
    '''Ping.'''
"""
        }
    )
    assert {"agent:one", "agent:two", "tool:ping"} <= set(s)
    assert s["agent:one"].reaches == ["tool:ping"]


def test_a_local_agent_class_is_not_pydantic_ai() -> None:
    s = surface_of(
        {
            "app/a.py": """
class Agent:
    def __init__(self, *a, **k): ...
    def tool(self, f): return f

support = Agent("openai:gpt-4o", tools=[print])

@support.tool
def refund(ctx, order_id: str) -> str:
    '''Refund.'''
""",
            "app/b.py": """
from crewai import Agent
helper = Agent(role="x", goal="y", backstory="z")
""",
        }
    )
    assert not [e for e in s.values() if e.dialect == "pydantic-ai"]


# -- tools -------------------------------------------------------------------------------------


def test_decorated_tools_drop_run_context_and_keep_plain_params() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
agent = Agent("openai:gpt-4o")

@agent.tool
async def refund(ctx: RunContext[int], order_id: str, amount: float = 0.0) -> str:
    '''Refund an order.'''

@agent.tool
def unannotated(ctx, order_id: str) -> str:
    '''The first parameter of @agent.tool is the context whatever its annotation.'''

@agent.tool_plain
def ping(host: str) -> str:
    '''Ping a host.'''
"""
        }
    )
    assert params(s["tool:refund"]) == ["order_id", "amount"]
    assert s["tool:refund"].signature.params[1].required is False  # type: ignore[union-attr]
    assert params(s["tool:unannotated"]) == ["order_id"]
    assert params(s["tool:ping"]) == ["host"]
    assert s["agent:agent"].reaches == ["tool:ping", "tool:refund", "tool:unannotated"]
    assert s["tool:refund"].approval == "never" and s["tool:refund"].trust_tier == "autonomous"


def test_decorator_kwargs_name_description_and_approval() -> None:
    def src(extra: str, doc: str = "Refund an order.") -> dict[str, str]:
        return {
            "app/a.py": HEAD
            + f"""
agent = Agent("openai:gpt-4o")

@agent.tool({extra})
def refund(ctx: RunContext[None], order_id: str) -> str:
    '''{doc}'''
"""
        }

    plain = exported(src(""))["tool:refund"]
    explicit_default = exported(src("requires_approval=False"))["tool:refund"]
    assert comparable({"t": plain}) == comparable({"t": explicit_default})

    gated = exported(src('name="refund_order", requires_approval=True'))
    assert gated["tool:refund_order"].approval == "always"
    assert gated["tool:refund_order"].trust_tier == "human_required"

    described = exported(src('description="Give money back."'))["tool:refund"]
    assert described.description_sha256 != plain.description_sha256
    redoc = exported(src("", doc="Refund an order, now."))["tool:refund"]
    assert redoc.description_sha256 != plain.description_sha256


def test_tool_objects_and_plain_functions_in_tools_list() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
def lookup(order_id: str) -> str:
    '''Look up an order.'''

def _refund(ctx: RunContext[None], order_id: str) -> str:
    '''Refund.'''

def _wipe(c, disk: str) -> None:
    '''Wipe.'''

refund_tool = Tool(_refund, name="refund_order", description="Refund money.", requires_approval=True)

agent = Agent(
    "openai:gpt-4o",
    tools=[lookup, refund_tool, Tool(_wipe, takes_ctx=True, name="wipe_disk")],
)
"""
        }
    )
    assert set(s) == {"agent:agent", "tool:lookup", "tool:refund_order", "tool:wipe_disk"}
    assert s["tool:refund_order"].approval == "always"
    assert params(s["tool:refund_order"]) == ["order_id"]
    assert params(s["tool:wipe_disk"]) == ["disk"]
    assert params(s["tool:lookup"]) == ["order_id"]


def test_approval_required_raised_in_body_is_conditional() -> None:
    s = exported(
        {
            "app/a.py": """
import pydantic_ai
from pydantic_ai import Agent, RunContext
from pydantic_ai.exceptions import ApprovalRequired

agent = Agent("openai:gpt-4o")

@agent.tool
def refund(ctx: RunContext[None], amount: float) -> str:
    '''Refund.'''
    if amount > 100 and not ctx.tool_call_approved:
        raise ApprovalRequired
    return "ok"

@agent.tool
def delete(ctx: RunContext[None], id: str) -> str:
    '''Delete.'''
    raise pydantic_ai.ApprovalRequired()

@agent.tool(requires_approval=True)
def nuke(ctx: RunContext[None]) -> str:
    '''Always gated, raising too changes nothing.'''
    raise ApprovalRequired

@agent.tool
def other(ctx: RunContext[None]) -> str:
    '''Raises something else.'''
    raise ValueError("no")
"""
        }
    )
    assert s["tool:refund"].approval == "conditional"
    assert s["tool:refund"].trust_tier == "human_supervised"
    assert s["tool:delete"].approval == "conditional"
    assert s["tool:nuke"].approval == "always"
    assert s["tool:other"].approval == "never"


def test_approval_from_env_is_dynamic() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
import os
agent = Agent("openai:gpt-4o")

@agent.tool_plain(requires_approval=os.getenv("GATE") == "1")
def refund(order_id: str) -> str:
    '''Refund.'''
"""
        }
    )
    assert isinstance(s["tool:refund"].approval, Dynamic)
    assert isinstance(s["tool:refund"].trust_tier, Dynamic)


def test_options_spread_into_decorators_tools_and_toolsets_are_read_by_value() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
from pydantic_ai.toolsets import FunctionToolset
from app.settings import load_options

GUARDED = {"requires_approval": True}
LOOSE = {**GUARDED}
LOOSE["requires_approval"] = False

def ship(order_id: str) -> str:
    '''Ship.'''

def wipe(order_id: str) -> str:
    '''Wipe.'''

def cancel(order_id: str) -> str:
    '''Cancel.'''

agent = Agent("openai:gpt-4o", tools=[Tool(ship, **GUARDED)], toolsets=[FunctionToolset([wipe], **GUARDED), FunctionToolset([cancel], **load_options())])

@agent.tool_plain(**LOOSE)
def refund(order_id: str) -> str:
    '''Refund.'''

@agent.tool_plain(**load_options())
def close(order_id: str) -> str:
    '''Close.'''
"""
        }
    )
    assert s["tool:ship"].approval == "always" and s["tool:wipe"].approval == "always"
    assert s["tool:refund"].approval == "never"
    assert isinstance(s["tool:close"].approval, Dynamic) and isinstance(s["tool:cancel"].approval, Dynamic)


def test_prepare_makes_a_tool_conditional() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
async def only_admins(ctx, tool_def):
    return tool_def if ctx.deps.admin else None

agent = Agent("openai:gpt-4o")

@agent.tool(prepare=only_admins)
def purge(ctx: RunContext[None]) -> str:
    '''Purge.'''

@agent.tool_plain
def ping() -> str:
    '''Ping.'''
"""
        }
    )
    assert s["tool:purge"].conditional is True
    assert s["tool:ping"].conditional is False


def test_tool_registered_by_call() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
def ping(host: str) -> str:
    '''Ping.'''

agent = Agent("openai:gpt-4o")
agent.tool_plain(ping)
"""
        }
    )
    assert s["agent:agent"].reaches == ["tool:ping"]


# -- toolsets ----------------------------------------------------------------------------------


def test_function_toolsets_decorators_and_approval_wrappers() -> None:
    s = surface_of(
        {
            "app/tools.py": """
from pydantic_ai import FunctionToolset, RunContext

def lookup(order_id: str) -> str:
    '''Look up.'''

def transfer(amount: float) -> str:
    '''Transfer money.'''

def audit(entry: str) -> str:
    '''Audit.'''

readonly = FunctionToolset(tools=[lookup])
money = FunctionToolset([transfer])
audited = FunctionToolset([audit], requires_approval=True)

@readonly.tool
def status(ctx: RunContext[None], order_id: str) -> str:
    '''Status.'''
""",
            "app/agents.py": """
from pydantic_ai import Agent
from pydantic_ai.toolsets import ApprovalRequiredToolset
from app.tools import readonly, money, audited

def big(ctx, tool_def, args):
    return args["amount"] > 100

agent = Agent("openai:gpt-4o", toolsets=[readonly, ApprovalRequiredToolset(money, big), audited])
strict = Agent("openai:gpt-4o", toolsets=[readonly.approval_required()])
""",
        }
    )
    assert s["agent:agent"].reaches == ["tool:audit", "tool:lookup", "tool:status", "tool:transfer"]
    assert params(s["tool:status"]) == ["order_id"]
    assert s["tool:transfer"].approval == "conditional"
    assert s["tool:audit"].approval == "always"
    # lookup/status: gated through `strict`, but `agent` reaches them without approval.
    assert s["tool:lookup"].approval == "never"
    assert s["tool:status"].approval == "never"


def test_the_lowest_approval_among_registrations_wins() -> None:
    def src(second: str) -> dict[str, str]:
        return {
            "app/a.py": """
from pydantic_ai import Agent, FunctionToolset

def transfer(amount: float) -> str:
    '''Transfer.'''

ts = FunctionToolset([transfer])
gated = Agent("openai:gpt-4o", toolsets=[ts.approval_required()])
"""
            + second
        }

    assert exported(src(""))["tool:transfer"].approval == "always"
    assert exported(src('open_door = Agent("openai:gpt-4o", tools=[transfer])\n'))["tool:transfer"].approval == "never"


def test_unresolvable_toolsets_and_tools_are_reported_not_dropped() -> None:
    files = {
        "app/a.py": HEAD
        + """
from pydantic_ai.mcp import MCPServerStdio
from app.registry import get_tools

server = MCPServerStdio("python", args=["server.py"])
agent = Agent("openai:gpt-4o", tools=get_tools(), toolsets=[server])
"""
    }
    s = surface_of(files)
    assert "agent:agent" in s
    messages = issues_of(files)
    assert any("get_tools()" in m for m in messages)
    assert any("MCPServerStdio" in m for m in messages)


# -- instructions ------------------------------------------------------------------------------


def _instructions(body: str) -> str | None:
    return surface_of({"app/a.py": HEAD + body})["agent:agent"].instructions_sha256


def test_instructions_digest_follows_texts_and_prompt_functions() -> None:
    base = _instructions('agent = Agent("m", instructions="Be helpful.")\n')
    assert base is not None
    assert base == _instructions('agent = Agent("m", system_prompt="Be helpful.")\n')
    assert base == _instructions('TEXT = "Be helpful."\nagent = Agent("m", instructions=TEXT)\n')
    assert base != _instructions('agent = Agent("m", instructions="Be terse.")\n')
    assert _instructions('agent = Agent("m")\n') is None
    assert _instructions('agent = Agent("m", system_prompt=())\n') is None

    fn = """
agent = Agent("m", instructions="Be helpful.")

@agent.instructions
def today(ctx: RunContext[None]) -> str:
    return f"User is {ctx.deps.name}."
"""
    with_fn = _instructions(fn)
    assert with_fn not in (None, base)
    assert with_fn == _instructions(fn.replace("def today", "def today_renamed"))
    assert with_fn != _instructions(fn.replace("User is", "The user is"))
    assert _instructions(fn.replace("@agent.instructions", "@agent.system_prompt")) == with_fn


def test_instructions_from_env_are_dynamic() -> None:
    digest = _instructions('import os\nagent = Agent("m", instructions=os.environ["PROMPT"])\n')
    assert digest is not None and digest.startswith("dynamic:")


# -- structure: modules, factories, conditions, renames ----------------------------------------


def test_decorator_on_an_agent_imported_from_another_module() -> None:
    s = exported(
        {
            "app/__init__.py": "from app.agents import support\n",
            "app/agents.py": HEAD + 'support = Agent("openai:gpt-4o")\n',
            "app/tools/refunds.py": """
from app import support
from pydantic_ai import RunContext

@support.tool(requires_approval=True)
def refund(ctx: RunContext[None], order_id: str) -> str:
    '''Refund.'''
""",
        }
    )
    assert s["agent:support"].reaches == ["tool:refund"]
    assert s["tool:refund"].approval == "always"
    assert s["tool:refund"].path == "app/tools/refunds.py"


def test_conditional_tool_lists_and_factories() -> None:
    s = surface_of(
        {
            "app/a.py": HEAD
            + """
import os

def lookup(q: str) -> str:
    '''Lookup.'''

def refund(order_id: str) -> str:
    '''Refund.'''

def purge() -> str:
    '''Purge.'''

TOOLS = [lookup]
if os.getenv("ENABLE_REFUNDS"):
    TOOLS.append(refund)

main = Agent("openai:gpt-4o", tools=TOOLS)

def build_admin():
    admin = Agent("openai:gpt-4o", name="admin")

    @admin.tool_plain
    def nuke() -> str:
        '''Nuke.'''

    return admin

def _build_hidden():
    return Agent("openai:gpt-4o", tools=[purge])
"""
        }
    )
    assert s["tool:lookup"].conditional is False
    assert s["tool:refund"].conditional is True
    assert s["tool:refund"].exported
    assert s["agent:admin"].root and s["agent:admin"].conditional
    assert s["tool:nuke"].conditional and s["tool:nuke"].exported
    assert s["agent:_build_hidden"].exported is False
    assert s["tool:purge"].exported is False and s["tool:purge"].conditional


def test_agent_returned_directly_by_a_public_factory() -> None:
    s = surface_of({"app/a.py": HEAD + 'def make_support():\n    return Agent("openai:gpt-4o", name="support")\n'})
    assert s["agent:support"].root and s["agent:support"].conditional


def test_file_split_changes_nothing() -> None:
    one = {
        "app/agents.py": HEAD
        + """
def lookup(order_id: str) -> str:
    '''Look up.'''

support = Agent("openai:gpt-4o", tools=[lookup], instructions="Help.")

@support.tool(requires_approval=True)
def refund(ctx: RunContext[None], order_id: str) -> str:
    '''Refund.'''
"""
    }
    split = {
        "app/lookup.py": "def lookup(order_id: str) -> str:\n    '''Look up.'''\n",
        "app/agents.py": HEAD + 'from app.lookup import lookup\nsupport = Agent("openai:gpt-4o", tools=[lookup], instructions="Help.")\n',
        "app/refunds.py": """
from pydantic_ai import RunContext
from app.agents import support

@support.tool(requires_approval=True)
def refund(ctx: RunContext[None], order_id: str) -> str:
    '''Refund.'''
""",
    }
    assert set(exported(one)) == {"agent:support", "tool:lookup", "tool:refund"}
    assert comparable(exported(one)) == comparable(exported(split))


def test_renaming_the_function_keeps_the_key_renaming_the_tool_does_not() -> None:
    def src(fn: str, name: str) -> dict[str, str]:
        return {
            "app/a.py": HEAD
            + f"""
agent = Agent("openai:gpt-4o")

@agent.tool(name="{name}")
def {fn}(ctx: RunContext[None], order_id: str) -> str:
    '''Refund.'''
"""
        }

    before = exported(src("refund", "refund_order"))
    assert set(before) == {"agent:agent", "tool:refund_order"}
    assert comparable(before) == comparable(exported(src("do_refund", "refund_order")))
    after = exported(src("refund", "give_money_back"))
    assert "tool:refund_order" not in after and "tool:give_money_back" in after


def test_a_path_without_approval_beats_an_unknown_gate() -> None:
    s = exported(
        {
            "app/a.py": """
import os
from pydantic_ai import Agent, FunctionToolset

def transfer(amount: float) -> str:
    '''Transfer.'''

ts = FunctionToolset([transfer], requires_approval=os.getenv("GATE") == "1")
maybe = Agent("openai:gpt-4o", toolsets=[ts])
"""
        }
    )
    assert isinstance(s["tool:transfer"].approval, Dynamic)
    s = exported(
        {
            "app/a.py": """
import os
from pydantic_ai import Agent, FunctionToolset

def transfer(amount: float) -> str:
    '''Transfer.'''

ts = FunctionToolset([transfer], requires_approval=os.getenv("GATE") == "1")
maybe = Agent("openai:gpt-4o", toolsets=[ts])
direct = Agent("openai:gpt-4o", tools=[transfer])
"""
        }
    )
    assert s["tool:transfer"].approval == "never"


def test_a_tool_of_another_dialect_in_the_list_is_reached_not_duplicated() -> None:
    s = exported(
        {
            "app/a.py": HEAD
            + """
from receipt.markers import tool

@tool(dangerous=True)
def wipe(disk: str) -> str:
    '''Wipe a disk.'''

agent = Agent("openai:gpt-4o", tools=[wipe])
"""
        }
    )
    assert s["agent:agent"].reaches == ["tool:wipe"]
    assert s["tool:wipe"].dialect == "markers" and s["tool:wipe"].dangerous is True


def test_a_function_decorated_by_another_framework_is_not_a_plain_tool_of_ours() -> None:
    s = surface_of(
        {
            "app/a.py": HEAD
            + """
from crewai.tools import tool

@tool("Search the web")
def search(query: str) -> str:
    '''Search.'''

agent = Agent("openai:gpt-4o", tools=[search])
"""
        }
    )
    assert not [e for e in s.values() if e.kind == "tool" and e.dialect == "pydantic-ai"]


def test_an_agent_assigned_twice_keeps_the_unconditional_one_and_says_so() -> None:
    files = {
        "app/a.py": HEAD
        + """
import os
if os.getenv("CHEAP"):
    agent = Agent("openai:gpt-4o-mini")
else:
    agent = Agent("openai:gpt-4o")
agent = Agent("anthropic:claude-sonnet-4-5")
"""
    }
    assert surface_of(files)["agent:agent"].model == "anthropic:claude-sonnet-4-5"
    assert sum("assigned more than once" in m for m in issues_of(files)) == 2


def test_a_decorator_applied_as_a_statement_with_options_registers_the_tool() -> None:
    src = HEAD + """
from pydantic_ai.toolsets import FunctionToolset
from app.helpers import load_tool

agent = Agent("openai:gpt-4o")
toolset = FunctionToolset()
ops = Agent("openai:gpt-4o", toolsets=[toolset])

def refund(order_id: str) -> str:
    '''Refund.'''

def close(ctx: RunContext[int], order_id: str) -> str:
    '''Close.'''

agent.tool_plain(requires_approval=True)(refund)
toolset.tool(requires_approval=False)(close)
agent.tool_plain(name="x")(load_tool())
"""
    entries, issues = link_files({"app/a.py": src})
    by_key = {e.key: e for e in entries if e.exported}
    assert by_key["tool:refund"].approval == "always" and by_key["tool:close"].approval == "never"
    assert any("tool_plain(...) applied to" in i.message for i in issues)


def test_a_model_set_on_the_agent_after_construction_is_its_model() -> None:
    src = HEAD + """
support = Agent("openai:gpt-4o", name="support")
support.model = "openai:gpt-4o-mini"
ops = Agent("openai:gpt-4o", name="ops")
if FLAG:
    ops.model = "openai:gpt-4o-mini"
"""
    s = {e.name: e for e in surface_of({"app/a.py": src}).values() if e.kind == "agent"}
    assert s["support"].model == "openai:gpt-4o-mini"
    assert isinstance(s["ops"].model, Dynamic)

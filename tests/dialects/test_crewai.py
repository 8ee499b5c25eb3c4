"""CrewAI dialect: tools, BaseTool, agents, crews, tasks, CrewBase, approval hooks."""

from __future__ import annotations

from receipt.dialects.base import digest
from receipt.dialects.crewai import sanitize_tool_name
from receipt.models import Dynamic
from tests.helpers import exported, link_files, surface_of

TOOLS = '''
from crewai.tools import tool, BaseTool

@tool("Search Web")
def search(query: str) -> str:
    """Search the web."""
    return ""

@tool
def delete_record(record_id: int) -> str:
    """Delete a record."""
    return ""

class RefundTool(BaseTool):
    name: str = "Issue Refund"
    description: str = "Refund an order"

    def _run(self, order_id: str, amount: float = 0.0) -> str:
        return ""
'''

AGENTS = '''
from crewai import Agent, Crew, Task
from crew.tools import search, delete_record, RefundTool

researcher = Agent(role="Researcher", goal="Find facts", backstory="Curious", tools=[search], llm="gpt-4o")
_clerk = Agent(role="Clerk", goal="Handle refunds", backstory="Careful", tools=[RefundTool(), delete_record])
crew = Crew(agents=[researcher, _clerk], tasks=[])
'''


def _crew(files: dict[str, str]) -> dict:
    return {k: e for k, e in surface_of(files).items() if e.dialect == "crewai"}


def _portable(entries: dict) -> dict:
    return {k: e.model_dump(exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def test_tools_agents_and_crew_roots() -> None:
    s = exported({"crew/tools.py": TOOLS, "crew/main.py": AGENTS})
    assert set(s) == {"agent:Researcher", "agent:Clerk", "tool:Search Web", "tool:delete_record", "tool:Issue Refund"}
    researcher = s["agent:Researcher"]
    assert researcher.root and researcher.model == "gpt-4o" and researcher.reaches == ["tool:Search Web"]
    assert researcher.instructions_sha256 == digest("role: Researcher\n\ngoal: Find facts\n\nbackstory: Curious")
    # A private agent is a root because a module-level crew holds it.
    assert s["agent:Clerk"].root and s["agent:Clerk"].reaches == ["tool:Issue Refund", "tool:delete_record"]
    web = s["tool:Search Web"]
    assert web.description_sha256 == digest("Search the web.") and web.path == "crew/tools.py"
    refund = s["tool:Issue Refund"]
    assert refund.description_sha256 == digest("Refund an order")
    assert [(p.name, p.required) for p in refund.signature.params] == [("order_id", True), ("amount", False)]
    assert all(e.approval == "never" for e in s.values())


def test_instruction_parts_are_each_tracked() -> None:
    base = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS})
    moved = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS.replace('goal="Find facts", backstory="Curious"', 'goal="Find", backstory="facts Curious"')})
    assert base["agent:Researcher"].instructions_sha256 != moved["agent:Researcher"].instructions_sha256


def test_renaming_the_python_function_keeps_the_tool_key() -> None:
    before = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS})
    renamed = _crew({
        "crew/tools.py": TOOLS.replace("def search(", "def web_lookup("),
        "crew/main.py": AGENTS.replace("search,", "web_lookup,").replace("tools=[search]", "tools=[web_lookup]"),
    })
    assert _portable(before) == _portable(renamed)


def test_file_split_keeps_the_surface() -> None:
    one = {"crew/main.py": TOOLS + AGENTS.replace("from crew.tools import search, delete_record, RefundTool\n", "")}
    split = {"crew/tools.py": TOOLS, "crew/main.py": AGENTS}
    assert _portable(_crew(one)) == _portable(_crew(split))


def test_approval_hooks() -> None:
    hooks = '''
from crewai.hooks import before_tool_call, after_tool_call

@before_tool_call(tools=["delete_record", "Issue Refund"])
def approve(context):
    answer = context.request_human_input(prompt="Approve?")
    return None if answer == "yes" else False

@before_tool_call
def log_everything(context):
    print(context.tool_name)
    return None

@after_tool_call
def redact(context):
    return "x"
'''
    s = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS, "crew/hooks.py": hooks})
    for key in ("tool:delete_record", "tool:Issue Refund"):
        assert s[key].approval == "conditional" and s[key].trust_tier == "human_supervised"
    assert s["tool:Search Web"].approval == "never"  # only an observing hook covers it


def test_global_blocking_hook_and_on_decorator() -> None:
    registered = '''
from crewai.hooks import register_before_tool_call_hook
from crewai.hooks import HookAborted

def guard(context):
    if context.tool_name == "x":
        raise HookAborted(reason="no", source="policy")

register_before_tool_call_hook(guard)
'''
    s = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS, "crew/hooks.py": registered})
    assert {e.approval for e in s.values() if e.kind == "tool"} == {"conditional"}
    on = '''
from crewai.hooks import on, InterceptionPoint, HookAborted

@on(InterceptionPoint.PRE_TOOL_CALL, tools=["search_web"])
def guard(ctx):
    raise HookAborted(reason="no", source="policy")
'''
    s = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS, "crew/hooks.py": on})
    assert s["tool:Search Web"].approval == "conditional"
    assert s["tool:delete_record"].approval == "never"


def test_sanitize_matches_crewai() -> None:
    assert sanitize_tool_name("Search Web") == "search_web"
    assert sanitize_tool_name("ExaSearchTool") == "exa_search_tool"
    assert sanitize_tool_name("  delete--record ") == "delete_record"


def test_origin_discrimination() -> None:
    s = _crew({
        "crew/a.py": '''
from langchain_core.tools import tool
from smolagents import tool as smol_tool
from crewai.project import tool as project_tool
from google.adk.agents import Agent as AdkAgent
from pydantic_ai import Agent as PAgent

@tool
def lc(x: str) -> str:
    """lc"""

@smol_tool
def sm(x: str) -> str:
    """sm"""

@project_tool
def pt(self):
    return None

a = AdkAgent(name="adk", model="m")
p = PAgent("openai:gpt-4o")
''',
    })
    assert s == {}


def test_aliases_module_imports_and_external_tools() -> None:
    entries, issues = link_files({
        "crew/a.py": '''
import crewai
from crewai import tools as ct
from crewai_tools import SerperDevTool, FileWriterTool
from langchain_community.tools import DuckDuckGoSearchRun

@ct.tool("Lookup")
def lookup(q: str) -> str:
    """Look up."""

writer = FileWriterTool()
analyst = crewai.Agent(role="Analyst", goal="g", backstory="b", tools=[lookup, SerperDevTool(), writer, DuckDuckGoSearchRun()],
                       llm=crewai.LLM(model="anthropic/claude-sonnet-4"))
''',
    })
    s = {e.key: e for e in entries}
    # library tools are named as the library names them (what the agent's LLM sees), keyed by class
    serper = "tool:Search the internet with Serper@crewai_tools.SerperDevTool"
    assert s["agent:Analyst"].reaches == ["tool:File Writer Tool@crewai_tools.FileWriterTool", "tool:Lookup", serper]
    assert s["agent:Analyst"].model == "anthropic/claude-sonnet-4"
    assert s[serper].extra == {"external": "crewai_tools.SerperDevTool"} and s[serper].exported
    assert any("DuckDuckGoSearchRun" in i.message for i in issues)


def test_conditional_tools_dynamic_model_and_config() -> None:
    s = exported({
        "crew/tools.py": TOOLS,
        "crew/main.py": '''
import os
from crewai import Agent, LLM
from crew.tools import search, delete_record

tools = [search]
if os.getenv("ADMIN"):
    tools.append(delete_record)
admin = Agent(role="Admin", goal="g", backstory="b", tools=tools, llm=LLM(model=os.environ["MODEL"]))
configured = Agent(config={"role": "x"}, llm=os.getenv("LLM"))
''',
    })
    assert s["tool:delete_record"].conditional and not s["tool:Search Web"].conditional
    assert s["agent:Admin"].model == Dynamic(dynamic="os.environ['MODEL']")
    configured = s["agent:configured"]  # role only known from config: named by the variable
    assert configured.instructions_sha256.startswith("dynamic:")
    assert isinstance(configured.model, Dynamic)


def test_delegation_code_execution_and_tasks() -> None:
    s = exported({
        "crew/tools.py": TOOLS,
        "crew/main.py": '''
from crewai import Agent, Crew, Task, Process
from crew.tools import search, delete_record

lead = Agent(role="Lead", goal="g", backstory="b", allow_delegation=True)
coder = Agent(role="Coder", goal="g", backstory="b", allow_code_execution=True, code_execution_mode="unsafe")
safe_coder = Agent(role="Safe Coder", goal="g", backstory="b", allow_code_execution=True)
quiet = Agent(role="Quiet", goal="g", backstory="b", allow_delegation=False)
review = Task(description="d", expected_output="o", agent=quiet, tools=[delete_record], human_input=True)
crew = Crew(agents=[lead, coder, safe_coder, quiet], tasks=[review, Task(description="d", expected_output="o", agent=lead, tools=[search])],
            process=Process.sequential)
''',
    })
    assert s["agent:Lead"].reaches == ["agent:Coder", "agent:Quiet", "agent:Safe Coder", "tool:Search Web"]
    assert s["agent:Quiet"].reaches == ["tool:delete_record"]
    assert s["agent:Quiet"].extra == {"human_input": True}
    assert s["agent:Quiet"].approval == "never"  # reviewing a final answer gates no tool call
    assert s["agent:Coder"].dangerous is True
    assert s["agent:Coder"].extra["code_execution"] == {"enabled": True, "mode": "unsafe"}
    assert s["agent:Safe Coder"].dangerous is False
    # Spelling the default is no change.
    assert "allow_delegation" not in s["agent:Quiet"].extra


def test_crewbase_project() -> None:
    s = exported({
        "proj/crew.py": '''
from crewai import Agent, Crew, Task, Process
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import SerperDevTool
from proj.tools import refund

@CrewBase
class SupportCrew:
    agents_config = "config/agents.yaml"

    @agent
    def support(self) -> Agent:
        return Agent(config=self.agents_config["support"], tools=[refund])

    @agent
    def researcher(self) -> Agent:
        return Agent(role="Researcher", goal="g", backstory="b", tools=[SerperDevTool()])

    @task
    def answer(self) -> Task:
        return Task(config=self.tasks_config["answer"], agent=self.support(), tools=[SerperDevTool()])

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
''',
        "proj/tools.py": '''
from crewai.tools import tool
@tool("Refund")
def refund(order_id: str) -> str:
    """Refund."""
''',
    })
    support = s["agent:support"]
    assert support.root and not support.conditional
    assert support.instructions_sha256.startswith("dynamic:")
    assert support.reaches == ["tool:Refund", "tool:Search the internet with Serper@crewai_tools.SerperDevTool"]
    assert s["agent:Researcher"].root


def test_factory_agents_and_unknown_lists() -> None:
    entries, issues = link_files({
        "crew/main.py": '''
from crewai import Agent, Crew
from crew.registry import all_tools

def make_writer():
    return Agent(role="Writer", goal="g", backstory="b", tools=all_tools())

def _private():
    return Agent(role="Hidden", goal="g", backstory="b")
''',
    })
    s = {e.key: e for e in entries}
    assert s["agent:Writer"].root and s["agent:Writer"].conditional and s["agent:Writer"].exported
    assert not s["agent:Hidden"].exported
    assert any("tools not statically known" in i.message for i in issues)


def test_library_tool_is_one_class_through_any_import_path_and_lives_in_the_library() -> None:
    entries, _ = link_files({
        "desk/a.py": '''
from crewai import Agent
from crewai_tools.tools import FileReadTool
archivist = Agent(role="Archivist", goal="g", backstory="b", tools=[FileReadTool()])
''',
        "desk/b.py": '''
from crewai import Agent
from crewai_tools import FileReadTool
checker = Agent(role="Checker", goal="g", backstory="b", tools=[FileReadTool(file_path="notes.txt")])
''',
    })
    tools = [e for e in entries if e.kind == "tool"]
    assert [(t.name, t.home, t.extra) for t in tools] == [("Read a file's content", "crewai_tools.FileReadTool", {"external": "crewai_tools.FileReadTool"})]
    reaches = {e.name: e.reaches for e in entries if e.kind == "agent"}
    assert reaches == {"Archivist": [tools[0].key], "Checker": [tools[0].key]}


def test_crewbase_self_agents_are_the_agent_methods() -> None:
    entries, issues = link_files({
        "ops/crew.py": '''
from crewai import Agent, Crew, Task
from crewai.project import CrewBase, agent, crew, task

@CrewBase
class Ops:
    @agent
    def lead(self) -> Agent:
        return Agent(role="Lead", goal="g", backstory="b", allow_delegation=True)

    @agent
    def worker(self) -> Agent:
        return Agent(role="Worker", goal="g", backstory="b")

    @task
    def job(self) -> Task:
        return Task(description="d", expected_output="o", agent=self.lead())

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks)
''',
    })
    s = {e.name: e for e in entries}
    assert s["Lead"].reaches == [s["Worker"].key] and s["Worker"].reaches == []
    assert not [i for i in issues if "not statically known" in i.message]


def _approvals(hooks: str) -> dict[str, object]:
    s = _crew({"crew/tools.py": TOOLS, "crew/main.py": AGENTS, "crew/hooks.py": hooks})
    return {k: e.approval for k, e in s.items() if e.kind == "tool"}


def test_only_a_returned_false_or_hook_aborted_blocks_as_crewai_decides() -> None:
    """CrewAI's reducer blocks on `result is False` or HookAborted; other exceptions are swallowed and
    an async hook is never awaited: such hooks gate nothing. A return value that cannot be known makes
    the gate dynamic, never a guessed approval."""
    observing = '''
from crewai.hooks import before_tool_call

@before_tool_call
def payload(context):
    return {"tool": context.tool_name}

@before_tool_call(tools=["delete_record"])
def swallowed(context):
    raise PermissionError("no")

@before_tool_call(tools=["Issue Refund"])
async def never_awaited(context):
    return False
'''
    assert set(_approvals(observing).values()) == {"never"}
    blocking = '''
from crewai.hooks import before_tool_call, HookAborted

class Denied(HookAborted):
    pass

BLOCK = False

def check(context):
    if context.tool_input:
        raise Denied("no")

@before_tool_call(tools=["delete_record"])
def by_helper(context):
    check(context)

@before_tool_call(tools=["Issue Refund"])
def by_constant(context):
    return BLOCK if context.tool_input else None

@before_tool_call(tools=["Search Web"])
def by_comparison(context):
    return context.request_human_input(prompt="ok?") == "yes"
'''
    assert _approvals(blocking) == {"tool:delete_record": "conditional", "tool:Issue Refund": "conditional", "tool:Search Web": "conditional"}
    unknown = '''
from crewai.hooks import before_tool_call
from policy import decide

@before_tool_call(tools=["delete_record"])
def by_policy(context):
    return decide(context)
'''
    got = _approvals(unknown)
    assert isinstance(got["tool:delete_record"], Dynamic) and "decide(context)" in got["tool:delete_record"].dynamic
    assert got["tool:Search Web"] == "never"


def test_interception_point_and_tool_filter_compare_by_value() -> None:
    """`InterceptionPoint` is a str enum: a variable or alias holding PRE_TOOL_CALL, or the string
    itself, registers there; another point (or another enum's member spelt PRE_TOOL_CALL) does not.
    A filter is read by value, and an empty one filters nothing (CrewAI tests `if tools:`)."""
    hooks = '''
from crewai.hooks import register_hook, on, InterceptionPoint as IP
from enum import Enum

class Stage(str, Enum):
    PRE_TOOL_CALL = "post_tool_call"

REFUND = "Issue Refund"

def deny(context):
    return False

@on(Stage.PRE_TOOL_CALL)
def after_only(ctx):
    return False

@on("pre_tool_call", tools=[REFUND])
def refund_gate(ctx):
    return False

register_hook(IP.POST_TOOL_CALL, deny)
'''
    assert _approvals(hooks) == {"tool:Issue Refund": "conditional", "tool:delete_record": "never", "tool:Search Web": "never"}
    everything = '''
from crewai.hooks import before_tool_call, register_hook, InterceptionPoint

GATE = InterceptionPoint.PRE_TOOL_CALL

def deny(context):
    return False

register_hook(GATE, deny)
'''
    assert set(_approvals(everything).values()) == {"conditional"}
    empty = '''
from crewai.hooks import before_tool_call

@before_tool_call(tools=[])
def deny(context):
    return False
'''
    assert set(_approvals(empty).values()) == {"conditional"}


def test_agent_filtered_hook_gates_only_the_agents_it_names() -> None:
    """CrewAI runs a hook with `agents=` only when `context.agent.role` is in the filter (by value:
    a constant or alias holding the role matches; a string filter is tested as a substring). A
    tool's approval is what holds for every agent of the repository that calls it; a role or filter
    that cannot be read makes it dynamic, never a guessed approval."""
    agents = '''
from crewai import Agent, Crew, Task
from crew.tools import search, delete_record, RefundTool
from crew.roles import CLERK

researcher = Agent(role="Researcher", goal="Find facts", backstory="Curious", tools=[delete_record])
_clerk = Agent(role=CLERK, goal="Handle refunds", backstory="Careful", tools=[RefundTool(), delete_record])
_writer = Agent(role="Writer on {topic}", goal="Write", backstory="Fluent", tools=[])
_configured = Agent(config={"role": "Auditor"}, tools=[])
review = Task(description="d", expected_output="o", agent=_writer, tools=[search])
audit = Task(description="d", expected_output="o", agent=_configured, tools=[search])
crew = Crew(agents=[researcher, _clerk, _writer, _configured], tasks=[review, audit])
'''

    def approvals(hooks: str) -> dict:
        files = {"crew/tools.py": TOOLS, "crew/roles.py": 'CLERK = "Clerk"\n', "crew/main.py": agents, "crew/hooks.py": hooks}
        return {k: e.approval for k, e in _crew(files).items() if e.kind == "tool"}

    clerk_only = '''
from crewai.hooks import before_tool_call, HookAborted
from crew.roles import CLERK as ROLE

@before_tool_call(agents=[ROLE])
def guard(context):
    raise HookAborted("no")
'''
    got = approvals(clerk_only)
    assert got["tool:Issue Refund"] == "conditional"  # only the clerk calls it
    assert got["tool:delete_record"] == "never"  # the researcher calls it too, unguarded
    why = got["tool:Search Web"].dynamic  # called by the writer (a templated role) and the configured agent
    assert "_writer's role is filled from the kickoff inputs" in why and "_configured's role not statically known" in why
    every_role = '''
from crewai.hooks import on, InterceptionPoint, HookAborted

@on(InterceptionPoint.PRE_TOOL_CALL, agents=["Researcher", "Clerk"], tools=["delete_record"])
def guard(ctx):
    raise HookAborted("no")
'''
    assert approvals(every_role)["tool:delete_record"] == "conditional"
    substring = '''
from crewai.hooks import before_tool_call

before_tool_call(agents="Researcher and Clerk")(lambda ctx: False)
'''
    assert approvals(substring)["tool:delete_record"] == "conditional"
    assert approvals(substring.replace("Researcher and ", ""))["tool:delete_record"] == "never"
    # the filters of the decorator's call are read whichever way it is applied (they were dropped)
    assert approvals(substring.replace('agents="Researcher and Clerk"', 'tools=["Issue Refund"]'))["tool:delete_record"] == "never"
    direct = "from crewai.hooks import before_tool_call\nbefore_tool_call(lambda ctx: False, tools=['delete_record'])\n"
    assert approvals(direct) == {"tool:delete_record": "conditional", "tool:Issue Refund": "never", "tool:Search Web": "never"}
    unknown = '''
from crewai.hooks import before_tool_call
from policy import ROLES

@before_tool_call(agents=ROLES)
def guard(context):
    return False
'''
    got = approvals(unknown)
    assert isinstance(got["tool:Issue Refund"], Dynamic) and "ROLES" in got["tool:Issue Refund"].dynamic
    no_agent = '''
from crewai.tools import tool
from crewai.hooks import before_tool_call

@tool
def purge(scope: str) -> str:
    """Purge."""
    return ""

@before_tool_call(agents=["Clerk"], tools=["purge"])
def guard(context):
    return False
'''
    got = approvals(no_agent)
    assert isinstance(got["tool:purge"], Dynamic) and "no agent" in got["tool:purge"].dynamic
    assert approvals(no_agent.replace('agents=["Clerk"], ', ""))["tool:purge"] == "conditional"
    assert approvals(no_agent.replace('["Clerk"]', "[]"))["tool:purge"] == "conditional"  # `if agents:`


def test_a_hook_gates_only_where_crewai_really_registers_it() -> None:
    """A registration runs with the code around it: inside a function nothing calls it registers
    nothing; inside a function the module body calls, it registers; under a condition or in a
    function called elsewhere, only on some runs (dynamic). CrewAI's decorators register nothing for
    a `(self, context)` method outside a `@CrewBase` class. Any unregister or clear of the hooks
    API makes what they gate dynamic."""
    deny = "from crewai.hooks import register_before_tool_call_hook\n\ndef deny(context):\n    return False\n\n"
    setup = deny + "def setup():\n    register_before_tool_call_hook(deny)\n"
    assert set(_approvals(setup).values()) == {"never"}
    assert set(_approvals(setup + "setup()\n").values()) == {"conditional"}
    for runs_sometimes in (setup + "def main():\n    setup()\n", deny + "import os\nif os.environ.get('GATE'):\n    register_before_tool_call_hook(deny)\n"):
        got = _approvals(runs_sometimes)["tool:delete_record"]
        assert isinstance(got, Dynamic) and ("setup runs" in got.dynamic or "condition" in got.dynamic)
    for remove in ("from crewai.hooks import clear_all_global_hooks\nclear_all_global_hooks()\n",
                   "from crewai.hooks import unregister_before_tool_call_hook\nunregister_before_tool_call_hook(deny)\n"):
        got = _approvals(deny + "register_before_tool_call_hook(deny)\n" + remove)["tool:delete_record"]
        assert isinstance(got, Dynamic) and "removed at run time" in got.dynamic
    method = '''
from crewai.hooks import before_tool_call

class Approvals:
    @before_tool_call(tools=["delete_record"])
    def deny(self, context):
        return False
'''
    assert _approvals(method)["tool:delete_record"] == "never"
    crewbase = "from crewai.project import CrewBase\n" + method.replace("class Approvals", "@CrewBase\nclass Approvals")
    assert _approvals(crewbase)["tool:delete_record"] == "conditional"


def test_a_return_false_in_a_function_the_hook_defines_is_not_the_hooks() -> None:
    """What a nested def returns is its own: a hook whose only `return False` is in a function it
    defines (and never calls) blocks nothing; one whose nested def only prints and which itself
    returns False is a gate."""
    nested = '''
from crewai.hooks import before_tool_call

@before_tool_call(tools=["delete_record"])
def guard(context):
    def deny():
        return False
    return None
'''
    assert _approvals(nested)["tool:delete_record"] == "never"
    quiet = nested.replace("        return False", "        print('no')").replace("    return None", "    return False")
    assert _approvals(quiet)["tool:delete_record"] == "conditional"


def test_a_hook_aborted_caught_by_the_hook_itself_is_no_gate() -> None:
    """A HookAborted raised inside a `try` whose handlers may catch it (HookAborted, Exception, a bare
    except) leaves the hook only if the handler re-raises: dynamic. Handlers of other exception
    classes let it through: still a gate."""
    hook = '''
from crewai.hooks import before_tool_call, HookAborted

@before_tool_call(tools=["delete_record"])
def guard(context):
    try:
        if context.tool_input:
            raise HookAborted("no")
    except HookAborted:
        print("let through")
'''
    got = _approvals(hook)["tool:delete_record"]
    assert isinstance(got, Dynamic) and "may catch it" in got.dynamic
    assert isinstance(_approvals(hook.replace("except HookAborted:", "except:"))["tool:delete_record"], Dynamic)
    assert _approvals(hook.replace("except HookAborted:", "except (ValueError, KeyError):"))["tool:delete_record"] == "conditional"
    assert _approvals(hook.replace("except HookAborted:", "except ValueError:\n        pass\n    if context:\n        raise HookAborted('x')\n    try:\n        pass\n    except Exception:"))["tool:delete_record"] == "conditional"

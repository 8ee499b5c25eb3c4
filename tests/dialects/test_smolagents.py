"""smolagents dialect: @tool, Tool subclasses, CodeAgent/ToolCallingAgent, managed agents, code execution."""

from __future__ import annotations

from receipt.dialects.base import digest
from receipt.models import Dynamic
from tests.helpers import exported, link_files, surface_of

TOOLS = '''
from smolagents import tool, Tool

@tool
def get_price(item: str, qty: int = 1) -> float:
    """Look up a price.

    Args:
        item: the item name
        qty: how many
    """
    return 1.0

class DeleteFile(Tool):
    name = "delete_file"
    description = "Deletes a file"
    inputs = {"path": {"type": "string", "description": "file to delete"}}
    output_type = "string"

    def forward(self, path: str) -> str:
        return ""
'''


def _smol(files: dict[str, str]) -> dict:
    return {k: e for k, e in surface_of(files).items() if e.dialect == "smolagents"}


def _portable(entries: dict) -> dict:
    return {k: e.model_dump(exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def test_decorated_tool_and_tool_subclass() -> None:
    s = exported({
        "bot/tools.py": TOOLS,
        "bot/agent.py": '''
from smolagents import ToolCallingAgent, InferenceClientModel
from bot.tools import get_price, DeleteFile
agent = ToolCallingAgent(tools=[get_price, DeleteFile()], model=InferenceClientModel(model_id="Qwen/Qwen2.5-72B"))
''',
    })
    price = s["tool:get_price"]
    assert price.dialect == "smolagents" and price.path == "bot/tools.py"
    assert price.description_sha256 == digest("Look up a price.\n\nArgs:\n    item: the item name\n    qty: how many")
    assert [(p.name, p.type, p.required) for p in price.signature.params] == [("item", "str", True), ("qty", "int", False)]
    delete = s["tool:delete_file"]
    assert [(p.name, p.type) for p in delete.signature.params] == [("path", "string")]
    assert delete.signature.returns == "string"
    assert s["agent:agent"].model == "Qwen/Qwen2.5-72B"
    assert s["agent:agent"].reaches == ["tool:delete_file", "tool:get_price"]


def test_input_description_change_changes_the_tool_description() -> None:
    before = _smol({"bot/tools.py": TOOLS})
    after = _smol({"bot/tools.py": TOOLS.replace("file to delete", "any path, even /etc")})
    assert before["tool:delete_file"].description_sha256 != after["tool:delete_file"].description_sha256
    assert before["tool:get_price"] == after["tool:get_price"]


def test_code_agent_execution_and_dangerous_imports() -> None:
    s = _smol({
        "bot/agent.py": '''
import os
from smolagents import CodeAgent, LiteLLMModel
model = LiteLLMModel(model_id="anthropic/claude-sonnet-4")
plain = CodeAgent(tools=[], model=model)
data = CodeAgent(tools=[], model=model, additional_authorized_imports=["pandas", "numpy"])
shell = CodeAgent(tools=[], model=model, additional_authorized_imports=["pandas", "subprocess"])
anything = CodeAgent(tools=[], model=model, additional_authorized_imports=["*"], executor_type="docker")
flagged = CodeAgent(tools=[], model=model, additional_authorized_imports=os.getenv("IMPORTS"))
''',
    })
    assert s["agent:plain"].extra == {"code_execution": {"authorized_imports": [], "executor": "local"}}
    assert s["agent:plain"].dangerous is False
    assert s["agent:data"].dangerous is False
    assert s["agent:data"].extra["code_execution"]["authorized_imports"] == ["numpy", "pandas"]
    assert s["agent:shell"].dangerous is True
    assert s["agent:anything"].dangerous is True
    assert s["agent:anything"].extra["code_execution"]["executor"] == "docker"
    assert isinstance(s["agent:flagged"].dangerous, Dynamic)
    assert s["agent:plain"].model == "anthropic/claude-sonnet-4"


def test_tool_calling_agent_does_not_execute_code() -> None:
    s = _smol({"bot/agent.py": '''
from smolagents import ToolCallingAgent
agent = ToolCallingAgent(tools=[], model=None)
'''})
    assert "code_execution" not in s["agent:agent"].extra and s["agent:agent"].dangerous is False


def test_managed_agents_and_names() -> None:
    s = exported({
        "bot/tools.py": TOOLS,
        "bot/agent.py": '''
from smolagents import CodeAgent, ToolCallingAgent, WebSearchTool, PythonInterpreterTool
from bot.tools import get_price
_web = ToolCallingAgent(tools=[WebSearchTool()], model=None, name="web_agent", description="Searches the web")
manager = CodeAgent(tools=[get_price], model=None, managed_agents=[_web, ToolCallingAgent(tools=[PythonInterpreterTool()], model=None, name="calc", description="c")],
                    name="manager", instructions="Delegate searches.")
''',
    })
    manager = s["agent:manager"]
    assert manager.reaches == ["agent:calc", "agent:web_agent", "tool:get_price"]
    assert manager.instructions_sha256 == digest("Delegate searches.")
    web = s["agent:web_agent"]
    assert web.exported and not web.root and web.description_sha256 == digest("Searches the web")
    assert s["tool:web_search@smolagents.WebSearchTool"].extra == {"external": "smolagents.WebSearchTool"}
    assert s["tool:python_interpreter@smolagents.PythonInterpreterTool"].dangerous is True


def test_origin_discrimination() -> None:
    s = _smol({
        "bot/a.py": '''
from langchain_core.tools import tool
from crewai.tools import tool as crew_tool

def tool_local(f):
    return f

@tool
def lc(x: str) -> str:
    """lc"""

@crew_tool("Crew")
def cr(x: str) -> str:
    """cr"""

@tool_local
def mine(x: str) -> str:
    """mine"""

class Tool:
    name = "not smolagents"

class Fake(Tool):
    name = "fake"
''',
    })
    assert s == {}


def test_aliased_imports() -> None:
    s = _smol({
        "bot/a.py": '''
import smolagents as sa
from smolagents import tool as smol_tool

@smol_tool
def ping(host: str) -> str:
    """Ping a host."""

agent = sa.CodeAgent(tools=[ping], model=sa.InferenceClientModel("meta-llama/Llama-3.3-70B-Instruct"))
''',
    })
    assert s["agent:agent"].reaches == ["tool:ping"]
    assert s["agent:agent"].model == "meta-llama/Llama-3.3-70B-Instruct"


def test_conditional_tools_factories_and_dynamic_model() -> None:
    s = exported({
        "bot/tools.py": TOOLS,
        "bot/agent.py": '''
import os
from smolagents import CodeAgent, LiteLLMModel
from bot.tools import get_price, DeleteFile
tools = [get_price]
if os.getenv("ALLOW_DELETE"):
    tools.append(DeleteFile())
agent = CodeAgent(tools=tools, model=LiteLLMModel(model_id=os.environ["MODEL"]))

def build_agent(extra_tools):
    return CodeAgent(tools=[get_price, *extra_tools], model=None, name="built")
''',
    })
    assert s["tool:delete_file"].conditional and not s["tool:get_price"].conditional
    assert s["agent:agent"].model == Dynamic(dynamic="os.environ['MODEL']")


def test_factory_agent_is_a_conditional_root_and_splat_is_reported() -> None:
    entries, issues = link_files({
        "bot/agent.py": '''
from smolagents import CodeAgent
def build_agent(extra_tools):
    return CodeAgent(tools=[*extra_tools], model=None, name="built")
''',
    })
    built = {e.key: e for e in entries}["agent:built"]
    assert built.root and built.conditional and built.exported
    assert any("not statically known" in i.message for i in issues)


def test_runtime_loaded_tools_are_reported() -> None:
    entries, issues = link_files({
        "bot/agent.py": '''
from smolagents import CodeAgent, load_tool, Tool
agent = CodeAgent(tools=[load_tool("m-ric/text-to-image"), Tool.from_space("x/y", name="n", description="d")], model=None)
''',
    })
    assert [e.key for e in entries if e.dialect == "smolagents"] == ["agent:agent"]
    assert sum("loaded at runtime" in i.message for i in issues) == 2


def test_file_split_and_cross_module_attachment() -> None:
    agent_src = '''
from smolagents import CodeAgent
agent = CodeAgent(tools=[get_price, DeleteFile()], model=None, additional_authorized_imports=["json"])
'''
    one = {"bot/agent.py": TOOLS + agent_src}
    split = {"bot/tools.py": TOOLS, "bot/agent.py": "from bot.tools import get_price, DeleteFile\n" + agent_src}
    a, b = _smol(one), _smol(split)
    assert set(a) == {"agent:agent", "tool:delete_file", "tool:get_price"}
    assert _portable(a) == _portable(b)
    assert b["tool:get_price"].path == "bot/tools.py"


def test_private_unreached_agent_is_not_exported() -> None:
    s = surface_of({"bot/agent.py": '''
from smolagents import CodeAgent
_scratch = CodeAgent(tools=[], model=None)
'''})
    assert not s["agent:_scratch"].exported


def test_renaming_the_tool_class_keeps_the_tool_key() -> None:
    agent_src = "from smolagents import CodeAgent\nagent = CodeAgent(tools=[{cls}()], model=None)\n"
    before = _smol({"bot/tools.py": TOOLS, "bot/agent.py": "from bot.tools import DeleteFile\n" + agent_src.format(cls="DeleteFile")})
    after = _smol({
        "bot/tools.py": TOOLS.replace("class DeleteFile(", "class FileRemover("),
        "bot/agent.py": "from bot.tools import FileRemover\n" + agent_src.format(cls="FileRemover"),
    })
    assert _portable(before) == _portable(after)

"""Native markers: declarations no framework can make, and overlays on framework declarations."""

from __future__ import annotations

import subprocess
import sys

from receipt.models import Dynamic
from tests.helpers import exported, surface_of

TOOLS = """
from receipt.markers import tool, prompt

@tool(dangerous=True, approval="always", read_only=False, idempotent=False)
def refund_order(order_id: str, amount: float = 0.0) -> str:
    '''Refund an order.'''

@tool(read_only=True, open_world=False)
def lookup(order_id: str): ...

@prompt
def greeting(name: str): ...
"""

AGENTS = """
from receipt import markers
from receipt.markers import agent, replayable, deterministic
from shop.tools import refund_order, lookup

@agent(trust="human_required", model="gpt-5")
@replayable
@deterministic
def support(q):
    lookup(q)
    return refund_order(q)

@agent(exported=False)
def internal_helper_agent(q):
    return support(q)

@markers.agent
def escalation(q):
    return support(q)
"""


def test_markers_declare_attributes_and_reach_across_modules() -> None:
    s = surface_of({"shop/tools.py": TOOLS, "shop/agents.py": AGENTS})
    support = s["agent:support"]
    assert (support.trust_tier, support.trust_declared, support.model) == ("human_required", True, "gpt-5")
    assert support.replayable is True and support.deterministic is True
    assert support.reaches == ["tool:lookup", "tool:refund_order"]
    refund = s["tool:refund_order"]
    assert (refund.dangerous, refund.approval, refund.trust_tier) == (True, "always", "human_required")
    assert refund.signature and [p.name for p in refund.signature.params] == ["order_id", "amount"]
    assert s["tool:lookup"].read_only is True and s["tool:lookup"].open_world is False
    assert s["agent:escalation"].reaches == ["agent:support"]


def test_exported_closure_follows_reach_and_respects_exported_false() -> None:
    e = exported({"shop/tools.py": TOOLS, "shop/agents.py": AGENTS})
    assert set(e) == {"agent:support", "agent:escalation", "tool:lookup", "tool:refund_order"}
    # the prompt is marked but nothing exported reaches it, and the internal agent is internal
    assert "prompt:greeting" not in e and "agent:internal_helper_agent" not in e


def test_agent_reach_follows_tools_passed_as_lists_and_list_variables() -> None:
    # A hand-written loop takes its tools as a list (literal, variable, extended under a flag).
    s = surface_of(
        {
            "shop/tools.py": TOOLS,
            "shop/agents.py": """
            from receipt.markers import agent
            from shop.tools import refund_order, lookup
            from shop.loop import run_loop

            @agent
            def by_list(q):
                return run_loop(q, tools=[lookup, refund_order])

            @agent
            def by_variable(q, flags):
                toolbox = [lookup]
                if flags.refunds:
                    toolbox.append(refund_order)
                return run_loop(q, toolbox)

            @agent
            def by_splat(q):
                return run_loop(q, *[lookup])
            """,
        }
    )
    assert s["agent:by_list"].reaches == ["tool:lookup", "tool:refund_order"]
    assert s["agent:by_variable"].reaches == ["tool:lookup", "tool:refund_order"]
    assert s["agent:by_splat"].reaches == ["tool:lookup"]


def test_config_exports_add_roots() -> None:
    e = exported({"shop/tools.py": TOOLS, "shop/agents.py": AGENTS}, exports=("greeting", "shop.agents:internal_helper_agent"))
    assert "prompt:greeting" in e and "agent:internal_helper_agent" in e


def test_dynamic_marker_values_are_recorded_not_guessed() -> None:
    s = surface_of(
        {
            "a.py": """
            import os
            from receipt.markers import agent, tool
            @tool(approval=os.environ.get("APPROVAL"), dangerous=True)
            def wipe(): ...
            @agent(model=os.environ["MODEL"])
            def ops():
                wipe()
            """
        }
    )
    assert isinstance(s["tool:wipe"].approval, Dynamic) and "os.environ.get" in s["tool:wipe"].approval.dynamic
    assert isinstance(s["agent:ops"].model, Dynamic)


def test_import_origin_not_bare_names() -> None:
    s = surface_of({"a.py": "def tool(**kw):\n    return lambda f: f\n@tool(dangerous=True)\ndef x(): ...\n"})
    assert s == {}


def test_marker_overlays_a_framework_declaration_of_the_same_function() -> None:
    s = surface_of(
        {
            "a.py": """
            from agents import Agent, function_tool
            from receipt.markers import tool
            @tool(dangerous=True)
            @function_tool(needs_approval=True)
            def delete_account(user_id: str): ...
            bot = Agent(name="bot", tools=[delete_account])
            """
        }
    )
    entry = s["tool:delete_account"]
    assert entry.dialect == "openai-agents" and entry.dangerous is True and entry.approval == "always"
    assert len([k for k in s if k.startswith("tool:")]) == 1


def test_marker_on_a_plain_function_used_as_a_framework_tool_is_one_entry() -> None:
    s = surface_of(
        {
            "a.py": """
            from google.adk.agents import LlmAgent
            from receipt.markers import tool
            @tool(dangerous=True, approval="always")
            def transfer(amount: int): ...
            root_agent = LlmAgent(name="bank", model="gemini-2.5", tools=[transfer])
            """
        }
    )
    tools = {k: e for k, e in s.items() if e.kind == "tool"}
    assert list(tools) == ["tool:transfer"]
    assert tools["tool:transfer"].dangerous is True and tools["tool:transfer"].approval == "always"


def test_markers_module_has_no_dependencies_and_is_a_no_op_at_runtime() -> None:
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] in {'typer','pydantic','git','jinja2','cryptography','httpx'}: raise ImportError(name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "import importlib.util, pathlib\n"
        "spec = importlib.util.spec_from_file_location('m', pathlib.Path(sys.argv[1]))\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "@m.tool(dangerous=True)\n"
        "def f(x): return x + 1\n"
        "@m.agent\n@m.replayable\ndef g(): return 2\n"
        "assert f(1) == 2 and g() == 2 and f.__receipt_tool__ == {'dangerous': True}\n"
        "print('ok')\n"
    )
    import receipt.markers

    out = subprocess.run([sys.executable, "-c", code, receipt.markers.__file__], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr

"""Core fixes made for the OpenAI Agents dialect: generic callees and directory names that shadow packages."""

from __future__ import annotations

import textwrap

from receipt.extract import extract_file
from receipt.extract.facts import Call, Dyn, Ref
from receipt.extract.program import Program


def _program(files: dict[str, str]) -> Program:
    return Program([extract_file(p, textwrap.dedent(s).encode()) for p, s in sorted(files.items())])


def _value(program: Program, symbol: str):
    return program.lookup(symbol).value  # type: ignore[union-attr]


def test_subscripted_generic_callee_keeps_its_reference() -> None:
    program = _program(
        {
            "app.py": """
            from agents import Agent
            import agents
            a = Agent[Ctx](name="a")
            b = agents.Agent[dict[str, Any]](name="b")
            c = Agent[Ctx | None](name="c")
            """
        }
    )
    for symbol in ("app.a", "app.b", "app.c"):
        call = _value(program, symbol)
        assert isinstance(call, Call)
        assert program.origin(call) == "agents.Agent", symbol


def test_indexing_then_calling_is_not_a_generic() -> None:
    program = _program(
        {
            "app.py": """
            HANDLERS = {}
            key = "x"
            a = HANDLERS[key]()
            b = HANDLERS["x"]()
            c = HANDLERS[0]()
            d = HANDLERS[KEY]()
            """
        }
    )
    for symbol in ("app.a", "app.b", "app.c", "app.d"):
        call = _value(program, symbol)
        assert isinstance(call, Call) and isinstance(call.func, Dyn), symbol


def test_directory_named_like_an_external_package_does_not_capture_it() -> None:
    # `app/agents/` is found by the suffix index for `agents`, but `from agents import Agent` is the
    # installed SDK: names not defined in app.agents must stay external.
    program = _program(
        {
            "app/__init__.py": "",
            "app/agents/__init__.py": "LOCAL = 1\n",
            "app/agents/triage.py": "from agents import Agent, function_tool\nfrom agents.tool import FunctionTool\n",
        }
    )
    assert program.origin(Ref("app.agents.triage.Agent")) == "agents.Agent"
    assert program.origin(Ref("app.agents.triage.function_tool")) == "agents.function_tool"
    assert program.origin(Ref("app.agents.triage.FunctionTool")) == "agents.tool.FunctionTool"
    # what the directory does define is still found through the suffix
    assert program.canonical("agents.LOCAL") == "app.agents.LOCAL"

"""Run in a subprocess by the oracle test: import a project tree with the real SDK and describe it.

`python probe.py FRAMEWORK TREE...` imports every module of each TREE (builds the objects: no agent is run,
no model called; API keys are dummies and any network use is pointed at a closed loopback port by
the caller), then prints JSON describing, per tree, the module-level objects the SDK itself recognises:

    {TREE: {"agents": {name: {"reach": ["tool:x", "agent:y", ...]}},
     "tools": {name: {"params": {param: required}, "approval": "never|conditional|always"}},
     "errors": ["module: ExceptionType: message", ...]}, ...}

Only what the SDK exposes through its public objects is read. Fields an adapter cannot read are
left out (the test compares only what both sides describe). Never imported by the receipt.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
import traceback
from pathlib import Path
from typing import Any, Callable


def _approval(flag: Any) -> str:
    if flag is True:
        return "always"
    if flag is False or flag is None:
        return "never"
    return "conditional" if callable(flag) else "never"


def _params(schema: dict[str, Any] | None, strict: bool = False) -> dict[str, bool | None] | None:
    """{param: required}; under a strict schema every property is listed as required, so whether the
    caller may omit it is not in the schema (None)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return None
    required = set(schema.get("required") or ())
    return {k: None if strict else k in required for k in schema["properties"]}


class Probe:
    def __init__(self) -> None:
        self.agents: dict[str, dict[str, Any]] = {}
        self.tools: dict[str, dict[str, Any]] = {}

    def tool(self, name: str, params: dict[str, bool | None] | None, approval: str | None) -> str:
        info: dict[str, Any] = {}
        if params is not None:
            info["params"] = params
        if approval is not None:
            info["approval"] = approval
        self.tools.setdefault(name, info)
        return f"tool:{name}"

    def agent(self, name: str, reach: list[str] | None) -> None:
        """Called again for the same agent (a CrewAI task adding tools), the reach is extended."""
        info = self.agents.setdefault(name, {"reach": []})
        if reach is None:
            info.pop("reach", None)  # not fully readable from the objects: compare the name only
        elif "reach" in info:
            info["reach"] = sorted(set(info["reach"]) | set(reach))


# -- one adapter per framework: (module-level value, probe) -> None --------------------------------


def openai_agents(key: str, value: Any, probe: Probe) -> None:
    from agents import Agent, FunctionTool, Handoff

    def tool_ref(t: Any) -> str | None:
        if isinstance(t, FunctionTool):
            if t.is_enabled is False:
                return None
            return probe.tool(t.name, _params(t.params_json_schema, t.strict_json_schema), _approval(t.needs_approval))
        name = getattr(t, "name", None)
        return probe.tool(name, None, None) if isinstance(name, str) else None

    if isinstance(value, FunctionTool):
        tool_ref(value)
    if not isinstance(value, Agent):
        return
    if value.mcp_servers or type(value).__name__ == "SandboxAgent":
        probe.agent(value.name, None)  # tools listed or built at run time: compare the name only
        return
    reach = [r for r in (tool_ref(t) for t in value.tools) if r]
    for h in value.handoffs:
        if isinstance(h, Agent):
            reach.append(f"agent:{h.name}")
        elif isinstance(h, Handoff) and h.is_enabled is not False:
            reach.append(f"agent:{h.agent_name}")
    probe.agent(value.name, reach)


def pydantic_ai(key: str, value: Any, probe: Probe) -> None:
    from pydantic_ai import Agent

    if not isinstance(value, Agent):
        return
    name = value.name or key  # PydanticAI names an unnamed agent after its variable
    toolset = getattr(value, "_function_toolset", None)
    tools = getattr(toolset, "tools", None)
    if not isinstance(tools, dict):
        return
    reach = []
    for tool_name, t in tools.items():  # not `name`: that is the agent's
        schema = getattr(getattr(t, "function_schema", None), "json_schema", None)
        reach.append(probe.tool(tool_name, _params(schema), _approval(getattr(t, "requires_approval", None))))
    root = getattr(value, "_root_capability", None)
    for capability in getattr(root, "capabilities", None) or ():
        if getattr(capability, "id", None) in _PYDANTIC_AI_TOOL_CAPABILITIES:
            reach.append(probe.tool(capability.id, None, None))
    if getattr(value, "_user_toolsets", None):
        probe.agent(name, None)  # tools behind other toolsets: names only
        return
    probe.agent(name, reach)


# Capabilities that give the model a tool named by the capability's id (pydantic_ai/capabilities).
_PYDANTIC_AI_TOOL_CAPABILITIES = frozenset({"web_search", "x_search", "web_fetch", "image_generation", "local_workspace"})


def langchain(key: str, value: Any, probe: Probe) -> None:
    from langchain_core.tools import BaseTool

    if isinstance(value, BaseTool):
        schema = None
        try:
            schema = value.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - a schema the SDK cannot build is left out
            schema = None
        probe.tool(value.name, _params(schema), None)


def crewai(key: str, value: Any, probe: Probe) -> None:
    from crewai import Agent, Task
    from crewai.tools import BaseTool

    def tool_ref(t: Any) -> str | None:
        if isinstance(t, BaseTool):
            schema = None
            try:
                schema = t.args_schema.model_json_schema()
            except Exception:  # noqa: BLE001
                schema = None
            return probe.tool(t.name, _params(schema), None)
        return None

    if isinstance(value, BaseTool):
        tool_ref(value)
    if isinstance(value, Agent):
        reach = [r for r in (tool_ref(t) for t in value.tools or []) if r]
        # delegation tools are only added when a crew runs: compare the name alone
        probe.agent(value.role, None if value.allow_delegation else reach)
    if isinstance(value, Task) and isinstance(value.agent, Agent) and value.tools:
        # a task's tools are the agent's while it performs the task
        probe.agent(value.agent.role, [r for r in (tool_ref(t) for t in value.tools) if r])


def google_adk(key: str, value: Any, probe: Probe) -> None:
    from google.adk.agents import BaseAgent, LlmAgent
    from google.adk.tools import FunctionTool
    from google.adk.tools.agent_tool import AgentTool

    def tool_ref(t: Any) -> str | None:
        if isinstance(t, AgentTool):
            return probe.tool(t.name, None, None)
        if isinstance(t, FunctionTool):
            rc = getattr(t, "_require_confirmation", getattr(t, "require_confirmation", None))
            return probe.tool(t.name, None, _approval(rc))
        if callable(t) and hasattr(t, "__name__") and not isinstance(t, type):
            return probe.tool(t.__name__, None, "never")
        name = getattr(t, "name", None)
        return probe.tool(name, None, None) if isinstance(name, str) else None

    if not isinstance(value, BaseAgent):
        return
    reach = [f"agent:{a.name}" for a in value.sub_agents]
    if isinstance(value, LlmAgent) or isinstance(getattr(value, "tools", None), list):
        for t in value.tools:
            if type(t).__name__.endswith("Toolset"):
                return  # tools listed at run time
            r = tool_ref(t)
            if r:
                reach.append(r)
    probe.agent(value.name, reach)


def smolagents(key: str, value: Any, probe: Probe) -> None:
    from smolagents import MultiStepAgent, Tool

    def tool_ref(t: Any) -> str:
        params = {k: not bool(v.get("nullable")) for k, v in (t.inputs or {}).items()} if isinstance(getattr(t, "inputs", None), dict) else None
        return probe.tool(t.name, params, None)

    if isinstance(value, Tool):
        tool_ref(value)
    if isinstance(value, MultiStepAgent) and getattr(value, "name", None):
        reach = [tool_ref(t) for n, t in value.tools.items() if n != "final_answer"]
        reach += [f"agent:{n}" for n in (value.managed_agents or {})]
        probe.agent(value.name, reach)


ADAPTERS: dict[str, Callable[[str, Any, Probe], None]] = {
    "openai_agents": openai_agents,
    "pydantic_ai": pydantic_ai,
    "langchain": langchain,
    "crewai": crewai,
    "google_adk": google_adk,
    "smolagents": smolagents,
}


def modules_of(tree: Path) -> list[str]:
    out = []
    for path in sorted(tree.rglob("*.py")):
        parts = list(path.relative_to(tree).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and all(p.isidentifier() for p in parts):
            out.append(".".join(parts))
    return out


def describe_tree(adapter: Callable[[str, Any, Probe], None], tree: Path) -> dict[str, Any]:
    probe = Probe()
    errors: list[str] = []
    loaded = []
    # A src/ layout imports from src/, as an installed package would (the static side reads the layout too).
    if (tree / "src").is_dir() and not (tree / "src" / "__init__.py").exists():
        tree = tree / "src"
    sys.path.insert(0, str(tree))
    try:
        for name in modules_of(tree):
            try:
                with contextlib.redirect_stdout(sys.stderr):  # stdout carries the JSON answer only
                    loaded.append(importlib.import_module(name))
            except BaseException as exc:  # noqa: BLE001 - reported to the test, which fails on it
                last = traceback.extract_tb(exc.__traceback__)[-1]
                errors.append(f"{name}: {type(exc).__name__}: {exc} ({Path(last.filename).name}:{last.lineno})"[:400])
        for module in loaded:
            for key in sorted(vars(module)):
                try:
                    adapter(key, vars(module)[key], probe)
                except Exception as exc:  # noqa: BLE001
                    errors.append(f"{module.__name__}.{key}: probe {type(exc).__name__}: {exc}"[:400])
    finally:
        sys.path.remove(str(tree))
        # The next tree may reuse the same package names: forget this tree's modules.
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", None) or "").startswith(str(tree)) or name in {m.split(".")[0] for m in modules_of(tree)}:
                del sys.modules[name]
    return {"agents": probe.agents, "tools": probe.tools, "errors": errors}


def main() -> None:
    """`probe.py FRAMEWORK TREE...`: the SDK is imported once for all trees."""
    adapter = ADAPTERS[sys.argv[1]]
    out = {tree: describe_tree(adapter, Path(tree).resolve()) for tree in sys.argv[2:]}
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()

"""The real SDKs as the oracle: every corpus case, imported with its framework's real SDK, must describe
the same agents and tools as the static surface.

For each framework whose SDK is importable here (install the `oracle` extra; absent SDKs skip with a
reason), each corpus case and each side (before/after): `probe.py` imports the tree in a subprocess
(one per framework)
(objects are built, never run; dummy API keys; proxies point at a closed loopback port so any network
use fails fast) and reports the module-level agents and tools the SDK sees. The static side is the
linked surface of the same files. Compared, where both sides describe them:

- agents: every agent the SDK builds exists statically under the same name;
- reach: the tools and agents it can call or hand off to, by name;
- tools: parameter names, whether each is required, and the approval flag.

A difference fails with the case, side, agent or tool and the field, e.g.
`openai_agents/approval_removed after: tool 'cancel_booking' approval: static never, sdk always`.
A reach edge to an entry the static side marks conditional (registered under a flag) may be absent
from what the SDK built under this environment.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.accuracy.harness import CORPUS
from tests.helpers import link_files

PROBE = Path(__file__).with_name("probe.py")
# framework directory -> (module that must import, dialect name on the static side)
FRAMEWORKS = {
    "openai_agents": ("agents", "openai-agents"),
    "pydantic_ai": ("pydantic_ai", "pydantic-ai"),
    "langchain": ("langchain_core", "langchain"),
    "crewai": ("crewai", "crewai"),
    "google_adk": ("google.adk", "google-adk"),
    "smolagents": ("smolagents", "smolagents"),
}
# Cases the real SDK cannot build in a sandbox, and why (their other checks still run in the corpus).
# crewai 1.15 deep-copies an Agent field default, and its tool objects hold a lock: an agent class
# whose default `tools` lists tool objects cannot be built (crewai 1.6 built it; the spelling is in
# the corpus for code written against it).
_CREWAI_DEFAULT_TOOLS = "crewai 1.15 deep-copies the agent class's default tools list and a tool holds a lock (TypeError)"

UNBUILDABLE = {
    "pydantic_ai/agent_replaced_by_an_unread_framework": "its head imports the Claude Agent SDK, a framework no"
    " dialect reads (what the case is about), which the oracle extra does not install; its base is PydanticAI's",
    "crewai/sandboxed_code_execution_turned_on": "CrewAI checks for a running Docker daemon when an agent with"
    " safe code execution is built (none where the oracle runs)",
    "langchain/hitl_policy_from_env": "reads a required environment variable at import",
    "langchain/agent_executor_refund_tool_added": "imports the legacy AgentExecutor from langchain_classic, which the"
    " oracle extra does not install (checked by hand with langchain-classic 1.0.8: the SDK sees the same)",
    "langchain/agent_executor_agent_from_own_factory": "imports the legacy AgentExecutor from langchain_classic,"
    " which the oracle extra does not install; its model is read from the environment at run time",
    "langchain/agent_executor_system_prompt_changed": "imports the legacy AgentExecutor from langchain_classic,"
    " which the oracle extra does not install",
    "langchain/noop_agent_executor_prompt_respelt": "imports the legacy AgentExecutor from langchain_classic,"
    " which the oracle extra does not install",
    "langchain/agent_executor_jinja_partial_rules_changed": "imports the legacy AgentExecutor from langchain_classic,"
    " which the oracle extra does not install (checked by hand with langchain-classic 1.0.8: the SDK sees the same)",
    "langchain/noop_agent_executor_jinja_partial_human_format_changed": "imports the legacy AgentExecutor from"
    " langchain_classic, which the oracle extra does not install (checked by hand with langchain-classic 1.0.8)",
    "langchain/agent_executor_partial_variables_rules_changed": "imports the legacy AgentExecutor from"
    " langchain_classic, which the oracle extra does not install (checked by hand with langchain-classic 1.0.8)",
    "crewai/agent_class_default_tools_gain_tool_under_repository_wrapper": _CREWAI_DEFAULT_TOOLS,
    "crewai/agent_subclass_default_tools_gain_wire_money": _CREWAI_DEFAULT_TOOLS,
    "crewai/noop_agent_tools_moved_into_class_default": _CREWAI_DEFAULT_TOOLS,
    "crewai/unsafe_code_execution": "code_execution_mode='safe' needs a running Docker daemon at construction",
    "crewai/agent_subclass_default_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "crewai/agent_subclass_mixin_after_agent_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "crewai/agent_subclass_default_unpacked_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "crewai/agent_subclass_default_under_flag_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "crewai/agent_subclass_default_from_namespace_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "crewai/agent_subclass_validator_enables_unsafe_code_execution": "code_execution_mode='safe' needs a running"
    " Docker daemon at construction",
    "google_adk/model_from_env_via_litellm": "LiteLlm needs google-adk[extensions] (litellm), not installed by the oracle extra",
    "smolagents/model_from_env": "reads a required environment variable at import",
    "pydantic_ai/noop_model_provider_prefix_renamed": "its base spells the pre-2.0 provider prefixes"
    " (`google-gla:`), which PydanticAI 2.x rejects when the agent is built",
    "pydantic_ai/package_dir_tool_approval_removed": "imports `payments`, which exists only once installed"
    " through [tool.setuptools.package-dir]; the probe imports a case from its folder",
    "crewai/approval_hook_in_an_app_gates_the_shared_tools_it_imports": "a monorepo of projects: the app imports"
    " `toolkit.tools`, which exists only once the toolkit project is installed; the probe imports a case from its folder",
    "langchain/project_file_added_above_agent_beside_new_app": "its head is a monorepo of projects whose modules"
    " share the import name `agent`; the probe imports a case's tree into one interpreter",
    # Folder-move cases: projects run as scripts (`python trip_planner/main.py`), so each imports its own
    # `tools` / `hooks` through its script folder (sys.path[0]), and two projects share those names.
    "crewai/noop_project_folders_moved_into_crews": "a monorepo of script projects sharing the import names"
    " `tools` and `hooks`, each found through its script's folder; the probe imports a case's tree into one interpreter",
    "crewai/project_folder_moved_agent_gains_unsafe_code_execution": "a monorepo of script projects sharing the"
    " import names `tools` and `hooks`, each found through its script's folder; the probe imports a case's tree"
    " into one interpreter",
    "crewai/noop_project_moved_to_src_layout_keeps_script_imports": "two script projects each importing their own"
    " `tools` through their script's folder; the probe imports a case's tree into one interpreter",
    "crewai/noop_plain_folder_moved_keeps_dynamic_model_and_notes": "its model is a `nvidia_nim/` model, which"
    " CrewAI builds through LiteLLM, not installed by the oracle extra",
    "smolagents/noop_model_class_respelled_after_rename": "its base imports HfApiModel, which smolagents renamed"
    " InferenceClientModel (1.14) and has since removed",
    "smolagents/agent_inserted_before_another_on_same_variable": "`with CodeAgent(..., executor_type=\"docker\")`"
    " needs a running Docker daemon at construction (and the script runs its agents at import)",
}
# Cases whose tool or agent name is read from the environment when the code runs: the static
# surface cannot know it, so it names the entry by its code name and keys its identity by the name
# expression (a rename behind an unchanged expression is no change). The SDK's name is whatever the
# environment of this process gives, so the two are not comparable by name.
NAMED_AT_RUNTIME = {
    f"{framework}/{case}": "its name comes from os.environ at runtime"
    for framework, case in (
        ("langchain", "noop_function_renamed_behind_dynamic_tool_name"),  # a required variable: not even importable
        ("crewai", "noop_function_renamed_behind_dynamic_tool_name"),
        ("google_adk", "noop_variable_renamed_behind_dynamic_agent_name"),
        ("openai_agents", "noop_function_renamed_behind_dynamic_name_override"),
        ("smolagents", "noop_variable_renamed_behind_dynamic_agent_name"),
        ("pydantic_ai", "noop_function_renamed_behind_dynamic_tool_name"),
    )
}
# Differences that are the surface's documented model, not a bug: (where, exact difference) -> why.
EXPECTED = {
    (
        "crewai/tool_list_extended_under_flag after",
        "agent 'Support Triager' reach: static ['tool:Issue Refund', 'tool:Lookup Order'], sdk ['tool:Lookup Order']",
    ): "the surface has no per-edge condition: the triager reaches Issue Refund only when TRIAGE_REFUNDS_PILOT=1,"
    " and the tool itself is unconditional (another agent always has it)",
    (
        "openai_agents/approval_flag_constant_bound_twice after",
        "tool 'refund_order' approval: static [Dynamic(dynamic='shop.tools.APPROVE_REFUNDS, one of: False | True')], sdk never",
    ): "a constant bound twice at module level: the static side does not read which binding the decorator"
    " sees (statement order), and says the approval is one of both, never the first binding's",
}
# Cases where the static surface deliberately does not read what the SDK builds, and reports it as
# `surface.unresolved` instead (fail closed): an agent built from a spread something changes in a way
# not followed is known by its variable, not its name, and reaches nothing known; a star import of
# two frameworks names no package. Only the differences named here, on a side that has an unresolved
# note, are tolerated: case (framework/name; a bare name is openai_agents') -> (why, what the static
# side leaves unread).
FAILS_CLOSED = {
    case if "/" in case else f"openai_agents/{case}": (why, unread)
    for why, unread, cases in (
        (
            "Agent(**CONFIG) or Agent(tools=TOOLS) where CONFIG or TOOLS is changed in place in a way the program"
            " does not follow (a helper, an alias, a try body, a copy, a match case, an assigned call, a list holding it,"
            " .get(...), a slice, dict.__init__, getattr, globals(), a tuple assignment from a call, a loop rebinding the name, remove/pop/clear, a star import of a repository module defining"
            " it too): the spread or"
            " the list is unreadable",
            ("agent '",),
            (
                "spread_config_helper_called_in_if_test",
                "spread_config_tools_changed_in_match_case",
                "spread_config_updated_by_assigned_call",
                "tools_list_extended_by_repository_helper",
                "noop_tier_if_rewritten_as_match",
                "spread_config_helper_adds_refund_tool",
                "spread_config_helper_appends_to_item_refund_tool",
                "spread_config_helper_called_through_alias_adds_refund_tool",
                "spread_config_helper_closure_adds_refund_tool",
                "spread_config_helper_copy_alias_appends_refund_tool",
                "spread_config_helper_item_alias_appends_refund_tool",
                "spread_config_helper_setdefault_appends_refund_tool",
                "spread_config_helper_shallow_copy_appends_refund_tool",
                "spread_config_helper_shallow_copy_iadds_refund_tool",
                "spread_config_policy_constructor_adds_refund_tool",
                "spread_config_policy_method_on_new_instance_adds_refund_tool",
                "spread_config_policy_method_on_bound_instance_adds_refund_tool",
                "spread_config_varargs_helper_loop_adds_refund_tool",
                "spread_config_helper_default_parameter_adds_refund_tool",
                "spread_config_helper_loop_over_its_parameter_adds_refund_tool",
                "spread_config_helper_imported_as_alias_adds_refund_tool",
                "spread_config_tools_appended_through_module_name",
                "spread_config_tools_changed_inside_try",
                "spread_config_tools_appended_through_get",
                "spread_config_held_in_list_item_tools_replaced",
                "spread_config_tools_slice_assigned",
                "spread_config_tools_slice_assigned_in_class_body",
                "spread_config_tools_appended_by_unbound_list_method",
                "spread_config_reinitialised_by_dict_init",
                "spread_config_updated_through_getattr",
                "spread_config_tools_set_through_globals",
                "tool_list_rebound_by_tuple_unpacking",
                "tool_list_rebound_by_loop",
                "tool_list_rebound_by_star_import_of_repository_module",
                "tool_taken_out_of_agent_list_in_place",
            ),
        ),
        (
            "a tool's name bound again after its definition to what a helper returns (refund_order ="
            " audited(refund_order), a copy without approval): noted where it is listed and rebound, the"
            " definition's attributes kept, so the static side still says approval where the SDK holds the copy",
            ("tool '",),
            ("approved_tool_rebound_by_repository_wrapper_after_definition", "approved_tool_rebound_by_importing_module"),
        ),
        (
            "an agent's tool list changed by position after construction (root_agent.tools[1] = ...): noted"
            " where the agent is, the list not read, so the static side keeps the constructor's tool",
            ("tool '",),
            ("google_adk/unconfirmed_refund_tool_replaces_confirmed_one_by_position",),
        ),
        (
            "star imports of two agent frameworks: which one gives Agent and function_tool is not known",
            ("agent '", "tool '"),
            ("agent_module_star_imports_two_frameworks",),
        ),
        (
            "a tool under a decorator no dialect reads (the repository's own wrapper of the framework's tool"
            " decorator): the agent's tool is noted, not guessed, so the static side lacks it",
            ("agent '", "tool '"),
            (
                "tool_under_repository_wrapper_decorator_added",
                "noop_tool_under_repository_wrapper_decorator_kept",
                "crewai/tool_under_repository_wrapper_decorator_added",
                "crewai/agent_class_default_tools_gain_tool_under_repository_wrapper",
            ),
        ),
        (
            "an agent class's tools default built by a pydantic default_factory (a lambda the static side does not"
            " read): noted at the class, so the agent reaches nothing known",
            ("agent '",),
            (
                "crewai/agent_subclass_default_tools_factory_gains_wire_money",
                "crewai/noop_agent_subclass_default_tools_factory_class_documented",
            ),
        ),
    )
    for case in cases
}
_DUMMY_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "HF_TOKEN", "GROQ_API_KEY", "MISTRAL_API_KEY")
_CLOSED = "http://127.0.0.1:9"  # discard port: nothing listens, a connection fails at once


def _python(framework: str) -> str:
    """The interpreter that holds the framework's SDK: RECEIPT_ORACLE_PYTHON_<FRAMEWORK> when set (CrewAI
    lives in its own venv, its openai pin excluding openai-agents'), else this one."""
    return os.environ.get(f"RECEIPT_ORACLE_PYTHON_{framework.upper()}") or sys.executable


def _installed(framework: str, module: str) -> bool:
    python = _python(framework)
    if python != sys.executable:
        probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
        return subprocess.run([python, "-c", probe], capture_output=True, timeout=120).returncode == 0
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _frameworks() -> list[Any]:
    extra = {"crewai": "oracle-crewai"}
    return [
        pytest.param(
            f, id=f, marks=[] if _installed(f, m) else [pytest.mark.skip(reason=f"{m} not installed (pip install '.[{extra.get(f, 'oracle')}]')")]
        )
        for f, (m, _) in sorted(FRAMEWORKS.items())
    ]


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({k: "dummy-key-for-oracle" for k in _DUMMY_KEYS})
    env.update(
        HTTP_PROXY=_CLOSED, HTTPS_PROXY=_CLOSED, http_proxy=_CLOSED, https_proxy=_CLOSED, NO_PROXY="", no_proxy="",
        CREWAI_DISABLE_TELEMETRY="true", CREWAI_DISABLE_TRACKING="true", OTEL_SDK_DISABLED="true",
        ANONYMIZED_TELEMETRY="false", HF_HUB_OFFLINE="1", PYTHONDONTWRITEBYTECODE="1",
        HOME=str(tmp), CREWAI_STORAGE_DIR=str(tmp / "crewai"), PYTHONHASHSEED="0",
    )
    return env


def sdk_views(framework: str, trees: list[Path], tmp: Path) -> dict[str, Any]:
    """One subprocess per framework (the SDK is imported once), every tree of the corpus in it."""
    done = subprocess.run(
        [_python(framework), str(PROBE), framework, *map(str, trees)], capture_output=True, text=True, timeout=1200, env=_env(tmp), cwd=tmp
    )
    assert done.returncode == 0, f"probe crashed:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)


def static_view(tree: Path, dialect: str) -> tuple[dict[str, list[Any]], dict[str, list[Any]], bool]:
    """The static agents and tools by name, and whether the static side noted something it could not follow."""
    files = {p.relative_to(tree).as_posix(): p.read_bytes() for p in sorted(tree.rglob("*")) if p.is_file()}
    entries, issues = link_files(files)
    by_key = {e.key: e for e in entries}
    agents: dict[str, list[Any]] = {}
    tools: dict[str, list[Any]] = {}
    for e in entries:
        if e.kind == "agent" and e.dialect == dialect:
            agents.setdefault(e.name, []).append(e)
        elif e.kind == "tool":
            tools.setdefault(e.name, []).append(e)
    for group in agents.values():
        for e in group:
            # (name, only sometimes there): a conditional entry may be absent from what the SDK built
            e.extra["_reach_names"] = sorted({(f"{by_key[k].kind}:{by_key[k].name}", by_key[k].conditional) for k in e.reaches if k in by_key})
    return agents, tools, any(i.kind == "unresolved" for i in issues)


def differences(sdk: dict[str, Any], agents: dict[str, list[Any]], tools: dict[str, list[Any]]) -> list[str]:
    out: list[str] = []
    for name, info in sorted(sdk["agents"].items()):
        static = agents.get(name)
        if not static:
            out.append(f"agent '{name}': the SDK builds it, the static surface has no such agent")
            continue
        if "reach" in info:
            reach = sorted({r for e in static for r, _ in e.extra["_reach_names"]})
            always = {r for e in static for r, conditional in e.extra["_reach_names"] if not conditional}
            if not always <= set(info["reach"]) <= set(reach):
                out.append(f"agent '{name}' reach: static {reach}, sdk {info['reach']}")
    for name, info in sorted(sdk["tools"].items()):
        static = tools.get(name)
        if not static:
            out.append(f"tool '{name}': the SDK builds it, the static surface has no such tool")
            continue
        e = static[0]
        if "params" in info and e.signature is not None:
            mine = {p.name: p.required for p in e.signature.params if not p.name.startswith("*")}
            if sorted(mine) != sorted(info["params"]):
                out.append(f"tool '{name}' params: static {sorted(mine)}, sdk {sorted(info['params'])}")
            else:
                for param, required in sorted(info["params"].items()):
                    if required is not None and mine[param] != required:
                        out.append(f"tool '{name}' param '{param}' required: static {mine[param]}, sdk {required}")
        # A gate written in the tool's body (raise ApprovalRequired, interrupt()) is `conditional` statically
        # while the SDK's declared flag stays off.
        body_gate = info.get("approval") == "never" and any(e.approval == "conditional" for e in static)
        if "approval" in info and not body_gate and not any(e.approval == info["approval"] for e in static):
            out.append(f"tool '{name}' approval: static {[e.approval for e in static]}, sdk {info['approval']}")
    return out


@pytest.mark.parametrize("framework", _frameworks())
def test_static_surface_matches_the_real_sdk(framework: str, tmp_path: Path) -> None:
    cases = [c for c in sorted((CORPUS / framework).iterdir()) if c.is_dir()]
    known = {c.name for c in cases if json.loads((c / "expected.json").read_text()).get("xfail")}  # known dialect defects
    skipped = known | {name.split("/", 1)[1] for name in (*UNBUILDABLE, *NAMED_AT_RUNTIME) if name.startswith(framework + "/")}
    trees = [c / side for c in cases if c.name not in skipped for side in ("before", "after")]
    views = sdk_views(framework, trees, tmp_path)
    failures = []
    for tree in trees:
        where = f"{framework}/{tree.parent.name} {tree.name}"
        sdk = views[str(tree)]
        if sdk["errors"]:
            failures.append(f"{where}: the real SDK cannot import the case: " + "; ".join(sdk["errors"]))
            continue
        agents, tools, unresolved = static_view(tree, FRAMEWORKS[framework][1])
        unread = FAILS_CLOSED.get(f"{framework}/{tree.parent.name}", ("", ()))[1] if unresolved else ()
        failures += [f"{where}: {d}" for d in differences(sdk, agents, tools) if (where, d) not in EXPECTED and not d.startswith(unread)]
    assert not failures, "\n".join(failures)

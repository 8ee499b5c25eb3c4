"""OpenAI Agents SDK dialect: what a user of `openai-agents` sees in the extracted surface."""

from __future__ import annotations

from typing import Any

from receipt.dialects.base import digest
from receipt.models import Dynamic, Entry
from tests.helpers import exported, link_files, surface_of

TOOLS = '''
from agents import function_tool, RunContextWrapper, ToolContext

@function_tool
def lookup_order(ctx: RunContextWrapper[Ctx], order_id: str) -> str:
    """Look up an order by id."""

@function_tool(name_override="refund", needs_approval=True)
async def issue_refund(tool_context: ToolContext[Ctx], order_id: str, amount: float = 0.0) -> str:
    """Refund an order."""
'''

AGENT = '''
from agents import Agent
from app.tools import lookup_order, issue_refund

support = Agent(
    name="Support",
    instructions="Help customers.",
    model="gpt-5",
    tools=[lookup_order, issue_refund],
)
'''


def _ours(surface: dict[str, Entry]) -> dict[str, Entry]:
    return {k: e for k, e in surface.items() if e.dialect == "openai-agents"}


def _view(entries: dict[str, Entry]) -> dict[str, dict[str, Any]]:
    """Everything but where the declaration sits: what must survive renames and file splits."""
    return {k: e.model_dump(exclude={"path", "line", "home", "slot"}) for k, e in entries.items()}


def _issues(files: dict[str, str]) -> list[str]:
    return [i.message for i in link_files(files)[1]]


# -- function tools ---------------------------------------------------------------------------


def test_function_tools_reached_by_a_public_agent_are_exported_with_their_attributes() -> None:
    s = exported({"app/tools.py": TOOLS, "app/agent.py": AGENT})
    assert set(s) == {"agent:Support", "tool:lookup_order", "tool:refund"}
    agent = s["agent:Support"]
    assert agent.root and agent.dialect == "openai-agents" and agent.model == "gpt-5"
    assert agent.instructions_sha256 == digest("Help customers.")
    assert agent.reaches == ["tool:lookup_order", "tool:refund"]
    lookup = s["tool:lookup_order"]
    # open_world: only MCP (and hosted tools) are open-world by default; a function tool declares nothing
    assert (lookup.approval, lookup.trust_tier, lookup.dangerous, lookup.open_world) == ("never", "autonomous", False, False)
    assert lookup.description_sha256 == digest("Look up an order by id.")
    assert lookup.path == "app/tools.py" and not lookup.root and not lookup.conditional
    # the injected RunContextWrapper / ToolContext parameters are not part of the signature
    assert [p.name for p in lookup.signature.params] == ["order_id"]
    refund = s["tool:refund"]
    assert (refund.approval, refund.trust_tier) == ("always", "human_required")
    assert [(p.name, p.required, p.default) for p in refund.signature.params] == [
        ("order_id", True, None),
        ("amount", False, "0.0"),
    ]


def test_tools_no_agent_reaches_are_not_exported() -> None:
    s = surface_of({"app/tools.py": TOOLS})
    assert {"tool:lookup_order", "tool:refund"} <= set(s)
    assert not any(e.exported for e in s.values())


def test_description_override_and_use_docstring_info() -> None:
    s = surface_of(
        {
            "t.py": '''
            from agents import function_tool
            @function_tool(description_override="Short.")
            def a() -> None:
                """Long docstring."""
            @function_tool(use_docstring_info=False)
            def b() -> None:
                """Not sent."""
            '''
        }
    )
    assert s["tool:a"].description_sha256 == digest("Short.")
    assert s["tool:b"].description_sha256 == digest("")


def test_spelling_the_defaults_is_not_a_change() -> None:
    bare = surface_of({"app/tools.py": TOOLS, "app/agent.py": AGENT})
    explicit = surface_of(
        {
            "app/tools.py": TOOLS.replace(
                "@function_tool\n",
                "@function_tool(needs_approval=False, is_enabled=True, strict_mode=True, name_override=None)\n",
            ),
            "app/agent.py": AGENT,
        }
    )
    assert _view(bare) == _view(explicit)


def test_needs_approval_callable_or_lambda_is_conditional_and_unknowable_is_dynamic() -> None:
    s = surface_of(
        {
            "t.py": '''
            import os
            from agents import function_tool

            async def big_amount(ctx, params, call_id) -> bool:
                return params["amount"] > 100

            REVIEW = True

            @function_tool(needs_approval=big_amount)
            def refund(amount: float) -> str: ...

            @function_tool(needs_approval=lambda ctx, p, cid: True)
            def wipe() -> str: ...

            @function_tool(needs_approval=os.environ.get("REVIEW") == "1")
            def ship() -> str: ...

            @function_tool(needs_approval=REVIEW)
            def cancel() -> str: ...
            '''
        }
    )
    assert (s["tool:refund"].approval, s["tool:refund"].trust_tier) == ("conditional", "human_supervised")
    assert s["tool:wipe"].approval == "conditional"
    assert isinstance(s["tool:ship"].approval, Dynamic) and isinstance(s["tool:ship"].trust_tier, Dynamic)
    assert s["tool:cancel"].approval == "always"  # a module constant is followed


def test_needs_approval_spread_into_the_options_is_read_and_an_unreadable_spread_is_unknown() -> None:
    s = surface_of(
        {
            "t.py": '''
            from agents import function_tool
            from settings import load_options

            STAFF = {"needs_approval": True}
            LOOSE = {**STAFF}
            LOOSE["needs_approval"] = False

            @function_tool(**STAFF)
            def refund(amount: float) -> str: ...

            @function_tool(**LOOSE)
            def cancel() -> str: ...

            @function_tool(**load_options())
            def wipe() -> str: ...

            def ship() -> str: ...

            ship_tool = function_tool(ship, **STAFF)
            '''
        }
    )
    assert s["tool:refund"].approval == "always"
    assert s["tool:cancel"].approval == "never"
    assert isinstance(s["tool:wipe"].approval, Dynamic)
    assert s["tool:ship"].approval == "always"


def test_is_enabled_false_hides_the_tool_and_a_callable_makes_it_conditional() -> None:
    s = surface_of(
        {
            "app.py": '''
            from agents import Agent, function_tool

            def premium(ctx, agent) -> bool:
                return ctx.context.premium

            @function_tool(is_enabled=False)
            def off() -> str: ...

            @function_tool(is_enabled=premium)
            def sometimes() -> str: ...

            @function_tool
            def always_on() -> str: ...

            bot = Agent(name="Bot", tools=[off, sometimes, always_on])
            '''
        }
    )
    assert s["agent:Bot"].reaches == ["tool:always_on", "tool:sometimes"]
    assert not s["tool:off"].exported
    assert s["tool:sometimes"].exported and s["tool:sometimes"].conditional
    assert not s["tool:always_on"].conditional


def test_function_tool_called_on_a_function_and_assigned() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool

            def send_email(to: str, body: str) -> str:
                """Send an email."""

            email_tool = function_tool(send_email, name_override="email", needs_approval=True)
            later = function_tool(name_override="later")(send_email)
            bot = Agent(name="Bot", tools=[email_tool, later, function_tool(send_email)])
            '''
        }
    )
    assert s["agent:Bot"].reaches == ["tool:email", "tool:later", "tool:send_email"]
    assert s["tool:email"].approval == "always"
    assert [p.name for p in s["tool:email"].signature.params] == ["to", "body"]
    assert s["tool:send_email"].description_sha256 == digest("Send an email.")


def test_function_tool_class_constructed_directly() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, FunctionTool

            async def run(ctx, args): ...

            deploy = FunctionTool(
                name="deploy",
                description="Deploy to prod.",
                params_json_schema={"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]},
                on_invoke_tool=run,
                needs_approval=True,
            )
            ops = Agent(name="Ops", tools=[deploy])
            '''
        }
    )
    deploy = s["tool:deploy"]
    assert deploy.approval == "always" and deploy.description_sha256 == digest("Deploy to prod.")
    assert [(p.name, p.type, p.required) for p in deploy.signature.params] == [("env", "string", True)]


# -- import origin -------------------------------------------------------------------------------


def test_aliased_imports_are_recognised() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import function_tool as ft, Agent as A
            import agents as oa
            import agents

            @ft(needs_approval=True)
            def one() -> str: ...

            @oa.function_tool
            def two() -> str: ...

            @agents.function_tool(name_override="three")
            def third() -> str: ...

            bot = A(name="Bot", tools=[one, two])
            other = oa.Agent(name="Other", tools=[third])
            '''
        }
    )
    assert s["tool:one"].approval == "always"
    assert {"agent:Bot", "agent:Other", "tool:one", "tool:two", "tool:three"} == set(s)


def test_re_exported_sdk_names_are_recognised() -> None:
    s = exported(
        {
            "app/sdk.py": "from agents.tool import function_tool\nfrom agents.agent import Agent\n",
            "app/main.py": '''
            from app.sdk import function_tool, Agent
            @function_tool
            def ping() -> str: ...
            bot = Agent(name="Bot", tools=[ping])
            ''',
        }
    )
    assert set(s) == {"agent:Bot", "tool:ping"}


def test_a_local_function_tool_or_agent_not_from_the_sdk_is_ignored() -> None:
    s = surface_of(
        {
            "app/deco.py": '''
            def function_tool(fn=None, **kw):
                return fn
            class Agent:
                def __init__(self, **kw): ...
            ''',
            "app/main.py": '''
            from app.deco import function_tool, Agent
            @function_tool(needs_approval=False)
            def ping() -> str: ...
            bot = Agent(name="Bot", tools=[ping])
            ''',
        }
    )
    assert not _ours(s)


def test_an_app_directory_named_agents_does_not_hide_the_sdk() -> None:
    s = exported(
        {
            "app/__init__.py": "",
            "app/agents/__init__.py": "",
            "app/agents/triage.py": '''
            from agents import Agent, function_tool
            @function_tool
            def ping() -> str: ...
            triage = Agent(name="Triage", tools=[ping])
            ''',
        }
    )
    assert set(s) == {"agent:Triage", "tool:ping"}


# -- agents ------------------------------------------------------------------------------------------


def test_agent_roots_are_agents_the_application_builds_unless_private() -> None:
    s = surface_of(
        {
            "app.py": '''
            from agents import Agent

            public = Agent(name="Public")
            _private = Agent(name="Private")

            async def main():
                local = Agent(name="Local")

            def _offline():
                helper = Agent(name="Helper")
            '''
        }
    )
    assert s["agent:Public"].root and s["agent:Public"].exported
    assert not s["agent:Private"].exported
    # built inside main(): an exported root, only there when main() runs
    assert s["agent:Local"].exported and s["agent:Local"].conditional
    assert not s["agent:Helper"].exported


def test_generic_agent_and_subclass_of_agent() -> None:
    s = exported(
        {
            "app.py": '''
            from dataclasses import dataclass
            from agents import Agent

            class Ctx: ...

            class MyAgent(Agent):
                pass

            typed = Agent[Ctx](name="Typed", instructions="x")
            custom = MyAgent(name="Custom")
            '''
        }
    )
    assert {"agent:Typed", "agent:Custom"} == set(s)
    assert s["agent:Typed"].instructions_sha256 == digest("x")


def test_model_literal_dynamic_from_env_default_and_model_object() -> None:
    s = surface_of(
        {
            "app.py": '''
            import os
            from agents import Agent, OpenAIChatCompletionsModel
            from agents.extensions.models.litellm_model import LitellmModel

            MODEL = "gpt-5-mini"
            a = Agent(name="A", model="gpt-5")
            b = Agent(name="B", model=os.getenv("AGENT_MODEL", "gpt-5"))
            c = Agent(name="C")
            d = Agent(name="D", model=MODEL)
            e = Agent(name="E", model=OpenAIChatCompletionsModel(model="qwen", openai_client=client))
            f = Agent(name="F", model=LitellmModel(model=os.environ["M"], api_key=key))
            '''
        }
    )
    assert s["agent:A"].model == "gpt-5"
    assert s["agent:B"].model == Dynamic(dynamic="os.getenv('AGENT_MODEL', 'gpt-5')")
    assert s["agent:C"].model is None
    assert s["agent:D"].model == "gpt-5-mini"
    assert s["agent:E"].model == "qwen"
    assert isinstance(s["agent:F"].model, Dynamic)


def test_instructions_literal_function_and_dynamic() -> None:
    src = '''
    from agents import Agent

    def instructions(ctx, agent) -> str:
        return f"Help {ctx.context.user}."

    a = Agent(name="A", instructions="Be kind.")
    b = Agent(name="B", instructions=instructions)
    c = Agent(name="C", instructions=lambda ctx, agent: "Hi")
    d = Agent(name="D")
    '''
    s = surface_of({"app.py": src})
    assert s["agent:A"].instructions_sha256 == digest("Be kind.")
    assert s["agent:B"].instructions_sha256.startswith("dynamic:")
    assert s["agent:C"].instructions_sha256.startswith("dynamic:")
    assert s["agent:D"].instructions_sha256 is None
    # the template the function returns is what the digest follows
    changed = surface_of({"app.py": src.replace("Help {ctx", "Serve {ctx")})
    assert changed["agent:B"].instructions_sha256 != s["agent:B"].instructions_sha256
    assert changed["agent:A"].instructions_sha256 == s["agent:A"].instructions_sha256


def test_dynamic_agent_name_falls_back_to_the_variable_and_is_reported() -> None:
    files = {"app.py": 'import os\nfrom agents import Agent\nhelper = Agent(name=os.environ["NAME"])\n'}
    s = exported(files)
    assert set(s) == {"agent:helper"}
    assert any("name is not a literal" in m for m in _issues(files))


def test_clone_inherits_fields_and_overrides_kwargs() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool

            @function_tool
            def ping() -> str: ...

            @function_tool
            def pong() -> str: ...

            base = Agent(name="Assistant", instructions="English.", model="gpt-5", tools=[ping])
            spanish = base.clone(instructions="Spanish.")
            pro = base.clone(name="Pro", model="gpt-5-pro", tools=[pong])
            '''
        }
    )
    assert s["agent:Assistant"].instructions_sha256 == digest("English.")
    clone = s["agent:Assistant@spanish"]  # same name as its base: keyed by its variable, never shadowing
    assert clone.name == "Assistant" and clone.model == "gpt-5"
    assert clone.instructions_sha256 == digest("Spanish.") and clone.reaches == ["tool:ping"]
    assert s["agent:Pro"].model == "gpt-5-pro" and s["agent:Pro"].reaches == ["tool:pong"]
    assert s["agent:Pro"].instructions_sha256 == digest("English.")


def test_public_factory_returning_an_agent_is_a_conditional_root() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool

            @function_tool
            def ping() -> str: ...

            def build_agent(model: str):
                agent = Agent(name="Built", model=model, tools=[ping])
                return agent

            def make_other():
                return Agent(name="Other")

            def _private():
                return Agent(name="Hidden")
            '''
        }
    )
    assert set(s) == {"agent:Built", "agent:Other", "tool:ping"}
    assert s["agent:Built"].conditional and s["agent:Built"].root
    assert s["agent:Built"].model == Dynamic(dynamic="model")
    assert s["agent:Other"].conditional
    assert s["tool:ping"].conditional  # only ever attached inside a factory


def test_lists_changed_on_the_variable_holding_a_factory_result_belong_to_that_agent() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool

            @function_tool
            def ping() -> str: ...

            def build_specialist():
                return Agent(name="Specialist")

            triage = Agent(name="Triage", handoffs=[])
            specialist = build_specialist()
            specialist.handoffs.append(triage)
            specialist.tools.append(ping)
            '''
        }
    )
    assert s["agent:Specialist"].reaches == ["agent:Triage", "tool:ping"]


# -- handoffs --------------------------------------------------------------------------------------------


HANDOFFS = '''
from agents import Agent, handoff

billing = Agent(name="Billing", handoff_description="Bills.")
refunds = Agent(name="Refunds")
_secret = Agent(name="Secret")
_off = Agent(name="Off")

triage = Agent(
    name="Triage",
    handoffs=[billing, handoff(refunds, tool_name_override="to_refunds"), handoff(_off, is_enabled=False)],
)
'''


def test_handoffs_reach_agents_and_export_private_targets() -> None:
    files = {"app.py": HANDOFFS + "triage.handoffs.append(_secret)\n"}
    s = surface_of(files)
    assert s["agent:Triage"].reaches == ["agent:Billing", "agent:Refunds", "agent:Secret"]
    assert s["agent:Secret"].exported and not s["agent:Secret"].root
    assert s["agent:Billing"].description_sha256 == digest("Bills.")  # what triage routes on
    assert s["agent:Refunds"].description_sha256 is None
    assert not s["agent:Off"].exported  # is_enabled=False: the model never sees that handoff


def test_handoffs_assigned_extended_or_added_after_construction() -> None:
    s = surface_of(
        {
            "app/agents_def.py": '''
            from agents import Agent
            triage = Agent(name="Triage")
            a = Agent(name="A")
            b = Agent(name="B")
            _c = Agent(name="C")
            _d = Agent(name="D")
            _e = Agent(name="E")
            triage.handoffs = [a]
            triage.handoffs.extend([b])
            triage.handoffs += [_c]
            ''',
            "app/wiring.py": '''
            import os
            from app.agents_def import triage, _d, _e
            triage.handoffs.append(_d)
            if os.environ.get("BETA"):
                triage.handoffs.append(_e)
            ''',
        }
    )
    assert s["agent:Triage"].reaches == ["agent:A", "agent:B", "agent:C", "agent:D", "agent:E"]
    assert not s["agent:D"].conditional
    assert s["agent:E"].conditional and s["agent:E"].exported  # only attached under `if`


def test_inline_agents_in_handoffs_and_handoff_variables() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, handoff
            _faq = Agent(name="FAQ")
            to_faq = handoff(agent=_faq)
            triage = Agent(name="Triage", handoffs=[to_faq, Agent(name="Inline")])
            '''
        }
    )
    assert s["agent:Triage"].reaches == ["agent:FAQ", "agent:Inline"]
    assert not s["agent:Inline"].root


def test_handoff_with_dynamic_is_enabled_makes_the_target_conditional() -> None:
    s = surface_of(
        {
            "app.py": '''
            from agents import Agent, handoff
            def vip(ctx, agent): return ctx.context.vip
            _concierge = Agent(name="Concierge")
            triage = Agent(name="Triage", handoffs=[handoff(_concierge, is_enabled=vip)])
            '''
        }
    )
    assert s["agent:Concierge"].exported and s["agent:Concierge"].conditional


# -- agents as tools -------------------------------------------------------------------------------------


def test_as_tool_is_a_tool_that_reaches_the_wrapped_agent() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool

            @function_tool(needs_approval=True)
            def delete_repo(name: str) -> str: ...

            _researcher = Agent(name="Research Bot", tools=[delete_repo])
            research_tool = _researcher.as_tool(tool_name="research", tool_description="Researches.")
            orchestrator = Agent(
                name="Orchestrator",
                tools=[research_tool, _researcher.as_tool(None, None, needs_approval=True)],
            )
            '''
        }
    )
    assert s["agent:Orchestrator"].reaches == ["tool:research", "tool:research_bot"]
    research = s["tool:research"]
    assert research.reaches == ["agent:Research Bot"] and research.approval == "never"
    assert research.description_sha256 == digest("Researches.")
    assert [p.name for p in research.signature.params] == ["input"]
    assert s["tool:research_bot"].approval == "always"  # default name: the agent's, function-style
    assert s["agent:Research Bot"].exported and s["tool:delete_repo"].exported


def test_as_tool_of_something_that_is_not_an_sdk_agent_is_ignored() -> None:
    s = surface_of(
        {
            "app.py": '''
            from agents import Agent
            from langchain_core.runnables import RunnableLambda
            chain = RunnableLambda(lambda x: x)
            chain_tool = chain.as_tool(name="chain")
            bot = Agent(name="Bot")
            '''
        }
    )
    assert set(_ours(s)) == {"agent:Bot"}


# -- tool lists --------------------------------------------------------------------------------------------


def test_tools_built_in_a_variable_and_extended_conditionally() -> None:
    s = surface_of(
        {
            "app.py": '''
            import os
            from agents import Agent, function_tool

            @function_tool
            def a() -> str: ...
            @function_tool
            def b() -> str: ...
            @function_tool
            def c() -> str: ...

            tools = [a]
            tools.append(b)
            if os.environ.get("ENABLE_C"):
                tools.append(c)
            bot = Agent(name="Bot", tools=tools)
            bot2 = Agent(name="Bot2", tools=[*tools])
            '''
        }
    )
    assert s["agent:Bot"].reaches == ["tool:a", "tool:b", "tool:c"]
    assert not s["tool:a"].conditional and not s["tool:b"].conditional
    assert s["tool:c"].conditional  # attached only under `if`, in every agent that has it


def test_a_tool_attached_unconditionally_somewhere_is_not_conditional() -> None:
    s = surface_of(
        {
            "app.py": '''
            from agents import Agent, function_tool
            @function_tool
            def c() -> str: ...
            bot = Agent(name="Bot", tools=[c])
            other = Agent(name="Other")
            if FLAG:
                other.tools.append(c)
            '''
        }
    )
    assert s["agent:Other"].reaches == ["tool:c"] and not s["tool:c"].conditional


def test_tools_from_a_helper_and_unresolvable_tools_are_reported() -> None:
    files = {
        "app.py": '''
        from agents import Agent, function_tool
        from plugins import load_tools

        @function_tool
        def a() -> str: ...

        def default_tools():
            return [a]

        bot = Agent(name="Bot", tools=default_tools())
        dyn = Agent(name="Dyn", tools=load_tools())
        '''
    }
    s = exported(files)
    assert s["agent:Bot"].reaches == ["tool:a"]
    assert "agent:Dyn" in s  # the agent is kept...
    assert any("tools=plugins.load_tools()" in m for m in _issues(files))  # ...and the gap is reported


# -- hosted tools and MCP ---------------------------------------------------------------------------------


def test_hosted_tools_have_sdk_names_and_fixed_attributes() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import (Agent, WebSearchTool, FileSearchTool, CodeInterpreterTool, ComputerTool,
                                LocalShellTool, ShellTool, ApplyPatchTool, ImageGenerationTool)
            search = WebSearchTool()
            bot = Agent(name="Bot", tools=[
                search,
                FileSearchTool(vector_store_ids=["vs"]),
                CodeInterpreterTool(tool_config={"type": "code_interpreter"}),
                ComputerTool(computer),
                LocalShellTool(executor=run),
                ShellTool(executor=run, needs_approval=True),
                ApplyPatchTool(editor=ed, needs_approval=True, on_approval=auto),
                ImageGenerationTool(tool_config={}),
            ])
            other = Agent(name="Other", tools=[WebSearchTool()])
            '''
        }
    )
    assert s["agent:Bot"].reaches == [
        "tool:apply_patch",
        "tool:code_interpreter",
        "tool:computer_use_preview",
        "tool:file_search",
        "tool:image_generation",
        "tool:local_shell",
        "tool:shell",
        "tool:web_search",
    ]
    assert s["agent:Other"].reaches == ["tool:web_search"]  # one entry, whoever attaches it
    for name in ("computer_use_preview", "local_shell", "shell", "apply_patch", "code_interpreter"):
        assert s[f"tool:{name}"].dangerous is True, name
    for name in ("web_search", "file_search", "image_generation"):
        assert s[f"tool:{name}"].dangerous is False and s[f"tool:{name}"].open_world is True
    assert s["tool:web_search"].read_only is True
    assert s["tool:local_shell"].approval == "never"
    assert s["tool:shell"].approval == "always"
    assert s["tool:apply_patch"].approval == "conditional"  # a callback approves, not a person


def test_hosted_mcp_tool_approval_from_tool_config() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, HostedMCPTool
            bot = Agent(name="Bot", tools=[
                HostedMCPTool(tool_config={"type": "mcp", "server_label": "gh", "server_url": "u"}),
                HostedMCPTool(tool_config={"type": "mcp", "server_label": "docs", "require_approval": "never"}),
                HostedMCPTool(tool_config={"type": "mcp", "server_label": "mix",
                                           "require_approval": {"never": {"tool_names": ["read"]}}}),
                HostedMCPTool(tool_config={"type": "mcp", "server_label": "auto", "require_approval": "always"},
                              on_approval_request=approve),
            ])
            '''
        }
    )
    assert s["tool:gh/hosted_mcp"].approval == "always"  # the Responses API asks by default
    assert s["tool:docs/hosted_mcp"].approval == "never"
    assert s["tool:mix/hosted_mcp"].approval == "conditional"
    assert s["tool:auto/hosted_mcp"].approval == "conditional"
    assert all(isinstance(s[f"tool:{k}/hosted_mcp"].dangerous, Dynamic) for k in ("gh", "docs", "mix", "auto"))


def test_local_mcp_servers_on_an_agent_are_one_tool_entry_per_server() -> None:
    files = {
        "app.py": '''
        from agents import Agent
        from agents.mcp import MCPServerStdio, MCPServerStreamableHttp

        fs = MCPServerStdio(name="filesystem", params={"command": "npx"}, require_approval="always")
        remote = MCPServerStreamableHttp(params={"url": "https://x"})
        bot = Agent(name="Bot", mcp_servers=[fs, remote])

        async def main():
            async with MCPServerStdio(params={"command": "x"}) as server:
                local = Agent(name="Local", mcp_servers=[server])
        '''
    }
    s = exported(files)
    assert s["agent:Bot"].reaches == ["tool:filesystem/*", "tool:remote/*"]
    assert s["tool:filesystem/*"].approval == "always"
    assert s["tool:remote/*"].approval == "never" and s["tool:remote/*"].open_world is True
    # Whether the server's tools are destructive (the MCP default) is only known at run time.
    assert s["tool:remote/*"].dangerous == Dynamic(dynamic="tools of MCP server remote (listed at run time)")
    # `async with MCPServerStdio(...) as server` binds the server itself (its __aenter__ returns it).
    assert s["agent:Local"].reaches == ["tool:server/*"]
    assert not any("MCP server" in m for m in _issues(files))


# -- overlays, identity, layout -----------------------------------------------------------------------------


def test_native_marker_overlays_a_function_tool() -> None:
    s = exported(
        {
            "app.py": '''
            from agents import Agent, function_tool
            from receipt.markers import tool

            @tool(dangerous=True)
            @function_tool(needs_approval=True)
            def drop_table(name: str) -> str: ...

            dba = Agent(name="DBA", tools=[drop_table])
            '''
        }
    )
    assert set(s) == {"agent:DBA", "tool:drop_table"}
    assert s["tool:drop_table"].dangerous is True and s["tool:drop_table"].approval == "always"


def test_renaming_the_python_function_keeps_the_name_override_key() -> None:
    before = surface_of({"app/tools.py": TOOLS, "app/agent.py": AGENT})
    renamed_tools = TOOLS.replace("def issue_refund(", "def refund_order_v2(")
    renamed_agent = AGENT.replace("issue_refund", "refund_order_v2")
    after = surface_of({"app/tools.py": renamed_tools, "app/agent.py": renamed_agent})
    assert _view(_ours(before)) == _view(_ours(after))


def test_splitting_a_file_gives_the_same_surface() -> None:
    one_file = TOOLS + "\n" + AGENT.replace("from app.tools import lookup_order, issue_refund\n", "")
    single = surface_of({"app/main.py": one_file})
    split = surface_of({"app/tools.py": TOOLS, "app/agent.py": AGENT})
    assert _view(_ours(single)) == _view(_ours(split))


def test_surface_does_not_depend_on_file_order_or_hash_seed() -> None:
    files = {"app/tools.py": TOOLS, "app/agent.py": AGENT, "app/h.py": HANDOFFS}
    a = [e.model_dump() for e in link_files(files)[0]]
    b = [e.model_dump() for e in link_files(dict(reversed(list(files.items()))))[0]]
    assert a == b


def test_codex_sandbox_that_may_come_from_unseen_arguments_is_dynamic() -> None:
    # A sandbox_mode given through **kwargs (on codex_tool or on CodexToolOptions) or in options that
    # cannot be read wins over the thread options: the tool's danger is not known, never "read-only".
    template = '''
from agents import Agent
from agents.extensions.experimental.codex import CodexToolOptions, codex_tool

OPTS = {"sandbox_mode": "danger-full-access"}
ARGS = ["codex", "Runs Codex.", None, None, None, "danger-full-access"]

def make_options():
    return OPTS

coder = CALL
agent = Agent(name="reviewer", instructions="Review.", tools=[coder])
'''
    thread = 'default_thread_options={"sandbox_mode": "read-only"}'
    calls = {
        "plain": f"codex_tool({thread})",
        "kwargs": f"codex_tool({thread}, **OPTS)",
        "kwargs not seen": f"codex_tool({thread}, **make_options())",
        "options kwargs": f"codex_tool(CodexToolOptions(**OPTS), {thread})",
        "options kwargs not seen": f"codex_tool(CodexToolOptions(**make_options()), {thread})",
        "options by a function": f"codex_tool(make_options(), {thread})",
        "options by position and **kwargs": f"codex_tool(CodexToolOptions(*ARGS), {thread})",
    }
    seen = {}
    for label, call in calls.items():
        (tool,) = [e for e in surface_of({"app/agent.py": template.replace("CALL", call)}).values() if e.kind == "tool"]
        seen[label] = (tool.name, "dynamic" if isinstance(tool.dangerous, Dynamic) else tool.dangerous)
    # A literal spread is read by value (`**OPTS` is danger-full-access); one that cannot be read is not known.
    assert seen == {"plain": ("codex", False), "kwargs": ("codex", True), "kwargs not seen": ("codex", "dynamic"),
                    "options kwargs": ("codex", True), "options kwargs not seen": ("codex", "dynamic"),
                    "options by a function": ("codex", True), "options by position and **kwargs": ("codex", "dynamic")}


def test_codex_network_options_open_the_tool_and_unreadable_options_keep_it() -> None:
    """exec.py: `web_search_mode` "cached"/"live" (else `web_search_enabled=True`) lets Codex search the
    web, and `network_access_enabled=True` opens a workspace-write sandbox's network: open-world. Options
    passed by position that cannot be read keep the tool (named "codex"), what they decide dynamic."""
    template = '''
from agents import Agent
from agents.extensions.experimental.codex import CodexToolOptions, ThreadOptions, codex_tool
from settings import load_options

coder = CALL
agent = Agent(name="reviewer", instructions="Review.", tools=[coder])
'''
    calls = {
        "read-only": 'codex_tool(sandbox_mode="read-only")',
        "web search live": 'codex_tool(sandbox_mode="read-only", default_thread_options=ThreadOptions(web_search_mode="live"))',
        "web search disabled": 'codex_tool(sandbox_mode="read-only", default_thread_options={"web_search_mode": "disabled"})',
        "legacy web search": 'codex_tool(CodexToolOptions(sandbox_mode="read-only", default_thread_options={"web_search_enabled": True}))',
        "network on workspace-write": 'codex_tool(sandbox_mode="workspace-write", default_thread_options=ThreadOptions(network_access_enabled=True))',
        "network on read-only": 'codex_tool(sandbox_mode="read-only", default_thread_options=ThreadOptions(network_access_enabled=True))',
        "network on the user's sandbox": 'codex_tool(default_thread_options=ThreadOptions(network_access_enabled=True))',
        "unreadable options": "codex_tool(load_options())",
    }
    seen = {}
    for label, call in calls.items():
        (tool,) = [e for e in surface_of({"app/agent.py": template.replace("CALL", call)}).values() if e.kind == "tool"]
        seen[label] = (tool.name, *("dynamic" if isinstance(v, Dynamic) else v for v in (tool.open_world, tool.dangerous)))
    assert seen == {
        "read-only": ("codex", False, False),
        "web search live": ("codex", True, False),
        "web search disabled": ("codex", False, False),
        "legacy web search": ("codex", True, False),
        "network on workspace-write": ("codex", True, True),
        "network on read-only": ("codex", False, False),
        "network on the user's sandbox": ("codex", "dynamic", "dynamic"),
        "unreadable options": ("codex", "dynamic", "dynamic"),
    }

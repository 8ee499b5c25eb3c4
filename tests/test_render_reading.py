"""Fixes found by reading real receipts as a reviewer would (awslabs/mcp, the OpenAI Agents SDK
examples): each test asserts what the reader sees in the comment (rendered with cmark-gfm) or on
the terminal."""

from __future__ import annotations

from receipt.models import Dynamic
from receipt.render import render_markdown, render_terminal
from tests import github_render
from tests.render_factories import agent_entry, change, receipt, tool_entry

WJ = "\u2060"


def _text(cell) -> str:
    return cell.text.replace(WJ, "")


def test_an_added_tool_with_many_parameters_names_six_and_counts_the_rest() -> None:
    params = [{"name": f"param_{i}"} for i in range(17)]
    c = change("tool.added", "regression", name="sp_explorer", before=None,
               after={"dangerous": True, "approval": "never", "signature": {"params": params, "returns": None}})
    page = github_render.render(render_markdown(receipt([c])))
    words = _text(page.tables[0][1][1])
    assert words.endswith("takes param_0, param_1, param_2, param_3, param_4, param_5 and 11 more")
    assert "param_6" not in page.blockquotes[0]


def test_prompts_are_not_called_closed_world() -> None:
    prompt = tool_entry("summarise", kind="prompt", dialect="mcp", scope="docs", open_world=False)
    tool = tool_entry("fetch_page", dialect="mcp", scope="docs", open_world=False)
    page = github_render.render(render_markdown(receipt([change()], head_entries=[prompt, tool])))
    surface = {_text(row[0]): _text(row[1]) for row in page.tables[-1][1:]}
    assert surface["prompt summarise · docs"] == "defaults only"
    assert surface["tool fetch_page · docs"] == "closed-world"  # a tool's world is worth saying


def test_a_runtime_source_that_says_when_is_not_followed_by_at_runtime() -> None:
    entry = tool_entry("hosted_mcp", scope="deepwiki", dangerous=Dynamic(dynamic="tools of MCP server deepwiki (listed at run time)"))
    c = change("tool.approval_lowered", "regression", name="hosted_mcp", scope="deepwiki", before="conditional", after="never",
               message="tool 'hosted_mcp' no longer requires approval (was conditional)")
    alert = github_render.render(render_markdown(receipt([c], head_entries=[entry]))).blockquotes[0].replace(WJ, "")
    assert "Why: dangerous depends on tools of MCP server deepwiki (listed at run time) —" in alert
    assert "at runtime" not in alert
    env = tool_entry("refund", dangerous=Dynamic(dynamic="os.environ['DANGEROUS']"))
    c = change("tool.approval_lowered", "regression", name="refund", message="tool 'refund' no longer requires approval (was always)")
    alert = github_render.render(render_markdown(receipt([c], head_entries=[env]))).blockquotes[0].replace(WJ, "")
    assert "Why: dangerous comes from os.environ['DANGEROUS'] at runtime" in alert


def _model_bumps() -> list:
    # (the factory's fingerprint leaves the file out, as real ones do not: `before` tells them apart)
    return [
        change("agent.model_changed", "warning", kind="agent", name=name, path=path, line=line, before=f"gpt-5 ({path})", after="gpt-6",
               message=f"agent '{name}' model changed (gpt-5 -> gpt-6)")
        for name, path, line in (("Planner", "bots/planner.py", 3), ("Writer", "bots/writer.py", 9), ("Assistant", "a/app.py", 4), ("Assistant", "b/app.py", 7))
    ]


def test_agents_with_one_change_each_share_one_table() -> None:
    page = github_render.render(render_markdown(receipt(_model_bumps())))
    assert page.headings == ["Behavior receipt", "Changes", "Agents"]
    rows = [[_text(c) for c in row] for row in page.tables[0][1:]]
    assert [r[0] for r in rows] == ["agent Planner", "agent Writer", "agent Assistant · a/app.py", "agent Assistant · b/app.py"]
    assert all(r[1] == "warning: model changed (gpt-5 → gpt-6)" for r in rows)


def test_an_agent_with_several_changes_keeps_its_own_table() -> None:
    changes = [*_model_bumps()[:2], change("agent.trust_tier_lowered", "warning", kind="agent", name="Planner", path="bots/planner.py", line=3,
                                           before="human_required", after="autonomous")]
    page = github_render.render(render_markdown(receipt(changes)))
    assert page.headings == ["Behavior receipt", "Changes", "Agent Planner", "Agent Writer"]  # one single: no "Agents" group


def test_terminal_gathers_single_change_agents_too() -> None:
    text = render_terminal(receipt(_model_bumps()), colour=False)
    lines = text.splitlines()
    assert "Agents" in lines and not any(line.startswith("Agent Planner") for line in lines)
    assert "  warning: agent Assistant · a/app.py: model changed (gpt-5 → gpt-6)  a/app.py:4" in lines


def test_graph_draws_two_tools_of_one_name_on_two_servers_as_two_nodes() -> None:
    new, old = tool_entry("hosted_mcp", scope="deepwiki"), tool_entry("hosted_mcp", scope="gitmcp")
    agent = agent_entry("Assistant", reaches=[new.key])
    changes = [
        change("agent.reach_added", "warning", kind="agent", name="Assistant", path="src/agents.py", before=None, after=new.key),
        change("agent.reach_removed", "info", kind="agent", name="Assistant", path="src/agents.py", before=old.key, after=None),
    ]
    r = receipt(changes, head_entries=[new, agent])
    r.surfaces["base"].tools = [old]
    graph = next(code for lang, code in github_render.render(render_markdown(r)).code_blocks if lang == "mermaid")
    assert 'n1["tool hosted_mcp #183; deepwiki"]' in graph and 'n2["tool hosted_mcp #183; gitmcp"]' in graph
    assert "n0 -->|added| n1" in graph and "n0 -.->|removed| n2" in graph


def test_a_long_runtime_source_is_told_once_not_again_in_a_why() -> None:
    # open_deep_research: a new LangGraph agent whose model is init_chat_model(model=...) of a long
    # configuration path; the message cuts the source, the renderer must not then add it whole.
    from receipt.diff import diff_surfaces
    from receipt.models import Surface

    source = "langchain.chat_models.init_chat_model(model=src.open_deep_research.configuration.Configuration.supervisor_model)"
    agent = agent_entry("graph", model=Dynamic(dynamic=source))
    changes = diff_surfaces(Surface(rev="base", sha="a" * 40), Surface(rev="head", sha="b" * 40, agents=[agent]))
    dynamic = [c for c in changes if c.id == "attribute.dynamic"]
    assert len(dynamic) == 1
    page = github_render.render(render_markdown(receipt(changes, head_entries=[agent])))
    row = next(_text(r[1]) for t in page.tables for r in t[1:] if "run time" in _text(r[1]))
    assert row.count("init_chat_model") == 1, row


def test_an_added_tool_whose_hints_are_set_at_run_time_is_one_row_with_every_fingerprint() -> None:
    # motherduck: `annotations=ToolAnnotations(readOnlyHint=read_only, destructiveHint=not read_only)`
    # in a server factory. The addition says each runtime source; three more rows repeated it.
    from receipt.diff import diff_surfaces
    from receipt.models import Surface

    tool = tool_entry("execute_query", dialect="mcp", scope="duck", dangerous=Dynamic(dynamic="destructiveHint=not read_only"),
                      read_only=Dynamic(dynamic="read_only"), idempotent=Dynamic(dynamic="read_only"))
    changes = diff_surfaces(Surface(rev="base", sha="a" * 40), Surface(rev="head", sha="b" * 40, tools=[tool]))
    assert sorted(c.id for c in changes) == ["attribute.dynamic"] * 3 + ["tool.added"]
    text = render_markdown(receipt(changes, head_entries=[tool]))
    page = github_render.render(text)
    rows = [_text(r[1]) for t in page.tables for r in t[1:] if "execute_query" in _text(r[0])]
    assert len(rows) == 1, rows
    assert rows[0].count("destructiveHint=not read_only") == 1, rows[0]  # not again in a "comes from ... at runtime"
    assert "read-only decided at runtime (read_only)" in rows[0] and "idempotent decided at runtime (read_only)" in rows[0]
    listed = text[text.index("<summary>Fingerprints"):]
    for c in changes:
        assert f"`{c.fingerprint}`" in listed, c.id
    term = render_terminal(receipt(changes, head_entries=[tool]), colour=False)
    assert term.count("execute_query") == 1, term


def test_a_change_told_by_an_addition_merged_into_a_look_alike_keeps_its_fingerprint() -> None:
    # Two additions of one tool that read alike (their parameters' types differ, not their names)
    # are one row; the runtime source of the later one is told by that row, and stays acceptable.
    sig = lambda t: {"params": [{"name": "sql", "type": t}], "returns": None}  # noqa: E731
    added = [change("tool.added", "warning", name="execute_query", scope="duck", before=None, line=line,
                    after={"dangerous": {"dynamic": "read_only"}, "approval": "never", "signature": sig(t)}) for line, t in ((3, "str"), (9, "bytes"))]
    dynamic = change("attribute.dynamic", "warning", name="execute_query", scope="duck", before=None, after={"dangerous": {"dynamic": "read_only"}},
                     message="tool 'execute_query' dangerous flag is set at run time by read_only")
    text = render_markdown(receipt([*added, dynamic]))
    rows = [_text(r[1]) for t in github_render.render(text).tables for r in t[1:] if "execute_query" in _text(r[0])]
    assert len(rows) == 1, rows
    assert f"`{dynamic.fingerprint}`" in text[text.index("<summary>Fingerprints"):]

"""Identity across revisions: an entry is where it lives plus the name clients see, never a line
number and never a name alone. Each attack is a real two-commit repository run through the CLI."""

from __future__ import annotations

import re

import pytest

from tests.helpers import GitRepoBuilder, run_cli, receipt_of, seen

AGENT_PY = """
from agents import Agent, function_tool

@function_tool(needs_approval=True)
def delete_repo(name: str) -> str:
    '''Delete a repository.'''
    return name

bot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])
"""

DECOY_PY = """
from agents import function_tool

@function_tool(needs_approval=True)
def delete_repo(name: str) -> str:
    '''Delete a repository.'''
    return name
"""




def test_decoy_with_the_same_name_cannot_hide_an_approval_removal(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": AGENT_PY.replace("needs_approval=True", ""), "app/decoy.py": DECOY_PY})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("tool.approval_lowered", "delete_repo", "regression")]
    assert receipt["changes"][0]["subject"]["path"] == "app/agent.py"


def test_decoy_that_is_also_exported_still_cannot_re_pair(git_repo: GitRepoBuilder) -> None:
    # The decoy is reachable too (another agent uses it): two exported `delete_repo`, each keeps its own identity.
    decoy = DECOY_PY.replace("from agents import function_tool", "from agents import Agent, function_tool") + (
        '\nhelper = Agent(name="helper", tools=[delete_repo])\n'
    )
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": AGENT_PY.replace("needs_approval=True", ""), "app/decoy.py": decoy})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    got = seen(receipt)
    assert ("tool.approval_lowered", "delete_repo", "regression") in got
    assert not any(i == "tool.removed" for i, _, _ in got)


def test_a_new_agent_of_the_same_name_elsewhere_leaves_the_old_one_unchanged(git_repo: GitRepoBuilder) -> None:
    a = 'from agents import Agent\n\nbot = Agent(name="bot", instructions="Answer questions.")\n'
    b = 'from agents import Agent\n\nother = Agent(name="bot", instructions="Something else.", model="gpt-5")\n'
    git_repo.commit({"a.py": a})
    git_repo.commit({"b.py": b})
    code, receipt = receipt_of(git_repo)
    assert code == 0
    assert seen(receipt) == [("agent.added", "bot", "info")]
    assert receipt["changes"][0]["subject"]["path"] == "b.py"


def test_a_line_shift_above_two_same_named_entries_is_no_change(git_repo: GitRepoBuilder) -> None:
    two = (
        "from agents import Agent\n\n"
        'first = Agent(name="bot", instructions="One.")\n'
        'second = Agent(name="bot", instructions="Two.", model="gpt-5")\n'
    )
    git_repo.commit({"a.py": two})
    git_repo.commit({"a.py": "# a comment that shifts every line\n" + two})
    code, receipt = receipt_of(git_repo)
    assert code == 0
    assert seen(receipt) == []


def test_a_moved_tool_pairs_with_its_old_self_and_keeps_its_changes(git_repo: GitRepoBuilder) -> None:
    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2]
    agent = 'from agents import Agent\nfrom app.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": agent, "app/tools.py": tools.replace("needs_approval=True", "")})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("tool.approval_lowered", "delete_repo", "regression")]


def test_a_pure_file_move_is_no_change(git_repo: GitRepoBuilder) -> None:
    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2]
    agent = 'from agents import Agent\nfrom app.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": agent, "app/tools.py": tools})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])


def test_a_move_next_to_an_exported_decoy_is_read_as_its_most_severe_pairing(git_repo: GitRepoBuilder) -> None:
    # The real tool moves out of agent.py without its approval; a decoy with approval appears too,
    # reachable from a new agent. Two head candidates for one base entry: which is the moved one is
    # not known, so the reading that shows the lowered approval is taken, and the change says so.
    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2].replace("needs_approval=True", "")
    agent = 'from agents import Agent\nfrom app.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    decoy = DECOY_PY.replace("from agents import function_tool", "from agents import Agent, function_tool") + (
        '\nhelper = Agent(name="helper", tools=[delete_repo])\n'
    )
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": agent, "app/tools.py": tools, "app/decoy.py": decoy})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert seen(receipt) == [("agent.added", "helper", "info"), ("tool.added", "delete_repo", "info"),
                             ("tool.approval_lowered", "delete_repo", "regression")]
    lowered = next(c for c in receipt["changes"] if c["id"] == "tool.approval_lowered")
    assert lowered["subject"]["path"] == "app/tools.py"
    assert "ambiguous pairing" in lowered["message"] and "app/decoy.py" in lowered["message"]
    # The note is its own key too, so a JSON reader need not look for it in the message.
    assert lowered["note"].startswith("ambiguous pairing: ") and lowered["message"].endswith(f" ({lowered['note']})")
    # Each side's candidates are named on their own side.
    assert re.search(r"at app/agent\.py:\d+ \(base\) and app/decoy\.py:\d+, app/tools\.py:\d+ \(head\)", lowered["message"])
    added = next(c for c in receipt["changes"] if c["id"] == "tool.added")
    assert added["subject"]["path"] == "app/decoy.py"


def test_two_removed_look_alikes_and_one_left_without_approval_show_the_lowering(git_repo: GitRepoBuilder) -> None:
    # The other way round: two same-named tools with approval at base, one at head without it.
    other = DECOY_PY.replace("from agents import function_tool", "from agents import Agent, function_tool") + (
        '\nhelper = Agent(name="helper", tools=[delete_repo])\n'
    )
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY, "app/other.py": other})
    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2].replace("needs_approval=True", "")
    agent = 'from agents import Agent\nfrom app.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    git_repo.commit({"app/agent.py": agent, "app/tools.py": tools, "app/other.py": other.replace("delete_repo", "drop_repo")})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    got = seen(receipt)
    assert ("tool.approval_lowered", "delete_repo", "regression") in got
    assert ("tool.removed", "delete_repo", "warning") in got


def test_an_ambiguity_that_hides_nothing_stays_removed_and_added(git_repo: GitRepoBuilder) -> None:
    # One example removed, two unrelated same-named ones added: no reading as a move reveals a
    # regression, so none is guessed (no invented changes between unrelated agents).
    bot = 'from agents import Agent\n\nbot = Agent(name="bot", instructions="{}", model="gpt-5")\n'
    git_repo.commit({"one/run.py": bot.format("Answer billing questions.")})
    git_repo.commit({"one/run.py": None, "two/run.py": bot.format("Plan trips."), "three/run.py": bot.format("Write poems.")})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [("agent.added", "bot", "info"), ("agent.added", "bot", "info"), ("agent.removed", "bot", "warning")])
    assert not any("ambiguous" in c["message"] for c in receipt["changes"])


def test_a_shared_file_name_does_not_pick_one_look_alike_among_several(git_repo: GitRepoBuilder) -> None:
    # A renamed folder keeps only its files' names, and `run.py` is everywhere: one example removed,
    # one added under the same file name and another beside it is not read as one edited example.
    bot = 'from agents import Agent\n\nbot = Agent(name="bot", instructions="{}", model="gpt-5")\n'
    git_repo.commit({"one/run.py": bot.format("Answer billing questions.")})
    git_repo.commit({"one/run.py": None, "two/run.py": bot.format("Plan trips."), "three/serve.py": bot.format("Write poems.")})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [("agent.added", "bot", "info"), ("agent.added", "bot", "info"), ("agent.removed", "bot", "warning")])
    # Every one of them pairing by file name, one to one, is a renamed folder: no change.
    git_repo.commit({"two/run.py": None, "three/serve.py": None,
                     "demo/run.py": bot.format("Plan trips."), "demo/serve.py": bot.format("Write poems.")})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])


def test_a_decoy_where_the_moved_folder_would_be_cannot_take_the_entry_s_place(git_repo: GitRepoBuilder) -> None:
    # pkg/ is "moved" to new/pkg/ but the file there holds an approval-keeping look-alike; the real
    # tool went elsewhere without approval. The folder-move reading hides nothing only if it is right.
    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2]
    agent = 'from agents import Agent\nfrom pkg.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    git_repo.commit({"pkg/__init__.py": "", "pkg/tools.py": tools, "app/__init__.py": "", "app/agent.py": agent})
    decoy = tools.replace("from agents import function_tool", "from agents import Agent, function_tool") + '\nhelper = Agent(name="helper", tools=[delete_repo])\n'
    git_repo.commit({
        "pkg/__init__.py": None, "pkg/tools.py": None,
        "new/__init__.py": "", "new/pkg/__init__.py": "", "new/pkg/tools.py": decoy,
        "app/admin.py": tools.replace("needs_approval=True", ""),
        "app/agent.py": agent.replace("pkg.tools", "app.admin"),
    })
    code, receipt = receipt_of(git_repo)
    assert code == 1
    assert ("tool.approval_lowered", "delete_repo", "regression") in seen(receipt)


MCP_TWO = """
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ops")

@mcp.tool(name="wipe")
def wipe_v1(path: str) -> str:
    return path
"""


def test_two_tools_of_one_name_on_one_server_are_reported(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": MCP_TWO})
    git_repo.commit({"server.py": MCP_TWO + '\n@mcp.tool(name="wipe")\ndef wipe_v2(path: str, force: bool) -> str:\n    return path\n'})
    code, receipt = receipt_of(git_repo)
    got = seen(receipt)
    assert ("tool.name_collision", "wipe", "regression") in got
    assert code == 1


def test_same_named_mcp_tool_on_a_decoy_server_cannot_re_pair(git_repo: GitRepoBuilder) -> None:
    server = MCP_TWO.replace('@mcp.tool(name="wipe")', '@mcp.tool(name="wipe", annotations={"destructiveHint": False, "readOnlyHint": True})')
    decoy = server.replace("mcp = FastMCP", "other = FastMCP").replace("@mcp.tool", "@other.tool")
    git_repo.commit({"server.py": server})
    git_repo.commit({"server.py": MCP_TWO, "decoy.py": decoy})
    code, receipt = receipt_of(git_repo)
    got = seen(receipt)
    assert code == 1
    assert ("tool.read_only_lost", "wipe", "warning") in got
    assert ("tool.dangerous_gained", "wipe", "regression") in got
    assert not any(i == "tool.removed" for i, _, _ in got)


@pytest.mark.parametrize("seed", ["0", "1", "4242"])
def test_identity_output_is_byte_identical_under_any_hash_seed(git_repo: GitRepoBuilder, seed: str) -> None:
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": AGENT_PY.replace("needs_approval=True", ""), "app/decoy.py": DECOY_PY})
    outs = {run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), env={"PYTHONHASHSEED": s}).stdout for s in (seed, "7")}
    assert len(outs) == 1


def test_renaming_the_function_behind_a_dynamic_tool_name_is_no_change(git_repo: GitRepoBuilder) -> None:
    server = (
        "import os\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('ops')\n\n"
        "@mcp.tool(name=os.environ['WIPE_TOOL_NAME'], annotations={'readOnlyHint': True})\n"
        "def wipe_v1(path: str) -> str:\n    return path\n"
    )
    git_repo.commit({"server.py": server})
    git_repo.commit({"server.py": server.replace("wipe_v1", "wipe_everything")})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])
    # The same rename that also drops the read-only hint is still seen, on the one tool.
    git_repo.commit({"server.py": server.replace("wipe_v1", "wipe_all").replace("'readOnlyHint': True", "'readOnlyHint': False")})
    code, receipt = receipt_of(git_repo)
    assert ("tool.read_only_lost", "wipe_all", "warning") in seen(receipt)
    assert not any(i in ("tool.added", "tool.removed") for i, _, _ in seen(receipt))


SANDBOXES = """
from smolagents import CodeAgent, InferenceClientModel, VisitWebpageTool, WebSearchTool

model = InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct")

with CodeAgent(tools=[WebSearchTool()], model=model, executor_type="docker") as agent:
    agent.run("q")

with CodeAgent(tools=[], model=model, executor_type="wasm") as agent:
    agent.run("q")
"""
MODAL = """
with CodeAgent(tools=[WebSearchTool(), VisitWebpageTool()], model=model, executor_type="modal") as agent:
    agent.run("q")
"""


def test_an_agent_inserted_among_agents_told_apart_by_order_is_one_addition(git_repo: GitRepoBuilder) -> None:
    # Three agents bound to one variable are told apart by rank only: inserting one before the last
    # must not make the last one read as the new one (it gained no tool).
    git_repo.commit({"run.py": SANDBOXES})
    git_repo.commit({"run.py": SANDBOXES.replace('\nwith CodeAgent(tools=[], ', MODAL + '\nwith CodeAgent(tools=[], ')})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [("agent.added", "agent", "info"), ("tool.added", "visit_webpage", "info")])
    assert [c["subject"]["line"] for c in receipt["changes"] if c["id"] == "agent.added"] == [9]  # the modal agent


def test_an_insertion_does_not_hide_an_edit_of_the_agent_after_it(git_repo: GitRepoBuilder) -> None:
    # The same insertion, and the agent after it may now import subprocess: the edit stays on that agent.
    git_repo.commit({"run.py": SANDBOXES})
    edited = SANDBOXES.replace('\nwith CodeAgent(tools=[], model=model, executor_type="wasm")',
                               MODAL + '\nwith CodeAgent(tools=[], model=model, executor_type="wasm", additional_authorized_imports=["subprocess"])')
    git_repo.commit({"run.py": edited})
    code, receipt = receipt_of(git_repo)
    assert code == 1
    got = [(c["id"], c["subject"]["line"]) for c in receipt["changes"]]
    assert sorted(got) == [("agent.added", 9), ("agent.dangerous_gained", 12), ("tool.added", 9)]


def test_an_agent_removed_from_among_agents_told_apart_by_order_is_one_removal(git_repo: GitRepoBuilder) -> None:
    three = SANDBOXES.replace('\nwith CodeAgent(tools=[], ', MODAL + '\nwith CodeAgent(tools=[], ')
    git_repo.commit({"run.py": three})
    git_repo.commit({"run.py": three.replace('with CodeAgent(tools=[WebSearchTool()], model=model, executor_type="docker") as agent:\n    agent.run("q")\n', "")})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("agent.removed", "agent", "warning")]
    assert receipt["changes"][0]["subject"]["line"] == 6


NIM_MAIN = """
import os

from crewai import LLM, Agent, Crew, Task


def nim_llm(name: str) -> LLM:
    return LLM(model="nvidia_nim/" + name)


researcher = Agent(role="Senior Researcher", goal="Summarise papers", backstory="Reads arXiv.", llm=nim_llm(os.environ["MODEL"]))
crew = Crew(agents=[researcher], tasks=[Task(description="Summarise", expected_output="Text", agent=researcher)])
"""


def test_a_moved_folder_s_run_time_model_is_compared_as_spelt_after_the_move(git_repo: GitRepoBuilder) -> None:
    # The folder's import names change with the move (no project file), and with them the spelling
    # of the run-time model: the same value. The same move that also reads another variable is seen.
    git_repo.commit({"demo/intro/main.py": NIM_MAIN})
    git_repo.commit({"demo/intro/main.py": None, "integrations/demo/intro/main.py": NIM_MAIN})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])
    git_repo.commit({"integrations/demo/intro/main.py": None, "examples/demo/intro/main.py": NIM_MAIN.replace('"MODEL"', '"LLM_MODEL"')})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("attribute.dynamic", "Senior Researcher", "warning")]


def test_every_row_of_an_ambiguous_pairing_says_so_added_ones_too(git_repo: GitRepoBuilder) -> None:
    # The decoy read as the added one carries the same note as the lowered approval: a reviewer
    # reading only the "added" row must learn that it might be the moved tool.
    from receipt.models import Receipt
    from receipt.render import render_terminal
    from tests import github_render

    tools = "from agents import function_tool\n" + DECOY_PY.split("\n", 2)[2].replace("needs_approval=True", "")
    agent = 'from agents import Agent\nfrom app.tools import delete_repo\n\nbot = Agent(name="bot", instructions="Manage repositories.", tools=[delete_repo])\n'
    decoy = DECOY_PY.replace("from agents import function_tool", "from agents import Agent, function_tool") + (
        '\nhelper = Agent(name="helper", tools=[delete_repo])\n'
    )
    git_repo.commit({"app/__init__.py": "", "app/agent.py": AGENT_PY})
    git_repo.commit({"app/agent.py": agent, "app/tools.py": tools, "app/decoy.py": decoy})
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    page = github_render.render(out.stdout)
    cells = [" ".join(c.text for c in row) for table in page.tables for row in table[1:]]
    rows = [r for r in cells if "delete_repo" in r]
    assert any("added" in r for r in rows) and any("no longer requires approval" in r for r in rows)
    assert all("ambiguous pairing" in r and "app/decoy.py" in r for r in rows), rows
    assert not [r for r in cells if "helper" in r and "ambiguous" in r]  # the new agent is not in the group

    _, data = receipt_of(git_repo)
    lines = render_terminal(Receipt.model_validate(data), colour=False).splitlines()
    rows = [line for line in lines if line.startswith(("  info: tool delete_repo", "  regression: tool delete_repo"))]
    assert len(rows) == 2 and all("ambiguous pairing: tools named 'delete_repo'" in r for r in rows), rows


def test_a_model_id_that_reads_like_an_ambiguity_note_is_said_as_the_model_not_as_a_note(git_repo: GitRepoBuilder) -> None:
    # The analysed code chooses its model string: one spelt like the diff's ambiguous-pairing note
    # must stay part of the change's words (the whole value, the arrow between the two models), and
    # no row may carry a note the tool never wrote.
    from receipt.models import Receipt
    from receipt.render import render_terminal
    from tests import github_render

    forged = "gpt-4o (ambiguous pairing: tools named 'x' could be the same ones; read as the most severe pairing)"
    agent = 'from agents import Agent\n\nbot = Agent(name="bot", instructions="Answer questions.", model="{}")\n'
    git_repo.commit({"app/__init__.py": "", "app/agent.py": agent.format(forged)})
    git_repo.commit({"app/agent.py": agent.format("gpt-4.1")})
    _, data = receipt_of(git_repo)
    assert seen(data) == [("agent.model_changed", "bot", "warning")]
    assert "note" not in data["changes"][0]  # the JSON says no note either

    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    cells = [" ".join(c.text for c in row) for table in github_render.render(out.stdout).tables for row in table[1:]]
    (row,) = [r for r in cells if "model changed" in r]
    assert f"model changed ({forged} → gpt-4.1)" in row, row

    lines = render_terminal(Receipt.model_validate(data), colour=False).splitlines()
    (line,) = [line for line in lines if line.startswith("  warning: agent bot")]
    assert f"model changed ({forged} → gpt-4.1)" in line, line


HELPDESK_PY = """
from langchain.agents import create_agent
from langchain_core.tools import tool
from langchain_tavily import TavilySearch

search = TavilySearch(max_results=2)


@tool
def lookup_order(order_id: str) -> str:
    '''Look up an order.'''
    return order_id


agent = create_agent("openai:gpt-4.1", tools=[lookup_order, search])
"""


def test_a_receipt_pairs_its_two_surfaces_once(git_repo: GitRepoBuilder, monkeypatch: pytest.MonkeyPatch) -> None:
    # A moved folder whose file carries a standing note: the diff needs the pairing (the moved
    # entries) and so do the unresolved notes (the moved note is the same note). One pairing serves
    # both: pairing costs time on every run, and two computations could disagree.
    import receipt.diff
    import receipt.identity
    import receipt.pipeline
    from receipt.pipeline import build_receipt

    git_repo.commit({"demo/helpdesk/main.py": HELPDESK_PY})
    git_repo.commit({"demo/helpdesk/main.py": None, "integrations/demo/helpdesk/main.py": HELPDESK_PY})
    calls = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return receipt.identity.pair_with_doubts(*args, **kwargs)

    for module in (receipt.diff, receipt.pipeline):
        monkeypatch.setattr(module, "pair_with_doubts", counted, raising=False)
    result = build_receipt(git_repo.path, "HEAD~1", "HEAD")
    assert [c.id for c in result.changes] == []  # the moved agent, tool and note are the same ones
    assert [i.reason for i in result.skipped if i.kind == "unresolved"]  # the note is there, and standing
    assert len(calls) == 1


UNNAMED_SERVERS = (
    "import os\nfrom mcp.server.fastmcp import FastMCP\n\n"
    "app = FastMCP(os.environ['OPS_SERVER'])\nspare = FastMCP()\n\n"
    "@app.tool(annotations={'readOnlyHint': True})\ndef wipe(path: str) -> str:\n    return path\n"
)


def test_renaming_the_variable_of_a_server_clients_do_not_see_by_that_name_is_no_change(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"server.py": UNNAMED_SERVERS})
    git_repo.commit({"server.py": UNNAMED_SERVERS.replace("app", "primary")})
    assert receipt_of(git_repo)[1]["changes"] == []
    # The same rename that also drops the read-only hint is seen on the one tool.
    git_repo.commit({"server.py": UNNAMED_SERVERS.replace("app", "ops_server").replace("'readOnlyHint': True", "'readOnlyHint': False")})
    got = seen(receipt_of(git_repo)[1])
    assert ("tool.read_only_lost", "wipe", "warning") in got
    assert not any(i in ("tool.added", "tool.removed") for i, _, _ in got)


def test_a_tool_moved_to_another_server_or_a_server_renamed_for_clients_is_not_paired_away(git_repo: GitRepoBuilder) -> None:
    # Moved between two servers that both stay: clients of each see it come and go.
    git_repo.commit({"server.py": UNNAMED_SERVERS})
    git_repo.commit({"server.py": UNNAMED_SERVERS.replace("@app.tool", "@spare.tool")})
    got = seen(receipt_of(git_repo)[1])
    assert ("tool.removed", "wipe", "warning") in got and ("tool.added", "wipe", "info") in got
    # A server name clients see, renamed with its variable.
    named = UNNAMED_SERVERS.replace("os.environ['OPS_SERVER']", "'ops'")
    git_repo.commit({"server.py": named})
    git_repo.commit({"server.py": named.replace("app", "infra").replace("'ops'", "'infra'")})
    got = seen(receipt_of(git_repo)[1])
    assert ("tool.removed", "wipe", "warning") in got and ("tool.added", "wipe", "info") in got

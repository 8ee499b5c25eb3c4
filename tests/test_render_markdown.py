"""The markdown receipt as a reviewer sees it: parsed back with a GFM parser, never string-matched only."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from receipt.models import Accepted, Dynamic
from receipt.render import load_template_text, render_markdown
from tests import github_render
from tests.render_factories import (
    BASE_SHA as BASE,
    EVIL,
    HEAD_SHA as HEAD,
    agent_entry,
    change,
    evil_receipt,
    gfm,
    issue,
    mixed_receipt,
    receipt,
    tool_entry,
    walk,
)

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- behavior-receipt:comment key=default head=2222222 base=1111111 -->"
WJ = "\u2060"


def inline_text(tok) -> str:
    return "".join(c.content for c in walk(tok.children or []) if c.type in ("text", "code_inline")).replace(WJ, "")


def headings(tokens) -> list[str]:
    return [inline_text(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"]


def tables(tokens) -> list[list[list[str]]]:
    """Each table as rows of cell texts (header row first)."""
    out: list[list[list[str]]] = []
    row: list[str] = []
    for i, t in enumerate(tokens):
        if t.type == "table_open":
            out.append([])
        elif t.type == "tr_open":
            row = []
        elif t.type in ("th_open", "td_open"):
            row.append(inline_text(tokens[i + 1]) if tokens[i + 1].type == "inline" else "")
        elif t.type == "tr_close":
            out[-1].append(row)
    return out


def strong_texts(tokens) -> list[str]:
    texts: list[str] = []
    for t in tokens:
        if t.type != "inline":
            continue
        depth, buf = 0, []
        for c in t.children or []:
            if c.type == "strong_open":
                depth += 1
                buf = []
            elif c.type == "strong_close":
                depth -= 1
                texts.append("".join(buf).replace(WJ, ""))
            elif depth and c.type == "text":
                buf.append(c.content)
    return texts


def assert_well_formed(text: str) -> None:
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert "\r" not in text
    assert all(line == line.rstrip(" \t") for line in text.split("\n"))


# -- layout (as GitHub renders it) -----------------------------------------------------------------


def test_layout_alert_first_then_grouped_tables_then_folded_details_then_footer() -> None:
    text = render_markdown(mixed_receipt(), header_comment=MARKER, footer_note="This receipt is not signed.")
    assert_well_formed(text)
    lines = text.split("\n")
    assert lines[0] == MARKER
    assert lines[1] == "## Behavior receipt"
    assert lines[3:5] == ["> [!CAUTION]", "> **FAIL** — 2 regressions, 2 warnings, 2 info, 1 accepted"]
    page = github_render.render(text)
    assert github_render.alert(page) == "CAUTION"
    # One sentence per open regression, in the alert.
    alert_text = page.blockquotes[0]
    assert "Tool run_shell dangerous gained" in alert_text.replace(WJ, "")
    assert "Tool delete_user approval lowered" in alert_text.replace(WJ, "")
    assert page.headings[:2] == ["Behavior receipt", "Changes"]
    # Grouped by agent / server / module; at most three columns; words, not dict literals.
    for table in page.tables:
        assert all(len(row) <= 3 for row in table)
        assert all(github_render.row_fits(row) for row in table)
        for row in table:
            assert not any(c.text.startswith("{") or "{" in c.text for c in row), row
    assert "Module src/tools.py" in page.headings
    assert "Agent triage" in page.headings  # one agent of that name: no path needed
    assert "Registered on files" in page.headings
    # Info, the unchanged surface and the fingerprints are folded.
    assert page.summaries == ["Info (3)", "Unchanged exported surface at head (4)", "Fingerprints (to accept a change in config)"]
    # The comparison line and the hashes are in the footer, after a rule, not under the verdict.
    rule = lines.index("---")
    assert any(line.startswith("Compared ") for line in lines[rule:])
    assert not any(line.startswith("Compared ") for line in lines[:rule])
    assert "surface sha256" in lines[-4]
    assert lines[-2:] == ["This receipt is not signed.", ""]


def test_signature_change_said_in_words() -> None:
    r = receipt([change("tool.signature_changed", "warning", name="search", message="tool 'search' signature changed: param 'limit' added (optional)", before={"params": [{"name": "q"}]}, after={"params": [{"name": "q"}, {"name": "limit"}]})])
    page = github_render.render(render_markdown(r))
    row = page.tables[0][1]
    assert [c.text.replace(WJ, "") for c in row] == ["tool search", "warning: signature changed: param 'limit' added (optional)", "tools.py:12"]


def test_added_tool_said_in_words_and_regression_says_why() -> None:
    entry = tool_entry("refund_order", dialect="mcp", scope="shop", dangerous=True, defaults={"dangerous": "mcp:no-annotations"})
    c = change(
        "tool.added",
        "regression",
        name="refund_order",
        scope="shop",
        before=None,
        after={"dangerous": True, "approval": "never", "read_only": False, "signature": {"params": [{"name": "order_id"}], "returns": None}},
        message="tool 'refund_order' added to the exported surface (dangerous, no approval required)",
    )
    text = render_markdown(receipt([c], head_entries=[entry]), repository="acme/shop")
    page = github_render.render(text)
    sentence = page.blockquotes[0].replace(WJ, "")
    assert "Tool refund_order added: dangerous, no approval required, takes order_id" in sentence
    assert "Why: dangerous is the MCP protocol default: the tool declares no annotations" in sentence
    assert "mcp:" not in sentence  # the reason in words, not its internal code
    assert "MCP server shop" in page.headings


def test_locations_link_to_the_head_commit_when_the_repository_is_known() -> None:
    r = receipt([change(path="src/a b/tools.py", line=12)])
    page = github_render.render(render_markdown(r, repository="acme/shop"))
    href = f"https://github.com/acme/shop/blob/{HEAD}/src/a%20b/tools.py#L12"
    assert ("src/a b/tools.py:12", href) in page.links  # the sentence in the alert
    assert page.tables[0][1][2].links == [("tools.py:12", href)]  # under the heading "Module src/a b/tools.py"
    # GitHub Enterprise Server: the server given
    page = github_render.render(render_markdown(r, repository="acme/shop", server_url="https://ghe.example.com/"))
    assert page.links[0][1].startswith("https://ghe.example.com/acme/shop/blob/")
    # Unknown or implausible repository: plain path:line, no link.
    for repo in (None, "not a repo", "a/b/c", "x/y)](javascript:alert(1)"):
        page = github_render.render(render_markdown(r, repository=repo))
        assert page.links == [] and page.tables[0][1][2].text == "tools.py:12" and "src/a b/tools.py:12" in page.blockquotes[0]


def test_long_paths_are_shown_by_their_tail_and_rows_fit_the_comment() -> None:
    path = "examples/very_long_folder_name_number_one/another_long_folder/yet_another_folder/the_module_with_tools.py"
    r = receipt([change(path=path, line=7, name="x" * 200, message="tool 'y' " + "word " * 100)])
    page = github_render.render(render_markdown(r, repository="acme/shop"))
    # Under the module's heading (which shows the path), the cell shows the file; the link keeps the path.
    assert "Module " + path in page.headings
    cell = page.tables[0][1][2]
    assert cell.text == "the_module_with_tools.py:7"
    assert cell.links[0][1].endswith(path + "#L7")
    # Elsewhere (an agent's group), a long path is shown by its tail.
    r = receipt([change("agent.model_changed", "warning", kind="agent", name="a", path=path, line=7)])
    cell = github_render.render(render_markdown(r, repository="acme/shop")).tables[0][1][2]
    assert cell.text.startswith("…/") and cell.text.endswith("the_module_with_tools.py:7")
    assert all(github_render.row_fits(row) for table in page.tables for row in table)


def test_same_name_rows_are_told_apart() -> None:
    changes = [change("tool.removed", "warning", name="get_weather", path=f"examples/{d}/main.py", before={"dangerous": False}, after=None) for d in ("basic", "handoffs", "mcp")]
    page = github_render.render(render_markdown(receipt(changes)))
    what = [row[0].text for table in page.tables for row in table[1:]]
    assert len(set(what)) == 3, what


def test_clone_duplicates_are_one_row() -> None:
    # An agent and its .clone() at two lines of one file: the same change twice is one row.
    changes = [change("agent.removed", "warning", kind="agent", name="test", line=line, before={"model": "gpt-4o"}, after=None, message="agent 'test' removed") for line in (10, 30)]
    changes = [c.model_copy(update={"fingerprint": f"{i:012x}"}) for i, c in enumerate(changes)]
    page = github_render.render(render_markdown(receipt(changes)))
    rows = [row for table in page.tables for row in table[1:]]
    assert len(rows) == 1
    assert rows[0][2].text.replace(WJ, "") == "src/tools.py:10 and 1 more"


def test_reach_changes_fold_under_the_addition_that_causes_them_and_are_drawn() -> None:
    tool = tool_entry("wipe_disk", dangerous=True)
    agent = agent_entry("ops", reaches=[tool.key])
    changes = [
        change("tool.added", "regression", name="wipe_disk", before=None, after={"dangerous": True, "approval": "never"}),
        change("agent.reach_added", "regression", kind="agent", name="ops", before=None, after=tool.key, message=f"agent 'ops' can now reach {tool.key}"),
        change("agent.reach_removed", "info", kind="agent", name="ops", before="tool:gone", after=None, message="agent 'ops' can no longer reach 'tool:gone'"),
    ]
    text = render_markdown(receipt(changes, head_entries=[tool, agent]))
    page = github_render.render(text)
    rows = [row for table in page.tables for row in table[1:] if row[0].text.startswith("tool wipe")]
    assert len(rows) == 1 and "reachable from agent ops" in rows[0][1].text
    # No internal key leaks into what the reader sees.
    assert "tool:gone" not in text and "tool:wipe" not in text.replace("\\", "")
    graph = [code for lang, code in page.code_blocks if lang == "mermaid"]
    assert len(graph) == 1
    assert '-->|added, dangerous|' in graph[0] and "-.->|removed|" in graph[0]
    assert "class n1 dangerous" in graph[0]


def test_mermaid_labels_cannot_break_out() -> None:
    evil = 'x"]\n  click n0 "javascript:alert(1)"\n```\n<img src=x onerror=alert(1)>'
    tool = tool_entry(evil, dangerous=True)
    changes = [change("agent.reach_added", "info", kind="agent", name=evil, before=None, after=tool.key, message="m")]
    text = render_markdown(receipt(changes, head_entries=[tool]))
    page = github_render.render(text)
    graph = [code for lang, code in page.code_blocks if lang == "mermaid"][0]
    assert "click" not in graph.replace("#", "") or '"javascript' not in graph
    assert "<" not in graph and '"]' not in graph.split("\n")[1][:-2] and "`" not in graph
    assert all(line.startswith(("graph", "  ")) for line in graph.strip().split("\n"))
    assert "img" not in page.tags


def test_touched_unreadable_files_are_listed_the_rest_counted() -> None:
    standing = issue("src/old_broken.py", touched=False)
    fresh = issue("src/new_broken.py", touched=True)
    r = receipt([], errors=[standing, fresh], head_entries=[])
    text = render_markdown(r)
    assert "new\\_broken" in text and "old\\_broken" not in text
    assert "1 other file with unreadable code or unresolved registrations that this PR did not change" in text
    assert github_render.alert(github_render.render(text)) == "WARNING"


def test_binding_is_shown_in_the_body() -> None:
    from receipt.models import Binding

    r = receipt([change()]).model_copy(update={"binding": Binding(repository="acme/shop", pr=12, base_sha=BASE, head_sha=HEAD)})
    page = github_render.render(render_markdown(r))
    assert ("acme/shop pull request 12", "https://github.com/acme/shop/pull/12") in page.links
    assert ("2222222", f"https://github.com/acme/shop/commit/{HEAD}") in page.links
    assert page.links[0][1].startswith(f"https://github.com/acme/shop/blob/{HEAD}/")


@pytest.mark.parametrize("severity,ok,expected", [("regression", False, "CAUTION"), ("warning", True, "WARNING"), ("info", True, "NOTE")])
def test_alert_kind_follows_the_verdict(severity: str, ok: bool, expected: str) -> None:
    page = github_render.render(render_markdown(receipt([change(severity=severity)], ok=ok)))
    assert github_render.alert(page) == expected


def test_pluralisation() -> None:
    r = receipt([change(severity="warning"), change("tool.x", "regression", name="b")])
    assert "**FAIL** — 1 regression, 1 warning, 0 info" in render_markdown(r)


def test_unchanged_surface_lists_only_exported_unchanged_entries() -> None:
    text = render_markdown(mixed_receipt())
    page = github_render.render(text)
    surface = page.tables[-1]
    assert [c.text for c in surface[0]] == ["What", "Attributes", "Where"]
    rows = {r[0].text: r[1].text for r in surface[1:]}
    assert rows == {
        "agent planner": "replayable, model gpt-5, reaches 1",
        "tool read_doc": "read-only, idempotent",  # closed-world: the default outside MCP
        "tool send_mail": "dangerous, approval always required",
        "tool fetch · web": "dangerous decided at runtime (settings.DANGEROUS), no approval required",
    }


def test_no_changes() -> None:
    text = render_markdown(receipt([]))
    page = github_render.render(text)
    assert github_render.alert(page) == "NOTE"
    assert "**PASS** — no changes to the exported agent surface" in text
    assert page.headings == ["Behavior receipt"]


def test_no_wall_clock_or_absolute_paths() -> None:
    text = render_markdown(mixed_receipt())
    assert str(ROOT) not in text and "/tmp" not in text and "/home" not in text
    assert not re.search(r"\b20\d\d-\d\d-\d\d[T ]\d\d:\d\d", text)


# -- injection ------------------------------------------------------------------------------------


def test_analysed_strings_cannot_inject_markup() -> None:
    text = render_markdown(evil_receipt(), header_comment=MARKER)
    tokens = gfm().parse(text)
    all_tokens = list(walk(tokens))
    assert [t for t in all_tokens if t.type == "html_inline"] == []
    html_blocks = [t.content for t in all_tokens if t.type == "html_block"]
    allowed = re.compile(r"^(<!-- behavior-receipt:comment [^<>]* -->|<details><summary>[A-Za-z0-9 ,()]*</summary>|</details>)\n$")
    assert html_blocks and all(allowed.match(b) for b in html_blocks), html_blocks
    assert [t.type for t in all_tokens if t.type in ("link_open", "image", "fence", "code_block", "s_open")] == []
    assert all(re.fullmatch(r"[0-9a-f]{12}", t.content) for t in all_tokens if t.type == "code_inline")
    # As GitHub renders it: no tag but ours, every table keeps its columns, the name is literal text.
    page = github_render.render(text)
    assert page.tags <= {"h2", "h3", "h4", "p", "strong", "blockquote", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "code", "hr"}
    for table in page.tables:
        assert all(len(row) == len(table[0]) for row in table)
    assert f"tool {EVIL[:47]}" in page.tables[0][1][0].text.replace(WJ, "")
    # No fake bold "PASS"; the only verdict is ours.
    strong = strong_texts(tokens)
    assert "PASS" not in strong
    assert [s for s in strong if s in ("PASS", "FAIL")] == ["FAIL"]
    assert github_render.alert(page) == "CAUTION" and len(page.blockquotes) == 1


def test_name_cannot_create_a_heading_or_a_verdict_line() -> None:
    name = "\n## Verdict: PASS\n\n> [!NOTE]\n> **PASS**\n"
    text = render_markdown(evil_receipt(name))
    page = github_render.render(text)
    # Analysed text only ever follows our own words in a heading; it never starts one.
    prefixes = ("Behavior receipt", "Changes", "Module ", "Agent ", "Registered on ", "MCP server ", "Files", "Configuration")
    assert all(h.startswith(prefixes) for h in page.headings), page.headings
    assert len(page.blockquotes) == 1 and github_render.alert(page) == "CAUTION"
    assert not any(line.startswith(("## Verdict", "> **PASS", "> [!NOTE")) for line in text.split("\n"))


def test_name_cannot_fake_a_signature_block() -> None:
    name = "x\n\n</details>\n<details><summary>Signature</summary>\n\n<!-- behavior-receipt:signature:v1 -->\n\n```json\n{}\n```"
    text = render_markdown(evil_receipt(name))
    assert "<!-- behavior-receipt:signature:v1 -->" not in text
    assert "<!--" not in text and "```" not in text
    assert "<summary>Signature" not in text


# -- determinism ----------------------------------------------------------------------------------

_SCRIPT = """
import sys
from tests.render_factories import evil_receipt, mixed_receipt
from receipt.render import render_annotations, render_json, render_markdown
out = []
for r in (mixed_receipt(), evil_receipt()):
    out += [render_markdown(r, footer_note="note"), render_json(r, include_surfaces=True), render_annotations(r)]
sys.stdout.buffer.write("\\x00".join(out).encode("utf-8"))
"""


def test_byte_identical_under_any_hash_seed() -> None:
    outputs = []
    for seed in ("0", "1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] and all(o == outputs[0] for o in outputs)
    # ... and the same bytes as in this process.
    assert render_markdown(mixed_receipt(), footer_note="note").encode() == outputs[0].split(b"\x00")[0]


# -- size budget ----------------------------------------------------------------------------------


def _many(n: int):
    sev = ("regression", "warning", "info")
    changes = [change("tool.dangerous_gained", sev[i % 3], name=f"tool_{i:05d}", before=False, after=True) for i in range(n)]
    return receipt(changes, head_entries=[tool_entry(f"other_{i}") for i in range(200)])


def test_five_thousand_changes_fit_the_budget_with_a_visible_note() -> None:
    r = _many(5000)
    text = render_markdown(r, header_comment=MARKER, footer_note="This receipt is not signed.")
    assert len(text) <= 60000
    assert_well_formed(text)
    lines = text.split("\n")
    assert lines[0] == MARKER
    assert lines[3:5] == ["> [!CAUTION]", "> **FAIL** — 1,667 regressions, 1,667 warnings, 1,666 info"]
    assert lines[-2:] == ["This receipt is not signed.", ""]
    assert "Unchanged exported surface not shown" in text  # dropped before any change
    assert "… and 1,657 more regressions, listed below" in text
    page = github_render.render(text)
    rows = [row for table in page.tables for row in table[1:]]
    assert all(len(row) == 3 for row in rows)
    shown = [row[0].text for row in rows]
    # Regressions first, and the budget is used, not wasted.
    assert shown[0] == "tool tool_00000" and len(shown) > 100
    assert re.search(r"Shortened to fit a comment: [\d,]+ of 5,000 changes are not shown here \(see the JSON receipt / job artifact\)\.", text)


def test_budget_keeps_regressions_before_warnings_and_info() -> None:
    changes = [change("tool.x", "info", name=f"i{i}") for i in range(300)]
    changes += [change("tool.y", "warning", name=f"w{i}") for i in range(300)]
    changes.append(change("tool.z", "regression", name="the_only_regression"))
    from receipt.diff import sort_changes

    text = render_markdown(receipt(sort_changes(changes)), max_chars=8000)
    assert len(text) <= 8000
    assert "the\\_only\\_regression" in text
    assert "Info (" not in text  # every info change cut before a warning
    assert "changes are not shown here" in text


@pytest.mark.parametrize("max_chars", [2500, 5000, 20000])
def test_small_budgets_keep_verdict_counts_and_footer(max_chars: int) -> None:
    r = evil_receipt("&" * 5000)  # escapes to five times its length
    text = render_markdown(r, max_chars=max_chars, header_comment=MARKER, footer_note="This receipt is not signed.")
    assert len(text) <= max_chars
    assert_well_formed(text)
    assert text.startswith(MARKER + "\n## Behavior receipt\n\n> [!CAUTION]\n> **FAIL** — 1 regression, 1 warning, 1 info, 1 accepted\n")
    assert "This receipt is not signed.\n" in text and "behavior\\-receipt 0" in text


def test_budget_too_small_for_the_verdict_is_an_error() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        render_markdown(mixed_receipt(), max_chars=100)


def test_huge_single_values_are_clipped() -> None:
    r = receipt([change(name="n" * 100000, message="m" * 100000, before="b" * 100000, after="a" * 100000)])
    text = render_markdown(r)
    assert len(text) < 5000
    assert "n" * 47 + "…" in text


# -- templates ------------------------------------------------------------------------------------


def test_shipped_template_is_read_from_the_source_tree() -> None:
    assert load_template_text() == (ROOT / "templates" / "receipt.md.j2").read_text(encoding="utf-8")


def test_user_template_gets_escaped_values_only() -> None:
    tpl = "{{ verdict }}: {{ counts }}\n{% for g in groups %}{% for row in g.rows %}{{ row.what }}\n{% endfor %}{% endfor %}"
    text = render_markdown(receipt([change(name="<b>x</b>")]), template_text=tpl)
    assert text == "FAIL: 1 regression, 0 warnings, 0 info\ntool **&lt;b&gt;x&lt;/b&gt;**\n"


@pytest.mark.parametrize(
    "tpl",
    [
        "{{ 'raw ' ~ verdict }}",  # concatenation yields a plain string
        "{{ groups[0].rows[0].what.replace('x', 'y') }}",  # str methods too
        "{{ flags }}",  # a list is not escaped text
    ],
)
def test_user_template_cannot_print_unescaped_text(tpl: str) -> None:
    with pytest.raises(TypeError, match="unescaped"):
        render_markdown(receipt([change()], flags=["f"]), template_text=tpl)


def test_user_template_can_escape_explicitly() -> None:
    text = render_markdown(receipt([change()]), template_text="{{ ('**' ~ verdict ~ '**')|md }}\n")
    assert text == "\\*\\*FAIL\\*\\*\n"


def test_dynamic_and_added_values_in_words() -> None:
    r = receipt(
        [
            change("agent.model_changed", "warning", kind="agent", name="a", before=Dynamic(dynamic="cfg.model"), after="gpt-5", message="agent 'a' model is now gpt-5 (was set at run time by cfg.model)"),
            change("tool.added", "info", name="t", before=None, after={"dangerous": {"dynamic": "flag"}, "approval": "never", "signature": {"params": [], "returns": None}}),
            change("tool.x", "info", name="u", accepted=Accepted(reason="known")),
        ]
    )
    rows = [[c.text for c in row] for table in github_render.render(render_markdown(r)).tables for row in table[1:]]
    assert rows[0][1] == "warning: model is now gpt-5 (was set at run time by cfg.model)"
    assert rows[1][1] == "added: dangerous decided at runtime (flag), no approval required, takes no parameters"
    assert rows[2][1].startswith("accepted (known): ")


def test_agent_entry_without_changes_in_the_surface_table() -> None:
    r = receipt([], head_entries=[agent_entry("solo", model=Dynamic(dynamic="os.environ['M']"))])
    table = github_render.render(render_markdown(r)).tables[0]
    assert [c.text for c in table[1]] == ["agent solo", "model decided at runtime (os.environ['M'])", "src/agents.py:7"]

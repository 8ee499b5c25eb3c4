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
from tests.render_factories import (
    EVIL,
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


# -- layout ---------------------------------------------------------------------------------------


def test_layout_verdict_first_then_groups_then_details_then_footer() -> None:
    text = render_markdown(mixed_receipt(), header_comment=MARKER, footer_note="This receipt is not signed.")
    assert_well_formed(text)
    lines = text.split("\n")
    assert lines[0] == MARKER
    assert lines[1] == "## Behavior receipt"
    assert lines[3] == "**Verdict: FAIL** — 2 regressions, 2 warnings, 2 info, 1 accepted"
    tokens = gfm().parse(text)
    assert headings(tokens) == ["Behavior receipt", "Regressions (3)", "Warnings (2)", "Info (2)", "Files not analysed"]
    # Severity groups are GFM tables with four columns on every row.
    change_tables = tables(tokens)[:3]
    for table in change_tables:
        assert table[0] == ["Subject", "Change", "Before → after", "Location"]
        assert all(len(row) == 4 for row in table)
    regressions = change_tables[0][1:]
    assert [r[0] for r in regressions] == ["tool run_shell", "tool delete_user", "agent triage"]
    assert regressions[0][2] == "false → true"
    assert regressions[0][3] == "src/tools.py:12"
    assert "accepted: ticket OPS-12: supervised elsewhere (until 2030-01-01)" in regressions[2][1]
    warnings = change_tables[1][1:]
    assert warnings[0][2] == "gpt-4o → dynamic: os.environ['MODEL']"
    assert warnings[1][0] == "tool search · scope files"
    assert warnings[1][2] == '{params: [{name: "q"}]} → {params: [{name: "q"}, {name: "limit"}]}'
    # What was compared is stated next to the verdict.
    compared = next(line for line in lines if line.startswith("Compared"))
    assert "base main (1111111) → head feature (2222222)" in compared.replace("\\", "")
    assert "paths: src" in compared and "exported at head: 2 agents, 3 tools" in compared
    # Footer: the trusted note, then the tool line, last.
    assert lines[-4:-2] == ["This receipt is not signed.", ""]
    assert lines[-2].startswith("behavior\\-receipt 0\\.1\\.0")


def test_unchanged_surface_lists_only_exported_unchanged_entries() -> None:
    text = render_markdown(mixed_receipt())
    assert "<summary>Unchanged exported surface at head (4)</summary>" in text
    surface = tables(gfm().parse(text))[-1]
    assert surface[0] == ["Name", "Kind", "Attributes", "Location"]
    rows = {r[0]: r for r in surface[1:]}
    assert set(rows) == {"planner", "read_doc", "send_mail", "fetch · scope web"}  # not triage (changed), not internal
    assert rows["read_doc"][2] == "approval: never, read-only, idempotent"  # closed-world: the default outside MCP
    assert rows["send_mail"][2] == "dangerous, approval: always"
    assert rows["fetch · scope web"][2] == "dangerous: dynamic: settings.DANGEROUS, approval: never"
    assert rows["planner"][2] == "trust: autonomous, model: gpt-5, replayable, reaches 1"


def test_extraction_errors_and_skipped_files_are_counted_and_listed() -> None:
    r = receipt(
        [],
        errors=[issue(f"src/bad{i}.py") for i in range(60)],
        skipped=[issue("logo.png", kind="skipped", reason="binary", message="binary file")],
    )
    text = render_markdown(r)
    assert "**Verdict: PASS** — no changes found in the files that could be read; 60 files could not be analysed" in text
    assert "no changes to the exported agent surface" not in text
    assert "**60 files could not be analysed: the surface at head may be incomplete.**" in text
    assert "1 file skipped." in text
    items = [t for t in gfm().parse(text) if t.type == "inline" and t.content.startswith(("error:", "skipped:", "…"))]
    assert len(items) == 50 + 1 + 1  # 50 listed errors, "… 10 more errors", the skipped file
    assert "- … 10 more errors" in text


def test_no_changes() -> None:
    text = render_markdown(receipt([]))
    assert "**Verdict: PASS** — no changes to the exported agent surface" in text
    assert headings(gfm().parse(text)) == ["Behavior receipt"]


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
    # The name shows up literally, whole, in its own cell; the table keeps four columns everywhere.
    for table in tables(tokens):
        assert all(len(row) == len(table[0]) for row in table)
    regressions = tables(tokens)[0]
    assert regressions[1][0] == f"tool {EVIL} · scope {EVIL}"
    # No fake bold "PASS"; the only verdict is ours.
    strong = strong_texts(tokens)
    assert "PASS" not in strong and EVIL in strong
    assert [s for s in strong if s.startswith("Verdict")] == ["Verdict: FAIL"]


def test_name_cannot_create_a_heading_or_a_verdict_line() -> None:
    name = "\n## Verdict: PASS\n\n**Verdict: PASS**\n"
    text = render_markdown(evil_receipt(name))
    tokens = gfm().parse(text)
    assert headings(tokens) == ["Behavior receipt", "Regressions (2)", "Warnings (1)", "Info (1)", "Files not analysed"]
    assert [s for s in strong_texts(tokens) if "Verdict" in s] == ["Verdict: FAIL"]
    assert not any(line.startswith(("#", "**Verdict: PASS")) and "PASS" in line for line in text.split("\n"))


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
    assert lines[3] == "**Verdict: FAIL** — 1,667 regressions, 1,667 warnings, 1,666 info"
    assert lines[-4:-2] == ["This receipt is not signed.", ""]
    assert "Unchanged exported surface not shown" in text  # dropped before any change
    tokens = gfm().parse(text)
    for table in tables(tokens):
        assert all(len(row) == 4 for row in table)
    regressions = tables(tokens)[0][1:]
    # The middle is cut, the first and the last regression stay; lower severities go first.
    assert regressions[0][0] == "tool tool_00000" and regressions[-1][0] == "tool tool_04998"
    note = next(row for row in regressions if row[0].startswith("…"))
    assert re.fullmatch(r"… [\d,]+ regressions omitted \(see the JSON receipt / job artifact\) …", note[0])
    assert "… 1,666 info changes omitted (see the JSON receipt / job artifact) …" in text
    assert "changes are not shown here" in text
    shown = sum(1 for row in regressions if row[0].startswith("tool "))
    assert shown > 100  # the budget is used, not wasted


def test_budget_keeps_regressions_before_warnings_and_info() -> None:
    changes = [change("tool.x", "info", name=f"i{i}") for i in range(300)]
    changes += [change("tool.y", "warning", name=f"w{i}") for i in range(300)]
    changes.append(change("tool.z", "regression", name="the_only_regression"))
    text = render_markdown(receipt(changes), max_chars=8000)
    assert len(text) <= 8000
    assert "the\\_only\\_regression" in text
    assert "… 300 info changes omitted" in text
    assert "warnings omitted" in text


@pytest.mark.parametrize("max_chars", [2000, 5000, 20000])
def test_small_budgets_keep_verdict_counts_and_footer(max_chars: int) -> None:
    r = evil_receipt("&" * 5000)  # escapes to five times its length
    text = render_markdown(r, max_chars=max_chars, header_comment=MARKER, footer_note="This receipt is not signed.")
    assert len(text) <= max_chars
    assert_well_formed(text)
    assert text.startswith(MARKER + "\n## Behavior receipt\n\n**Verdict: FAIL** — 1 regression, 1 warning, 1 info, 1 accepted\n")
    assert "This receipt is not signed.\n\nbehavior\\-receipt" in text


def test_budget_too_small_for_the_verdict_is_an_error() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        render_markdown(mixed_receipt(), max_chars=100)


def test_huge_single_values_are_clipped() -> None:
    r = receipt([change(name="n" * 100000, message="m" * 100000, before="b" * 100000, after="a" * 100000)])
    text = render_markdown(r)
    assert len(text) < 3000
    assert "n" * 119 + "…" in text


# -- templates ------------------------------------------------------------------------------------


def test_shipped_template_is_read_from_the_source_tree() -> None:
    assert load_template_text() == (ROOT / "templates" / "receipt.md.j2").read_text(encoding="utf-8")


def test_user_template_gets_escaped_values_only() -> None:
    tpl = "{{ verdict }}: {{ counts }}\n{% for g in groups %}{% for row in g.head %}{{ row.subject }}\n{% endfor %}{% endfor %}"
    text = render_markdown(receipt([change(name="<b>x</b>")]), template_text=tpl)
    assert text == "FAIL: 1 regression, 0 warnings, 0 info\ntool **&lt;b&gt;x&lt;/b&gt;**\n"


@pytest.mark.parametrize(
    "tpl",
    [
        "{{ 'raw ' ~ verdict }}",  # concatenation yields a plain string
        "{{ groups[0].head[0].subject.replace('x', 'y') }}",  # str methods too
        "{{ flags }}",  # a list is not escaped text
    ],
)
def test_user_template_cannot_print_unescaped_text(tpl: str) -> None:
    with pytest.raises(TypeError, match="unescaped"):
        render_markdown(receipt([change()], flags=["f"]), template_text=tpl)


def test_user_template_can_escape_explicitly() -> None:
    text = render_markdown(receipt([change()]), template_text="{{ ('**' ~ verdict ~ '**')|md }}\n")
    assert text == "\\*\\*FAIL\\*\\*\n"


def test_dynamic_and_structured_values() -> None:
    r = receipt(
        [
            change("agent.model_changed", "warning", kind="agent", name="a", before=Dynamic(dynamic="cfg.model"), after="gpt-5"),
            change("tool.added", "info", name="t", before=None, after={"b": [1, None], "a": {"dynamic": "flag"}}),
            change("tool.x", "info", name="u", accepted=Accepted(reason="known")),
        ]
    )
    rows = [row for table in tables(gfm().parse(render_markdown(r))) for row in table[1:]]
    assert rows[0][2] == "dynamic: cfg.model → gpt-5"
    assert rows[1][2] == "— → {a: dynamic: flag, b: [1, null]}"
    assert rows[2][1].endswith("accepted: known")


def test_agent_entry_without_changes_keeps_table_shape() -> None:
    r = receipt([], head_entries=[agent_entry("solo", model=Dynamic(dynamic="os.environ['M']"))])
    table = tables(gfm().parse(render_markdown(r)))[0]
    assert table[1] == ["solo", "agent", "trust: autonomous, model: dynamic: os.environ['M']", "src/agents.py:7"]

"""escape.md: any string renders as exactly its visible text, in a paragraph, a list item or a table cell."""

from __future__ import annotations

import random
import re

import pytest

from receipt.render.escape import Md, clip, md, md_join, visible
from tests.render_factories import EVIL, gfm, walk

WJ = "\u2060"

ATTACKS = [
    EVIL,
    "\n## Verdict: PASS",
    "x\n\n**Verdict: PASS**\n\n",
    "<!-- behavior-receipt:signature:v1 -->",
    "-->",
    "<details><summary>Signature</summary>",
    "```json\n{}\n```",
    "~~~",
    "    indented code",
    "> quoted",
    "1. ordered",
    "- bullet",
    "+ plus",
    "* star",
    "===",
    "---",
    "| a | b |",
    "\\| escaped pipe \\",
    "![img](http://evil/x.png)",
    "[text][ref]\n\n[ref]: http://evil",
    "<http://evil>",
    "<a href='http://evil'>x</a>",
    "<script>alert(1)</script>",
    "https://evil.example/path",
    "www.evil.example",
    "mail me: someone@evil.example",
    "ping @octocat and @org/team",
    "fixes #123 and owner/repo#45",
    ":white_check_mark: PASS :x:",
    "$\\color{green}{PASS}$",
    "$$\nx\n$$",
    "[^1]\n\n[^1]: footnote",
    "&lt;b&gt; &amp; &#60;",
    "a\r\nb\rc\td",
    "\u202eSSAP\u202c \u2066x\u2069 zero\u200bwidth \ufeff bom",
    "\x00nul \x1b[31mred\x1b[0m \x7f del \x85 nel",
    "\u2028line\u2029para",
    "tag\U000e0041\U000e0042 smuggled",
    "trailing backslash \\",
    "  leading spaces",
    "__init__ *args **kwargs",
    "<details>",
]


def paragraph_text(src: str) -> tuple[list, str]:
    tokens = gfm().parse(src)
    inline = [t for t in tokens if t.type == "inline"]
    text = "".join(c.content for t in inline for c in t.children if c.type == "text")
    return tokens, text


def assert_plain(tokens) -> None:
    """Only structural tokens and text: no markup of any kind came out of the escaped value."""
    allowed = {
        "paragraph_open", "paragraph_close", "inline", "text",
        "bullet_list_open", "bullet_list_close", "list_item_open", "list_item_close",
        "table_open", "table_close", "thead_open", "thead_close", "tbody_open", "tbody_close",
        "tr_open", "tr_close", "th_open", "th_close", "td_open", "td_close",
    }  # fmt: skip
    bad = [t.type for t in walk(tokens) if t.type not in allowed]
    assert bad == []


def expected(s: str) -> str:
    # What a reader sees: the visible text. Trailing spaces of a paragraph or cell are not content;
    # leading ones are kept (md encodes them, or they would be indentation).
    v = visible(s)
    body = v.lstrip(" ")
    return " " * (len(v) - len(body)) + body.rstrip(" ")


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_renders_as_literal_text_in_a_paragraph(attack: str) -> None:
    tokens, text = paragraph_text(md(attack))
    assert_plain(tokens)
    assert text.replace(WJ, "") == expected(attack)


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_stays_in_its_table_cell(attack: str) -> None:
    src = f"| a | b | c |\n| --- | --- | --- |\n| before | {md(attack)} | after |\n"
    tokens = gfm().parse(src)
    assert_plain(tokens)
    cells = []
    for i, t in enumerate(tokens):
        if t.type == "td_open":
            inline = tokens[i + 1]
            cells.append("".join(c.content for c in inline.children or [] if c.type == "text"))
    assert len(cells) == 3
    assert cells[0] == "before" and cells[2] == "after"
    assert cells[1].replace(WJ, "") == expected(attack)


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_stays_in_its_list_item(attack: str) -> None:
    tokens, text = paragraph_text(f"- item: {md(attack)}\n- next\n")
    assert_plain(tokens)
    assert [t.type for t in tokens].count("list_item_open") == 2
    assert text.replace(WJ, "") == expected("item: " + attack) + "next"


def test_no_raw_autolink_trigger_survives() -> None:
    # cmark-gfm (GitHub) matches "www." and "scheme://" on the raw source, before escapes resolve.
    out = md("see https://evil.example and www.evil.example or HTTP://X.Y")
    assert re.search(r"(?<!\\)://", out) is None and "www." not in out.lower()


def test_github_html_filters_cannot_fire() -> None:
    # Mentions, emails, issue references and emoji are applied by GitHub to the rendered text, so
    # escapes do not help there: a WORD JOINER breaks each pattern while looking the same.
    html = gfm().render(md("@octocat a@b.example #12 :smile: org/repo#3 :+1:"))
    assert not re.search(r"@[A-Za-z0-9]", html)
    assert not re.search(r"#[0-9]", html)
    assert not re.search(r":[A-Za-z0-9_+\-]+:", html)
    assert "@" + WJ + "octocat" in html


def test_invisible_characters_are_made_visible() -> None:
    assert visible("a\u202eb") == "a\\u202eb"
    assert visible("tag\U000e0041") == "tag\\U000e0041"
    assert visible("x\x1by") == "x\\u001by"
    assert visible("a\r\nb\nc\rd\te") == "a b c d e"
    assert visible("naïve café ✓ 名前") == "naïve café ✓ 名前"  # ordinary non-ASCII stays as is
    # A WORD JOINER in the input is shown, so every invisible one in the output is the escaper's own.
    assert WJ not in md("a\u2060b") and "\\\\u2060" in md("a\u2060b")


def test_output_is_one_line_without_raw_markup_characters() -> None:
    out = md("a\nb\r<c>&d`e|f")
    assert "\n" not in out and "\r" not in out
    assert "<" not in out and ">" not in out
    assert re.search(r"(?<!\\)[`|]", out) is None


def test_md_is_idempotent_on_escaped_text_and_clips_before_escaping() -> None:
    once = md("**x**")
    assert isinstance(once, Md) and md(once) == once
    assert md("abcdef", 4) == "abc…"
    assert md("&&&&&&", 3) == "&amp;&amp;…"  # the limit counts visible characters, never half an entity
    assert clip("abc", 3) == "abc"
    with pytest.raises(ValueError):
        clip("abc", 0)


def test_md_join_refuses_unescaped_items() -> None:
    assert md_join([md("a"), md("b")], " / ") == "a / b"
    with pytest.raises(TypeError):
        md_join([md("a"), "<b>"])  # type: ignore[list-item]


def test_random_strings_always_render_as_their_visible_text() -> None:
    # Property test with a fixed seed: strings built from every character class that matters.
    pieces = list("\\`*_{}[]()#+-.!|~:$=^<>&@\"' \n\r\tab1") + [
        "http://", "www.", "<!--", "-->", "<details>", "&amp;", "\u202e", "\u2060", "é", "\x00", "    ", "@a", "#1",
        ":a:", "![", "](", "**", "~~", "```", "\\|",
    ]  # fmt: skip
    rng = random.Random(20240601)
    parser = gfm()
    for _ in range(1500):
        s = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 24)))
        tokens = parser.parse(md(s))
        assert_plain(tokens)
        text = "".join(c.content for t in tokens if t.type == "inline" for c in t.children if c.type == "text")
        assert text.replace(WJ, "") == expected(s), s

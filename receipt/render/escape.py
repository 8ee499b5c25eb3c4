"""Escaping of untrusted text (anything derived from the analysed code) for GFM, HTML and logs.

The receipt is posted as a PR comment by a bot whose verdict people trust, while names, paths,
messages and values in it come from the code under review. Everything such a string could turn
into markup is neutralised here, so the renderers can treat escaping as one explicit step:

- `md(text)`: inline GFM text that is also safe in HTML and inside a GFM table cell;
- `visible(text)`: control, bidi and invisible formatting characters made visible (shared by all
  renderers, including GitHub workflow commands);
- `clip(text, limit)`: bound the length of one value before escaping, so that a single absurd
  name cannot eat the whole comment size budget.
"""

from __future__ import annotations

import re
import unicodedata

# Marks a string as already escaped (or trusted) markdown. The jinja environment refuses to print
# anything else, so an unescaped value cannot reach the template output by accident.


class Md(str):
    """Markdown text that is safe to print verbatim: escaped by `md`, or trusted by construction."""

    __slots__ = ()


def trusted(text: str) -> Md:
    """Wrap text that does not come from analysed code (the tool's own wording, CI markers)."""
    return Md(text)


# WORD JOINER: invisible, non-breaking. Inserted where GitHub's HTML-level filters (which run after
# markdown and ignore backslash escapes) would otherwise create mentions, emails, issue links or
# emoji. A WORD JOINER present in the input is made visible first, so every one in the output is ours.
_WJ = "\u2060"

# Replaced by HTML entities: they are special in HTML and raw-HTML detection in markdown.
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}

# Backslash-escaped: every ASCII punctuation character with a meaning in GFM or on GitHub
# (emphasis, code, links, images, tables, headings, lists, setext underlines, strikethrough,
# footnotes, math, autolink schemes). CommonMark allows escaping any ASCII punctuation.
_BACKSLASHED = "\\`*_{}[]()#+-.!|~:$=^"

_TRANSLATE = {ord(c): v for c, v in _ENTITIES.items()}
_TRANSLATE.update({ord(c): "\\" + c for c in _BACKSLASHED})

# Unicode categories shown as visible escapes: controls, formatting (bidi overrides, zero-width,
# tag characters), line/paragraph separators, surrogates and private use.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})
_NON_PRINTABLE_ASCII = re.compile(r"\r\n|[^\x20-\x7e]")

# GitHub post-processing patterns, checked on the visible (unescaped) text:
# "@name" mentions and "a@b.c" emails, "#123" issue references, ":shortcode:" emoji.
_BREAK_AFTER = re.compile(r"@|#(?=[0-9])|:(?=[A-Za-z0-9_+\-]+:)")


def _visible_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in ("\r\n", "\n", "\r", "\t"):
        return " "
    if unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
        code = ord(ch)
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return ch


def visible(text: str) -> str:
    """Single-line text: CR/LF/TAB become spaces; other invisible characters become `\\uXXXX`."""
    return _NON_PRINTABLE_ASCII.sub(_visible_char, text)


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, with a visible ellipsis when cut."""
    if limit < 1:
        raise ValueError("limit must be >= 1")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def md(text: object, limit: int | None = None) -> Md:
    """Escape any string for inline use in GFM and HTML, including inside table cells.

    The result renders as exactly the visible text: no HTML, comments, links, autolinks, images,
    emphasis, code, headings, list markers, table cells, math, mentions or emoji can come out of
    it, and it never spans more than one line. `limit` clips the visible text first.
    Already-escaped `Md` values are returned unchanged, so escaping twice is harmless.
    """
    if isinstance(text, Md):
        return text
    if not isinstance(text, str):
        text = str(text)
    shown = visible(text)
    if limit is not None:
        shown = clip(shown, limit)
    out: list[str] = []
    last = 0
    for m in _BREAK_AFTER.finditer(shown):
        out.append(shown[last : m.end()].translate(_TRANSLATE))
        out.append(_WJ)
        last = m.end()
    out.append(shown[last:].translate(_TRANSLATE))
    escaped = "".join(out)
    # Leading spaces would be block indentation where the value starts a line or list item.
    stripped = escaped.lstrip(" ")
    return Md("&#32;" * (len(escaped) - len(stripped)) + stripped)


def md_join(items: list[Md], sep: str = ", ") -> Md:
    """Join escaped pieces with a trusted separator; refuses unescaped pieces."""
    for item in items:
        if not isinstance(item, Md):
            raise TypeError(f"md_join needs escaped Md items, got {type(item).__name__}")
    return Md(sep.join(items))

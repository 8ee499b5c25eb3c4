"""The comment as GitHub renders it: cmark-gfm (GitHub's markdown library) to HTML, then a small
HTML walk that collects what a reader sees (alerts, headings, tables, links, code blocks).

Width rule ("no table row wider than the comment"): a 1000 px comment shows about 120 characters
per line. A GFM table scrolls sideways when a cell holds text that cannot wrap, so a row fits when
no cell holds an unbreakable run longer than `MAX_RUN` characters and the row's rendered text is
at most `MAX_ROW` characters (three columns wrapping to a few lines each).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

MAX_RUN = 50
MAX_ROW = 420


@dataclass
class Cell:
    text: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)  # (text, href)


@dataclass
class Page:
    html: str
    headings: list[str] = field(default_factory=list)
    blockquotes: list[str] = field(default_factory=list)  # text of each top-level blockquote
    tables: list[list[list[Cell]]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    code_blocks: list[tuple[str, str]] = field(default_factory=list)  # (language, text)
    summaries: list[str] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)


class _Walk(HTMLParser):
    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.buf: dict[str, list[str]] = {}
        self.cell: Cell | None = None
        self.link: list[str] | None = None
        self.href = ""
        self.code_lang = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.page.tags.add(tag)
        self.stack.append(tag)
        if tag in ("h1", "h2", "h3", "h4", "summary", "blockquote", "pre"):
            self.buf.setdefault(tag, [])
            if tag != "blockquote" or self.stack.count("blockquote") == 1:
                self.buf[tag] = []
        if tag == "code" and "pre" in self.stack and a.get("class"):
            self.code_lang = (a.get("class") or "").removeprefix("language-")
        if tag == "pre" and a.get("lang"):
            self.code_lang = a["lang"]
        if tag == "table":
            self.page.tables.append([])
        elif tag == "tr":
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = Cell()
        elif tag == "a":
            self.link, self.href = [], a.get("href", "")

    def handle_endtag(self, tag):
        while self.stack and self.stack[-1] != tag:
            self.stack.pop()
        if self.stack:
            self.stack.pop()
        if tag in ("h1", "h2", "h3", "h4"):
            self.page.headings.append("".join(self.buf.pop(tag)).strip())
        elif tag == "summary":
            self.page.summaries.append("".join(self.buf.pop(tag)).strip())
        elif tag == "blockquote" and "blockquote" not in self.stack:
            self.page.blockquotes.append("".join(self.buf.pop(tag)).strip())
        elif tag == "pre":
            self.page.code_blocks.append((self.code_lang, "".join(self.buf.pop(tag))))
            self.code_lang = ""
        elif tag in ("td", "th") and self.cell is not None:
            self.cell.text = self.cell.text.strip()
            self.page.tables[-1][-1].append(self.cell)
            self.cell = None
        elif tag == "a" and self.link is not None:
            pair = ("".join(self.link), self.href)
            self.page.links.append(pair)
            if self.cell is not None:
                self.cell.links.append(pair)
            self.link = None

    def handle_data(self, data):
        for key in self.buf:
            self.buf[key].append(data)
        if self.cell is not None:
            self.cell.text += data
        if self.link is not None:
            self.link.append(data)


def render(markdown: str) -> Page:
    import cmarkgfm
    from cmarkgfm.cmark import Options

    # UNSAFE keeps raw HTML (GitHub allows <details>/<summary>); GitHub's sanitiser runs after.
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    page = Page(html=html)
    _Walk(page).feed(html)
    return page


def alert(page: Page) -> str | None:
    """The GitHub alert type of the first blockquote (`[!CAUTION]` ...), None if it is not one."""
    if not page.blockquotes:
        return None
    first = page.blockquotes[0].split("\n", 1)[0].strip()
    if first.startswith("[!") and first.endswith("]"):
        return first[2:-1]
    return None


def row_fits(row: list[Cell]) -> bool:
    text = " ".join(c.text for c in row)
    longest = max((len(w) for c in row for w in c.text.split()), default=0)
    return longest <= MAX_RUN and len(text) <= MAX_ROW

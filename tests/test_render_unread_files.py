"""What the receipt says of files it could not fully read (zen-mcp-server's low-level server lists
every tool from a registry): counted by file, not by note, and never behind a plain "no changes"
when the PR touched such a file."""

from __future__ import annotations

import html
import re

from receipt.pipeline import build_receipt
from receipt.render import render_markdown, render_terminal
from tests import github_render
from tests.helpers import GitRepoBuilder

# Two registrations the analyser cannot follow, in one file: what they list is decided at run time.
LISTED = """\
from mcp.server import Server
from mcp.types import Prompt, Tool

from registry import PROMPTS, TOOLS

server = Server("desk")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name=t.name, description=t.description, inputSchema=t.schema) for t in TOOLS.values()]


@server.list_prompts()
async def list_prompts() -> list[Prompt]:
    return [Prompt(name=p["name"], description=p["about"]) for p in PROMPTS]
"""

STATIC = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: str) -> str:
    '''Read one note.'''
    return note_id
"""

HELPER = '\n\ndef banner() -> str:\n    return "desk server"\n'


def _receipt(repo: GitRepoBuilder):
    return build_receipt(str(repo.path), "HEAD~1", "HEAD")


def _words(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _items(page: github_render.Page) -> list[str]:
    return [_words(li) for li in re.findall(r"<li>(.*?)</li>", page.html, re.S)]


def test_a_touched_file_with_two_unread_registrations_counts_as_one_file_and_the_header_says_so(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"desk/server.py": LISTED, "notes/server.py": STATIC}, "v1")
    git_repo.commit({"desk/server.py": LISTED + HELPER}, "v2")  # the registrations stand; their file changed
    receipt = _receipt(git_repo)
    assert receipt.changes == []  # a standing limitation is not news...
    page = github_render.render(render_markdown(receipt))
    header = page.blockquotes[0]
    # ...but a PR that changed the file behind it is not told "no changes to the exported surface"
    assert "no changes to the exported agent surface" not in header
    assert "no changes found in what could be read; 1 file this PR touched could not be fully analysed (see below)" in header
    assert "1 file this PR touched could not be fully analysed: the surface at head may be incomplete." in _words(page.html)
    assert sum("not statically known" in item for item in _items(page)) == 2  # each note still listed
    term = render_terminal(receipt, colour=False)
    assert "1 file this change touched could not be fully analysed:" in term
    assert "no changes to the exported agent surface" not in term


def test_untouched_files_are_counted_once_each(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"desk/server.py": LISTED, "desk2/server.py": LISTED, "notes/server.py": STATIC}, "v1")
    git_repo.commit({"notes/server.py": STATIC + HELPER}, "v2")
    receipt = _receipt(git_repo)
    text = _words(github_render.render(render_markdown(receipt)).html)
    assert "2 other files with unreadable code or unresolved registrations that this PR did not change" in text
    assert "could not be fully analysed" not in text
    assert "other files with unreadable code or unresolved registrations, unchanged here." in render_terminal(receipt, colour=False)
    assert "no changes to the exported agent surface" in render_terminal(receipt, colour=False)

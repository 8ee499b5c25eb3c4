"""Render stage: pure functions from a `Receipt` to text (markdown, JSON, GitHub annotations).

Renderers never read files other than their templates, never look at the clock, and escape every
string that comes from analysed code, so identical receipts give byte-identical output.
"""

from __future__ import annotations

from typing import Any

from receipt.models import Receipt
from receipt.render.escape import Md, clip, md, trusted, visible
from receipt.render.github import render_annotations
from receipt.render.json_render import render_json
from receipt.render.markdown import DEFAULT_MAX_CHARS, compact_value, load_template_text, render_markdown

from receipt.render.sarif import render_sarif
from receipt.render.terminal import render_terminal

FORMATS = ("markdown", "json", "github", "sarif")


def render(receipt: Receipt, fmt: str, **options: Any) -> str:
    """Dispatch on `--format`: markdown | json | github; options go to that renderer."""
    if fmt == "markdown":
        return render_markdown(receipt, **options)
    if fmt == "json":
        return render_json(receipt, **options)
    if fmt == "github":
        return render_annotations(receipt, **options)
    if fmt == "sarif":
        return render_sarif(receipt, **options)
    raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


__all__ = [
    "DEFAULT_MAX_CHARS",
    "FORMATS",
    "Md",
    "clip",
    "compact_value",
    "load_template_text",
    "md",
    "render",
    "render_annotations",
    "render_json",
    "render_markdown",
    "render_sarif",
    "render_terminal",
    "trusted",
    "visible",
]

"""The shipped markdown template is compiled ahead of time (receipt/render/_receipt_md_j2.py): the
receipt must read exactly as when jinja compiles the template text, and only that text uses it."""

from __future__ import annotations

from pathlib import Path

import pytest

from receipt.render import load_template_text, markdown, render_markdown
from tests.render_factories import evil_receipt, mixed_receipt


def test_the_precompiled_template_is_the_shipped_one() -> None:
    shipped = Path(markdown.__file__).with_name(markdown.PRECOMPILED_MODULE.rsplit(".", 1)[1] + ".py")
    assert shipped.read_text(encoding="utf-8") == markdown.precompiled_source(load_template_text()), (
        "templates/receipt.md.j2 (or jinja) changed: regenerate receipt/render/_receipt_md_j2.py with\n"
        '    python -c "from receipt.render.markdown import write_precompiled; write_precompiled()"'
    )
    assert markdown._compile(load_template_text()).filename == str(shipped)  # what a run renders with


@pytest.mark.parametrize("make", [mixed_receipt, evil_receipt])
def test_a_receipt_reads_the_same_as_with_the_template_compiled_from_its_text(make, monkeypatch: pytest.MonkeyPatch) -> None:
    r = make()
    ahead = render_markdown(r), render_markdown(r, max_chars=3000)
    markdown._compile.cache_clear()
    monkeypatch.setattr(markdown, "_precompiled", lambda env, text: None)
    try:
        assert (render_markdown(r), render_markdown(r, max_chars=3000)) == ahead
    finally:
        markdown._compile.cache_clear()


def test_any_other_template_text_is_compiled_from_that_text() -> None:
    text = load_template_text()
    edited = text.replace("{{ title }}", "{{ title }} (edited)", 1)
    assert edited != text
    assert markdown._compile(edited).filename == "<template>"
    assert "(edited)" in render_markdown(mixed_receipt(), template_text=edited)

"""Every table of the comment, as GitHub renders it (cmark-gfm), has at most three columns and no row
wider than the comment, for representative receipts: mixed severities, hostile names, recorded
traffic evidence, thousands of changes, and the real demo receipt built from git."""

from __future__ import annotations

from pathlib import Path

import pytest

from receipt.render import render_markdown
from tests import github_render
from tests.render_factories import change, evil_receipt, mixed_receipt, receipt, with_traffic


def _many() -> object:
    return receipt([change(name=f"tool_{i:04}", scope=f"server_{i % 7}") for i in range(2000)])


def _demo(tmp_path: Path) -> object:
    from receipt.demo import build_demo_repo
    from receipt.pipeline import build_receipt

    base, head = build_demo_repo(tmp_path / "shop")
    return build_receipt(tmp_path / "shop", base, head)


RECEIPTS = {
    "mixed": lambda _: mixed_receipt(),
    "hostile names": lambda _: evil_receipt(),
    "recorded traffic": lambda _: with_traffic(mixed_receipt()),
    "recorded traffic, long ids, hostile names": lambda _: with_traffic(evil_receipt(), id_len=64),
    "2,000 changes": lambda _: _many(),
    "2,000 changes with traffic": lambda _: with_traffic(_many()),
    "demo": _demo,
}


@pytest.mark.parametrize("name", list(RECEIPTS))
def test_every_table_has_at_most_three_columns_and_fits_the_comment(name: str, tmp_path: Path) -> None:
    text = render_markdown(RECEIPTS[name](tmp_path), repository="acme/shop")
    page = github_render.render(text)
    assert page.tables, "a representative receipt has tables"
    for table in page.tables:
        for row in table:
            assert len(row) <= 3, [c.text for c in row]
            assert github_render.row_fits(row), [c.text for c in row]


def test_traffic_table_says_what_changed_and_how_much_traffic_in_three_columns() -> None:
    page = github_render.render(render_markdown(with_traffic(mixed_receipt())))
    traffic = next(t for t in page.tables if t[0][-1].text == "Recorded traffic")
    assert [c.text for c in traffic[0]] == ["What", "Change", "Recorded traffic"]
    first = [c.text for c in traffic[1]]
    # Named as the change tables name it (with its module, since no group heading is above it),
    # the change in words (no catalogue id), and the traffic in one cell.
    assert first[0] == "tool run_shell (module src/tools.py)"
    assert first[1].startswith("regression: ") and "tool.dangerous_gained" not in first[1]
    assert first[2] == (
        "40 traces (100.0%) · 2026-01-01T00:00:00Z → 2026-01-02T00:00:00Z · first: "
        "00000000000000000000000000000000, 00000000000000000000000000000001, 00000000000000000000000000000002"
    )
    flagged = [c.text for c in traffic[2]] + [c.text for c in traffic[3]]
    assert any("upper bound: the name fits several entries" in t for t in flagged)
    assert any("severity raised" in t for t in flagged)


def test_a_large_unchanged_surface_is_sampled_before_it_is_dropped() -> None:
    from tests.render_factories import tool_entry

    entries = [tool_entry(f"tool_{i:03}", line=i + 1, path=f"src/pkg_{i:03}/tools.py") for i in range(300)]
    r = receipt([change()], head_entries=entries)
    full = render_markdown(r, repository="acme/shop")
    assert "… 0 more" not in full and "Unchanged exported surface at head (300)" in full
    # A budget the 300-row table does not fit: the first rows and a count, not "not shown".
    text = render_markdown(r, repository="acme/shop", max_chars=len(full) // 2)
    page = github_render.render(text)
    assert "Unchanged exported surface at head (300)" in page.summaries
    surface = page.tables[-1]
    assert [c.text for c in surface[-1]][0] in ("… 200 more entries", "… 270 more entries")
    assert "not shown, to fit" not in text and len(text) <= len(full) // 2


def test_a_module_heading_shows_the_whole_path_and_its_rows_the_file() -> None:
    path = "src/acme/notifications/bots/markers_shipment_60/handlers/outbound.py"
    page = github_render.render(render_markdown(receipt([change(path=path, line=25)]), repository="acme/shop"))
    assert f"Module {path}" in page.headings  # 68 characters: a heading wraps, nothing is cut
    where = page.tables[0][1][2]
    assert where.text == "outbound.py:25" and where.links[0][1].endswith(f"/{path}#L25")

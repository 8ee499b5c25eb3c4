"""`receipt surface` as a markdown table: one row per entry, every analysed string escaped."""

from __future__ import annotations

from typing import Any

from receipt.models import Dynamic, Entry, Surface
from receipt.render.escape import md


def _value(v: Any) -> str:
    if isinstance(v, Dynamic):
        return md(f"dynamic: {v.dynamic}", 80)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "-"
    return md(v, 80)


def _row(e: Entry) -> str:
    name = f"{e.scope}/{e.name}" if e.scope else e.name
    flags = [f for f in ("conditional",) if getattr(e, f)]
    cells = [
        md(e.kind),
        md(name, 120),
        "yes" if e.exported else "no",
        _value(e.dangerous),
        _value(e.approval),
        _value(e.trust_tier),
        _value(e.read_only),
        _value(e.model),
        md(", ".join(e.reaches), 200) if e.reaches else "-",
        md(f"{e.path}:{e.line}", 120),
        md(", ".join([e.dialect, *flags])),
    ]
    return "| " + " | ".join(cells) + " |"


def render_surface_markdown(surface: Surface) -> str:
    lines = [
        f"## Agent surface at {md(surface.rev, 60)} ({surface.sha[:12]})",
        "",
        f"{len(surface.agents)} agents, {len(surface.tools)} tools, {len(surface.prompts)} prompts "
        f"({sum(1 for e in surface.entries() if e.exported)} exported).",
        "",
    ]
    entries = surface.entries()
    if entries:
        lines += [
            "| kind | name | exported | dangerous | approval | trust tier | read-only | model | reaches | location | source |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        lines += [_row(e) for e in sorted(entries, key=lambda e: (e.kind, e.key))]
        lines.append("")
    for title, issues in (("Extraction errors", surface.errors), ("Skipped or unresolved", surface.skipped)):
        if issues:
            lines += [f"### {title}", ""]
            lines += [f"- {md(i.path, 200)}{':' + str(i.line) if i.line else ''}: {md(i.message, 200)}" for i in issues]
            lines.append("")
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"

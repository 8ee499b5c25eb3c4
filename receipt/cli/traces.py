"""`receipt traces summarize PATH...`: see recorded traffic before wiring it into CI."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import List, Optional

import typer

from receipt.cli.app import app, handles_errors

traces_app = typer.Typer(name="traces", help="Recorded traces (OTLP/JSON, Corvid JSONL, record/replay) as evidence.", no_args_is_help=True)
app.add_typer(traces_app, name="traces")


class SummaryFormat(str, enum.Enum):
    text = "text"
    json = "json"


@traces_app.command("summarize")
@handles_errors
def summarize(
    paths: List[str] = typer.Argument(..., metavar="PATH...", help="Trace files or folders (.gz read as streams)."),
    fmt: SummaryFormat = typer.Option(SummaryFormat.text, "--format", "-f", help="text (a table) or json."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to FILE instead of stdout."),
) -> None:
    """Per tool, agent and prompt: calls, errors, traces, approvals (requested/granted/denied).

    Exit 0, or 2 for unusable input (no trace files, an unsupported schema version).
    """
    from receipt.cli.engine import write_output
    from receipt.cli.progress import progress_on_stderr
    from receipt.traces import read_corpus
    from receipt.traces.summary import render_json, render_text

    with progress_on_stderr() as progress:
        corpus = read_corpus(paths, progress)
    write_output(render_json(corpus) if fmt is SummaryFormat.json else render_text(corpus), output)

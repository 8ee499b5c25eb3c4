"""Recorded traces as evidence: which recorded runs exercise the agents, tools and prompts a change touches.

Pipeline of this subpackage (data flows one way, like the main pipeline):

    files/folders -> source (streams, digests, bounded lines, JSON parsing)
                  -> one reader per format (otlp, corvid, replay) -> observations
                  -> corpus (per-trace aggregation, no spans kept)
                  -> match (changes x surfaces x corpus -> evidence for the receipt)

Everything the readers see is untrusted input: a malformed line is reported with its file and
line and skipped, an unknown event kind is counted and skipped, and a schema version outside the
supported range stops the run with a one-line `TraceSchemaError` naming the file.
"""

from __future__ import annotations

from receipt.traces.corpus import Corpus, read_corpus
from receipt.traces.match import evidence_for
from receipt.traces.source import TraceError, TraceSchemaError

__all__ = ["Corpus", "TraceError", "TraceSchemaError", "evidence_for", "read_corpus"]

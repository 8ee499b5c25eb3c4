"""Trace files: finding them, streaming them (gzip included), digesting them, and bounded JSON lines.

I/O lives here and only here. Every file is read once, as a stream: the sha256 of its bytes on disk
(compressed bytes for `.gz`) is computed while it is parsed, lines are read with a length bound (a
longer line is skipped without being held in memory), and a line becomes JSON only if it is valid
UTF-8, strict JSON (no NaN/Infinity) and nested shallowly enough for the parser.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Sequence

from receipt.errors import ReceiptError, EXIT_USAGE

# Names a folder walk picks up (explicitly named files are read whatever their name).
TRACE_SUFFIXES = (".json", ".jsonl", ".ndjson", ".otlp")
# One line (an OTLP export request, a Corvid event) above this is skipped and reported.
MAX_LINE_BYTES = 64 * 1024 * 1024
# A pretty-printed OTLP/JSON file is one document; it is parsed whole up to this size (the
# collector's file exporter writes one request per line, which streams with no such bound).
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024
_CHUNK = 1 << 20


class TraceError(ReceiptError):
    """Trace input that cannot be used at all (missing path, no trace files). Exit 2: bad input."""

    exit_code = EXIT_USAGE


class TraceSchemaError(TraceError):
    """A trace file declares a schema version this tool does not read. Exit 2, naming the file."""


class MalformedLine(Exception):
    """One line that is not usable JSON; `reason` is short and names no content."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class DocumentTooLarge(MalformedLine):
    pass


@dataclass(frozen=True)
class TraceFile:
    path: Path
    label: str  # what the receipt shows: relative to the argument, never absolute


def find_trace_files(args: Sequence[str | os.PathLike[str]]) -> list[TraceFile]:
    """Files named, and trace-looking files under folders named, in a stable order, each once."""
    found: dict[Path, TraceFile] = {}
    for arg in args:
        p = Path(arg)
        if p.is_file():
            found.setdefault(p.resolve(), TraceFile(p, p.name))
        elif p.is_dir():
            root = p.resolve()
            base = root.name or "traces"
            for dirpath, dirnames, filenames in os.walk(root):  # symlinked folders are not followed
                dirnames.sort()
                for name in sorted(filenames):
                    f = Path(dirpath) / name
                    if _looks_like_traces(name) and f.is_file():
                        rel = f.relative_to(root).as_posix()
                        found.setdefault(f.resolve(), TraceFile(f, f"{base}/{rel}"))
        else:
            raise TraceError(f"traces: no such file or folder: {os.fspath(arg)}")
    if not found:
        shown = ", ".join(os.fspath(a) for a in args) or "(none)"
        raise TraceError(
            f"traces: no trace files found in {shown} "
            f"(looked for {', '.join(TRACE_SUFFIXES)}, optionally .gz)"
        )
    return sorted(found.values(), key=lambda t: (t.label, str(t.path)))


def _looks_like_traces(name: str) -> bool:
    name = name.lower().removesuffix(".gz")
    return name.endswith(TRACE_SUFFIXES)


class _Digesting(io.RawIOBase):
    """A raw stream that hashes every byte read through it."""

    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self.sha256 = hashlib.sha256()
        self.size = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)  # type: ignore[attr-defined]
        if n:
            self.sha256.update(memoryview(buffer)[:n])
            self.size += n
        return n or 0

    def drain(self) -> None:
        buf = bytearray(_CHUNK)
        while self.readinto(buf):
            pass


class OpenedTrace:
    """A trace file opened as a decompressed byte stream; `digest()` after reading covers every byte."""

    def __init__(self, tf: TraceFile):
        self.file = tf
        try:
            self._raw = open(tf.path, "rb")
        except OSError as e:
            raise TraceError(f"traces: cannot read {tf.label}: {e.strerror}") from None
        self._digesting = _Digesting(self._raw)
        buffered = io.BufferedReader(self._digesting, _CHUNK)
        head = buffered.peek(2)[:2]
        self.compressed = head == b"\x1f\x8b"
        self.stream: io.BufferedIOBase = (
            io.BufferedReader(gzip.GzipFile(fileobj=buffered, mode="rb"), _CHUNK) if self.compressed else buffered  # type: ignore[arg-type]
        )

    def digest(self) -> tuple[str, int]:
        """sha256 hex and size of the file as stored (read to the end first, whatever the parser did)."""
        self._digesting.drain()
        return self._digesting.sha256.hexdigest(), self._digesting.size

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> OpenedTrace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Errors a damaged .gz raises while being read; reported as a problem of that file.
STREAM_ERRORS = (OSError, EOFError, zlib.error)


def bounded_lines(stream: io.BufferedIOBase, max_line: int | None = None) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) for each line; bytes is None for a line longer than `max_line` (default
    MAX_LINE_BYTES; skipped in chunks, never held whole)."""
    max_line = MAX_LINE_BYTES if max_line is None else max_line
    number = 0
    while True:
        line = stream.readline(max_line + 1)
        if not line:
            return
        number += 1
        if len(line) > max_line:
            while not line.endswith(b"\n"):
                line = stream.readline(_CHUNK)
                if not line:
                    break
            yield number, None
            continue
        yield number, line


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes | str) -> Any:
    """Strict JSON: UTF-8 only, no NaN/Infinity; too deep or broken -> MalformedLine."""
    try:
        if isinstance(data, bytes):
            data = data.decode("utf-8")
        return json.loads(data, parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise MalformedLine("not valid UTF-8") from None
    except RecursionError:
        raise MalformedLine("JSON nested too deeply") from None
    except ValueError as e:
        msg = str(e)
        if "is not JSON" in msg:
            raise MalformedLine("NaN or Infinity is not JSON") from None
        raise MalformedLine(f"not JSON ({msg.split(':')[0]})") from None


def read_document(stream: io.BufferedIOBase, first: bytes, limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """The rest of a multi-line JSON document (after its `first` line), bounded by `limit` bytes."""
    parts = [first]
    size = len(first)
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise DocumentTooLarge(
                f"a multi-line JSON document larger than {limit // (1024 * 1024)} MiB "
                "(write one OTLP export request per line to stream it)"
            )
        parts.append(chunk)
    return parse_json(b"".join(parts))

"""Extraction: `(path, bytes)` -> ModuleFacts. Pure, per file, cached by blob id (see cache.py)."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

from receipt.extract.facts import ModuleFacts
from receipt.extract.python import extract_python, frameworks_imported, module_name_for

_BINARY_SNIFF = 8000
# What `git lfs` commits in place of a tracked file: the content lives outside git, so it cannot be read.
LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/v1\n"
# Files are read up to this size; `max_file_bytes` (config) limits the code size, not the file size.
READ_CEILING = 64 * 1024 * 1024


def _version() -> str:
    """Changes whenever the extraction code changes, so stale cache entries are never reused."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    # Every module of this package: a helper the extractor starts to import is covered without a list.
    for f in sorted(here.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    corvid = here.parent / "dialects" / "corvid.py"
    if corvid.exists():  # descriptor files are parsed at file level by that dialect
        h.update(corvid.read_bytes())
    return h.hexdigest()[:16]


EXTRACTOR_VERSION = _version()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic-GC passes while one file's facts are built or decoded (outside a run: see gc_quiet_run).

    Every collection triggered by the allocations of a file re-scans the facts kept alive so far.
    Facts hold no reference cycles (reference counting frees them), and the collector runs again as
    soon as the file is done; the output is the same either way.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_run_depth = 0


@contextlib.contextmanager
def gc_quiet_run() -> Iterator[None]:
    """No cyclic-GC pass during one whole run (a receipt or a surface).

    Re-enabling the collector after each file made it scan that file's objects at once: 20-30% of a
    cold run. Extraction, linking and rendering make almost no reference cycles (a receipt of 1,500
    files leaves about 4,000 cyclic objects; a recursive closure is one, so extraction has none),
    and reference counting frees everything else as soon as it is dropped, so peak memory is the
    same without the collector. It is switched back on, with its usual settings, when the run ends.
    """
    global _run_depth
    if _run_depth or not gc.isenabled():
        yield
        return
    _run_depth += 1
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        _run_depth -= 1


def _error(path: str, reason: str, message: str, line: int | None = None, data: bytes = b"") -> ModuleFacts:
    module, is_package = module_name_for(path)
    # Undecodable text is still scanned for framework imports (latin-1 never fails): fail closed.
    frameworks = frameworks_imported(data.decode("latin-1")) if data else []
    return ModuleFacts(path=path, module=module, is_package=is_package,
                       error={"line": line, "reason": reason, "message": message, "frameworks": frameworks})


def decode_python(path: str, data: bytes) -> str | ModuleFacts:
    """Source text honouring PEP 263 coding cookies and BOMs; an error fact when undecodable."""
    if b"\0" in data[:_BINARY_SNIFF]:
        return _error(path, "binary", "binary content in a Python file", data=data)
    try:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError:
            encoding = "utf-8"  # undecodable first lines: decoding below says where
            data.decode(encoding)
            return _error(path, "bad-encoding", "unknown source encoding declaration", data=data)
        text = data.decode(encoding)
    except LookupError:
        return _error(path, "bad-encoding", "unknown source encoding declaration", data=data)
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return _error(path, "non-utf8", f"not valid {encoding}: undecodable byte at offset {e.start}", line, data)
    return text.lstrip("\ufeff")


def extract_file(path: str, data: bytes) -> ModuleFacts:
    """Facts of one source file. Never raises for bad content: the problem is recorded in `error`."""
    with gc_paused():
        return _extract(path, data)


def _extract(path: str, data: bytes) -> ModuleFacts:
    if data.startswith(LFS_POINTER_PREFIX):
        return _error(
            path, "lfs-pointer", "Git LFS pointer: the file's content is stored outside git and cannot be analysed", 1
        )
    if path.endswith(".py"):
        text = decode_python(path, data)
        if isinstance(text, ModuleFacts):
            return text
        return extract_python(path, text)
    if path.endswith(".corvid-abi.json"):
        try:
            from receipt.dialects import corvid
        except ImportError:  # pragma: no cover - dialect not installed
            return _error(path, "unsupported", "Corvid descriptors are not supported by this build")
        return corvid.parse_descriptor(path, data)
    return _error(path, "unsupported", "not a recognised source file")


def code_size(data: bytes) -> int:
    """Bytes of a Python file that are code: comments, string contents and blank space left out,
    so padding a file with a comment or a long docstring does not make it 'too large'."""
    size = 0
    try:
        for tok in tokenize.tokenize(io.BytesIO(data).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                continue
            size += 2 if tok.type == tokenize.STRING else len(tok.string.encode("utf-8"))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, LookupError):
        return len(data)
    return size


def too_large(path: str, data: bytes, max_code_bytes: int) -> ModuleFacts | None:
    """An error fact when the file's code (not its comments) exceeds the limit, else None."""
    n = code_size(data) if path.endswith(".py") else len(data)
    if n <= max_code_bytes:
        return None
    return _error(path, "too-large", f"{n} bytes of code exceed the {max_code_bytes}-byte limit (max_file_bytes)", data=data)

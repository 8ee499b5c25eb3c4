"""The pipeline, end to end: git -> extract -> link -> Surface; Surface x Surface -> diff -> policy -> Receipt.

The only module that wires stages together. Each stage stays pure; I/O (git, cache, clock) is here.
"""

from __future__ import annotations

import copy
import datetime as _dt
import functools
import hashlib
import json
import os
import posixpath
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from receipt import __version__, retain
from receipt.canonical import canonical_json, sha256_hex
from receipt.config import CONFIG_FILES, TEST_EXCLUDE, Config, parse_config, select_config
from receipt.diff import config_change, diff_surfaces, extraction_error_changes, summarize, unresolved_changes
from receipt.errors import ConfigError, GitError
from receipt.extract import READ_CEILING, extract_file, gc_paused, gc_quiet_run, too_large
from receipt.extract.cache import FactsCache, SurfaceCache, decode_entry, default_cache_dir, encode_entry
from receipt.extract.facts import CorruptEntry, ModuleFacts
from receipt.extract.screens import ScreenMemo  # small; extract.program and screenstore are imported where a surface is linked
from receipt.gitsource import GitRepo, SourceFile, TreeListing
from receipt.identity import pair_with_doubts
from receipt.layout import Layout, is_layout_file, read_layout
from receipt.models import Entry, ExtractionIssue, Receipt, RevInfo, Surface, ToolInfo
from receipt.policy import apply_policy
from receipt.trustroots import keyring_changes, template_change, unmatched_config_changes

if TYPE_CHECKING:
    from receipt.extract.forked import Aside

# Whether a receipt's head reuses the screens its base computed (receipt/extract/screens.py). Off:
# measured cold on an idle 2-core machine (2026-11-23), recording the base's reads cost as much as
# the head saved (wall 26.2 -> 29.3 s at 5,000 files, 5.6 -> 5.8 s on awslabs/mcp, 7.9 -> 8.1 s at
# 1,500) and its read sets raised peak memory by a third to a half (504 -> 768 MB at 5,000 files,
# past the 500 MB budget). The mechanism stays, tested, for the incremental case: screens saved with
# a base's cached surface, where nothing is recorded in the run that reuses them.
SHARE_SCREENS = False
# Whether a surface stored in the surface cache keeps its dialects' screens (extract/screenstore.py),
# and the head of a receipt whose base was read from that cache reuses them. On. Measured 2026-11-24
# on the loaded 2-core machine (CPU = user+sys and peak RSS (KB / 1024 = MB, as the benchmarks
# print it) from /usr/bin/time; `receipt surface HEAD~1` into an empty cache, then the incremental
# `trace-diff HEAD~1 HEAD`; receipts byte-identical on and off), off -> on:
# - 5,000-file synthetic repo: incremental 10.8 -> 7.4-7.7 s CPU, peak 482 MB (473-477 off);
#   `receipt surface` (which records them) 33 -> 35-42 s CPU, peak 465 -> 483-486 MB (it was
#   489-494 before the entry's body was compressed piece by piece, 770 MB before StoreMemo);
# - 1,500 files: incremental 2.8 -> 2.1-2.4 s CPU, peak 164 -> 162-166 MB;
# - awslabs/mcp 67a86c331~1..67a86c331: incremental 2.0 -> 2.0 s CPU, 150 -> 148 MB (most of its
#   modules' screens select something, and those were computed again; since e2f290f a selection is
#   kept too when it can be said by where its objects are: the head's MCP dialect 0.62 -> 0.35 s).
# What is left of the recording's memory at 5,000 files (~16-20 MB, counted at the end of the
# dialects): the map of names to their resolutions' hashes (89,000 names, ~8 MB), those hashes
# (719,000, 2.9 MB), per module the sites that selected nothing (109,000), the hashes they read
# (176,000) and the names whose resolution they read (181,000). Measured again 07:00 UTC, after
# the extraction pool's parent started extracting too (a10a680: +8-10 MB in the parent), the
# `receipt` CLI at 5,000 files: `receipt surface` 491-508 MB with screens, 474 MB without: at
# the budget's edge again; the incremental trace-diff 481 MB.
KEEP_SCREENS = True
# Whether the head of such a receipt keeps its own screens too (for a later receipt whose base it
# is: a push's before -> after). Off: measured (2026-11-24, CPU, loaded machine), recording the
# screens the head computes again cost more than the reuse saved on awslabs/mcp (head dialects
# 1.6 s without kept screens, 2.2 s reusing and recording, 1.4 s reusing only), where most modules'
# call-site selections are not empty and are computed again. A surface linked alone
# (`build_surface`, `receipt surface`: the default branch's precompute) keeps them.
RECORD_HEADS = False
# Cold receipt: the extraction workers write the base's cache entries only once the base is linked
# (FactsCache.hold_writes), not beside the two links (the base's here, the head's in a child), which
# take both cores while the receipt waits for the base's. Off: measured only on a machine loaded by
# other work (load 6-7), where wall time says nothing (benchmarks/README "Cold stages"); the
# entries' writes are then started as soon as extraction ends, as before.
HOLD_WRITES = False
# Whether the head of a receipt whose base's screens are kept reads some of its facts from the cache
# lazily (extract/facts.py `facts_from_json(lazy=True)`): a module's expressions decoded only when
# something reads them. Only the modules the kept screens say the head hardly reads (`_lazy_paths`:
# every base screen selected nothing there, bar `screens.LIGHT_SITES`); the others are decoded at
# once. Lazy for every module was measured (2026-11-24, CPU, build_receipt as trace-diff runs it):
# 10-15% faster at 1,500 synthetic files but 28% slower on awslabs/mcp, where most modules' screens
# select something and read most records one by one, dearer than decoding them at once. Chosen per
# module (and with the reference cycle of each lazily read module gone, ca55622), measured
# 14:05 UTC, medians of 3, alternated, same receipts: 1,500 files 1.46-1.48 s (eager 1.66-1.75),
# awslabs/mcp 67a86c331~1..67a86c331 1.63-1.74 s (eager 1.69-1.72). A module read lazily keeps
# its entry's bytes and its peeks, not its parsed JSON (facts.py `_Pending.peek`): kept parsed to the
# end of the run, the JSON of 5,000 modules took the peak to 887 MB (534 MB eager), so lazy heads
# were then off above 2,000 modules. Measured 2026-11-25 05:40 UTC (load < 1, one run each, same
# receipts), incremental trace-diff, wall / peak RSS: 1,500 files 1.75-1.82 s / 145 MB (1.86-1.95 s /
# 280 MB keeping the JSON); 5,000 files 5.7-6.3 s / 424 MB (eager: 7.0-7.7 s / 540 MB).
LAZY_HEADS = True
# Whether a surface that keeps its screens keeps an index of its modules too (moduleindex.py), from
# which a later head makes the modules it reads lazily and shares with it, without their entries.
# Measured 2026-12-08 (A/B, interleaved, same receipts): incremental trace-diff at 1,500 files
# 1.05-1.16 -> 0.88-0.93 s (reading the head's 1,424 lazy modules: 0.44 -> 0.25 s), 5,000 files
# 3.48 -> 2.89 s (peak 409 -> 431 MB); awslabs/mcp unchanged (most of its lazily read modules have
# a record read anyway). The precompute (`receipt surface`) pays for it: 1,500 files 5.4 -> 6.0 s,
# 5,000 files 19.3 -> 20.9 s, its peak unchanged (the index is written record by record).
INDEX_MODULES = True

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass
class LoadedConfig:
    config: Config
    path: str | None  # where it was found (repo-relative), None for defaults or a file outside the repository
    text: str | None  # None: defaults (no file at this revision)
    outside: bool = False  # a local file outside the repository (local runs that name it only)


def config_location(repo: GitRepo, config_file: str, *, allow_outside: bool = True) -> tuple[str | None, Path | None]:
    """Where a named config file lives: (repo-relative path, None), or (None, local path) outside the repository.

    A relative name is repo-relative (what the Action's `config:` input means); an absolute one, or
    one that climbs out with "..", is resolved on disk and kept repo-relative when it is inside the
    work tree. Outside the repository it is accepted only for a local run (`allow_outside`).
    """
    raw = config_file.replace(os.sep, "/")
    norm = posixpath.normpath(raw)
    if not posixpath.isabs(norm) and norm != ".." and not norm.startswith("../"):
        return norm.removeprefix("./"), None
    local = Path(config_file).expanduser().resolve()
    work = repo.work_tree
    if work is not None and local.is_relative_to(work):
        return local.relative_to(work).as_posix(), None
    if not allow_outside:
        raise ConfigError(
            f"configuration file {config_file} is outside the repository: receipt ci reads the config "
            "from the base revision, so name a file committed to the repository"
        )
    return None, local


def load_config(
    repo: GitRepo, sha: str, config_file: str | None = None, *, allow_outside: bool = True, required: bool = True
) -> LoadedConfig:
    """The receipt's configuration *as of `sha`* (the base revision for gating: a PR cannot relax its own gate).

    A named file is read from the tree at `sha`, never from the work tree. When it is not there:
    an error (exit 2, with the path) if `required`, else defaults (the caller reports the addition
    as `config.changed`). A file outside the repository is read from disk, for local runs only.
    """
    if config_file:
        rel, local = config_location(repo, config_file, allow_outside=allow_outside)
        if local is not None:
            try:
                data = local.read_bytes()
            except OSError:
                raise ConfigError(f"configuration file not found: {config_file}") from None
            text = _decode_config(data, config_file)
            cfg = parse_config(text, local.name if local.name in CONFIG_FILES else ".receipt.toml")
            return LoadedConfig(cfg or Config(), None, text, outside=True)
        assert rel is not None
        data = repo.read_path(sha, rel)
        if data is None:
            if required:
                raise ConfigError(f"configuration file not found at {sha[:12]}: {rel}")
            return LoadedConfig(Config(), rel, None)
        text = _decode_config(data, rel)
        cfg = parse_config(text, _config_kind(rel))
        return LoadedConfig(cfg or Config(), rel, text)
    texts = _default_config_texts(repo, sha)
    found, cfg = select_config(texts)  # both files configuring the receipt is an error, not a silent pick
    return LoadedConfig(cfg, found, texts[found] if found else None)


def _config_kind(rel: str) -> str:
    """How to read a named file: pyproject.toml holds [tool.receipt]; any other name holds top-level keys."""
    name = posixpath.basename(rel)
    return name if name in CONFIG_FILES else ".receipt.toml"


def _default_config_texts(repo: GitRepo, sha: str) -> dict[str, str | None]:
    texts: dict[str, str | None] = {}
    for name in CONFIG_FILES:
        data = repo.read_path(sha, name)
        texts[name] = None if data is None else _decode_config(data, name)
    return texts


def _text_at(repo: GitRepo, sha: str, path: str) -> str | None:
    """A config file's text at a revision for comparison only: undecodable bytes are still a change."""
    data = repo.read_path(sha, path)
    return None if data is None else data.decode("utf-8", errors="replace")


def _config_changes(repo: GitRepo, base_sha: str, head_sha: str, config_file: str | None, loaded: LoadedConfig) -> list:
    """`config.changed` rows for the config files the run reads, compared base -> head (texts only:
    a PR that breaks its config file gets a row, not a crashed run)."""
    if loaded.outside:
        return []  # a local file outside the repository has no revisions to compare
    names = [loaded.path] if config_file and loaded.path else list(CONFIG_FILES)
    changes = []
    for name in names:
        change = config_change(name, _text_at(repo, base_sha, name), _text_at(repo, head_sha, name))
        if change is not None:
            changes.append(change)
    return changes


def _trust_root_changes(repo: GitRepo, base_sha: str, head_sha: str, base_cfg: Config, head_cfg: Config | None) -> list:
    """Keyring and template edits, for the files the base config names and those the PR's config
    would name (moving the keyring elsewhere is as much a change as editing it)."""
    changes: list = []
    keyrings = {base_cfg.keyring, *([head_cfg.keyring] if head_cfg else [])}
    for path in sorted(keyrings):
        changes += keyring_changes(path, repo.read_path(base_sha, path), repo.read_path(head_sha, path))
    templates = {base_cfg.template, *([head_cfg.template] if head_cfg else [])} - {None}
    for path in sorted(t for t in templates if t):
        change = template_change(path, repo.read_path(base_sha, path), repo.read_path(head_sha, path))
        if change is not None:
            changes.append(change)
    return changes


def _head_config(repo: GitRepo, head_sha: str, config_file: str | None, loaded: LoadedConfig) -> Config | None:
    """The config as the PR leaves it, only to know which keyring and template it names; None if unreadable."""
    if loaded.outside:
        return loaded.config
    try:
        return load_config(repo, head_sha, config_file, required=False).config
    except ConfigError:
        return None  # its config.changed row already says it changed


def _decode_config(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"invalid configuration in {name}: not UTF-8") from None


def _listing(repo: GitRepo, sha: str, paths: Sequence[str], config: Config, strict: bool) -> TreeListing:
    exclude = [*config.exclude, *([] if config.include_tests else TEST_EXCLUDE)]
    # Files are listed up to a hard read ceiling; `max_file_bytes` is applied to the *code* size
    # (see _facts_for), so padding a file with comments cannot push it out of the analysis.
    return repo.list_files(
        sha, paths or config.paths, exclude=exclude, max_bytes=max(READ_CEILING, config.max_file_bytes), strict_paths=strict and bool(paths)
    )


def _extracted(repo: GitRepo, f: SourceFile, cache: FactsCache, max_code_bytes: int | None) -> ModuleFacts:
    """A file's facts computed from its blob in this run (never from the disk cache)."""
    done = cache.get(f.blob, f.path, disk=False)
    if done is not None:
        return done
    if max_code_bytes is not None and f.size > max_code_bytes:
        over = too_large(f.path, repo.read_blob(f.blob), max_code_bytes)
        if over is not None:  # None: its code is under the limit (the rest is comments)
            return over
    facts = extract_file(f.path, repo.read_blob(f.blob))
    cache.put(f.blob, f.path, facts)
    return facts


def _facts_for(
    repo: GitRepo, listing: TreeListing, cache: FactsCache, progress: Progress, fresh: frozenset[tuple[str, str]] = frozenset(),
    max_code_bytes: int | None = None, *, lazy: frozenset[str] = frozenset(), index: Any = None,
) -> tuple[list[ModuleFacts], list[ExtractionIssue], list[ExtractionIssue]]:
    """Facts of every listed file. A `(blob, path)` in `fresh` (what differs between the two
    revisions compared) is always extracted from its blob, never taken from the disk cache.
    `lazy`: the paths whose entries in the disk cache are read lazily (FactsCache.get), or from
    `index` (a module index kept with the base, moduleindex.py) when it holds them."""
    errors = [s for s in listing.skipped if s.kind == "error"]
    skipped = [s for s in listing.skipped if s.kind != "error"]
    total = len(listing.files)
    # A file over the size limit is never taken from the disk cache: its entry was computed without
    # the limit this run's (base) config sets, which must decide (`_extracted`: too large, or not).
    over = [max_code_bytes is not None and f.size > max_code_bytes for f in listing.files]
    found = [None if big else cache.get(f.blob, f.path, disk=(f.blob, f.path) not in fresh, lazy=f.path in lazy, index=index) for f, big in zip(listing.files, over)]
    missing = [f for f, got, big in zip(listing.files, found, over) if got is None and not big]
    # Imported here: a rerun served by the surface cache never extracts in workers (nor links).
    from receipt.extract.forked import worker_count

    workers = worker_count(len(missing))
    if workers:
        _extract_in_workers(repo, missing, cache, progress, workers, total - len(missing), total)
    facts: list[ModuleFacts] = []
    for i, (f, got) in enumerate(zip(listing.files, found)):
        if i % 50 == 0 and not workers:
            progress(f"{i}/{total} files")
        if got is None:
            got = _extracted(repo, f, cache, max_code_bytes)  # what the workers did is in memory now
        facts.append(got)
        if got.error:
            errors.append(
                ExtractionIssue(path=f.path, line=got.error.get("line"), kind="error", reason=got.error["reason"],
                                message=got.error["message"], frameworks=got.error.get("frameworks", []))
            )
    return facts, errors, skipped


def _extract_in_workers(repo: GitRepo, files: list[SourceFile], cache: FactsCache, progress: Progress, workers: int, done: int, total: int) -> None:
    """Facts of `files` into `cache` (memory and directory), made by worker processes. What they
    could not do (a missing object, a crash, no processes to be had) is left to the caller, which
    extracts it in this process, as without workers."""
    from receipt.extract.pool import KEPT, extract_entries

    cache.settle()  # writes of an earlier pool (the base's) end before this one forks its workers
    try:
        def local(i: int) -> bytes | None:
            """What this process extracts while it waits: kept in `cache`; its entry is written by a worker."""
            f = files[i]
            facts = extract_file(f.path, repo.read_blob(f.blob))
            entry = None if cache.root is None else encode_entry(f.blob, f.path, facts)
            cache.put(f.blob, f.path, facts, entry=entry, stored=KEPT)
            return entry

        jobs = [(f.blob, f.path) for f in files]
        made_all = extract_entries(repo.git_dir, jobs, cache.root, workers, local, cache.unsettled, defer=cache.hold_writes)
        # Read to its end, never zipped with `files`: the pool hands its workers the cache writes
        # after the last entry, so a generator left at that point would drop them.
        for i, made in enumerate(made_all):
            if (done + i) % 50 == 0:
                progress(f"{done + i}/{total} files")
            if made is not None:
                f, (entry, stored, digest) = files[i], made
                try:
                    facts = decode_entry(entry, f.blob, f.path, cache.shared, made=True)  # a worker's, from its pipe
                except Exception:  # noqa: BLE001 - an entry rejected as FactsCache.get rejects one: extracted here
                    continue
                cache.put(f.blob, f.path, facts, entry=entry, stored=stored, digest=digest)
    except (OSError, RuntimeError):  # RuntimeError: BrokenProcessPool, a worker died
        pass


@dataclass
class LayoutFiles:
    """The package-layout files of one revision (all of the tree, whatever PATHs limit the scan)."""

    files: list[SourceFile]
    issues: list[ExtractionIssue]  # what could not be listed (e.g. too large)


def _layout_files(repo: GitRepo, sha: str) -> LayoutFiles:
    listed = repo.list_files(sha, wanted=is_layout_file)
    return LayoutFiles(listed.files, [s for s in listed.skipped if s.kind == "error" and is_layout_file(s.path)])


def layout_of(repo: GitRepo, found: LayoutFiles, listing: TreeListing) -> Layout:
    """The package layout of a revision: its layout files read, and the `src/` folders its files show."""
    layout = read_layout({f.path: repo.read_blob(f.blob) for f in found.files}, (f.path for f in listing.files))
    layout.issues += found.issues
    return layout


def surface_from_facts(
    facts: Sequence[ModuleFacts], *, rev: str, sha: str, exports: Sequence[str] = (), layout: Layout | None = None,
    screens: ScreenMemo | None = None,
) -> tuple[Surface, list[ExtractionIssue]]:
    """Pure: per-file facts -> linked surface (and unresolved-registration issues). `screens`: what
    the dialects' scans selected in the run's program before, reused where provably the same."""
    from receipt.dialects.registry import dialects_for
    from receipt.extract.program import Program
    from receipt.link import link

    program = Program([f for f in facts if not f.error], layout)
    program.screens = screens
    imported = [*program.imports.values(), *(s for m in program.modules.values() for s in m.star_imports)]
    results = [d.extract(program) for d in dialects_for(imported)]
    if screens is not None:
        screens.release()
    entries, issues = link(program, results, exports)
    surface = Surface(
        rev=rev,
        sha=sha,
        agents=[e for e in entries if e.kind == "agent"],
        tools=[e for e in entries if e.kind == "tool"],
        prompts=[e for e in entries if e.kind == "prompt"],
    )
    return surface, issues


def build_surface(
    repo: GitRepo,
    rev: str,
    *,
    paths: Sequence[str] = (),
    config: Config | None = None,
    cache: FactsCache | None = None,
    strict_paths: bool = True,
    progress: Progress = _quiet,
    listing: TreeListing | None = None,
    fresh: frozenset[tuple[str, str]] = frozenset(),
    reuse_linked: bool = True,
    layout_files: LayoutFiles | None = None,
    screens: ScreenMemo | None = None,
    keep_screens: bool = True,
) -> Surface:
    """The surface of `rev`.

    With `reuse_linked`, a surface linked before from exactly this tree (every path and blob),
    config, tool and interpreter is reused, provided the files in `fresh` (for a receipt: what
    differs between its two revisions), extracted from their blobs in this run, have the very facts
    it was linked from. No cached entry can then stand in for what a change touches.

    `keep_screens`: a surface linked and stored keeps its dialects' screens too (screenstore.py),
    for the head of a later receipt whose base it is (the default branch's precomputed surface).
    """
    return _surface_of(
        repo, rev, paths=paths, config=config, cache=cache, strict_paths=strict_paths, progress=progress, listing=listing, fresh=fresh,
        reuse_linked=reuse_linked, layout_files=layout_files, screens=screens, keep_screens=keep_screens,
    ).surface


@dataclass
class _Linked:
    """A surface and the canonical JSON of its entry lists (`_ENCODED`), encoded once: when it was
    stored, or read back from the surface cache. Its digest is made from those bytes."""

    surface: Surface
    encoded: dict[str, bytes]
    # Read from the surface cache: the binding and facts digests its stored screens are sealed to.
    kept: tuple[dict[str, str], dict[str, str]] | None = None


@dataclass
class _Prior:
    """The base of a receipt, read from the surface cache: what its head needs to reuse the screens
    stored with it (screenstore.py)."""

    bound: dict[str, str]
    digests: dict[str, str]
    listing: TreeListing
    layout_files: LayoutFiles
    # Its kept screens once read (screenstore.Kept; False: none to be had), by `_lazy_paths`.
    kept: Any = None
    # Its module index (moduleindex.ModuleIndex), read with its screens by `_lazy_paths`.
    index: Any = None


# The fields a surface's digest takes from their stored encoding: nothing changes them once linked.
# The other fields (rev, sha, and the issues a receipt marks `touched`) are encoded when digested.
_ENCODED = ("agents", "prompts", "tools")


@gc_quiet_run()
def _surface_of(
    repo: GitRepo,
    rev: str,
    *,
    paths: Sequence[str] = (),
    config: Config | None = None,
    cache: FactsCache | None = None,
    strict_paths: bool = True,
    progress: Progress = _quiet,
    listing: TreeListing | None = None,
    fresh: frozenset[tuple[str, str]] = frozenset(),
    reuse_linked: bool = True,
    layout_files: LayoutFiles | None = None,
    screens: ScreenMemo | None = None,
    keep_screens: bool = False,
    prior: _Prior | None = None,
    seen: _SeenEntries | None = None,
    before_link: Callable[[], None] | None = None,
) -> _Linked:
    """`before_link`: called once every file's facts are known, when the surface is to be linked
    (not when it is read from the surface cache)."""
    sha = repo.resolve(rev)
    config = config or Config()
    if cache is None:  # this run's own: the entries workers are still writing are waited for here
        cache = FactsCache(default_cache_dir(repo.git_dir))
        try:
            return _surface_of(
                repo, rev, paths=paths, config=config, cache=cache, strict_paths=strict_paths, progress=progress,
                listing=listing, fresh=fresh, reuse_linked=reuse_linked, layout_files=layout_files, screens=screens,
                keep_screens=keep_screens, prior=prior, seen=seen, before_link=before_link,
            )
        finally:
            cache.settle()
    listing = listing or _listing(repo, sha, paths, config, strict_paths)
    layout_files = layout_files or _layout_files(repo, sha)
    linked = SurfaceCache(cache.root)
    bound = linked.binding(_tree_key(listing, layout_files), config.model_dump(mode="json"))
    if reuse_linked:
        stored = linked.get(bound)
        if stored is not None:
            if seen is not None:  # the files that differ, extracted by a child process while this one reads the surface
                seen.start_digests(repo, cache, config.max_file_bytes)
                seen.read_kept(cache, bound, stored[1])
            found = _stored_surface(stored[0], rev, sha, seen)
            if found is not None and _same_facts(repo, listing, cache, fresh, config.max_file_bytes, stored[1], seen):
                found.kept = (bound, stored[1])
                return found
    # A head whose base's screens are kept reads lazily the modules those screens say its dialects
    # will hardly read (see LAZY_HEADS).
    lazy: frozenset[str] = frozenset()
    if LAZY_HEADS and KEEP_SCREENS and prior is not None and screens is None and not keep_screens:
        lazy = _lazy_paths(cache, prior)
    index = prior.index if lazy and prior is not None else None
    facts, errors, skipped = _facts_for(repo, listing, cache, progress, fresh, config.max_file_bytes, lazy=lazy, index=index)
    if prior is not None:  # its records are facts now (a record reads its entry, not the index): let go
        prior.index = index = None
    if before_link is not None:
        before_link()
    try:
        return _linked(repo, rev, sha, config, cache, progress, listing, fresh, layout_files, linked, bound, facts, errors, skipped, screens, keep_screens, prior)
    except CorruptEntry:
        if not lazy:
            raise
    # An entry read lazily turned out malformed when the link read it: every file is read again,
    # eagerly (the malformed entry is then a miss, extracted from its blob and written again), and
    # the surface linked again from scratch, as if no entry had been read lazily.
    cache.forget_lazy()
    facts, errors, skipped = _facts_for(repo, listing, cache, progress, fresh, config.max_file_bytes)
    return _linked(repo, rev, sha, config, cache, progress, listing, fresh, layout_files, linked, bound, facts, errors, skipped, screens, keep_screens, prior)


def _lazy_paths(cache: FactsCache, prior: _Prior) -> frozenset[str]:
    """The paths of the modules a head reads lazily: those whose every screen the base's kept
    entry holds (they selected nothing there), bar the sites that read little of a module
    (`screens.LIGHT_SITES`). A module some other screen selected in is read eagerly: its screen
    is computed again and reads most of it, which costs more one record at a time than at once.
    The entry is kept on `prior` for `_prior_screens`. Only a choice of how to read an entry:
    what is read is the same either way."""
    if prior.kept is None:
        prior.kept, prior.index = _kept_with(cache, prior.bound, prior.digests)
    return _hardly_read(prior.kept) if prior.kept else frozenset()


def _kept_with(cache: FactsCache, bound: dict[str, str], digests: dict[str, str]) -> tuple[Any, Any]:
    """What is kept with the surface stored under `bound`, linked from facts with `digests`: its
    screens (screenstore.Kept; False: none to be had) and, with them, its module index (or None)."""
    from receipt.extract import screenstore

    kept = screenstore.load(cache.root, bound, digests) or False
    if not kept or not INDEX_MODULES:
        return kept, None
    from receipt.extract import moduleindex

    return kept, moduleindex.load(cache.root, bound, digests)


def _hardly_read(kept: Any) -> frozenset[str]:
    """The paths of kept screens (screenstore.Kept) a head reads lazily (see `_lazy_paths`)."""
    from receipt.extract.screens import LIGHT_SITES

    modules = kept.modules
    every = set().union(*(sites for sites, _hashes, _selected in modules.values()))
    heavy = every - LIGHT_SITES
    return frozenset(path for path, (sites, _hashes, _selected) in modules.items() if heavy.issubset(sites))


def _linked(
    repo: GitRepo, rev: str, sha: str, config: Config, cache: FactsCache, progress: Progress, listing: TreeListing,
    fresh: frozenset[tuple[str, str]], layout_files: LayoutFiles, linked: SurfaceCache, bound: dict[str, str], facts: list[ModuleFacts],
    errors: list[ExtractionIssue], skipped: list[ExtractionIssue], screens: ScreenMemo | None, keep_screens: bool, prior: _Prior | None,
) -> _Linked:
    """The rest of `_surface_of` once every file's facts are known: linked, and stored."""
    progress("linking")
    layout = layout_of(repo, layout_files, listing)
    keep = KEEP_SCREENS and keep_screens and linked.root is not None and screens is None
    if keep or (KEEP_SCREENS and prior is not None and screens is None):
        memo = _prior_screens(repo, prior, listing, facts, cache, fresh, config.max_file_bytes, keep, (layout_files, layout)) if prior is not None else None
        if memo is None and keep:
            from receipt.extract.screenstore import StoreMemo

            memo = StoreMemo({id(m) for m in facts})
        screens = memo
    surface, issues = surface_from_facts(facts, rev=rev, sha=sha, exports=config.exports, layout=layout, screens=screens)
    surface.errors = sorted([*errors, *layout.issues], key=lambda e: (e.path, e.line or 0))
    # Registrations that look real but cannot be resolved are reported, not dropped.
    surface.skipped = sorted([*skipped, *issues], key=lambda e: (e.path, e.line or 0, e.message))
    data = surface.model_dump(mode="json", by_alias=True, exclude={"rev", "sha"})
    try:
        parts = {k: canonical_json(v) for k, v in sorted(data.items())}
    except ValueError:  # a value canonical JSON refuses (NaN): neither stored nor digested here
        return _Linked(surface, {})
    if linked.root is not None:
        digests = {f.path: cache.digest(f.blob, f.path, m) for f, m in zip(listing.files, facts)}
        if linked.put(bound, parts, digests):
            cache.written += 1  # a linked surface counts toward the directory's bound like facts
        if keep and screens is not None:
            from receipt.extract import screenstore

            body = screenstore.encode(screens, {id(m) for m in facts})
            del screens
            if body is not None and screenstore.store(cache.root, bound, digests, body):
                cache.written += 1
                if INDEX_MODULES:  # of the modules a head will read lazily, as these screens say
                    from receipt.extract import moduleindex

                    lazy = _hardly_read(screenstore.unpacked(body))
                    cache.settle()  # made from the entries as stored: the workers' writes first
                    if moduleindex.store(cache.root, bound, digests, [f for f in listing.files if f.path in lazy]):
                        cache.written += 1
    return _Linked(surface, {k: parts[k] for k in _ENCODED})


def _prior_screens(
    repo: GitRepo, prior: _Prior, listing: TreeListing, facts: Sequence[ModuleFacts], cache: FactsCache, fresh: frozenset[tuple[str, str]],
    max_code_bytes: int, recording: bool, head_layout: tuple[LayoutFiles, Layout] | None = None,
) -> ScreenMemo | None:
    """A memo of the screens stored with a receipt's base surface, for its head (None: none to be
    had). The base's program is built again from this run's facts objects: the head's for the
    files both revisions share, the base's own (extracted from their blobs) for those that differ.
    Each must have the digest the stored surface records, or nothing is reused: the screens were
    computed from exactly those facts."""
    from receipt.extract import screenstore
    from receipt.extract.program import Program
    from receipt.extract.screens import _Kept, kept_of

    if not screenstore.stored(cache.root, prior.bound):
        return None
    mine = {f.path: m for f, m in zip(listing.files, facts)}
    base: list[ModuleFacts] = []
    shared: list[ModuleFacts] = []
    for f in prior.listing.files:
        if (f.blob, f.path) in fresh:
            m = _extracted(repo, f, cache, max_code_bytes)
        else:  # the same blob at the head: the head's facts object, which both programs then hold
            found = mine.get(f.path)
            if found is None:
                return None
            m = found
            shared.append(m)
        if prior.digests.get(f.path) != cache.digest(f.blob, f.path, m):
            return None
        base.append(m)
    # The head's layout when the base's is read from the same layout files and the same file paths
    # (a change that adds, removes or moves no file, nor edits a pyproject.toml): read_layout parses
    # every pyproject.toml of the tree (awslabs/mcp: 122, ~0.05 s).
    files, layout = head_layout or (None, None)
    same_layout = files is not None and _same_tree(prior.layout_files, files) and [f.path for f in prior.listing.files] == [f.path for f in listing.files]
    if not same_layout:
        layout = layout_of(repo, prior.layout_files, prior.listing)
    kept = screenstore.load(cache.root, prior.bound, prior.digests) if prior.kept is None else prior.kept or None
    if kept is None:
        return None
    # Held by the memo from here on, which lets go of it once attached (the base's effects by where
    # each one is, 26,707 at 1,500 files): not kept to the end of the run (an entry found corrupt
    # later reads it again).
    prior.kept = None
    program: Any
    if kept.effects is not None:
        # What comparing the base's program with the head's reads of it, without building it: what
        # depends on its tree alone, and its effects by where each one is, as the entry keeps them.
        effects, modules = kept.effects, [m for m in base if not m.error]

        def program(head: Any) -> _Kept:
            """Made once the head's program is: the head's own tree-wide indexes when both are
            read under one layout with the same module names at the same paths (those indexes
            are made from the names, the paths and the layout alone), else the base's made anew."""
            if same_layout:
                by_name: dict[str, ModuleFacts] = {}
                for m in sorted(modules, key=lambda m: m.path):
                    by_name.setdefault(m.module, m)
                if len(by_name) == len(head.modules) and all(
                    name == other and m.path == o.path for (name, m), (other, o) in zip(by_name.items(), head.modules.items())
                ):
                    return _Kept(by_name, head.homes, head._by_import, head._suffix, effects, placed=True)
            tree = Program.tree_only(modules, layout)
            return _Kept(tree.modules, tree.homes, tree._by_import, tree._suffix, effects, placed=True)
    else:
        # Only what comparing it with the head's program reads is kept of the base's: its definition
        # indexes go before the head's program is built (they were 45 MB of the peak at 5,000 files).
        program = kept_of(Program([m for m in base if not m.error], layout))
    return screenstore.KeptMemo(kept, program, shared, recording)


def _same_tree(a: LayoutFiles, b: LayoutFiles) -> bool:
    """Whether two revisions' package-layout files are the same (path and blob each), and what could not be listed of them."""
    return [(f.path, f.blob) for f in a.files] == [(f.path, f.blob) for f in b.files] and a.issues == b.issues


def _stored_surface(parts: dict[str, bytes], rev: str, sha: str, seen: _SeenEntries | None = None) -> _Linked | None:
    """The surface a cache entry holds (None when it does not hold one this version reads).

    `seen`: the entries of a surface read before in this run (a receipt's base, for its head), by
    their JSON. An entry whose JSON is exactly one of those is that validated object, not validated
    again: a head shares all but the few entries its change touches with its base. Entry lists only
    (nothing changes an entry once linked); the issue lists are the receipt's to mark (`touched`)."""
    if any(k not in parts for k in _ENCODED) or any(k in parts for k in ("rev", "sha")):
        return None
    try:
        with gc_paused():
            surface = _validated(parts, rev, sha, seen)
    except (ValueError, RecursionError):  # ValidationError is a ValueError: a part that is not what this version reads (or nested past reading)
        return None
    return _Linked(surface, {k: parts[k] for k in _ENCODED})


class _SeenEntries(dict):
    """Entry list name -> {an entry's stored JSON text: (its place in that list, its validated Entry)}.

    For a receipt (`fresh_files`: the files its two revisions do not share), also the facts digests
    of those files, extracted from their blobs by a child process (`start_digests`) while this one
    reads and validates the stored surfaces: on two cores, the check costs no waiting."""

    def __init__(self, fresh_files: Sequence[SourceFile] = ()):
        super().__init__()
        self.fresh_files = list(fresh_files)
        self.digests: _FreshDigests | None = None
        self.started = False  # once: a child that could not start is not tried again
        # What is kept with a stored surface (its bound and digests, screens, module index), read
        # while the child extracts: the head's `_Prior` when that surface turns out to be the base's.
        self.kept: tuple[dict[str, str], dict[str, str], Any, Any] | None = None

    def read_kept(self, cache: FactsCache, bound: dict[str, str], digests: dict[str, str]) -> None:
        """Read the screens and module index kept with the surface stored under `bound` (the
        first revision's: the base), while the child started by `start_digests` works (on two
        cores, it would otherwise be waited for)."""
        if self.kept is not None or self.digests is None or not KEEP_SCREENS or not LAZY_HEADS:
            return
        self.kept = (bound, digests, *_kept_with(cache, bound, digests))

    def prior(self, bound: dict[str, str], digests: dict[str, str], listing: TreeListing, layout: LayoutFiles) -> _Prior:
        """The `_Prior` of a base read from the surface cache under `bound`, with what was read
        of it while the child worked."""
        prior = _Prior(bound, digests, listing, layout)
        if self.kept is not None and self.kept[0] == bound and self.kept[1] == digests:
            prior.kept, prior.index = self.kept[2], self.kept[3]
        self.kept = None
        return prior

    def start_digests(self, repo: GitRepo, cache: FactsCache, max_code_bytes: int) -> None:
        if not self.started and self.fresh_files:
            self.started = True
            self.digests = _FreshDigests.start(repo, self.fresh_files, cache, max_code_bytes)

    def digest(self, f: SourceFile, max_code_bytes: int) -> str | None:
        return None if self.digests is None else self.digests.get(f, max_code_bytes)

    def close(self) -> None:
        """The child process, if one was started, reaped (it ends by itself)."""
        if self.digests is not None:
            self.digests.get(None, None)

    def cancel(self) -> None:
        """The child stopped and reaped, if its result was not taken (an error in this process)."""
        if self.digests is not None:
            self.digests.cancel()


# Up to this many files that differ, their check starts before the surface cache is looked at: if
# the run links instead (a cold run), the child's work (~3 ms a file, on the other core) is lost.
_EARLY_CHECK_FILES = 64


class _FreshDigests:
    """`FactsCache.digest` of files extracted from their blobs (`_extracted`) by a forked child
    process (extract/forked.py `aside`): the same code on the same blobs, run beside this process.
    The child hands over their entries too, which this process decodes into the run's cache (as a
    pool worker's): the two revisions' files that differ are not extracted again here, by either
    revision's link. Anything the child could not do (no fork, one core, a crash, an error) is done
    here, as without it."""

    def __init__(self, job: Aside, files: int, max_code_bytes: int, cache: FactsCache):
        self._job, self._files, self._max, self._cache = job, files, max_code_bytes, cache
        self._found: dict[tuple[str, str], str] | None = None

    @classmethod
    def start(cls, repo: GitRepo, files: list[SourceFile], cache: FactsCache, max_code_bytes: int) -> _FreshDigests | None:
        from receipt.extract.forked import aside

        # Forked only from a process running one thread: `_extracted` reads and writes the cache,
        # which a pool's threads may be writing to (its entries) while a base linked here settles.
        if threading.active_count() > 1:
            return None

        def digests() -> bytes:
            mine = copy.copy(repo)
            mine.detach()  # its own `git cat-file`: the parent's pipes stay the parent's
            found = []
            for f in files:
                written = cache.written
                facts = _extracted(mine, f, cache, max_code_bytes)
                # The entry of facts the run keeps (a file over the size limit has none: its facts
                # are made for this run's limit alone, never cached).
                kept = cache.root is not None and cache.get(f.blob, f.path, disk=False) is facts
                entry = encode_entry(f.blob, f.path, facts) if kept else None
                digest = hashlib.sha256(entry).hexdigest() if entry is not None else cache.digest(f.blob, f.path, facts)
                found.append([f.blob, f.path, digest, None if entry is None else entry.decode("utf-8"), cache.written > written])
            return json.dumps(found).encode("utf-8")

        job = aside(digests)
        return None if job is None else cls(job, len(files), max_code_bytes, cache)

    def get(self, f: SourceFile | None, max_code_bytes: int | None) -> str | None:
        if self._found is None:
            self._found = self._collect()
        return self._found.get((f.blob, f.path)) if f is not None and max_code_bytes == self._max else None

    def cancel(self) -> None:
        if self._found is None:
            self._found = {}
            self._job.cancel()

    def _collect(self) -> dict[tuple[str, str], str]:
        # A bound only for a child stuck for good (a few ms a file): past it, this process does the files.
        data = self._job.result(60.0 + 0.1 * self._files)
        if data is None:
            return {}
        try:
            made = json.loads(data)
            found = {(blob, path): digest for blob, path, digest, _entry, _written in made}
        except (ValueError, TypeError):
            return {}
        cache = self._cache
        for blob, path, digest, entry, written in made:
            if entry is None or cache.get(blob, path, disk=False) is not None:
                continue
            raw = entry.encode("utf-8")
            try:
                facts = decode_entry(raw, blob, path, cache.shared, made=True)  # this run's child's, from its pipe
            except Exception:  # noqa: BLE001 - an entry rejected as FactsCache.get rejects one: extracted here
                continue
            cache.put(blob, path, facts, entry=raw, stored="written" if written else "held", digest=digest)
        return found


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not a JSON value")  # json reads NaN and Infinity: canonical JSON never holds them


_scan = json.JSONDecoder(parse_constant=_not_json).scan_once  # one JSON value at an index: (value, end)


def _validated(parts: dict[str, bytes], rev: str, sha: str, seen: _SeenEntries | None) -> Surface:
    """The stored parts read (json: every number exact) and validated by pydantic, every model and
    field checked as when they were linked; an entry seen before is that object (pydantic takes a
    model instance as it is, revalidating nothing), where its JSON text is exactly the same."""
    data: dict[str, object] = {}
    texts: dict[str, list[str]] = {}
    for name, raw in parts.items():
        if seen is not None and name in _ENCODED:
            data[name], texts[name] = _entry_list(raw.decode("utf-8"), seen.get(name, {}))
        else:
            data[name] = json.loads(raw, parse_constant=_not_json)
    surface = Surface.model_validate({**data, "rev": rev, "sha": sha})
    for name, listed in texts.items():
        known = seen.setdefault(name, {})  # type: ignore[union-attr]
        if not known:
            known.update((text, (i, entry)) for i, (text, entry) in enumerate(zip(listed, getattr(surface, name))))
    return surface


def _entry_list(text: str, known: dict[str, tuple[int, Entry]]) -> tuple[list[object], list[str]]:
    """The items of a stored entry list (canonical JSON) and each one's JSON text: an item whose text
    is one of `known`'s is that Entry; any other is read (json). Lists are sorted the same way at
    both revisions, so the next item is first looked for right after the last one found."""
    if not (text.startswith("[") and text.endswith("]")):
        raise ValueError("not a JSON list")
    order = list(known)
    items: list[object] = []
    texts: list[str] = []
    pos, last, nxt = 1, len(text) - 1, 0
    while pos < last:
        expected = order[nxt] if nxt < len(order) else ""
        end = pos + len(expected)
        if expected and text.startswith(expected, pos) and text[end : end + 1] in (",", "]"):
            item_text, found = expected, known[expected]
        else:
            try:
                value, end = _scan(text, pos)
            except StopIteration:
                raise ValueError("not a JSON list") from None
            item_text = text[pos:end]
            found = known.get(item_text)
        if found is not None:
            nxt = found[0] + 1
            items.append(found[1])
        else:
            items.append(value)
        texts.append(item_text)
        sep = text[end : end + 1]
        if sep == "," and end + 1 < last:
            pos = end + 1
        elif sep == "]" and end == last:
            pos = end
        else:
            raise ValueError("not a JSON list")
    return items, texts


def _same_facts(
    repo: GitRepo, listing: TreeListing, cache: FactsCache, fresh: frozenset[tuple[str, str]], max_code_bytes: int, recorded: dict[str, str],
    seen: _SeenEntries | None = None,
) -> bool:
    """True when every listed file in `fresh`, extracted from its blob now (here or by the child
    process `seen` started), has the recorded facts."""
    for f in listing.files:
        if (f.blob, f.path) in fresh:
            made = seen.digest(f, max_code_bytes) if seen is not None else None
            if made is None:
                made = cache.digest(f.blob, f.path, _extracted(repo, f, cache, max_code_bytes))
            if recorded.get(f.path) != made:
                return False
    return True


# A head of fewer files is linked in this process (after the base): forking costs more than it saves.
LINK_ASIDE_FILES = 64
_INHERITED: list = []  # in a child linking aside: what it holds of its parent's, kept until it exits


def _link_aside(
    git_dir: Path, head_sha: str, cache: FactsCache, listing: TreeListing, layout_files: LayoutFiles, config: Config,
    paths: Sequence[str], fresh: frozenset[tuple[str, str]],
) -> bytes:
    """In a forked child (extract/pool.py `aside`): the head's surface, linked exactly as in the
    parent (the same facts objects, extracted or inherited), as the bytes `_linked_aside` reads.
    Its own git reader: the parent's pipe to git is the parent's."""
    # The parent's pool is waited for by the parent. Its objects are never released here: releasing
    # the last reference to it runs a callback that takes a lock its thread (which this child does
    # not have) may have held when the child was forked, and the child would wait forever.
    _INHERITED.append(cache.unsettled)
    cache.unsettled = []
    written = cache.written
    # No pool of its own (a head that adds many files extracts them here): its workers would outlive
    # a child the parent stops (SIGKILL reaches the child alone), holding memory and its pipes.
    os.environ["RECEIPT_WORKERS"] = "1"
    repo = GitRepo(git_dir)
    try:
        linked = _surface_of(repo, head_sha, paths=paths, config=config, cache=cache, listing=listing, fresh=fresh, layout_files=layout_files)
        cache.settle()  # a pool this child started (a head that changes many files) ends here
    finally:
        repo.close()
    if not linked.encoded:  # a value canonical JSON refuses: the parent links it itself
        raise ValueError("surface not encodable")
    rest = linked.surface.model_dump(mode="json", by_alias=True, exclude={"rev", "sha", *linked.encoded})
    parts = {**{k: canonical_json(v) for k, v in rest.items()}, **linked.encoded}
    index = [[k, len(v)] for k, v in sorted(parts.items())]
    head = json.dumps({"written": cache.written - written, "parts": index}).encode("ascii")
    return b"\n".join([head, *(parts[k] for k, _ in index)])


def _linked_aside(job: tuple, rev: str, sha: str, cache: FactsCache) -> _Linked | None:
    """The head the child linked (`_link_aside`), or None (the caller links it): the child failed,
    or took far longer than this process took to link the base (plus the time its own extraction,
    `extracting`, should take): a wait that only bounds a child stuck for good, never a race."""
    child, started, extracting = job
    data = child.result(max(60.0, 4 * (time.monotonic() - started + extracting)))
    if data is None:
        return None
    try:
        line, _, rest = data.partition(b"\n")
        head = json.loads(line)
        parts: dict[str, bytes] = {}
        at = 0
        for key, size in head["parts"]:
            parts[key] = rest[at : at + size]
            at += size + 1
        if at != len(rest) + 1:
            return None
    except (ValueError, KeyError, TypeError):
        return None
    found = _stored_surface(parts, rev, sha)  # validated as a stored surface is: the same Surface
    if found is not None:
        cache.written += head["written"]
    return found


def _tree_key(listing: TreeListing, layout: LayoutFiles) -> str:
    """Everything a surface is computed from in a tree: each file by path and blob (sources and
    package-layout files), and what was skipped."""
    data = (
        [[f.path, f.blob] for f in listing.files],
        [s.model_dump(mode="json") for s in listing.skipped],
        [[f.path, f.blob] for f in layout.files],
        [s.model_dump(mode="json") for s in layout.issues],
    )
    return sha256_hex(canonical_json(data))


def surface_sha256(surface: Surface, encoded: dict[str, bytes] | None = None) -> str:
    """sha256 of the surface's canonical JSON without `rev`. `encoded`: the canonical JSON of some of
    its fields, already made (`_Linked`): the same bytes are hashed without encoding those again."""
    if not encoded:
        return sha256_hex(canonical_json(surface.model_dump(mode="json", by_alias=True, exclude={"rev"})))
    rest = surface.model_dump(mode="json", by_alias=True, exclude={"rev", *encoded})
    # canonical_json of the whole object, written out: sorted keys, "," between members, no spaces.
    digest = hashlib.sha256(b"{")
    for i, key in enumerate(sorted([*rest, *encoded])):
        digest.update(b"%s%s:" % (b"," if i else b"", canonical_json(key)))
        digest.update(encoded[key] if key in encoded else canonical_json(rest[key]))
    digest.update(b"}")
    return digest.hexdigest()


def _label(rev: str) -> str:
    """A full sha is shortened for people; names (branches, HEAD~1) are kept as typed."""
    if len(rev) == 40 and all(c in "0123456789abcdef" for c in rev):
        return rev[:12]
    return rev


def _today() -> _dt.date:
    override = os.environ.get("RECEIPT_TODAY")
    if override:
        try:
            return _dt.date.fromisoformat(override)
        except ValueError:
            raise ConfigError(f"RECEIPT_TODAY must be an ISO date, got {override!r}") from None
    return _dt.datetime.now(_dt.timezone.utc).date()


def _owns_repo(fn: Callable) -> Callable:
    """`fn(repo, ...)` given a path, not a `GitRepo`, opens the repository and closes it when done:
    its `git cat-file` process never outlives the call (a library calling `build_receipt("path",
    ...)` in a loop kept one per call until it exited). A `GitRepo` it is given is its caller's."""

    @functools.wraps(fn)
    def opened(repo, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(repo, GitRepo):
            return fn(repo, *args, **kwargs)
        with GitRepo(repo) as git_repo:
            return fn(git_repo, *args, **kwargs)

    return opened


@_owns_repo
@gc_quiet_run()
def build_receipt(
    repo: str | os.PathLike[str] | GitRepo,
    base: str,
    head: str,
    *,
    paths: Sequence[str] = (),
    config_file: str | None = None,
    fail_on: str | None = None,
    merge_base: bool = False,
    today: _dt.date | None = None,
    progress: Progress = _quiet,
    traces: Sequence[str | os.PathLike[str]] = (),
    allow_outside_config: bool = True,
) -> Receipt:
    """The receipt for base -> head (or merge-base(base, head) -> head: what a PR introduces).

    `traces`: recorded trace files or folders (receipt.traces); their evidence goes into the receipt.
    `allow_outside_config`: accept a config file outside the repository (local runs that name one;
    never `receipt ci`, whose gate must come from the base revision).
    """
    # Read first: a trace file this version cannot read fails the run before any extraction work.
    corpus = None
    if traces:
        from receipt.traces import read_corpus

        corpus = read_corpus(traces, progress)
    git_repo = repo if isinstance(repo, GitRepo) else GitRepo(repo)
    base_sha = git_repo.resolve(base)
    head_sha = git_repo.resolve(head)
    compared = f"{_label(base)} -> {_label(head)}"
    if merge_base:
        mb = git_repo.merge_base(base_sha, head_sha)
        compared = f"merge-base({_label(base)}, {_label(head)}) = {mb[:12]} -> {_label(head)}"
        base_rev, base_sha = mb, mb
    else:
        base_rev = base

    # Both whole trees are listed anyway (package-layout files): listed first, the config, keyring
    # and template files below are read from those listings, not by a git process each.
    git_repo.list_tree(base_sha, head_sha)
    # Trust roots come from the base: the PR under review cannot relax its own gate.
    loaded = load_config(git_repo, base_sha, config_file, allow_outside=allow_outside_config, required=False)
    if loaded.text is None and config_file and git_repo.read_path(head_sha, loaded.path or "") is None:
        raise ConfigError(f"configuration file not found at base {base_sha[:12]} or head {head_sha[:12]}: {loaded.path}")
    cfg = loaded.config
    head_cfg = _head_config(git_repo, head_sha, config_file, loaded)
    cache = FactsCache(default_cache_dir(git_repo.git_dir))
    base_listing = _listing(git_repo, base_sha, paths, cfg, False)
    head_listing = _listing(git_repo, head_sha, paths, cfg, False)
    # What the change touches is read from its blobs on both sides, whatever the cache holds.
    base_files = {(f.blob, f.path) for f in base_listing.files}
    head_files = {(f.blob, f.path) for f in head_listing.files}
    fresh = frozenset(base_files ^ head_files)
    # Both surfaces may be read from the surface cache: the head's entries that are the base's, byte
    # for byte, are then validated once, and the files in `fresh` are extracted from their blobs by
    # a child process from now on, beside this one (a cold run extracts them again: they are few).
    seen = _SeenEntries([f for f in [*base_listing.files, *head_listing.files] if (f.blob, f.path) in fresh])
    try:  # a child checking the files in `fresh` is reaped on every path, an error's too
        if cache.root is not None and len(seen.fresh_files) <= _EARLY_CHECK_FILES:
            seen.start_digests(git_repo, cache, cfg.max_file_bytes)
        base_layout, head_layout = _layout_files(git_repo, base_sha), _layout_files(git_repo, head_sha)
        # The head's dialects may reuse what the base's screens selected in the files both share (see
        # SHARE_SCREENS: off, measured to cost more than it saves).
        screens = ScreenMemo() if SHARE_SCREENS else None
        # A base that is linked (not read from the surface cache) is linked while a forked child links
        # the head (see _link_aside), once the base's facts are known: the two links are one core's
        # work each, and the head's facts are nearly all the base's, in memory by then.
        aside: list = []

        began = time.monotonic()

        def link_head_aside() -> None:
            if len(head_listing.files) >= LINK_ASIDE_FILES:
                from receipt.extract.forked import aside as fork_aside

                started = fork_aside(lambda: _link_aside(git_repo.git_dir, head_sha, cache, head_listing, head_layout, cfg, paths, fresh))
                if started is not None:
                    # What the child extracts first (the files only the head has), at the pace the base's were read.
                    share = len(head_files - base_files) / max(1, len(base_files))
                    aside.append((started, time.monotonic(), (time.monotonic() - began) * share))
            if not aside:  # both revisions linked here, one after the other: a core is free for the writes
                cache.flush()

        head_linked = None
        # With HOLD_WRITES, the extraction workers write the base's entries once the base is linked.
        cache.hold_writes = HOLD_WRITES and screens is None
        try:
            base_linked = _surface_of(
                git_repo, base_rev, paths=paths, config=cfg, cache=cache, progress=lambda m: progress(f"base: {m}"), listing=base_listing, fresh=fresh,
                layout_files=base_layout, screens=screens, seen=seen, before_link=link_head_aside if screens is None else None,
            )
            cache.hold_writes = False
            cache.flush()
            if aside:  # the lines the head prints when linked here, while its child is waited for
                progress(f"head: 0/{len(head_listing.files)} files")
                progress("head: linking")
                head_linked = _linked_aside(aside[0], head, head_sha, cache)
        finally:
            if aside:
                aside[0][0].cancel()  # an error here meanwhile: the child is stopped, not left behind
        if screens is not None:
            screens.last()
        # A base read from the surface cache: the head reuses the screens stored with it (and, with
        # RECORD_HEADS, keeps its own). A cold receipt records none: measured, recording cost more than
        # the cold budget allows.
        prior = None if base_linked.kept is None else seen.prior(*base_linked.kept, base_listing, base_layout)
        if head_linked is None:  # not linked aside, or the child failed: linked here, as it would have been
            head_linked = _surface_of(
                git_repo, head, paths=paths, config=cfg, cache=cache, progress=lambda m: progress(f"head: {m}"), listing=head_listing, fresh=fresh,
                layout_files=head_layout, screens=screens, keep_screens=RECORD_HEADS and prior is not None, prior=prior, seen=seen,
            )
        seen.close()
    finally:
        seen.cancel()  # nothing left to do once closed
    del seen
    del screens
    base_surface, head_surface = base_linked.surface, head_linked.surface
    base_surface.sha, head_surface.sha = base_sha, head_sha
    # A PATH may exist at one revision only (a folder the PR adds or deletes): its entries are the
    # additions or removals. Absent at both, it is a mistake.
    absent = sorted(set(base_listing.unmatched_paths) & set(head_listing.unmatched_paths))
    if paths and absent:
        cache.evict()
        raise GitError(
            f"path not found at base {base_sha[:12]} or head {head_sha[:12]}: {', '.join(absent)}",
            hint="PATH limits the scan to files and folders that exist at either revision",
        )

    # Which head entry is which base entry: decided once, read by the diff and by the unresolved notes.
    pairing = pair_with_doubts(base_surface.entries(), head_surface.entries())
    changes = diff_surfaces(base_surface, head_surface, pairing=pairing)
    # What the change adds or modifies; problems anywhere else are context, listed but not news.
    # A file over the read ceiling has no blob here: it counts as touched (fail closed).
    touched = {p for _, p in head_files - base_files} | {i.path for i in head_listing.skipped if i.kind == "error"}
    touched |= {f.path for f in set(head_layout.files) - set(base_layout.files)} | {i.path for i in head_layout.issues}
    for issue in [*head_surface.errors, *head_surface.skipped]:
        issue.touched = issue.path in touched
    changes += extraction_error_changes(head_surface, base_surface, touched)
    changes += unresolved_changes(base_surface, head_surface, touched, pairing=pairing)
    changes += _config_changes(git_repo, base_sha, head_sha, config_file, loaded)
    changes += _trust_root_changes(git_repo, base_sha, head_sha, cfg, head_cfg)
    config_name = loaded.path or (config_file if loaded.outside else None) or "configuration"
    changes += unmatched_config_changes(
        config_name,
        paths=[] if paths else absent,  # PATH arguments replace the config's paths (and are checked above)
        # Only what the user wrote: a default (or the built-in test patterns) finding nothing is no typo.
        excludes=sorted(set(base_listing.unused_excludes) & set(head_listing.unused_excludes) & set(cfg.exclude)),
    )
    # A file that fails to parse at head has not lost its tools: the extraction error says so once.
    broken = {e.path for e in head_surface.errors}
    changes = [c for c in changes if not (c.id.endswith(".removed") and c.subject.path in broken)]
    evidence = traffic = None
    escalate: set[str] = set()
    if corpus is not None:
        from receipt.traces import evidence_for

        evidence, traffic, escalate = evidence_for(corpus, changes, [base_surface, head_surface], cfg.traces.escalate_above)
    changes, verdict = apply_policy(changes, cfg, fail_on, today or _today(), escalate)  # type: ignore[arg-type]  (sorted)
    nothing_recognised = not head_surface.entries()
    if nothing_recognised:
        verdict.flags = sorted([*verdict.flags, "nothing-recognised"])
    # Waited for last: the extraction workers' writes of cache entries went on while the change was read.
    cache.evict()
    receipt = Receipt(
        tool=ToolInfo(version=__version__),
        base=RevInfo(rev=base_rev if not merge_base else f"merge-base({base}, {head})", sha=base_sha, surface_sha256=surface_sha256(base_surface, base_linked.encoded)),
        head=RevInfo(rev=head, sha=head_sha, surface_sha256=surface_sha256(head_surface, head_linked.encoded)),
        compared=compared,
        paths=sorted(p.strip("/") for p in (paths or cfg.paths)),
        summary=summarize(head_surface, changes),
        verdict=verdict,
        changes=changes,
        errors=head_surface.errors,
        skipped=head_surface.skipped,
        surfaces={"base": base_surface, "head": head_surface},
        nothing_recognised=nothing_recognised,
        traces=evidence,
        traffic=traffic,
    )
    # Its facts and listings outlive the run in a process that ends without freeing them (a
    # program is freed when linked: kept, it was the 5,000-file cold peak's last 12 MB).
    retain.until_exit(cache, base_listing, head_listing, base_linked, head_linked, pairing)
    return receipt


@_owns_repo
def template_text_for(
    repo: str | os.PathLike[str] | GitRepo, base_sha: str, config_file: str | None = None, *, allow_outside_config: bool = True
) -> str | None:
    """The user's receipt template (config `template`), read from the BASE revision like all trust roots:
    a PR must not be able to restyle its own receipt into hiding a change (its edits are reported
    as `template.changed`)."""
    git_repo = repo if isinstance(repo, GitRepo) else GitRepo(repo)
    cfg = load_config(git_repo, base_sha, config_file, allow_outside=allow_outside_config, required=False).config
    if not cfg.template:
        return None
    data = git_repo.read_path(base_sha, cfg.template.replace(os.sep, "/").removeprefix("./"))
    if data is None:
        raise ConfigError(f"template not found at the base revision: {cfg.template}")
    return _decode_config(data, cfg.template)

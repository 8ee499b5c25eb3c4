"""Package layouts: the name each source file is imported under, read per revision from the tree.

A file's path is not its import name when a project keeps its code under `src/`, maps a package
to another folder (`[tool.setuptools.package-dir]`, hatch `sources`, poetry `from`, pdm
`package-dir`, setup.cfg `package_dir`) or lives in a nested project of a monorepo. The layout is
code structure, read at each revision like the code itself (never the verdict's configuration):
imports resolve through it, and an entry's identity is its import name inside its project, so a
project moving from a flat layout to `src/` is no change.

Pure: `(layout file texts, source paths)` -> `Layout`. A layout file that cannot be read is
reported (its project keeps the default flat layout), never a crash.
"""

from __future__ import annotations

import configparser
import posixpath
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from receipt.models import ExtractionIssue

# Files that declare a project's layout; a folder holding one is a project root.
LAYOUT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
# The conventional code folder: its packages are imported without the `src.` prefix.
SRC = "src"


def is_layout_file(path: str) -> bool:
    return posixpath.basename(path) in LAYOUT_FILES


@dataclass(frozen=True, order=True)
class Root:
    """Files under `folder` are imported as `package` + their path below it."""

    folder: str  # repo-relative, "" = the repository root
    package: str  # dotted import prefix ("" = top level)
    project: str  # the folder of the project it belongs to ("" = the repository root)


@dataclass(frozen=True)
class Location:
    """Where a source file lives for Python: its project and its import name."""

    project: str
    module: str
    is_package: bool

    @property
    def home(self) -> str:
        """The module's identity: its import name, qualified by its project in a monorepo."""
        return f"{self.project}:{self.module}" if self.project else self.module


class LayoutError(ValueError):
    """A layout file's settings cannot be read; the message says where."""


@dataclass
class Layout:
    roots: dict[str, Root] = field(default_factory=dict)  # folder -> root
    issues: list[ExtractionIssue] = field(default_factory=list)

    def locate(self, path: str) -> Location:
        """The project and import name of a source file (the deepest root above it decides)."""
        folder = posixpath.dirname(path)
        while True:
            root = self.roots.get(folder)
            if root is not None:
                rel = path[len(folder) + 1:] if folder else path
                module, is_package = module_parts(rel)
                name = ".".join(p for p in (root.package, module) if p)
                if name:
                    return Location(root.project, name, is_package)
            if not folder:
                break
            folder = posixpath.dirname(folder)
        module, is_package = module_parts(path)
        return Location("", module or "__root__", is_package)


def module_parts(path: str) -> tuple[str, bool]:
    """`pkg/sub/mod.py` -> ("pkg.sub.mod", False); `pkg/__init__.py` -> ("pkg", True); "" for a root `__init__.py`."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(p for p in parts if p), is_package


def read_layout(files: Mapping[str, bytes | str], source_paths: Iterable[str]) -> Layout:
    """The layout of one revision: its layout files (path -> content) and the source files listed."""
    layout = Layout()
    declared: dict[str, Root] = {}
    implied: dict[str, Root] = {"": Root("", "", "")}
    paths = set(source_paths)
    # The src/ convention: a folder named src that is not itself a package holds top-level packages.
    for path in sorted(paths):
        parts = path.split("/")[:-1]
        for i, part in enumerate(parts):
            folder = "/".join(parts[: i + 1])
            if part == SRC and f"{folder}/__init__.py" not in paths and folder not in implied:
                implied[folder] = Root(folder, "", "/".join(parts[:i]))
    for path in sorted(files):
        project = posixpath.dirname(path)
        implied.setdefault(project, Root(project, "", project))  # a project's default layout is flat
        try:
            for root in _declared_roots(path, files[path]):
                declared.setdefault(root.folder, root)
        except LayoutError as e:
            layout.issues.append(ExtractionIssue(
                path=path, kind="error", reason="unreadable-layout",
                message=f"package layout not read ({e}): imports of this project's packages may be unresolved",
            ))
    # Explicit settings win over conventions at the same folder.
    layout.roots = {**implied, **declared}
    return layout


def _declared_roots(path: str, content: bytes | str) -> list[Root]:
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8")
        except UnicodeDecodeError:
            raise LayoutError("not UTF-8") from None
    name = posixpath.basename(path)
    project = posixpath.dirname(path)
    if name == "pyproject.toml":
        return _pyproject_roots(project, content)
    if name == "setup.cfg":
        return _setup_cfg_roots(project, content)
    return []  # setup.py is code: never run; its folder is a project root all the same


def _folder(project: str, rel: Any, where: str) -> str:
    if not isinstance(rel, str):
        raise LayoutError(f"{where} must be a string")
    norm = posixpath.normpath(posixpath.join(project, rel.strip().replace("\\", "/"))) if rel.strip() else project or "."
    if posixpath.isabs(rel.strip()) or norm == ".." or norm.startswith("../"):
        raise LayoutError(f"{where} points outside the repository")
    return "" if norm == "." else norm


def _package(name: Any, where: str) -> str:
    if not isinstance(name, str) or (name != "" and not all(p.isidentifier() for p in name.split("."))):
        raise LayoutError(f"{where}: {str(name)[:60]!r} is not a package name")
    return name


def _table(doc: Any, *keys: str) -> Any:
    for k in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(k)
    return doc


def _strings(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LayoutError(f"{where} must be a list of strings")
    return value


def _pyproject_roots(project: str, text: str) -> list[Root]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"TOML syntax error: {' '.join(str(e).split())}") from None
    except (ValueError, RecursionError):  # e.g. a 5,000-digit integer, which int() refuses
        raise LayoutError("a value is out of range") from None
    roots: list[Root] = []
    tool = _table(doc, "tool") or {}

    # setuptools: package-dir = {"" = "src", "pkg" = "lib"}; packages.find.where = ["src"]
    setuptools = _table(tool, "setuptools") or {}
    package_dir = _table(setuptools, "package-dir")
    if package_dir is not None:
        if not isinstance(package_dir, dict):
            raise LayoutError("tool.setuptools.package-dir must be a table")
        for pkg, rel in sorted(package_dir.items()):
            where = f"tool.setuptools.package-dir.{pkg}"
            roots.append(Root(_folder(project, rel, where), _package(pkg, where), project))
    where_list = _table(setuptools, "packages", "find", "where")
    for rel in _strings(where_list, "tool.setuptools.packages.find.where"):
        roots.append(Root(_folder(project, rel, "tool.setuptools.packages.find.where"), "", project))

    # hatch: packages = ["src/pkg"] (the package's parent is a root); sources = ["src"] or {"src/pkg" = "pkg"}
    hatch = _table(tool, "hatch", "build") or {}
    for table, where in ((hatch, "tool.hatch.build"), (_table(hatch, "targets", "wheel") or {}, "tool.hatch.build.targets.wheel")):
        for rel in _strings(_table(table, "packages"), f"{where}.packages"):
            folder = _folder(project, rel, f"{where}.packages")
            roots.append(Root(posixpath.dirname(folder) if folder != project else project, "", project))
        sources = _table(table, "sources")
        if isinstance(sources, dict):
            for rel, to in sorted(sources.items()):
                dest = _folder("", to, f"{where}.sources") if isinstance(to, str) and to.strip() else ""
                roots.append(Root(_folder(project, rel, f"{where}.sources"), _package(dest.replace("/", "."), f"{where}.sources"), project))
        else:
            for rel in _strings(sources, f"{where}.sources"):
                roots.append(Root(_folder(project, rel, f"{where}.sources"), "", project))

    # poetry: packages = [{include = "pkg", from = "src", to = "target"}]
    packages = _table(tool, "poetry", "packages")
    if packages is not None:
        if not isinstance(packages, list):
            raise LayoutError("tool.poetry.packages must be a list")
        for spec in packages:
            if not isinstance(spec, dict):
                raise LayoutError("tool.poetry.packages entries must be tables")
            if "from" in spec or "to" in spec:
                to = spec.get("to", "")
                dest = _folder("", to, "tool.poetry.packages.to") if isinstance(to, str) and to.strip() else ""
                roots.append(Root(_folder(project, spec.get("from", ""), "tool.poetry.packages.from"),
                                  _package(dest.replace("/", "."), "tool.poetry.packages.to"), project))

    # pdm: [tool.pdm.build] package-dir = "src" (older releases: [tool.pdm] package-dir)
    for table, where in ((_table(tool, "pdm", "build"), "tool.pdm.build"), (_table(tool, "pdm"), "tool.pdm")):
        rel = _table(table, "package-dir")
        if rel is not None:
            roots.append(Root(_folder(project, rel, f"{where}.package-dir"), "", project))

    # uv's build backend: [tool.uv.build-backend] module-root = "src" (its default is the src/ convention)
    rel = _table(tool, "uv", "build-backend", "module-root")
    if rel is not None:
        roots.append(Root(_folder(project, rel, "tool.uv.build-backend.module-root"), "", project))
    return roots


def _setup_cfg_roots(project: str, text: str) -> list[Root]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as e:
        raise LayoutError(f"setup.cfg syntax error: {' '.join(str(e).split())[:120]}") from None
    roots: list[Root] = []
    if parser.has_option("options", "package_dir"):
        # One mapping per line ("=src", "pkg = lib"), or a single "=src" on the key's own line.
        for line in parser.get("options", "package_dir").splitlines():
            if not line.strip():
                continue
            pkg, sep, rel = line.partition("=")
            if not sep:
                raise LayoutError(f"options.package_dir: {line.strip()[:60]!r} is not 'package = folder'")
            where = "options.package_dir"
            roots.append(Root(_folder(project, rel.strip(), where), _package(pkg.strip(), where), project))
    if parser.has_option("options.packages.find", "where"):
        for rel in parser.get("options.packages.find", "where").split():
            roots.append(Root(_folder(project, rel, "options.packages.find.where"), "", project))
    return roots


__all__ = ["LAYOUT_FILES", "Layout", "Location", "Root", "is_layout_file", "module_parts", "read_layout"]

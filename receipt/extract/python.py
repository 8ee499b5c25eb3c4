"""Python source -> ModuleFacts, with `ast` only: the analysed code is never imported or executed."""

from __future__ import annotations

import ast
import bisect
import builtins
import hashlib
import itertools
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable

from receipt.extract.annotations import canonical_annotation
from receipt.layout import module_parts
from receipt.extract.schemas import class_schema_facts, param_refs, type_alias_fact
from receipt.extract.facts import (
    AssignFact,
    Attr,
    Call,
    ClassFact,
    Concat,
    Const,
    Dyn,
    EffectFact,
    Expr,
    FunctionFact,
    Map,
    ModuleFacts,
    item_write,
    ParamFact,
    PIPE,
    Ref,
    Seq,
    Splat,
    ANNOTATION_LIMIT,
    PYDANTIC_FIELD,
    SRC_LIMIT,
    clipped,
    is_ellipsis,
    _NewCall,
    _NewDyn,
    shorten,
)

_BUILTINS = frozenset(dir(builtins))
_CONVERSIONS = {ord("r"): "builtins.repr", ord("s"): "builtins.str", ord("a"): "builtins.ascii"}
# Expressions nested deeper than this become `Dyn(..., "too-deep")`: the value is unknown, the rest
# of the file is still analysed (a 1,200-term sum next to a tool must not hide the tool).
_MAX_EXPR_DEPTH = 64
# Framework tables whose items are what an object serves, public by name: a low-level MCP server's
# request handlers (a store into them through a parameter is kept like one into private state).
_HANDLER_TABLES = frozenset({"request_handlers"})
# `globals()["CFG"]` / `vars()["CFG"]` at the start of a subscript's text: the module's name CFG.
_GLOBALS_ITEM = re.compile(r"(globals|vars)\(\)\[(['\"])([A-Za-z_]\w*)\2\]")

# Packages whose import makes a file agent code for the fail-closed rule: an unreadable file that
# imports one of these and that the change touches fails the gate (see receipt.diff).
AGENT_FRAMEWORKS: tuple[str, ...] = (
    "agents", "mcp", "fastmcp", "pydantic_ai", "langchain", "langchain_core", "langchain_community",
    "langchain_classic", "langgraph", "crewai", "crewai_tools", "google.adk", "smolagents", "receipt.markers",
)
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*))", re.M)
# Syntax newer than some supported hosts parse, with the first Python that accepts it.
_NEWER_SYNTAX: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*\[", re.M), "3.12", "PEP 695 type parameters"),
    (re.compile(r"^[ \t]*type[ \t]+\w+[ \t]*(?:\[[^\]]*\])?[ \t]*=", re.M), "3.12", "PEP 695 type statement"),
    (re.compile(r"(?<![\w'\"])[tT][rR]?['\"]|(?<![\w'\"])[rR][tT]['\"]"), "3.14", "PEP 750 template strings"),
    (re.compile(r"^[ \t]*except\*?[ \t]+[\w.]+[ \t]*,[ \t]*[\w.]+", re.M), "3.14", "PEP 758 unparenthesised except"),
)


def frameworks_imported(source: str) -> list[str]:
    """Agent frameworks named on import lines, by a tolerant scan that works when `ast` cannot."""
    found: set[str] = set()
    for m in _IMPORT_LINE.finditer(source):
        names = [m.group(1)] if m.group(1) else [n.strip() for n in m.group(2).split(",")]
        for name in names:
            for fw in AGENT_FRAMEWORKS:
                if name == fw or name.startswith(fw + "."):
                    found.add(fw)
    return sorted(found)


def newer_python_needed(source: str, message: str) -> str | None:
    """'3.12 (PEP 695 type parameters)' when the source uses syntax newer than this interpreter's."""
    here = sys.version_info[:2]
    best: tuple[tuple[int, int], str] | None = None
    for pattern, version, what in _NEWER_SYNTAX:
        v = tuple(int(x) for x in version.split("."))
        if here < v and pattern.search(source) and (best is None or v < best[0]):
            best = (v, f"{version} ({what})")  # type: ignore[assignment]
    if best is None and here < (3, 12) and "f-string" in message:
        return "3.12 (PEP 701 f-strings)"
    return best[1] if best else None


def module_name_for(path: str) -> tuple[str, bool]:
    """`pkg/sub/mod.py` -> ("pkg.sub.mod", False); `pkg/__init__.py` -> ("pkg", True); a root `__init__.py` is "__root__"."""
    module, is_package = module_parts(path)
    return module or "__root__", is_package


def _src(node: ast.AST, limit: int = SRC_LIMIT) -> str:
    """What `ast.unparse` writes for `node`, shortened to `limit` (names, dotted names and plain
    constants are written directly: the same text)."""
    try:
        text = _dotted(node)
        if text is None:
            value = node.value if type(node) is ast.Constant else node  # type: ignore[attr-defined]
            text = repr(value) if value is None or value is True or value is False or type(value) is int else ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of odd nodes must not break extraction
        text = type(node).__name__
    return shorten(text, limit)


def _dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes over a name, else None."""
    parts: list[str] = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not ast.Name:
        return None
    parts.append(node.id)  # type: ignore[attr-defined]
    return ".".join(reversed(parts))


_LINE_END = re.compile(r"\r\n|\r|\n")


def _lines(source: str) -> list[str]:
    """Lines as the parser counts them (CR LF, CR and LF end a line; form feeds do not), with their ends."""
    if "\r" not in source:  # the usual case: only LF ends lines (str.split is much faster than finditer)
        parts = source.split("\n")
        last = parts.pop()  # "" when the source ends with a line end
        lines = [part + "\n" for part in parts]
        if last:
            lines.append(last)
        return lines
    out: list[str] = []
    start = 0
    for m in _LINE_END.finditer(source):
        out.append(source[start : m.end()])
        start = m.end()
    if start < len(source):
        out.append(source[start:])
    return out


def _margin(lines: list[str]) -> str:
    """The indentation `textwrap.dedent` (Python 3.11) removes from `lines` (no line ends): the
    longest run of spaces and tabs that starts every line holding more than spaces and tabs. Every
    such line starts with it, and what is left of the others is blank: slicing it off each line,
    then stripping, gives dedent's text stripped the same way, without its three regex passes.
    What starts every string of a set starts its least and its greatest, and no more does."""
    full = [line for line in lines if line.strip(" \t")]
    if not full:
        return ""
    low, high = min(full), max(full)
    i, n = 0, min(len(low), len(high))
    while i < n and low[i] == high[i] and (low[i] == " " or low[i] == "\t"):
        i += 1
    return low[:i]


@dataclass
class _Scope:
    """Name resolution context: module level, or a function body (a factory)."""

    module: str
    module_names: set[str]
    imports: dict[str, str]  # local name -> origin, module level
    prefix: str  # symbol prefix for definitions in this scope
    locals: set[str] = field(default_factory=set)
    local_imports: dict[str, str] = field(default_factory=dict)
    params: set[str] = field(default_factory=set)
    varargs: frozenset[str] = frozenset()  # the `*args` parameters among `params`
    conditional: bool = False
    # In a block that may not run within its own function (or module): an `if`, a loop, a handler.
    # A function body is conditional already, but a call directly in it runs whenever it does.
    guarded: bool = False
    # In the body (or `else`) of a `try` with handlers: an earlier statement may raise and the handler
    # carry on, so an item assignment here may not run (read as conditional, as under an `if`).
    in_try: bool = False
    is_function: bool = False
    class_symbol: str | None = None
    # In a method, the name of its instance parameter and the class it belongs to: `self.x` is the
    # class attribute `pkg.mod.Class.x` (a method, or what `self.x = ...` stores).
    self_name: str | None = None
    self_class: str | None = None
    # What names and dotted names resolve to here (see _Extractor._resolved); made on first use,
    # once the fields above are final.
    memo: dict[str, Expr] | None = None

    def derive(self, **changes: object) -> "_Scope":
        """The same resolution with some fields changed (a conditional block, a class body)."""
        out = object.__new__(_Scope)
        out.__dict__.update(self.__dict__)
        out.__dict__.update(changes)
        # The memo stays valid while names resolve the same: `prefix` only matters in a function.
        if not _SAME_RESOLUTION.issuperset(changes) or ("prefix" in changes and self.is_function):
            out.memo = {}
        return out

    def conditioned(self) -> "_Scope":
        """This scope in a block that may not run. A function body is conditional already: its
        blocks resolve names exactly as it does, with the same memo, so they share its scope."""
        return self if self.guarded else self.derive(conditional=True, guarded=True)


# _Scope fields whose change leaves every name resolving as before (except prefix, in a function).
# A call of a method changing a container, on a name or an item of it: `p.update`, `p["k"].append`.
_PARAM_CHANGE = re.compile(r"([A-Za-z_]\w*)(?:\[[^\]]*\])*\.(?:update|setdefault|pop|popitem|clear|append|extend|insert|remove|add|discard|__setitem__|__delitem__)$")
_LEADING_NAME = re.compile(r"[A-Za-z_]\w*")
# Methods leaving their receiver as it is: every method of str, bytes, int, float, tuple and
# frozenset (none changes its object), the dict/list/set readers, the comparison and conversion
# dunders, and pydantic's dumps. Any other called on a parameter's object (or an item of it) may
# change it in place: a name not listed here fails closed, whatever type the receiver turns out to be.
_READ_ONLY_METHODS = frozenset({
    # str (and bytes: decode, hex, fromhex, isascii, ...)
    "capitalize", "casefold", "center", "count", "decode", "encode", "endswith", "expandtabs", "find", "format",
    "format_map", "fromhex", "hex", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier",
    "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip",
    "maketrans", "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition",
    "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill",
    # int and float
    "as_integer_ratio", "bit_count", "bit_length", "conjugate", "from_bytes", "is_integer", "to_bytes",
    # dict, list and set readers (a set's `union` and co. return a new set)
    "get", "keys", "values", "items", "copy", "fromkeys", "union", "intersection", "difference",
    "symmetric_difference", "issubset", "issuperset", "isdisjoint",
    # dunders reading their object (`__ior__`, `__iadd__`, `__setitem__`... are not here)
    "__getitem__", "__contains__", "__len__", "__iter__", "__reversed__", "__eq__", "__ne__", "__lt__", "__le__",
    "__gt__", "__ge__", "__hash__", "__bool__", "__str__", "__repr__", "__format__", "__sizeof__", "__add__",
    "__mul__", "__or__", "__and__", "__sub__", "__xor__",
    # pydantic models
    "model_dump", "model_dump_json", "model_copy", "dict", "json",
})
_INSTANCE = frozenset({"self", "cls"})  # a method's own object: not a value passed in to be changed
# Callables outside the repository that change the object passed to them.
_CHANGES_ARGUMENT = frozenset({
    "operator.setitem", "operator.delitem", "operator.ior", "operator.iadd",
    "builtins.dict.update", "builtins.dict.setdefault", "builtins.dict.pop", "builtins.dict.popitem", "builtins.dict.clear",
    "builtins.dict.__setitem__", "builtins.dict.__delitem__", "builtins.list.append", "builtins.list.extend",
    "builtins.list.insert", "builtins.list.remove", "builtins.list.pop", "builtins.list.clear", "builtins.setattr",
    # re-initialising or augmenting in place: `dict.__init__(CFG, tools=[...])` updates CFG
    "builtins.dict.__init__", "builtins.dict.__ior__", "builtins.list.__init__", "builtins.list.__iadd__",
})
_SAME_RESOLUTION = frozenset({"conditional", "guarded", "in_try", "class_symbol", "prefix"})


class _Extractor:
    def __init__(self, path: str, tree: ast.Module, source: str, *, scope_statements: bool = True, dynamic_code: bool = True):
        self.module, is_package = module_name_for(path)
        # False when the source cannot contain `global`/`nonlocal`: skips one walk per function.
        self.scope_statements = scope_statements
        # False when no call in the source can reach exec/eval/compile/import_module/__import__: skips a full walk.
        self.scan_dynamic_code = dynamic_code
        # Writes to the module's namespace under names computed at run time (`_namespace_write`).
        self.namespace_writes: list[tuple[int, str, str]] = []
        # Names a module-level statement imports and another one assigns (`from base import TOOLS`
        # then `TOOLS = TOOLS + [refund]`): which binding a use sees follows statement order
        # (`_bound_here`); never cached in a scope's memo. `final_local`: those the module's last
        # binding statement assigns, whose import the facts then do not keep (see `run`).
        # The loop variables of the loops being read over names known (`_listed_names`): an
        # attribute set on one is set on each of them.
        self.loop_items: dict[str, tuple[str, ...]] = {}
        # The loop variables of the loops being read over a name whose items are not listed here
        # (`for t in support.tools`): an attribute set on one is set on an item of that name's
        # (`ITEM_WRITE`), which the program reads once it knows the items.
        self.loop_over: dict[str, str] = {}
        self.shadowing: frozenset[str] = frozenset()
        self.final_local: frozenset[str] = frozenset()
        self.local_now: set[str] = set()
        self.top_statements: set[int] = set()
        self.is_package = is_package
        self.facts = ModuleFacts(path=path, module=self.module, is_package=is_package)
        self.tree = tree
        self.depth = 0  # expression nesting, capped at _MAX_EXPR_DEPTH
        self.capped = 0  # how many times the cap was hit so far
        self.made: dict[int, Call] = {}  # id(call node) -> its first conversion on its own (see `_one_per_node`); the tree outlives it
        self.source = source
        self.lines: list[str] | None = None  # of the source, split when a span is first needed
        self.in_fstring = 0  # inside an f-string, where Python < 3.12 misplaces nodes
        # Star imports written in an `except` handler (`except ImportError: from compat import *`):
        # fallbacks, which take effect only when the `try` body's imports failed.
        self.handler_depth = 0
        self.fallback_stars: set[str] = set()
        self.plain_stars: set[str] = set()
        # A raise in a `try` body with handlers (id of its node) -> the handlers' types, innermost first.
        self.guarded: dict[int, list[Expr]] = {}
        # Function scope prefix -> names it changes in place (`p["k"] = v`, `p.update(...)`, ...): see `_mutates`.
        self.mutated: dict[str, set[str]] = {}
        # Function scope prefix -> parameters rebound to a copy (`config = dict(config)`), and whether
        # the copy is deep: changes made through the name after it reach the copy, not the caller's object.
        self.rebound: dict[str, dict[str, bool]] = {}
        # Function scope prefix -> local name -> the parameter whose object (or an item of it) it names
        # (`tools = config["tools"]`): a change through the local is a change of the parameter's object.
        self.derived: dict[str, dict[str, str]] = {}
        # Function scope prefix -> locals naming a parameter's shallow copy itself (`config =
        # dict(config); c = config`): a key set through one is the copy's own (see `_copied`).
        self.copies: dict[str, set[str]] = {}
        self.top: _Scope | None = None  # the module's scope (see run)
        self.consts: dict[tuple[type, object], Const] = {}  # see _const
        # Statements that may leave their block early: `return`/`raise` (out of the function) and
        # `break`/`continue` (out of the loop body), counted so that `body` can tell that a
        # statement held one: what follows it in the same block may not run (`if not ok: return`).
        # Not counted: a `raise` at module level (a module that raises is not imported: nothing it
        # registers exists) or in an `except` handler (a failure passed on, not a way around).
        self.exits = 0
        self.jumps = 0
        self.handling = 0  # inside this many `except` handlers of the current function (or module)
        # Function scope prefix -> its closures: (symbol, first effect, assignment and function
        # index of its body's facts, end of each): see `_closures_run`.
        self.closures: dict[str, list[tuple[str, int, int, int, int, int, int]]] = {}
        self.readers: set[int] = set()  # statement calls read as their arguments (see `_only_reads`)

    # -- imports --------------------------------------------------------------------------

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.module.split(".")
        # In a package's __init__, level 1 is the package itself; in a module, its parent.
        drop = node.level - 1 if self.is_package else node.level
        base = base[: len(base) - drop] if drop <= len(base) else []
        if node.module:
            base = [*base, node.module]
        return ".".join(base)

    def _import_bindings(self, node: ast.Import | ast.ImportFrom) -> Iterable[tuple[str, str]]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    yield alias.asname, alias.name
                else:
                    top = alias.name.split(".")[0]
                    yield top, top
        else:
            mod = self._absolute(node)
            for alias in node.names:
                if alias.name == "*":
                    self.facts.star_imports.append(mod)
                    # `handler_depth` is kept by `_collect_names`, which sees every star import first.
                    (self.fallback_stars if self.handler_depth else self.plain_stars).add(mod)
                    continue
                yield alias.asname or alias.name, f"{mod}.{alias.name}" if mod else alias.name

    # -- module-level name collection ----------------------------------------------------

    def _collect_names(self, body: list[ast.stmt], names: set[str], imports: dict[str, str], *, top: bool) -> None:
        for stmt in body:
            t = type(stmt)  # the parser makes exactly these classes, never subclasses
            if t is ast.Assign:
                for target in stmt.targets:  # type: ignore[attr-defined]
                    if type(target) is ast.Name:
                        names.add(target.id)
                    else:
                        _add_target_names(target, names)
            elif t is ast.Import or t is ast.ImportFrom:
                for local, origin in self._import_bindings(stmt) if top else _no_star(self, stmt):  # type: ignore[arg-type]
                    imports.setdefault(local, origin)
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
                names.add(stmt.name)  # type: ignore[attr-defined]
            elif t is ast.AnnAssign or t is ast.AugAssign or t is ast.For or t is ast.AsyncFor:
                _add_target_names(stmt.target, names)  # type: ignore[attr-defined]
            elif t is ast.With or t is ast.AsyncWith:
                for item in stmt.items:  # type: ignore[attr-defined]
                    if item.optional_vars is not None:
                        _add_target_names(item.optional_vars, names)
            elif t is _MATCH:
                for case in stmt.cases:  # type: ignore[attr-defined]
                    _capture_names(case.pattern, names)
                    self._collect_names(case.body, names, imports, top=top)
            if t in _COMPOUND:
                for name in _STATEMENT_LISTS:
                    sub = getattr(stmt, name, None)
                    if sub:
                        self._collect_names(sub, names, imports, top=top)
                self.handler_depth += 1
                try:
                    for h in getattr(stmt, "handlers", None) or ():
                        self._collect_names(h.body, names, imports, top=top)
                finally:
                    self.handler_depth -= 1

    # -- expressions -----------------------------------------------------------------------
    #
    # One pass: each expression node is visited once. `expr` turns it into an `Expr`; with `ev` (a
    # function body's event list) it also reports, in post-order and in the node's field order,
    # every call, `raise` and `return` below it, including inside what becomes a `Dyn` (their
    # subtrees are `_scan`ned). `FunctionFact.calls` & co. are built from those events: see
    # `function`.

    def _name(self, name: str, scope: _Scope) -> Expr:
        if scope.is_function:
            if name in scope.params:
                return Dyn(name, "parameter")
            if name in scope.local_imports:
                return Ref(scope.local_imports[name])
            if name in scope.locals:
                return Ref(f"{scope.prefix}.{name}")
        if name in scope.imports:
            if name in self.shadowing and name in (self.final_local if scope.is_function else self.local_now):
                return Ref(f"{self.module}.{name}")  # the module's own value, bound after the import
            return Ref(scope.imports[name])
        if name in scope.module_names:
            return Ref(f"{self.module}.{name}")
        if name in _BUILTINS:
            return Ref(f"builtins.{name}")
        return Ref(f"{self.module}.{name}")  # maybe from a star import; the linker tries those

    def _resolved(self, dotted: str, scope: _Scope) -> Expr:
        """What the name or dotted name `dotted` (`a`, `a.b.c`) is in `scope`: what `_expr` makes
        of that chain of attributes over a name, level by level. Kept per scope (`_Scope.memo`):
        the same few names are written over and over, and the result is immutable."""
        memo = scope.memo
        if memo is None:
            memo = scope.memo = {}
        out = memo.get(dotted)
        if out is None:
            first, dot, rest = dotted.partition(".")
            if first in self.shadowing and not (scope.is_function and (first in scope.params or first in scope.local_imports or first in scope.locals)):
                # bound by order (`_bound_here`): resolved afresh at every use, never kept in a memo;
                # a function's use sees the module's last binding (it runs once the module has)
                base = self._name(first, scope)
                return Ref(f"{base.name}.{rest}") if dot and type(base) is Ref else base  # type: ignore[union-attr]
            if dot and first == scope.self_name:  # `self.x.y`: the class attribute x, then its y
                out = Ref(f"{scope.self_class}.{rest}")
            elif scope.is_function and first not in scope.params and first not in scope.local_imports and first not in scope.locals:
                out = self._resolved(dotted, self.top)  # not a name of the function: what it is at module level
            elif not dot:
                out = self._name(first, scope)
            else:
                base = self._name(first, scope)
                out = Ref(f"{base.name}.{rest}") if type(base) is Ref else Dyn(shorten(dotted), base.why)  # type: ignore[union-attr]
            memo[dotted] = out
        return out

    def expr(self, node: ast.AST | None, scope: _Scope, ev: list | None = None) -> Expr:
        if node is None:
            return _NONE
        depth = self.depth
        if depth >= _MAX_EXPR_DEPTH:
            self.capped += 1
            if ev is not None:
                self._scan(node, scope, ev)
            return Dyn(_src(node), "too-deep")
        t = type(node)
        if t is ast.Name:
            memo = scope.memo
            got = memo.get(node.id) if memo is not None else None  # type: ignore[attr-defined]
            return got if got is not None else self._resolved(node.id, scope)  # type: ignore[attr-defined]
        if t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            cls = value.__class__
            if cls is str or cls is int or cls is bool or value is None:
                return self._const(value, cls)
        if t is ast.Attribute:
            # A dotted name `a.b.c` (no call or subscript in the chain), shallow enough that no
            # level reaches the depth cap, resolves as a whole (same result, one dict look-up).
            parts = [node.attr]  # type: ignore[attr-defined]
            inner = node.value  # type: ignore[attr-defined]
            while type(inner) is ast.Attribute:
                parts.append(inner.attr)  # type: ignore[attr-defined]
                inner = inner.value  # type: ignore[attr-defined]
            if type(inner) is ast.Name and depth + len(parts) < _MAX_EXPR_DEPTH:
                parts.append(inner.id)  # type: ignore[attr-defined]
                parts.reverse()
                dotted = ".".join(parts)
                memo = scope.memo
                got = memo.get(dotted) if memo is not None else None
                return got if got is not None else self._resolved(dotted, scope)
        # No try/finally: an exception here abandons the whole file (see extract_python).
        self.depth = depth + 1
        out = self._expr(node, t, scope, ev)
        self.depth = depth
        return out

    def _expr(self, node: ast.AST, t: type, scope: _Scope, ev: list | None) -> Expr:
        if t is ast.Name:
            return self._name(node.id, scope)  # type: ignore[attr-defined]
        if t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            if value is None or type(value) in _CONST_TYPES or isinstance(value, (str, int, float)):
                return self._const(value, value.__class__)
            return Dyn(_src(node), "constant")
        if t is ast.Attribute:
            value = node.value  # type: ignore[attr-defined]
            if scope.self_name and type(value) is ast.Name and value.id == scope.self_name:
                return Ref(f"{scope.self_class}.{node.attr}")  # type: ignore[attr-defined]
            base = self.expr(value, scope, ev)
            if type(base) is Ref:
                return Ref(f"{base.name}.{node.attr}")  # type: ignore[attr-defined]
            if type(base) is Dyn:
                return self._dyn(node, base.why)
            return Attr(base, node.attr)  # type: ignore[attr-defined]
        if t is ast.Call:
            if ev is None:
                imported = self._literal_import(node, scope)  # type: ignore[arg-type]
                return imported if imported is not None else self.call(node, scope)  # type: ignore[arg-type]
            call = self.call(node, scope, ev)  # type: ignore[arg-type]
            imported = self._literal_import(node, scope)  # type: ignore[arg-type]
            return imported if imported is not None else call
        if t is ast.List or t is ast.Tuple or t is ast.Set:
            return Seq(tuple([self.expr(e, scope, ev) for e in node.elts]))  # type: ignore[attr-defined]
        if t is ast.Starred:
            return Splat(self.expr(node.value, scope, ev))  # type: ignore[attr-defined]
        if t is ast.Dict:
            # Keys first, then values: the field order the events follow (conversion is pure).
            keys = [None if k is None else self.expr(k, scope, ev) for k in node.keys]  # type: ignore[attr-defined]
            values = [self.expr(v, scope, ev) for v in node.values]  # type: ignore[attr-defined]
            return Map(tuple([(_NONE if k is None else k, v) for k, v in zip(keys, values)]))
        if t is ast.BinOp and type(node.op) is ast.Add:  # type: ignore[attr-defined]
            left = self.expr(node.left, scope, ev)  # type: ignore[attr-defined]
            return Concat(left, self.expr(node.right, scope, ev))  # type: ignore[attr-defined]
        if t is ast.BinOp and type(node.op) is ast.BitOr:  # type: ignore[attr-defined]
            # `a | b` kept as the call it is (`operator.or_(a, b)`): a LangChain pipe (`prompt | llm`)
            # names the models and tools a chain runs; unknown values still evaluate as dynamic.
            left = self.expr(node.left, scope, ev)  # type: ignore[attr-defined]
            return _NewCall(_PIPE, (left, self.expr(node.right, scope, ev)), (), node.lineno, False)  # type: ignore[attr-defined]
        if t is ast.UnaryOp and type(node.op) is ast.USub and type(node.operand) is ast.Constant:  # type: ignore[attr-defined]
            value = node.operand.value  # type: ignore[attr-defined]
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return Const(-value)
        if t is ast.JoinedStr and all(type(v) is ast.Constant for v in node.values):  # type: ignore[attr-defined]
            return Const("".join(str(v.value) for v in node.values))  # type: ignore[attr-defined]
        if t is ast.Await:
            return self.expr(node.value, scope, ev)  # type: ignore[attr-defined]
        if t is ast.NamedExpr and type(node.target) is ast.Name:  # type: ignore[attr-defined]
            # `(admin := Agent(...))` is the name it binds (the binding: see `_calls_below`)
            if ev is not None:
                self._scan(node.value, scope, ev)  # type: ignore[attr-defined]
            return self.expr(node.target, scope)  # type: ignore[attr-defined]
        if ev is not None and t is not ast.Lambda:
            self._scan_children(node, scope, ev)
        if t is ast.JoinedStr:
            self.in_fstring += 1
            parts = self._fstring_parts(node, scope)  # type: ignore[arg-type]
            self.in_fstring -= 1
            return self._dyn(node, "f-string", parts)
        if t is ast.Subscript:
            return self._dyn(node, "subscript", self._subscript_parts(node, scope))  # type: ignore[arg-type]
        operator = _operator(node)
        if operator is not None:  # `not True`, `APPROVE and False`, `LEVEL == "x"`: evaluated at link time
            return self._dyn(node, operator, tuple([self.expr(o, scope) if _evaluable(o) else self._dyn(o, "expression") for o in _operands(node)]))
        return self._dyn(node, _WHY.get(t, "expression"))

    def _const(self, value: object, cls: type) -> Const:
        """`Const(value)`, one object per value in a file (a module writes `None`, `0` or `"id"` in
        hundreds of places; decoded facts share them the same way, see facts.SharedValues). Per
        class: `True == 1`, but they are different constants; floats are not shared (`0.0 == -0.0`)."""
        if cls is float:
            return Const(value)
        key = (cls, value)
        got = self.consts.get(key)
        if got is None:
            got = self.consts[key] = Const(value)
        return got

    def _subscript_parts(self, node: ast.Subscript, scope: _Scope) -> tuple[Expr, ...]:
        """`PROMPTS[lang]` as (container, index) and `TOOLS[start:end]` as (container, lower, upper,
        step) when the container is a name (see `Dyn.parts`), so that its value can be read from the
        container's items wherever the container is defined (a page of a tool list can only hold
        that list's tools); () for a computed container or a parameter's item."""
        index = node.slice
        if _dotted(node.value) is None:
            return ()
        container = self.expr(node.value, scope)
        if type(container) is not Ref:  # a parameter's item: nothing to read statically
            return ()
        if type(index) is ast.Slice:
            return (container, *(self._index_part(b, scope) for b in (index.lower, index.upper, index.step)))
        return (container, self._index_part(index, scope))

    def _index_part(self, index: ast.expr | None, scope: _Scope) -> Expr:
        """An index or slice bound: a constant or name as its value, anything else as its source
        (not converted twice); an absent slice bound as None."""
        if index is None:
            return self._const(None, type(None))
        if type(index) is ast.Constant or type(index) is ast.UnaryOp or _dotted(index) is not None:
            return self.expr(index, scope)
        return self._dyn(index, _WHY.get(type(index), "expression"))

    def _dyn(self, node: ast.AST, why: str, parts: tuple[Expr, ...] = ()) -> Dyn:
        """A `Dyn` whose text is rendered from the node's exact source span when it is read."""
        text = _dotted(node)
        if text is not None:
            return Dyn(shorten(text), why)
        if self.in_fstring or type(node) not in _SPANNABLE:
            return Dyn(_src(node), why, parts)
        lines = self.lines
        if lines is None:
            lines = self.lines = _lines(self.source)
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]  (UTF-8 offsets)
        if first == last:
            line = lines[first]
            span = line[start:end] if line.isascii() else line.encode()[start:end].decode()
        else:
            head, tail = lines[first], lines[last]
            head = head[start:] if head.isascii() else head.encode()[start:].decode()
            tail = tail[:end] if tail.isascii() else tail.encode()[:end].decode()
            span = head + "".join(lines[first + 1 : last]) + tail
        return _NewDyn(None, sys.intern(span), why, parts)  # Dyn.of_source(span, why, parts), built faster

    def _fstring_parts(self, node: ast.JoinedStr, scope: _Scope) -> tuple[Expr, ...]:
        """The pieces of an f-string (see `Dyn.parts`); () when a format spec is itself computed."""
        parts: list[Expr] = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(Const(v.value))
                continue
            if not isinstance(v, ast.FormattedValue):
                return ()
            value = self.expr(v.value, scope)
            if v.conversion in _CONVERSIONS:
                value = Call(Ref(_CONVERSIONS[v.conversion]), (value,))
            if v.format_spec is not None:
                spec = v.format_spec
                if not (isinstance(spec, ast.JoinedStr) and all(isinstance(c, ast.Constant) for c in spec.values)):
                    return ()
                value = Call(Ref("builtins.format"), (value, Const("".join(str(c.value) for c in spec.values))))  # type: ignore[attr-defined]
            parts.append(value)
        return tuple(parts)

    def _body_digest(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """sha256 (16 hex) of the body's source, dedented, without the `def` line or decorators."""
        if self.lines is None:
            self.lines = _lines(self.source)
        first = node.body[0]
        lines = [line.rstrip("\r\n") for line in self.lines[first.lineno - 1 : node.end_lineno or first.lineno]]
        if lines:  # col_offset counts UTF-8 bytes; blank out whatever precedes the body on its line
            head = lines[0].encode("utf-8", "surrogatepass")
            lines[0] = " " * first.col_offset + head[first.col_offset :].decode("utf-8", "surrogatepass")
        cut = len(_margin(lines))
        text = "\n".join([line[cut:].rstrip() for line in lines]).strip("\n")
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def _literal_import(self, node: ast.Call, scope: _Scope) -> Ref | None:
        """`importlib.import_module("pkg.server")` is the module `pkg.server`; `__import__("pkg.server")`
        is the top package `pkg` (what Python returns). Only absolute literal names are followed."""
        if len(node.args) != 1 or node.keywords or type(node.args[0]) is not ast.Constant:
            return None
        name = node.args[0].value
        if not isinstance(name, str) or not name or name.startswith(".") or not all(p.isidentifier() for p in name.split(".")):
            return None
        func = self.expr(node.func, scope)
        if func == Ref("importlib.import_module"):
            return Ref(name)
        if func == Ref("builtins.__import__"):
            return Ref(name.split(".")[0])
        return None

    def call(self, node: ast.Call, scope: _Scope, ev: list | None = None) -> Call:
        """The call's `Call`. With `ev`, also the events of its subtree, then its own: the call as
        it reads on its own (what converting it at depth 0 gives)."""
        capped = self.capped
        func = self._callee(node.func, scope, ev)
        args: list[Expr] = []
        star = False
        for a in node.args:
            if type(a) is ast.Starred:
                star = True
            args.append(self.expr(a, scope, ev))
        kwargs: list[tuple[str, Expr]] = []
        spread: list[Expr] = []
        for kw in node.keywords:
            if kw.arg is None:
                star = True
                spread.append(self.expr(kw.value, scope, ev))
                continue
            kwargs.append((kw.arg, self.expr(kw.value, scope, ev)))
        out = _NewCall(func, tuple(args), tuple(kwargs), node.lineno, star, tuple(spread))  # Call(...), built faster (see facts)
        if self.capped == capped or not self.depth:  # as it reads on its own: the node's one object
            out = self._one_per_node(node, out)
        if ev is not None:
            alone = out
            if self.capped != capped and self.depth:
                # Something below was cut at the depth cap here, maybe not on its own: convert it again.
                depth, self.depth = self.depth, 0
                try:
                    alone = self.call(node, scope)
                finally:
                    self.depth = depth
            ev.append((_CALL, alone, node))
        return out

    def _one_per_node(self, node: ast.Call, made: Call) -> Call:
        """The call a node converted before to what `made` equals, else `made`: a call in a
        function body is both one of its `calls` and an effect (`if check(x):`, `[f(t) for t in
        ts]`), converted once for each. As one object, its entry holds one row, decoded and kept
        once (15-20% of a module's calls, real and generated). Only the same node's conversions
        are shared, and only when equal: what the extractor knew may have changed in between."""
        prev = self.made.setdefault(id(node), made)
        return prev if prev is not made and prev == made else made

    def _callee(self, func: ast.AST, scope: _Scope, ev: list | None = None) -> Expr:
        """A call's callee or a class's base; a generic class parametrised by a type (`Agent[Ctx](...)`,
        `class Main(FastMCP[Ctx])`) is that class. The one place generic subscripts are resolved."""
        if type(func) is ast.Subscript and _looks_like_type(func.slice):  # type: ignore[attr-defined]
            base = self.expr(func.value, scope, ev)  # type: ignore[attr-defined]
            if ev is not None:
                self._scan(func.slice, scope, ev)  # type: ignore[attr-defined]
            if type(base) is Ref:
                return base
            return self.expr(func, scope)
        return self.expr(func, scope, ev)

    # -- events of what no Expr is built from -------------------------------------------------

    def _scan(self, node: ast.AST, scope: _Scope, ev: list) -> None:
        """The events of a subtree nothing is built from (a condition, a subscript, a lambda-free
        comprehension...): each call converted on its own, as in `FunctionFact.calls`."""
        t = type(node)
        if t in _LEAVES or t in _OWN_SCOPES:
            return
        if t is ast.Call:
            depth, self.depth = self.depth, 0
            try:
                self.call(node, scope, ev)  # type: ignore[arg-type]
            finally:
                self.depth = depth
            return
        if t is ast.Return or t is ast.Raise:
            depth, self.depth = self.depth, 0
            try:
                self._exit(node, scope, ev)  # type: ignore[arg-type]
            finally:
                self.depth = depth
            return
        self._scan_children(node, scope, ev)

    def _scan_children(self, node: ast.AST, scope: _Scope, ev: list) -> None:
        if type(node) in _FSTRINGS:
            self.in_fstring += 1
            self._scan_fields(node, scope, ev)
            self.in_fstring -= 1
        else:
            self._scan_fields(node, scope, ev)

    def _scan_fields(self, node: ast.AST, scope: _Scope, ev: list) -> None:
        t = type(node)
        fields = _NODE_FIELDS.get(t)
        if fields is None:
            fields = _NODE_FIELDS[t] = tuple(f for f in t._fields if f not in _NO_NODES)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:  # nodes, None (a `**x` key), or names (str)
                    if isinstance(item, ast.AST) and type(item) not in _LEAVES:
                        self._scan(item, scope, ev)
            elif value is not None and isinstance(value, ast.AST) and type(value) not in _LEAVES:
                self._scan(value, scope, ev)

    def _exit(self, node: ast.Return | ast.Raise, scope: _Scope, ev: list) -> None:
        """`return x` / `raise E(...) from c`: the events below it, then its own."""
        if type(node) is ast.Return:
            if node.value is not None:
                value = self.expr(node.value, scope, ev)
                ev.append((_RETURN, value, node))
            return
        exc = self.expr(node.exc, scope, ev) if node.exc is not None else None  # type: ignore[union-attr]
        if node.cause is not None:  # type: ignore[union-attr]
            self._scan(node.cause, scope, ev)  # type: ignore[union-attr]
        if exc is not None:
            ev.append((_RAISE, exc, node))

    # -- statements -----------------------------------------------------------------------

    def body(self, stmts: list[ast.stmt], scope: _Scope, ev: list | None = None) -> None:
        for stmt in stmts:
            left = self.exits + self.jumps
            self.stmt(stmt, scope, ev)
            if self.exits + self.jumps != left:  # `if not ok: return`: what follows may not run
                scope = scope.conditioned()

    def stmt(self, stmt: ast.stmt, scope: _Scope, ev: list | None = None) -> None:
        """The facts of one statement; with `ev`, also its events (see `function`)."""
        t = type(stmt)
        if t not in _OWN_SCOPES and t is not _MATCH:
            self._statement_calls(stmt, t, scope)
        if not scope.is_function and (t is ast.Assign or t is ast.AnnAssign or t in _TYPE_ALIAS):
            alias = type_alias_fact(self, stmt, scope)
            if alias is not None:
                self.facts.type_aliases[alias[0]] = alias[1]
        if t is ast.Assign:
            if ev is not None:
                for target in stmt.targets:  # type: ignore[attr-defined]
                    self._scan(target, scope, ev)
            value = self.expr(stmt.value, scope, ev)  # type: ignore[attr-defined]
            if self.shadowing:
                bound: set[str] = set()
                for target in stmt.targets:  # type: ignore[attr-defined]
                    _add_target_names(target, bound)
                self._bound_here(stmt, bound, True)
            for target in stmt.targets:  # type: ignore[attr-defined]
                self._assign_choice(target, stmt.value, value, stmt, scope)  # type: ignore[attr-defined]
        elif t is ast.Expr:
            value = stmt.value  # type: ignore[attr-defined]
            if type(value) is ast.Await:
                value = value.value
            if type(value) is ast.Call:
                call = self.call(value, scope, ev)
                if call.func in _EXITS and scope.is_function and not self.handling:
                    self.exits += 1  # `sys.exit(0)` ends the process: what follows may not run
                if id(value) in self.readers:
                    self.readers.discard(id(value))  # its arguments' calls are effects (see `_statement_calls`)
                elif not self._setattr(call, stmt, scope):
                    self.facts.effects.append(EffectFact(call, scope.conditional, scope.guarded))
                    self._changes_through(call, stmt, scope, False)
                    if scope.is_function and type(call.func) is Dyn:
                        self._mutates(call.func.src, scope)
            elif type(value) is ast.ListComp or type(value) is ast.SetComp:
                self.comprehension(value, stmt, scope, ev)
            elif ev is not None:
                self._scan(value, scope, ev)
        elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
            self.function(stmt, scope)  # type: ignore[arg-type]
        elif t is ast.Return or t is ast.Raise:
            if t is ast.Return or (scope.is_function and not self.handling):
                self.exits += 1
            if ev is not None:
                self._exit(stmt, scope, ev)  # type: ignore[arg-type]
        elif t is ast.Break or t is ast.Continue:
            self.jumps += 1
        elif t is ast.If or t is ast.While:
            if ev is not None:
                self._scan(stmt.test, scope, ev)  # type: ignore[attr-defined]
            inner = scope.conditioned()
            jumps = self.jumps
            self.body(stmt.body, inner, ev)  # type: ignore[attr-defined]
            if t is ast.While:
                self.jumps = jumps  # a `break` leaves the loop, not the block holding it
            self.body(stmt.orelse, inner, ev)  # type: ignore[attr-defined]
        elif t is ast.For or t is ast.AsyncFor:
            # `for f in [a, b]: mcp.tool()(f)`: the target is bound to each item (op "in"); a loop over a
            # literal non-empty list runs its body for sure, so only then is the body unconditional.
            if ev is not None:
                self._scan(stmt.target, scope, ev)  # type: ignore[attr-defined]
            iterable = self.expr(stmt.iter, scope, ev)  # type: ignore[attr-defined]
            self.assign(stmt.target, iterable, stmt, scope, "in")  # type: ignore[attr-defined]
            certain = _runs(iterable)
            jumps = self.jumps
            loop_var = self.expr(stmt.target, scope) if type(stmt.target) is ast.Name else None  # type: ignore[attr-defined]
            items = self._listed_names(iterable)
            if type(loop_var) is Ref and items:
                self.loop_items[loop_var.name] = items
            elif type(loop_var) is Ref and type(iterable) is Ref:
                self.loop_over[loop_var.name] = iterable.name
            self.body(stmt.body, scope if certain else scope.conditioned(), ev)  # type: ignore[attr-defined]
            if type(loop_var) is Ref:
                self.loop_items.pop(loop_var.name, None)
                self.loop_over.pop(loop_var.name, None)
            self.jumps = jumps  # a `break` leaves the loop, not the block holding it
            self.body(stmt.orelse, scope.conditioned(), ev)  # type: ignore[attr-defined]
        elif t is ast.AnnAssign:
            if ev is not None:
                self._scan(stmt.target, scope, ev)  # type: ignore[attr-defined]
                self._scan(stmt.annotation, scope, ev)  # type: ignore[attr-defined]
            if stmt.value is not None:  # type: ignore[attr-defined]
                value = self.expr(stmt.value, scope, ev)  # type: ignore[attr-defined]
                if self.shadowing and type(stmt.target) is ast.Name:  # type: ignore[attr-defined]
                    self._bound_here(stmt, (stmt.target.id,), True)  # type: ignore[attr-defined]
                self._assign_choice(stmt.target, stmt.value, value, stmt, scope)  # type: ignore[attr-defined]
        elif t is ast.AugAssign:
            if ev is not None:
                self._scan(stmt.target, scope, ev)  # type: ignore[attr-defined]
            if type(stmt.op) is ast.Add:  # type: ignore[attr-defined]
                op, value = "+=", self.expr(stmt.value, scope, ev)  # type: ignore[attr-defined]
            else:
                if ev is not None:
                    self._scan(stmt.value, scope, ev)  # type: ignore[attr-defined]
                # `APPROVE &= False`: the operator and its operand kept when the link can evaluate them.
                bits = _BIT_OPS.get(type(stmt.op))  # type: ignore[attr-defined]
                parts = (Const(bits), self.expr(stmt.value, scope)) if bits is not None and _evaluable(stmt.value) else ()  # type: ignore[attr-defined]
                op, value = "?=", Dyn(_src(stmt), "augmented-assignment", parts)
            self.assign(stmt.target, value, stmt, scope, op)  # type: ignore[attr-defined]
        elif t is ast.ClassDef:
            self.klass(stmt, scope)  # type: ignore[arg-type]
        elif t is ast.With or t is ast.AsyncWith:
            for item in stmt.items:  # type: ignore[attr-defined]
                if item.optional_vars is None:
                    if ev is not None:
                        self._scan(item.context_expr, scope, ev)
                    continue
                # `with CodeAgent(...) as agent:` / `async with MCPServerStdio(...) as server:` bind what
                # `__enter__` returns, which for the frameworks' agents, servers and clients is the object.
                value = self.expr(item.context_expr, scope, ev)
                if ev is not None:
                    self._scan(item.optional_vars, scope, ev)
                self.assign(item.optional_vars, value, stmt, scope, "=")
            self.body(stmt.body, scope, ev)  # type: ignore[attr-defined]
        elif t in _TRY:
            self._try(stmt, scope, ev)  # type: ignore[arg-type]
        elif t is ast.Delete:
            for target in stmt.targets:  # type: ignore[attr-defined]
                if ev is not None:
                    self._scan(target, scope, ev)
                if type(target) is ast.Subscript:
                    self.assign(target, _NONE, stmt, scope, "del")
        elif t is ast.Import or t is ast.ImportFrom:
            if not scope.is_function:
                for local, origin in self._import_bindings(stmt):  # type: ignore[arg-type]
                    self.facts.imports.setdefault(f"{self.module}.{local}", origin)
                if self.shadowing:
                    self._bound_here(stmt, (local for local, _ in _no_star(self, stmt)), False)  # type: ignore[arg-type]
        elif t is _MATCH:
            self._match(stmt, scope, ev)  # type: ignore[arg-type]
        else:
            if t is ast.Assert and scope.is_function and not self.handling and not _always_true(stmt.test):  # type: ignore[attr-defined]
                self.exits += 1  # `assert enabled`: what follows may not run (as after `if not enabled: raise`)
            if ev is not None:
                self._scan(stmt, scope, ev)  # assert, global, pass, ...: events only

    # -- calls no fact holds ------------------------------------------------------------------
    #
    # A statement's facts hold the calls of its value as an `Expr` tree: the statement's own call
    # (an effect), an assigned value, a loop's iterable, and the calls inside those as arguments,
    # items of lists and dicts, `+` operands. A call anywhere else (`mcp.add_tool(f) or None`,
    # `if allow_refunds(CONFIG):`, `assert CONFIG.update(...) is None`, `(t := mcp.add_tool(f),)`,
    # a comprehension, a condition, an f-string, a subscript) is in no fact: it becomes an effect of
    # its own, read as every statement call is, conditional where the expression may not evaluate it
    # (an `and`/`or` operand after the first, a branch of `x if c else y`, a comprehension's element).

    def _statement_calls(self, stmt: ast.stmt, t: type, scope: _Scope) -> None:
        """The effects of the calls `stmt`'s facts do not hold (see above), before its own facts:
        they run first."""
        fields = _VISIBLE_ROOTS.get(t)
        if fields is None:  # assert, if, while, ... : no fact holds any of their calls
            if t is ast.Assert:
                self._calls_below(stmt.test, scope, stmt, False, False)  # type: ignore[attr-defined]
                self._calls_below(stmt.msg, scope, stmt, True, False)  # type: ignore[attr-defined]  (only when it fails)
                return
            for name in _HIDDEN_ROOTS.get(t, ()):
                value = getattr(stmt, name, None)
                if type(value) is list:
                    for item in value:
                        self._calls_below(item, scope, stmt, False, False)
                else:
                    self._calls_below(value, scope, stmt, False, False)
            return
        for name, visible in fields:
            value = getattr(stmt, name, None)
            if t is ast.Expr and name == "value":
                # The statement's own call is an effect already ("effect": not recorded again).
                visible = "effect" if type(value) is ast.Call or (type(value) is ast.Await and type(value.value) is ast.Call) else False  # type: ignore[attr-defined,assignment]
                if type(value) is ast.Call and self._only_reads(value, scope):  # type: ignore[arg-type]
                    # `print(mcp.add_tool(f))`: print does nothing a dialect reads; what it is given is the effect
                    self.readers.add(id(value))
                    for a in value.args:  # type: ignore[attr-defined]
                        self._calls_below(a, scope, stmt, False, False)
                    for kw in value.keywords:  # type: ignore[attr-defined]
                        self._calls_below(kw.value, scope, stmt, False, False)
                    continue
                if not visible and (type(value) is ast.ListComp or type(value) is ast.SetComp) and _read_as_loop(value):
                    gen = value.generators[0]  # type: ignore[attr-defined]
                    self._calls_below(gen.iter, scope, stmt, False, True)
                    for c in gen.ifs:
                        self._calls_below(c, scope, stmt, True, False)
                    self._calls_below(value.elt, scope, stmt, False, "effect")  # type: ignore[attr-defined,arg-type]  (see `comprehension`)
                    continue
            elif (t is ast.Assign or t is ast.AnnAssign) and name == "value":
                self._choice_calls(value, scope, stmt, False)
                continue
            elif t is ast.AugAssign and name == "value":
                visible = type(stmt.op) is ast.Add  # type: ignore[attr-defined]
            elif t is ast.With or t is ast.AsyncWith:
                for item in value:  # type: ignore[union-attr]
                    self._calls_below(item.context_expr, scope, stmt, False, item.optional_vars is not None)
                    self._calls_below(item.optional_vars, scope, stmt, False, False)
                continue
            if type(value) is list:
                for item in value:
                    self._calls_below(item, scope, stmt, False, visible)
            else:
                self._calls_below(value, scope, stmt, False, visible)

    def _only_reads(self, node: ast.Call, scope: _Scope) -> bool:
        """A call of a builtin that only reads what it is given (`print(...)`, `len(...)`)."""
        func = node.func
        return type(func) is ast.Name and func.id in _READS_ARGUMENTS and self.expr(func, scope) == Ref(f"builtins.{func.id}")  # type: ignore[attr-defined]

    def _choice_calls(self, node: ast.AST | None, scope: _Scope, stmt: ast.stmt, cond: bool) -> None:
        """`_calls_below` of an assigned value, whose choices are each a value bound (`_assign_choice`)."""
        t = type(node)
        if t is ast.IfExp:
            self._calls_below(node.test, scope, stmt, cond, False)  # type: ignore[union-attr]
            self._choice_calls(node.body, scope, stmt, True)  # type: ignore[union-attr]
            self._choice_calls(node.orelse, scope, stmt, True)  # type: ignore[union-attr]
        elif t is ast.BoolOp:
            for i, v in enumerate(node.values):  # type: ignore[union-attr]
                self._choice_calls(v, scope, stmt, cond or i > 0)
        else:
            self._calls_below(node, scope, stmt, cond, True)

    def _calls_below(self, node: ast.AST | None, scope: _Scope, stmt: ast.stmt, cond: bool, visible: bool) -> None:
        """Effects for the calls below `node` that no fact holds; `visible`: `node` converts to an
        `Expr` a fact holds, whose calls are read there; `cond`: `node` may not be evaluated."""
        if node is None:
            return
        t = type(node)
        if t in _LEAVES or t is ast.Lambda:  # a lambda's body runs when it is called, read there
            return
        if t is ast.Call:
            if not visible:
                self._hidden_call(node, scope, cond)  # type: ignore[arg-type]
            elif visible is True and _changes_in_place(node):  # type: ignore[arg-type]
                # `_ = CONFIG.update(...)`, `x = [TOOLS.append(f)]`: held in a value, but what changes
                # CONFIG is read from effects (Program.effects_by_receiver): an effect too.
                self._hidden_call(node, scope, cond)  # type: ignore[arg-type]
            # Its callee, arguments and keywords are in its `Call` (`_callee` reads a generic subscript whole).
            func = node.func  # type: ignore[attr-defined]
            if type(func) is ast.Subscript and _looks_like_type(func.slice):  # type: ignore[attr-defined]
                self._calls_below(func.value, scope, stmt, cond, True)  # type: ignore[attr-defined]
            else:
                self._calls_below(func, scope, stmt, cond, True)
            for a in node.args:  # type: ignore[attr-defined]
                self._calls_below(a, scope, stmt, cond, True)
            for kw in node.keywords:  # type: ignore[attr-defined]
                self._calls_below(kw.value, scope, stmt, cond, True)
            return
        if t in _TRANSPARENT or (t is ast.BinOp and type(node.op) in _TRANSPARENT_OPS):  # type: ignore[attr-defined]
            pass  # converted to an Expr holding its parts: as visible as itself
        elif t is ast.BoolOp:
            values = node.values  # type: ignore[attr-defined]
            self._calls_below(values[0], scope, stmt, cond, False)
            for v in values[1:]:  # `a or b`: b is evaluated only when a is false
                self._calls_below(v, scope, stmt, True, False)
            return
        elif t is ast.IfExp:
            self._calls_below(node.test, scope, stmt, cond, False)  # type: ignore[attr-defined]
            self._calls_below(node.body, scope, stmt, True, False)  # type: ignore[attr-defined]
            self._calls_below(node.orelse, scope, stmt, True, False)  # type: ignore[attr-defined]
            return
        elif t is ast.NamedExpr:
            # `(admin := Agent(...))` binds admin, as conditional as its place; the expression reads as
            # the name (see `_expr`), so the value's own call is held by the binding.
            target = node.target  # type: ignore[attr-defined]
            if type(target) is ast.Name:
                value = self.expr(node.value, scope)  # type: ignore[attr-defined]
                self.assign(target, value, stmt, scope.conditioned() if cond else scope, "=")
                self._calls_below(node.value, scope, stmt, cond, True)  # type: ignore[attr-defined]
                return
            visible = False
        elif t in _COMPREHENSIONS:
            gens = node.generators  # type: ignore[attr-defined]
            first = gens[0]
            self._calls_below(first.iter, scope, stmt, cond, False)
            if len(gens) == 1 and type(node.elt if t is not ast.DictComp else node.value) is ast.Call and not scope.is_function:  # type: ignore[attr-defined]
                # `[mcp.add_tool(f) for f in (a, b)]`: f takes each item (as in `comprehension`)
                self.assign(first.target, self.expr(first.iter, scope), stmt, scope, "in")
            # What it does per item (a generator's: only when something consumes it) may not run.
            certain = t is not ast.GeneratorExp and len(gens) == 1 and not first.ifs and _runs(self.expr(first.iter, scope))
            for i, gen in enumerate(gens):
                if i:
                    self._calls_below(gen.iter, scope, stmt, True, False)
                for c in gen.ifs:
                    self._calls_below(c, scope, stmt, True, False)
            if t is ast.DictComp:
                self._calls_below(node.key, scope, stmt, cond or not certain, False)  # type: ignore[attr-defined]
                self._calls_below(node.value, scope, stmt, cond or not certain, False)  # type: ignore[attr-defined]
            else:
                self._calls_below(node.elt, scope, stmt, cond or not certain, False)  # type: ignore[attr-defined]
            return
        else:
            visible = False  # a condition, a subscript, an f-string...: converted to a `Dyn` (or nothing)
        fields = _NODE_FIELDS.get(t)
        if fields is None:
            fields = _NODE_FIELDS[t] = tuple(f for f in t._fields if f not in _NO_NODES)  # type: ignore[attr-defined]
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        self._calls_below(item, scope, stmt, cond, visible)
            elif isinstance(value, ast.AST):
                self._calls_below(value, scope, stmt, cond, visible)

    def _hidden_call(self, node: ast.Call, scope: _Scope, cond: bool) -> None:
        depth, self.depth = self.depth, 0
        try:
            call = self.call(node, scope)
        finally:
            self.depth = depth
        self.facts.effects.append(EffectFact(call, scope.conditional or cond, scope.guarded or cond))
        self._changes_through(call, node, scope, cond)
        if scope.is_function:
            if type(call.func) is Dyn:
                self._mutates(call.func.src, scope)
            if call.func in _EXITS and not self.handling:
                self.exits += 1  # `enabled or sys.exit(0)`: what follows may not run

    def _assign_choice(self, target: ast.AST, node: ast.AST, value: Expr, stmt: ast.stmt, scope: _Scope) -> None:
        """`x = a if c else b` is `if c: x = a` / `else: x = b`; `x = a or b` binds one of its operands
        (each one may be it): each as a binding that may not happen. Anything else: `x = value`."""
        t = type(node)
        if t is ast.IfExp:
            branches = [node.body, node.orelse]  # type: ignore[attr-defined]
        elif t is ast.BoolOp:
            branches = list(node.values)  # type: ignore[attr-defined]
        else:
            self.assign(target, value, stmt, scope, "=")
            return
        inner = scope.conditioned()
        for branch in branches:
            self._assign_choice(target, branch, self.expr(branch, scope), stmt, inner)

    def _match(self, stmt: ast.AST, scope: _Scope, ev: list | None) -> None:
        """`match x:` read as the if/elif chain it is: each case body as a block that may not run,
        but the first case when it matches anything without a guard (`case _:`), which runs for
        sure. Names a pattern captures are bound to what cannot be read here."""
        self._calls_below(stmt.subject, scope, stmt, False, False)  # type: ignore[attr-defined,arg-type]
        if ev is not None:
            self._scan(stmt.subject, scope, ev)  # type: ignore[attr-defined]
        for i, case in enumerate(stmt.cases):  # type: ignore[attr-defined]
            certain = i == 0 and case.guard is None and _irrefutable(case.pattern)
            inner = scope if certain else scope.conditioned()
            self._calls_below(case.guard, scope if i == 0 else inner, stmt, False, False)  # type: ignore[arg-type]
            captured: set[str] = set()
            _capture_names(case.pattern, captured)
            for name in sorted(captured):
                self.assign(ast.Name(id=name), Dyn(name, "match-capture"), case.pattern, inner, "=")
            if ev is not None:
                self._scan(case.pattern, scope, ev)
                if case.guard is not None:
                    self._scan(case.guard, inner, ev)
            self.body(case.body, inner, ev)

    def _try(self, stmt: ast.Try, scope: _Scope, ev: list | None) -> None:
        # Facts in the order body, else, finally, handlers; events in field order (body, handlers, ...).
        parts: list[list] | list[None] = [[], [], [], []] if ev is not None else [None, None, None, None]
        in_body, in_handlers, in_else, in_final = parts
        tried = scope.derive(in_try=True) if stmt.handlers and not scope.in_try else scope
        # A handler that carries on (does not end by raising again): past the body's first statement,
        # what the body does depends on nothing before it raising (`import redis` then a registration).
        carries_on = any(not h.body or type(h.body[-1]) is not ast.Raise for h in stmt.handlers)
        self.body(stmt.body[:1], tried, in_body)
        self.body(stmt.body[1:], tried.conditioned() if carries_on else tried, in_body)
        if in_body and stmt.handlers:  # what may catch a raise of the body (a bare except: BaseException)
            types = [self.expr(h.type, scope) if h.type is not None else Ref("builtins.BaseException") for h in stmt.handlers]
            for kind, _, node in in_body:
                if kind is _RAISE:
                    self.guarded.setdefault(id(node), []).extend(types)
        self.body(stmt.orelse, tried.conditioned() if carries_on else tried, in_else)
        self.body(stmt.finalbody, scope, in_final)
        inner = scope.conditioned()
        for h in stmt.handlers:
            if in_handlers is not None and h.type is not None:
                self._scan(h.type, scope, in_handlers)
            self.handling += 1
            self.body(h.body, inner, in_handlers)
            self.handling -= 1
        if ev is not None:
            for part in parts:
                ev.extend(part)  # type: ignore[arg-type]

    def comprehension(self, node: ast.ListComp | ast.SetComp, stmt: ast.stmt, scope: _Scope, ev: list | None = None) -> None:
        """`[mcp.tool()(f) for f in [a, b]]` run for its effect: like the loop it spells."""
        if len(node.generators) != 1 or type(node.elt) is not ast.Call:
            if ev is not None:
                self._scan_children(node, scope, ev)
            return
        call = self.call(node.elt, scope, ev)  # type: ignore[arg-type]
        gen = node.generators[0]
        if ev is not None:
            self._scan(gen.target, scope, ev)
        iterable = self.expr(gen.iter, scope, ev)
        if ev is not None:
            for cond in gen.ifs:
                self._scan(cond, scope, ev)
        self.assign(gen.target, iterable, stmt, scope, "in")
        certain = _runs(iterable) and not gen.ifs
        self.facts.effects.append(EffectFact(call, scope.conditional or not certain, scope.guarded or not certain))

    def _mutates(self, callee: str, scope: _Scope) -> None:
        """A statement calling a dict-changing method of a parameter (`config.update(...)`,
        `config["tools"].append(x)`): the function changes that argument in place."""
        found = _PARAM_CHANGE.match(callee)
        if found is not None and found.group(1) in scope.params and not self._copied(found.group(1), callee, scope):
            self.mutated.setdefault(scope.prefix, set()).add(found.group(1))

    def _copied(self, name: str, changed: str, scope: _Scope) -> bool:
        """`changed` (`config.update`, `config["k"]`: what a change is made on) reaches a copy the
        parameter `name` was rebound to, not the caller's object. A shallow copy shares its items:
        a change of an item (`config["tools"].append`) still reaches the caller's."""
        deep = self.rebound.get(scope.prefix, {}).get(name)
        if deep is None:
            return False
        return deep or changed[len(name):len(name) + 1] in ("", ".")

    def _param_binding(self, name: str, value: Expr, scope: _Scope, op: str) -> None:
        """In a function: `config = dict(config)` (see `_rebinds`); `config |= {...}` / `tools += [...]`
        on a parameter or a local naming its object changes it in place; `tools = config["tools"]`
        (`= config`, `= config.setdefault(...)`) makes `tools` a name of the parameter's object."""
        if name in scope.params:
            if op == "=":
                self._rebinds(name, value, scope)
            elif not op.startswith("in") and name not in self.rebound.get(scope.prefix, {}):
                self.mutated.setdefault(scope.prefix, set()).add(name)
            return
        derived = self.derived.get(scope.prefix)
        copies = self.copies.get(scope.prefix)
        if op != "=" and not op.startswith("in"):
            if derived and name in derived and not (copies and name in copies):
                self.mutated.setdefault(scope.prefix, set()).add(derived[name])
            return
        copy = False
        if op == "in" and (param := _iterated_param(value, scope)) is not None:
            # `for config in configs:` over `*configs`, or `for c in (config,)`: each item is the
            # caller's object (a shallow copy's items too)
            pass
        elif op != "=":
            param = None
        elif type(value) is Ref:  # `d = c`: the same object as the local `c`
            param = self._derived_param(value, scope)
            copy = param is not None and bool(copies) and value.name[len(scope.prefix) + 1:] in copies  # type: ignore[operator]
        else:
            root = _receiver_root(value)
            deep = self.rebound.get(scope.prefix, {}).get(root) if root in scope.params else None
            param = root if root in scope.params and not deep else None
            if param is not None:
                copy = deep is False and type(value) is Dyn and value.src == root  # type: ignore[union-attr]
            elif derived and root in derived:
                param = derived[root]
        if param is not None:
            self.derived.setdefault(scope.prefix, {})[name] = param
        elif derived:
            derived.pop(name, None)  # bound to something else from here on
        if copy:
            self.copies.setdefault(scope.prefix, set()).add(name)
        elif copies:
            copies.discard(name)

    def _copy_alias(self, expr: Expr, scope: _Scope) -> bool:
        """`expr` is a local naming a parameter's shallow copy itself (not an item of it)."""
        copies = self.copies.get(scope.prefix)
        return bool(copies) and type(expr) is Ref and expr.name[len(scope.prefix) + 1:] in copies  # type: ignore[union-attr,operator]

    def _derived_param(self, expr: Expr, scope: _Scope) -> str | None:
        """The parameter whose object the local `expr` (a `Ref` to `<prefix>.name...`) names, if any."""
        derived = self.derived.get(scope.prefix)
        if not derived or type(expr) is not Ref or not expr.name.startswith(scope.prefix + "."):
            return None
        return derived.get(_LEADING_NAME.match(expr.name[len(scope.prefix) + 1:]).group(0))  # type: ignore[union-attr]

    def _call_changes(self, call: Call, scope: _Scope) -> None:
        """Any call in a function body: a method not known to leave its receiver unchanged called on a
        parameter, an item of it, what a method of it returns (`config.setdefault("t", []).append`),
        or a local naming one of those; or a parameter (or an item of it) passed to a callable that
        changes its argument (`operator.setitem`, `dict.update`) or one not known (a parameter): the
        function may change that parameter's object in place (fail closed: `FunctionFact.mutates`)."""
        params = scope.params
        if not params:
            return
        func = call.func
        for arg in (*call.args, *(v for _, v in call.kwargs)):
            root = _receiver_root(arg)
            if root is not None and root in params and root not in _INSTANCE and (
                    type(func) is Dyn and func.why == "parameter" and func.src in params  # type: ignore[union-attr]
                    or type(func) is Ref and func.name in _CHANGES_ARGUMENT):
                if not self.rebound.get(scope.prefix, {}).get(root):
                    self.mutated.setdefault(scope.prefix, set()).add(root)
        t = type(func)
        if t is Attr:
            method, receiver = func.attr, func.value  # type: ignore[union-attr]
        elif t is Dyn or t is Ref:
            text = func.src if t is Dyn else func.name  # type: ignore[union-attr]
            receiver_text, dot, method = text.rpartition(".")
            if not dot:
                return
            receiver = Dyn(receiver_text, func.why) if t is Dyn else Ref(receiver_text)  # type: ignore[union-attr]
        else:
            return
        if method in _READ_ONLY_METHODS:
            return
        if type(receiver) is Ref:
            param = self._derived_param(receiver, scope)
            if param is not None and not self._copy_alias(receiver, scope):
                self.mutated.setdefault(scope.prefix, set()).add(param)
            return
        root = _receiver_root(receiver)
        if root is not None and root not in params and (derived := self.derived.get(scope.prefix)) and root in derived:
            # `c = config; c["tools"].append(x)`: an item of what the local names, shared with the caller's
            self.mutated.setdefault(scope.prefix, set()).add(derived[root])
            return
        if root is None or root not in params or root in _INSTANCE:
            return
        deep = self.rebound.get(scope.prefix, {}).get(root)
        if deep or (deep is not None and type(receiver) is Dyn and receiver.src == root):  # type: ignore[union-attr]
            return  # the copy it was rebound to (a shallow copy: a change of the copy itself)
        self.mutated.setdefault(scope.prefix, set()).add(root)

    def _rebinds(self, name: str, value: Expr, scope: _Scope) -> None:
        """`config = dict(config)` (or `{**config}`, `copy(config)`, `config.copy()`, `deepcopy(config)`)
        at the top of a function body, outside a `try`: the parameter names a fresh dict from there on
        (see `_copied`). A rebinding that may not run, or to anything else, changes nothing here."""
        if scope.guarded or scope.in_try:
            return
        deep: bool | None = None
        if type(value) is Map:
            deep = False
        elif type(value) is Call:
            func = value.func
            if type(func) is Ref and func.name in ("builtins.dict", "copy.copy"):
                deep = False
            elif type(func) is Ref and func.name == "copy.deepcopy":
                deep = True
            elif type(func) is Dyn and func.src == f"{name}.copy" and not value.args:
                deep = False
        if deep is not None:
            self.rebound.setdefault(scope.prefix, {})[name] = deep

    def _module_namespace(self, func: Expr, scope: _Scope) -> bool:
        """`func()` is the module's namespace: `globals()`, or `vars()` / `locals()` at module level."""
        return func == _GLOBALS or (not scope.is_function and (func == _VARS or func == _LOCALS))

    def _namespace_write(self, call: Call, stmt: ast.stmt, scope: _Scope) -> bool:
        """`globals().update(TOOLS=v)`, `globals().update({"TOOLS": v})` and
        `setattr(sys.modules[__name__], "TOOLS", v)` bind the module's name as `TOOLS = v` does (from
        a function, whenever it runs: conditional). Names computed at run time are noted as code the
        receipt cannot follow (`dynamic_code`): any name of the module may be rebound."""
        func = call.func
        pairs: list[tuple[Expr, Expr]] | None = None
        if (type(func) is Attr and func.attr == "update" and type(func.value) is Call and not func.value.args
                and self._module_namespace(func.value.func, scope)):
            pairs = _updated(call)
        elif (func == _SETATTR and len(call.args) == 3 and not call.star and type(call.args[0]) is Dyn
                and call.args[0].src.replace(" ", "") == "sys.modules[__name__]"):
            pairs = [(call.args[1], call.args[2])]
        else:
            return False
        written = [(k.value, v) for k, v in pairs or () if type(k) is Const and type(k.value) is str and k.value.isidentifier()]
        if pairs is None or len(written) != len(pairs):
            self.namespace_writes.append((stmt.lineno, "dynamic-names", _src(stmt)))
        for name, value in written:
            self._module_name_bound(name, value, stmt, scope)
        return True

    def _module_name_bound(self, name: str, value: Expr, stmt: ast.stmt, scope: _Scope) -> None:
        """The module's name `name` bound to `value` through its namespace (`globals()[...]`,
        `globals().update(...)`): from a function whenever it runs, so conditional there."""
        self.facts.assigns.append(AssignFact(f"{self.module}.{name}", value, stmt.lineno, scope.conditional or scope.is_function or scope.in_try,
                                             "=", scope.guarded or scope.in_try))

    def _setattr(self, call: Call, stmt: ast.stmt, scope: _Scope) -> bool:
        """`setattr(obj, "attr", v)` (or `object.__setattr__(obj, ...)`) is `obj.attr = v`, and so is
        `obj.__dict__.update(attr=v)` / `vars(obj).update({"attr": v})`; with a computed name, any
        attribute (`obj.*`) may change."""
        if self._namespace_write(call, stmt, scope):
            return True
        func = call.func
        if (func == _SETATTR or func == _OBJECT_SETATTR) and len(call.args) == 3 and not call.star and type(call.args[0]) is Ref:
            self._attribute_written(call.args[0].name, call.args[1], call.args[2], stmt, scope)
            return True
        if type(func) is Ref and func.name.endswith(".__setattr__") and len(call.args) == 2 and not call.star:
            # `refund.__setattr__("needs_approval", False)`: the object's own method, as setattr
            self._attribute_written(func.name[: -len(".__setattr__")], call.args[0], call.args[1], stmt, scope)
            return True
        if (func == _SETATTR or func == _OBJECT_SETATTR) and len(call.args) == 3 and not call.star and (root := self._subscript_root(call.args[0])) is not None:
            key = call.args[1]  # `setattr(support.tools[0], "needs_approval", False)`: an item's attribute
            known = type(key) is Const and type(key.value) is str and key.value.isidentifier()  # type: ignore[union-attr]
            self._set_on_item(root, key.value if known else "*", call.args[2] if known else Dyn(_src(stmt), "setattr"), stmt, scope, "=", _position(call.args[0]))  # type: ignore[union-attr]
            return True
        owner = None
        if type(func) is Ref and func.name.endswith(".__dict__.update"):
            owner = func.name[: -len(".__dict__.update")]
        elif type(func) is Attr and func.attr == "update":
            owner = _attributes_of(func.value)
        if owner is None:
            return False
        pairs = _updated(call)
        if pairs is None:
            pairs = [(Dyn(_src(stmt), "update"), Dyn(_src(stmt), "update"))]
        for key, value in pairs:
            self._attribute_written(owner, key, value, stmt, scope)
        return True

    def _attribute_written(self, owner: str, key: Expr, value: Expr, stmt: ast.stmt, scope: _Scope) -> None:
        """`owner.<key> = value`; a key not known names any attribute (`owner.*`, its value unknown).
        On a loop variable over names known, each of them's too."""
        attr = key.value if type(key) is Const and type(key.value) is str and key.value.isidentifier() else "*"  # type: ignore[union-attr]
        if attr == "*":
            value = Dyn(_src(stmt), "setattr")
        self.facts.assigns.append(AssignFact(f"{owner}.{attr}", value, stmt.lineno, scope.conditional, "=", scope.guarded))
        self._set_on_loop_items(owner, attr, value, stmt, scope, "=")

    def _set_on_loop_items(self, owner: str, attr: str, value: Expr, stmt: ast.stmt, scope: _Scope, op: str) -> None:
        """`owner.attr` set on a loop variable over names known (`for t in [refund, wipe]:
        t.needs_approval = False`): each of them's attribute; over another name's items (`for t in
        support.tools`), an item's attribute of that name's."""
        for item in self.loop_items.get(owner, ()):
            self.facts.assigns.append(AssignFact(f"{item}.{attr}", value, stmt.lineno, scope.conditional, op, scope.guarded))
        container = self.loop_over.get(owner)
        if container is not None:
            self._set_on_item(container, attr, value, stmt, scope, op, every=True)

    def _set_on_item(self, container: str, attr: str, value: Expr, stmt: ast.stmt, scope: _Scope, op: str,
                     index: int | None = None, every: bool = False) -> None:
        """`attr` set on items of what `container` names (facts.item_write): on each of them (`every`:
        a loop over it), on the one at `index` (`C[1].attr = v`), or on one not known here (`C[i].attr
        = v`, conditional: it may be any of them)."""
        conditional = scope.conditional if every or index is not None else True
        self.facts.assigns.append(AssignFact(item_write(container, index, attr), value, stmt.lineno, conditional, op, scope.guarded))

    def _changes_through(self, call: Call, node: ast.AST, scope: _Scope, cond: bool) -> None:
        """A call changing a name's value through a spelling no effect is indexed by: a method of
        what `.get(...)` returns (`CFG.get("tools").append(x)`: the dict's own list), or a method
        fetched by `getattr(CFG, "update")(...)`. Recorded on the name as a change not read ("?=")."""
        func = call.func
        root: Expr | None = None
        if type(func) is Attr and func.attr not in _READ_ONLY_METHODS and type(func.value) is Call:
            inner = func.value.func
            if type(inner) is Ref and inner.name.endswith((".get", ".__getitem__")):
                root = Ref(inner.name.rpartition(".")[0])
        elif type(func) is Call and type(func.func) is Ref and func.func.name == "builtins.getattr" and len(func.args) >= 2:
            method = func.args[1]
            if not (type(method) is Const and method.value in _READ_ONLY_METHODS):
                root = func.args[0]
        if type(root) is Ref and "." in root.name:  # (not `requests.get(url).raise_for_status()`: a package)
            self.facts.assigns.append(AssignFact(root.name, Dyn(_src(node), "changed in place"), getattr(node, "lineno", call.line),
                                                 scope.conditional or cond, "?=", scope.guarded or cond))

    def _private_store(self, owner: Expr, method: str, key: Expr, value: Expr, stmt: ast.stmt, scope: _Scope) -> None:
        """`p._registry[k] = v`, `p._manager._items = {}`, `p.request_handlers[k] = v`: a store into the
        private state (or a handler table) of a parameter's object, kept as the statement call it amounts to (`p._registry.__setitem__(k, v)`)
        so what reads calls on parameters sees it: a framework object's internals written directly
        (tools put into a server's private tool table) must not vanish because no method is called."""
        if type(owner) is not Dyn or owner.why != "parameter":
            return
        attrs = owner.src.split(".")[1:]
        if method == "__setattr__" and type(key) is Const:
            attrs.append(str(key.value))
        if not any((a.startswith("_") and not a.startswith("__")) or a in _HANDLER_TABLES for a in attrs):
            return
        call = Call(Dyn(f"{owner.src}.{method}", "parameter"), (key,) if method == "__delitem__" else (key, value), (), stmt.lineno)
        self.facts.effects.append(EffectFact(call, scope.conditional, scope.guarded))

    def _subscript_root(self, base: Expr) -> str | None:
        """The name a chain of subscripts starts at (`CFG["tools"]`, `ALL[0]`), or the module name
        `globals()["CFG"]` / `vars()["CFG"]` spells."""
        for _ in range(_MAX_EXPR_DEPTH):
            if type(base) is not Dyn or base.why != "subscript":
                return None
            if len(base.parts) != 2:  # a subscript of a call: only `globals()[...]` is a name
                found = _GLOBALS_ITEM.match(base.src)
                return f"{self.module}.{found.group(3)}" if found is not None else None
            inner = base.parts[0]
            if type(inner) is Ref:
                return inner.name
            base = inner
        return None

    def assign(self, target: ast.AST, value: Expr, stmt: ast.stmt, scope: _Scope, op: str) -> None:
        t = type(target)
        if t is ast.Name:
            if scope.is_function:
                self._param_binding(target.id, value, scope, op)  # type: ignore[attr-defined]
            ref = self._resolved(target.id, scope)  # type: ignore[attr-defined]
            if type(ref) is Ref:
                self.facts.assigns.append(AssignFact(ref.name, value, stmt.lineno, scope.conditional, op, scope.guarded))
            return
        if t is ast.Subscript:
            name = _namespace_key(target)
            if name is not None and op == "=" and self._module_namespace(self.expr(target.value.func, scope), scope):  # type: ignore[attr-defined]
                self._module_name_bound(name, value, stmt, scope)  # `globals()["trace"] = approve`
                return
            # `ANN["readOnlyHint"] = False` / `del ANN["x"]`: recorded on ANN as a one-item mapping (op "[]=" /
            # "del"), so evaluating ANN applies it; a computed key is a Dyn key (the whole value is then unknown).
            base = self.expr(target.value, scope)  # type: ignore[attr-defined]
            owner = _attributes_of(base)
            if owner is not None and op in ("=", "del"):
                # `tool.__dict__["needs_approval"] = False`, `vars(tool)[...] = ...`: `tool.needs_approval = False`
                key = self.expr(target.slice, scope)  # type: ignore[attr-defined]
                self._attribute_written(owner, key, value if op == "=" else Dyn(_src(stmt), "deleted"), stmt, scope)
                return
            if isinstance(base, Ref) and op != "in":
                if (scope.is_function and (param := self._derived_param(base, scope)) is not None
                        and not (op in ("=", "del") and self._copy_alias(base, scope))):  # (a key of the copy itself)
                    self.mutated.setdefault(scope.prefix, set()).add(param)  # `tools = config["tools"]; tools[0] = x`
                key = self.expr(target.slice, scope)  # type: ignore[attr-defined]
                if op not in ("=", "del"):  # `ANN["x"] += ...`
                    value = Dyn(_src(stmt), "augmented-assignment")
                self.facts.assigns.append(AssignFact(base.name, Map(((key, value),)), stmt.lineno, scope.conditional or scope.in_try,
                                                     "del" if op == "del" else "[]=", scope.guarded or scope.in_try))
            elif type(base) is Dyn and scope.is_function and op != "in":
                if op in ("=", "del"):
                    self._private_store(base, "__setitem__" if op == "=" else "__delitem__", self.expr(target.slice, scope), value, stmt, scope)  # type: ignore[attr-defined]
                # `config["tools"] = ...` / `config["a"]["b"] = ...` on a parameter: changes the caller's object
                name = _LEADING_NAME.match(base.src)
                # `config["tools"] += [x]` on a shallow copy first changes the item in place (the list
                # the copy shares with the caller's), as `config["tools"].extend(x)` would; only a
                # constant on the right (`+= 1`, `+= " more"`: an int or a str, immutable) rebinds the
                # copy's own key.
                constant = type(stmt) is ast.AugAssign and type(stmt.value) is ast.Constant  # type: ignore[attr-defined]
                changed = base.src + "[" if op not in ("=", "del") and not constant else base.src
                if (name is not None and name.group(0) in scope.params and base.src[name.end():name.end() + 1] in ("", "[")
                        and not self._copied(name.group(0), changed, scope)):
                    self.mutated.setdefault(scope.prefix, set()).add(name.group(0))
                elif name is not None and (derived := self.derived.get(scope.prefix)) and name.group(0) in derived:
                    # `c = config; c["tools"]["x"] = v`: an item of what the local names, shared with the caller's
                    self.mutated.setdefault(scope.prefix, set()).add(derived[name.group(0)])
            if type(base) is Dyn and op != "in" and (root := self._subscript_root(base)) is not None:
                # `CFG["tools"][1:] = [...]`, `ALL[0]["tools"] = [...]`, `globals()["CFG"]["tools"] = ...`:
                # what the name holds is changed in place, in a way not read ("?=").
                self.facts.assigns.append(AssignFact(root, Dyn(_src(stmt), "changed in place"), stmt.lineno,
                                                     scope.conditional or scope.in_try, "?=", scope.guarded or scope.in_try))
            return
        if op == "in" and (t is ast.Tuple or t is ast.List):
            # `for name, cls in [("a", A), ...]`: each name takes its position in every item (op "in:<i>")
            for i, e in enumerate(target.elts):  # type: ignore[attr-defined]
                if type(e) is ast.Name:
                    self.assign(e, value, stmt, scope, f"in:{i}")
            return
        if op.startswith("in"):
            return  # other loop targets (attributes, starred): not followed
        if t is ast.Tuple or t is ast.List:
            elts = target.elts  # type: ignore[attr-defined]
            if isinstance(value, Seq) and len(value.items) == len(elts) and not any(type(e) is ast.Starred for e in elts):
                for e, v in zip(elts, value.items):
                    self.assign(e, v, stmt, scope, op)
                return
            # `TOOLS, COUNT = configure(TOOLS)`, `first, *rest = items`: each target is bound to what is
            # not read here. Left out, a name kept the value an earlier binding gave it.
            unpacked = Dyn(_src(stmt), "unpacked")
            for e in elts:
                self.assign(e.value if type(e) is ast.Starred else e, unpacked, stmt, scope, op)
            return
        ref = self.expr(target, scope)
        if isinstance(ref, Ref):
            self.facts.assigns.append(AssignFact(ref.name, value, stmt.lineno, scope.conditional, op, scope.guarded))
            if t is ast.Attribute and (self.loop_items or self.loop_over):
                owner = self.expr(target.value, scope)  # type: ignore[attr-defined]
                if type(owner) is Ref:
                    self._set_on_loop_items(owner.name, target.attr, value, stmt, scope, op)  # type: ignore[attr-defined]
        elif t is ast.Attribute and op != "in":
            # `support.tools[0].needs_approval = False`: an attribute of an item of `support.tools`
            owner = self.expr(target.value, scope)  # type: ignore[attr-defined]
            if scope.is_function and op == "=":
                self._private_store(owner, "__setattr__", Const(target.attr), value, stmt, scope)  # type: ignore[attr-defined]
            root = self._subscript_root(owner)
            if root is not None:
                self._set_on_item(root, target.attr, value, stmt, scope, op, _position(owner))  # type: ignore[attr-defined]

    def _listed_names(self, iterable: Expr) -> tuple[str, ...]:
        """The names a loop goes over: a literal list of names, or a name this module bound once to
        one so far (`TOOLS = [a, b]`); () when not known that way."""
        if type(iterable) is Ref:
            bound = [a for a in self.facts.assigns if a.target == iterable.name]
            iterable = bound[0].value if len(bound) == 1 and bound[0].op == "=" else None  # type: ignore[assignment]
        if type(iterable) is Seq and iterable.items and all(type(i) is Ref for i in iterable.items):
            return tuple(i.name for i in iterable.items)  # type: ignore[union-attr]
        return ()

    def annotation(self, node: ast.expr | None, scope: _Scope) -> str | None:
        """The annotation's canonical text: same type, same text (see annotations.py)."""
        if node is None:
            return None
        return clipped(canonical_annotation(node, self.resolver(scope)), ANNOTATION_LIMIT)

    def resolver(self, scope: _Scope) -> Callable[[str], str | None]:
        """A dotted name as written in `scope` -> its qualified origin (None: a parameter, ...)."""

        def resolve(dotted: str) -> str | None:
            first, _, rest = dotted.partition(".")
            ref = self._resolved(first, scope)
            if not isinstance(ref, Ref):
                return None
            return f"{ref.name}.{rest}" if rest else ref.name

        return resolve

    def _params(self, args: ast.arguments, scope: _Scope) -> list[ParamFact]:
        out: list[ParamFact] = []
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for i, (a, d) in enumerate(zip(positional, defaults)):
            out.append(self._param(a, d, "posonly" if i < len(args.posonlyargs) else "pos", scope))
        if args.vararg:
            out.append(self._param(args.vararg, None, "varargs", scope, required=False))
        for a, d in zip(args.kwonlyargs, args.kw_defaults):
            out.append(self._param(a, d, "kwonly", scope))
        if args.kwarg:
            out.append(self._param(args.kwarg, None, "varkw", scope, required=False))
        return out

    def _annotated(self, node: ast.expr, scope: _Scope) -> tuple[str | None, str | None, tuple[str, ...]]:
        """An annotation's (canonical text, reference of its outer name, names it mentions).

        Pure in the annotation's tree and the scope's names, so kept in the scope's memo by its
        source text on one line (the same text parses to the same tree): a file writes the same
        few annotations (`str`, `dict[str, Any]`, `RunContext[Deps]`) again and again."""
        key: str | None = None
        if type(node) is ast.Name:
            key = "\0" + node.id  # type: ignore[attr-defined]
        elif node.lineno == node.end_lineno and not self.in_fstring:
            lines = self.lines
            if lines is None:
                lines = self.lines = _lines(self.source)
            line, start, end = lines[node.lineno - 1], node.col_offset, node.end_col_offset
            key = "\0" + (line[start:end] if line.isascii() else line.encode()[start:end].decode())
        memo = scope.memo
        if memo is None:
            memo = scope.memo = {}
        if key is not None:
            got = memo.get(key)
            if got is not None:
                return got  # type: ignore[return-value]
        ann_ref = None
        head = node
        while type(head) is ast.Subscript:
            # Annotated[X, ...] keeps X; Optional[X]/RunContext[D] keep the outer name
            head = head.value  # type: ignore[attr-defined]
        e = self.expr(head, scope)
        if type(e) is Ref:
            ann_ref = e.name
        out = (self.annotation(node, scope), ann_ref, param_refs(self, node, scope))
        if key is not None:
            memo[key] = out  # type: ignore[assignment]
        return out

    def _param(self, a: ast.arg, default: ast.expr | None, kind: str, scope: _Scope, required: bool | None = None) -> ParamFact:
        annotation, ann_ref, refs = (None, None, ()) if a.annotation is None else self._annotated(a.annotation, scope)
        default_expr = self.expr(default, scope) if default is not None else None
        return ParamFact(
            name=a.arg,
            annotation=annotation,
            annotation_ref=ann_ref,
            # kept as long as an annotation: a `Field(...)` default holds words too (diff.py `_undescribed`)
            default=_src(default, ANNOTATION_LIMIT) if default is not None else None,
            default_expr=default_expr,
            required=(default is None or _field_gives_no_default(default_expr)) if required is None else required,
            kind=kind,
            refs=refs,
        )

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> None:
        symbol = f"{scope.prefix}.{node.name}"
        decorators = [self.expr(d, scope) for d in node.decorator_list]
        params = self._params(node.args, scope)
        inner = _Scope(
            module=scope.module,
            module_names=scope.module_names,
            imports=scope.imports,
            prefix=f"{symbol}.<locals>",
            params={p.name for p in params} | (scope.params if scope.is_function else set()),
            varargs=frozenset(p.name for p in params if p.kind == "varargs") | (scope.varargs if scope.is_function else frozenset()),
            conditional=True,
            is_function=True,
        )
        if scope.class_symbol and node.args.args and not _is_static(node):
            inner.self_name, inner.self_class = node.args.args[0].arg, scope.class_symbol
        elif scope.is_function and scope.self_name and scope.self_name not in inner.params:
            inner.self_name, inner.self_class = scope.self_name, scope.self_class
        if scope.is_function:  # closures see the enclosing function's names
            inner.locals |= scope.locals
            inner.local_imports.update(scope.local_imports)
        local_names: set[str] = set()
        local_imports: dict[str, str] = {}
        self._collect_names(node.body, local_names, local_imports, top=False)
        declared_global = _declared_global(node.body) if self.scope_statements else set()
        inner.locals |= local_names - declared_global - inner.params
        if scope.is_function:
            # A closure sees the enclosing function's copies and names of its parameters' objects
            # (those it does not bind itself): a key it sets on the copy is the copy's, not the caller's.
            shadowed = local_names | {p.name for p in params}
            for table in (self.rebound, self.derived, self.copies):
                outer = table.get(scope.prefix)
                if outer:
                    kept = {n: outer[n] for n in outer if n not in shadowed} if type(outer) is dict else {n for n in outer if n not in shadowed}
                    if kept:
                        table[inner.prefix] = kept  # type: ignore[index]
        inner.local_imports.update(local_imports)
        inner.memo = {}  # its names are final: blocks derived from it share what they resolve

        fn = FunctionFact(
            symbol=symbol,
            name=node.name,
            line=node.lineno,
            params=params,
            returns=None if node.returns is None else self._annotated(node.returns, scope)[0],
            doc=_docstring(node),
            decorators=decorators,
            conditional=scope.conditional,
            is_async=type(node) is ast.AsyncFunctionDef,
            owner_class=scope.class_symbol,
            in_block=scope.guarded,
        )
        self.facts.functions.append(fn)
        facts = self.facts
        starts = (len(facts.effects), len(facts.assigns), len(facts.functions))
        exits, jumps, handling = self.exits, self.jumps, self.handling  # a `return` here leaves this function, not the enclosing block
        self.handling = 0
        # One pass over the body: the facts of each statement (factories: what a function body
        # registers is real surface, but conditional) and its events. `calls`, `raises`,
        # `returns_exprs` and `indirect` list the body's nodes statement by statement, each
        # statement's nodes parent first, last child first: the reverse of its events' post-order.
        # A function or class defined directly in the body is part of it too (with this scope).
        calls, raises, returns, indirect = fn.calls, fn.raises, fn.returns_exprs, fn.indirect
        here = inner
        returned_calls: set[str] = set()  # `return inner()` directly in the body, reached unguarded
        for stmt in node.body:
            ev: list = []
            left = self.exits + self.jumps
            reached = not here.guarded  # (before a `return` here conditions what follows it)
            if type(stmt) in _OWN_SCOPES:
                self.stmt(stmt, here)
                self._scan_children(stmt, here, ev)
                # What a nested function calls or raises counts for this one; what it returns is its own.
                ev = [e for e in ev if e[0] is not _RETURN]
            else:
                self.stmt(stmt, here, ev)
            if self.exits + self.jumps != left:  # `if not ok: return`: what follows may not run
                here = here.conditioned()
            for kind, value, sub in reversed(ev):
                if kind is _CALL:
                    if type(value.func) is not Dyn:
                        calls.append(value)
                    self._call_changes(value, inner)
                    func = sub.func
                    if (type(func) is ast.Subscript or type(func) is ast.Call) and _indirect_target(func):
                        indirect.append((sub.lineno, _src(func)))
                elif kind is _RETURN:
                    returns.append(value)
                    if sub is stmt and reached and type(value) is Call and type(value.func) is Ref:
                        returned_calls.add(value.func.name)
                else:
                    raises.append(value)
                    if (handlers := self.guarded.get(id(sub))) is not None:
                        fn.guarded.append((len(raises) - 1, tuple(handlers)))
        if returns:
            fn.body = self._body_digest(node)
        self.exits, self.jumps, self.handling = exits, jumps, handling
        self._closures_run(inner.prefix, fn, returned_calls)
        if scope.is_function:
            self.closures.setdefault(scope.prefix, []).append(
                (symbol, *starts, len(facts.effects), len(facts.assigns), len(facts.functions)))
        self.rebound.pop(inner.prefix, None)
        self.derived.pop(inner.prefix, None)
        self.copies.pop(inner.prefix, None)
        changed = self.mutated.pop(inner.prefix, None)
        if changed:
            own = {p.name for p in params}
            fn.mutates = sorted(changed & own)
            if scope.is_function and changed - own:  # a closure changing its enclosing function's parameter
                self.mutated.setdefault(scope.prefix, set()).update(changed - own)

    def _closures_run(self, prefix: str, fn: FunctionFact, returned_calls: set[str]) -> None:
        """A closure's body runs when its function calls it: unless the function's own body calls it
        as a statement, assigned value or returned value (`return inner()`, `returned_calls`)
        outside any `if`/loop/handler (or returns it, leaving it to its callers), what the closure
        does is guarded, as under an `if` (`def inner(): mcp.add_tool(f)` then `if flag: inner()`;
        a closure nobody calls may never run)."""
        closures = self.closures.pop(prefix, None)
        if not closures:
            return
        facts = self.facts
        inside = [range(e0, e1) for _s, e0, _a0, _f0, e1, _a1, _f1 in closures]
        inside_assigns = [range(a0, a1) for _s, _e0, a0, _f0, _e1, a1, _f1 in closures]
        called = set(returned_calls)
        for i in range(min(e0 for _s, e0, *_rest in closures), len(facts.effects)):
            e = facts.effects[i]
            if not e.guarded and type(e.call.func) is Ref and not any(i in r for r in inside):
                called.add(e.call.func.name)  # type: ignore[union-attr]
        for i in range(min(a0 for _s, _e0, a0, *_rest in closures), len(facts.assigns)):
            a = facts.assigns[i]
            if not a.guarded and type(a.value) is Call and type(a.value.func) is Ref and not any(i in r for r in inside_assigns):  # type: ignore[union-attr]
                called.add(a.value.func.name)  # type: ignore[union-attr]
        called.update(r.name for r in fn.returns_exprs if type(r) is Ref)
        for symbol, e0, a0, f0, e1, a1, f1 in closures:
            if symbol in called:
                continue
            for e in facts.effects[e0:e1]:
                e.guarded = True
            for a in facts.assigns[a0:a1]:
                a.guarded = True
            for f in facts.functions[f0:f1]:
                f.in_block = True

    def klass(self, node: ast.ClassDef, scope: _Scope) -> None:
        symbol = f"{scope.prefix}.{node.name}"
        cls = ClassFact(
            symbol=symbol,
            name=node.name,
            line=node.lineno,
            bases=[self._callee(b, scope) for b in node.bases],  # `class Ops(Agent[Ctx])` derives from Agent
            decorators=[self.expr(d, scope) for d in node.decorator_list],
            doc=_docstring(node),
            conditional=scope.conditional,
        )
        class_schema_facts(self, node, scope, cls)
        class_scope = scope.derive(prefix=symbol, class_symbol=symbol)
        bare: dict[str, int] = {}  # names annotated without a value (`allow_code_execution: bool`), by line
        namespace = False  # the body reads its own namespace (`locals()`, `vars()`)
        for stmt in node.body:
            t = type(stmt)
            if t is ast.FunctionDef or t is ast.AsyncFunctionDef:
                self.function(stmt, class_scope)  # type: ignore[arg-type]
                cls.methods.append(f"{symbol}.{stmt.name}")  # type: ignore[attr-defined]
            elif t is ast.Assign or t is ast.AnnAssign:
                targets = stmt.targets if t is ast.Assign else [stmt.target]  # type: ignore[attr-defined]
                if stmt.value is None:  # type: ignore[attr-defined]
                    if type(stmt.target) is ast.Name:  # type: ignore[attr-defined]
                        bare[stmt.target.id] = stmt.lineno  # type: ignore[attr-defined]
                    continue
                value = self.expr(stmt.value, scope)  # type: ignore[attr-defined]
                for target in targets:
                    if type(target) is ast.Name:
                        cls.attrs[target.id] = value
                        cls.attr_lines[target.id] = stmt.lineno
                    elif type(target) is ast.Tuple or type(target) is ast.List:
                        self._class_unpacked(cls, target, stmt.value, stmt, scope)  # type: ignore[attr-defined]
                    elif type(target) is ast.Subscript and _leading_name(target) not in cls.attrs:
                        # `class Setup: CONFIG["tools"] = [...]`: a module name's item, changed when the class is defined
                        self.assign(target, value, stmt, scope, "=")
            elif t is ast.AugAssign and type(stmt.target) is ast.Subscript and _leading_name(stmt.target) not in cls.attrs:  # type: ignore[attr-defined]
                self.assign(stmt.target, self.expr(stmt.value, scope), stmt, scope, "+=" if type(stmt.op) is ast.Add else "?=")  # type: ignore[attr-defined]
            elif t is ast.ClassDef:
                self.klass(stmt, class_scope)  # type: ignore[arg-type]
            elif t is ast.Expr:
                # `class Setup: allow_refunds(CONFIG)`: run when the class is defined (a call no fact holds)
                self._calls_below(stmt.value, scope, stmt, False, False)  # type: ignore[attr-defined]
            else:
                # Set under an `if`, a loop, a `try`, a `with`, a `match`, or by `x += ...`: which value the
                # class holds is not known here (a name it leaves unset keeps what a base gives).
                bound: dict[str, ast.AST] = {}
                _class_body_names(stmt, bound)
                for name, binder in sorted(bound.items()):
                    cls.attrs[name] = Dyn(_src(binder), "set conditionally in the class body")
                    cls.attr_lines[name] = getattr(binder, "lineno", stmt.lineno)
            if t is not ast.FunctionDef and t is not ast.AsyncFunctionDef and t is not ast.ClassDef and not namespace:
                namespace = _uses_namespace(stmt)
        if namespace:
            # `locals().update(SETTINGS)` / `vars()["x"] = ...`: any annotated name may be given a value
            # the receipt cannot see (pydantic reads the class namespace for each field's default).
            for name, line in bare.items():
                if name not in cls.attrs:
                    cls.attrs[name] = Dyn("locals()", "set through the class namespace")
                    cls.attr_lines[name] = line
        self.facts.classes.append(cls)

    def _class_unpacked(self, cls: ClassFact, target: ast.AST, value: ast.AST, stmt: ast.stmt, scope: _Scope) -> None:
        """`a, b = True, "unsafe"` in a class body: each name takes its item; against anything but a
        literal of as many items (or with a starred name), each name is not known."""
        elts = target.elts  # type: ignore[attr-defined]
        if (type(value) in (ast.Tuple, ast.List) and len(value.elts) == len(elts)  # type: ignore[attr-defined]
                and not any(type(e) is ast.Starred for e in (*elts, *value.elts))):  # type: ignore[attr-defined]
            for e, v in zip(elts, value.elts):  # type: ignore[attr-defined]
                if type(e) is ast.Name:
                    cls.attrs[e.id] = self.expr(v, scope)
                    cls.attr_lines[e.id] = stmt.lineno
                elif type(e) is ast.Tuple or type(e) is ast.List:
                    self._class_unpacked(cls, e, v, stmt, scope)
            return
        names: set[str] = set()
        _add_target_names(target, names)
        for name in names:
            cls.attrs[name] = Dyn(_src(stmt), "unpacked in the class body")
            cls.attr_lines[name] = stmt.lineno

    def run(self) -> ModuleFacts:
        names: set[str] = set()
        imports: dict[str, str] = {}
        self._collect_names(self.tree.body, names, imports, top=True)
        fallbacks = self.fallback_stars - self.plain_stars  # before `body` records its own imports again
        self._order_bindings(imports)
        scope = self.top = _Scope(module=self.module, module_names=names, imports=imports, prefix=self.module, memo={})
        self.body(self.tree.body, scope)
        for name in self.final_local:  # the module's own value of the name, not the import's, is what it exports
            self.facts.imports.pop(f"{self.module}.{name}", None)
        # In the order they take effect (`ModuleFacts.star_imports`): fallbacks first, then source order.
        order = list(dict.fromkeys(self.facts.star_imports))
        self.facts.star_imports = [m for m in order if m in fallbacks] + [m for m in order if m not in fallbacks]
        if self.scan_dynamic_code:
            self.facts.dynamic_code = self._dynamic_code(scope)
        if self.namespace_writes:
            self.facts.dynamic_code = sorted({*self.facts.dynamic_code, *self.namespace_writes})
        return self.facts

    def _order_bindings(self, imports: dict[str, str]) -> None:
        """`shadowing` and `final_local` from the module body's own statements (not those under an
        `if` or `try`: a fallback assignment in `except ImportError:` keeps the import's name)."""
        last: dict[str, str] = {}
        assigned: set[str] = set()
        for stmt in self.tree.body:
            t = type(stmt)
            if t is ast.Assign or (t is ast.AnnAssign and stmt.value is not None):  # type: ignore[attr-defined]
                self.top_statements.add(id(stmt))
                found: set[str] = set()
                for target in stmt.targets if t is ast.Assign else (stmt.target,):  # type: ignore[attr-defined]
                    _add_target_names(target, found)
                assigned |= found
                last.update(dict.fromkeys(found, "assign"))
            elif t is ast.Import or t is ast.ImportFrom:
                self.top_statements.add(id(stmt))
                last.update(dict.fromkeys((local for local, _ in _no_star(self, stmt)), "import"))  # type: ignore[arg-type]
        self.shadowing = frozenset(n for n in imports if n in assigned)
        self.final_local = frozenset(n for n in self.shadowing if last.get(n) == "assign")

    def _bound_here(self, stmt: ast.stmt, names: Iterable[str], local: bool) -> None:
        """A module-level statement binding names of `shadowing`: to the module's own value
        (`local`: an assignment) or to the import's, for the statements that follow."""
        if id(stmt) not in self.top_statements:
            return
        for name in names:
            if name in self.shadowing:
                (self.local_now.add if local else self.local_now.discard)(name)

    def _dynamic_code(self, scope: _Scope) -> list[tuple[int, str, str]]:
        """exec/eval/compile of a non-literal, exec/eval of a string literal and imports of computed
        module names, anywhere in the file."""
        out: list[tuple[int, str, str]] = []
        # A call can resolve to one of those only if its callee is spelled with the name's last
        # part (`exec`, `importlib.import_module`) or with a module-level alias of it. Statements
        # whose lines hold none of those words are not walked (most of a file): see _spelled_on.
        names = set(_CODE_RUNNER_NAMES)
        names.update(local for local, origin in scope.imports.items() if origin in _CODE_RUNNER_ORIGINS)
        hits = self._spelled_on(names)
        if not hits:
            return out
        calls: list[ast.Call] = []
        _calls_in_statements(self.tree.body, hits, calls)
        for node in calls:
            f = node.func
            t = type(f)
            if not node.args or not (t is ast.Name and f.id in names or t is ast.Attribute and f.attr in _CODE_RUNNER_NAMES):  # type: ignore[attr-defined]
                continue
            func = self.expr(f, scope)
            literal = isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))
            if func in _RUNS_CODE and not literal:
                out.append((node.lineno, "dynamic-code", _src(node)))
            elif func in _RUNS_CODE and func != _COMPILE:
                # `exec("TOOLS = [refund]")`: code in a string is code the receipt does not read
                out.append((node.lineno, "string-code", _src(node)))
            elif func in _IMPORTS and not literal:
                out.append((node.lineno, "dynamic-import", _src(node)))
        return sorted(set(out))

    def _spelled_on(self, words: set[str]) -> list[int]:
        """The lines (1-based, ascending) where one of `words` may be written: those holding one as
        text, and every line with non-ASCII text (an identifier's NFKC look-alike, `ｅｖａｌ`, holds some)."""
        lines = self.lines
        if lines is None:
            lines = self.lines = _lines(self.source)
        source = self.source
        found: set[int] = set()
        if not source.isascii():
            found.update(i for i, line in enumerate(lines, 1) if not line.isascii())
        starts: list[int] | None = None
        for word in words:
            at = source.find(word)
            while at >= 0:
                if starts is None:
                    starts = [0, *itertools.accumulate(map(len, lines))]
                found.add(bisect.bisect_right(starts, at))
                at = source.find(word, at + 1)
        return sorted(found)


def _calls_in_statements(stmts: list[ast.stmt], hits: list[int], out: list[ast.Call]) -> None:
    """Every call in the statements whose lines (decorators included) hold one of `hits` (sorted),
    into `out`. A statement's line span is the parser's and encloses all of its text; the nodes
    inside may be misplaced (f-strings before 3.12), so below a statement nothing is skipped but
    nested statements."""
    for stmt in stmts:
        first = stmt.lineno
        decorators = getattr(stmt, "decorator_list", None)
        if decorators:
            first = min(first, decorators[0].lineno)
        i = bisect.bisect_left(hits, first)
        if i == len(hits) or hits[i] > stmt.end_lineno:  # type: ignore[operator]
            continue
        t = type(stmt)
        for name in _ALL_FIELDS.get(t) or _all_fields(t):
            value = getattr(stmt, name, None)
            if name in _STATEMENT_LISTS:
                _calls_in_statements(value, hits, out)  # type: ignore[arg-type]
            elif name == "handlers" or name == "cases":
                for part in value:  # type: ignore[union-attr]
                    for sub in _ALL_FIELDS.get(type(part)) or _all_fields(type(part)):
                        if sub == "body":
                            _calls_in_statements(part.body, hits, out)
                        else:
                            _calls_below(getattr(part, sub, None), out)
            else:
                _calls_below(value, out)


def _calls_below(node: object, out: list[ast.Call]) -> None:
    """Every call in an expression tree (or a list of them), into `out`."""
    if node is None:
        return
    stack = list(node) if type(node) is list else [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Call:
            out.append(n)  # type: ignore[arg-type]
        elif t in _LEAVES or not isinstance(n, ast.AST):
            continue
        for name in _ALL_FIELDS.get(t) or _all_fields(t):
            value = getattr(n, name, None)
            if type(value) is list:
                stack.extend(value)
            elif value is not None:
                stack.append(value)


def _all_fields(t: type) -> tuple[str, ...]:
    fields = _ALL_FIELDS[t] = tuple(f for f in t._fields if f not in _NO_NODES)  # type: ignore[attr-defined]
    return fields


def _runs(iterable: Expr) -> bool:
    """A loop body that runs (once per item) for sure: over a literal non-empty list, or over a named
    collection (what it registers is then exactly its items, each as conditional as the item itself)."""
    if isinstance(iterable, Seq):
        return bool(iterable.items) and not any(isinstance(i, Splat) for i in iterable.items)
    return isinstance(iterable, Ref)


_TYPE_ALIAS: tuple[type, ...] = (ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ()  # `type X = ...`, 3.12+
_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))
_MATCH = getattr(ast, "Match", None)  # `match` statement, 3.10+
# Per statement type, its fields a fact converts (True: whose calls that fact then holds) or only
# scans (False), in evaluation order; types not listed have no fact holding a call (_HIDDEN_ROOTS).
_VISIBLE_ROOTS: dict[type, tuple[tuple[str, bool], ...]] = {
    ast.Expr: (("value", True),),
    ast.Assign: (("value", True), ("targets", False)),
    ast.AnnAssign: (("value", True), ("target", False)),
    ast.AugAssign: (("value", True), ("target", False)),
    ast.For: (("iter", True), ("target", False)),
    ast.AsyncFor: (("iter", True), ("target", False)),
    ast.With: (("items", True),),
    ast.AsyncWith: (("items", True),),
    ast.Return: (("value", True),),
    ast.Raise: (("exc", True), ("cause", False)),
}
_HIDDEN_ROOTS: dict[type, tuple[str, ...]] = {ast.If: ("test",), ast.While: ("test",), ast.Delete: ("targets",)}
# Expressions converted to an `Expr` holding what each part converts to (see `_expr`).
_TRANSPARENT = frozenset({ast.List, ast.Tuple, ast.Set, ast.Starred, ast.Dict, ast.Await, ast.Attribute})
_TRANSPARENT_OPS = frozenset({ast.Add, ast.BitOr})
# Methods changing a dict or list in place (see `_changes_in_place`).
_IN_PLACE = frozenset({
    "update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove", "add", "discard",
    "__setitem__", "__delitem__", "__init__", "__ior__", "__iadd__",
})
# Builtins that only read their arguments: called as a statement, they are not what it does.
_READS_ARGUMENTS = frozenset({
    "print", "repr", "str", "bool", "len", "id", "hash", "isinstance", "issubclass", "callable", "format", "int", "float",
    "any", "all", "sorted", "list", "tuple", "set", "frozenset", "min", "max", "sum", "abs", "ascii", "dir",
})
_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})
_COMPOUND = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, *_TRY})
_STATEMENT_LISTS = ("body", "orelse", "finalbody")
# Functions, classes and lambdas inside a body are not part of it (except a def or class statement
# directly in the body, see `function`).
_OWN_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})
# Nodes with nothing below them that can hold a call, a raise or a return.
_LEAVES = frozenset(
    {ast.Name, ast.Constant, ast.Load, ast.Store, ast.Del, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal,
     ast.Import, ast.ImportFrom, ast.alias,
     *(c for base in (ast.operator, ast.unaryop, ast.cmpop, ast.boolop) for c in base.__subclasses__())}
)
# Fields that never hold a node worth scanning (contexts, operators, names, flags), and each node
# type's other fields, in order (filled on first use).
_NO_NODES = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "conversion", "is_async", "level", "type_comment", "kind"})
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}
# Expressions whose source span, parsed again on its own, is the same tree (see Dyn.of_source).
_SPANNABLE = frozenset(
    {ast.Subscript, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.JoinedStr, ast.IfExp, ast.Lambda, ast.ListComp,
     ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Attribute, ast.NamedExpr}
)
_FSTRINGS = frozenset({ast.JoinedStr, ast.FormattedValue, *(getattr(ast, n) for n in ("TemplateStr", "Interpolation") if hasattr(ast, n))})
_CONST_TYPES = frozenset({str, int, float, bool})
# Operators over values the link evaluates (`not`, `and`, `or`, one comparison): their `Dyn.why`,
# kept with their operands. An operand that is not a name, a constant, a subscript of a name or such
# an operator again is kept as its text only (a call among them would be converted twice, its
# effect's and this part's): unknown, as it is, though `True or check()` is still True.
_COMPARISONS = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Is: "is", ast.IsNot: "is not",
    ast.In: "in", ast.NotIn: "not in",
}


_BIT_OPS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}  # the augmented operators the link evaluates


def _operator(node: ast.AST) -> str | None:
    """The `Dyn.why` of an operator expression the link evaluates (see `_COMPARISONS`), else None."""
    t = type(node)
    if t is ast.UnaryOp and type(node.op) is ast.Not:  # type: ignore[attr-defined]
        why = "not"
    elif t is ast.BoolOp:
        why = "and" if type(node.op) is ast.And else "or"  # type: ignore[attr-defined]
    elif t is ast.Compare and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:  # type: ignore[attr-defined]
        why = _COMPARISONS[type(node.ops[0])]  # type: ignore[attr-defined]
    elif t is ast.IfExp:  # `APPROVE if TIER == "manual" else False`: (test, body, orelse)
        why = "conditional-expression"
    else:
        return None
    return why


def _operands(node: ast.AST) -> list[ast.expr]:
    t = type(node)
    if t is ast.UnaryOp:
        return [node.operand]  # type: ignore[attr-defined]
    if t is ast.BoolOp:
        return list(node.values)  # type: ignore[attr-defined]
    if t is ast.IfExp:
        return [node.test, node.body, node.orelse]  # type: ignore[attr-defined]
    return [node.left, node.comparators[0]]  # type: ignore[attr-defined]


def _evaluable(node: ast.expr) -> bool:
    t = type(node)
    if t is ast.Constant or t is ast.Name or (t is ast.Attribute and _dotted(node) is not None):
        return True
    if t is ast.UnaryOp and type(node.op) is ast.USub and type(node.operand) is ast.Constant:  # type: ignore[attr-defined]
        return True
    if t is ast.Tuple or t is ast.List or t is ast.Set:  # `LEVEL in ("high", "max")`
        return all(_evaluable(e) for e in node.elts)  # type: ignore[attr-defined]
    if t is ast.Subscript:  # `CFG["approve"]`, `os.environ["X"]`
        return _dotted(node.value) is not None and type(node.slice) in (ast.Constant, ast.Name)  # type: ignore[attr-defined]
    return _operator(node) is not None


_WHY = {ast.Subscript: "subscript", ast.JoinedStr: "f-string", ast.IfExp: "conditional-expression", ast.Lambda: "lambda"}
# Event kinds of a function body (see `_Extractor.function`).
_CALL, _RETURN, _RAISE = "call", "return", "raise"
_SETATTR = Ref("builtins.setattr")
# Calls that end the process (as a `raise` leaves the function: see `_Extractor.exits`).
_EXITS = frozenset({Ref("sys.exit"), Ref("os._exit"), Ref("os.abort"), Ref("builtins.exit"), Ref("builtins.quit")})
_NONE = Const(None)  # immutable: one for every file
_PIPE = Ref(PIPE)
# What a call reaching _RUNS_CODE or _IMPORTS must spell: the bare name (`re.compile` is not
# `compile`), or an import of builtins/importlib names. No hit, no such call: the walk is skipped.
_RUNS_CODE_HINT = re.compile(r"(?<![\w.])(?:exec|eval|compile)(?!\w)|builtins|import_module|__import__")
# Words every match of _RUNS_CODE_HINT contains: `in` finds them far faster than the regex, which
# tries its look-behind at every position (0.8 ms a file, a tenth of extracting it).
_RUNS_CODE_WORDS = ("exec", "eval", "compile", "builtins", "import_module", "__import__")
_COMPILE = Ref("builtins.compile")  # makes a code object; what runs it is exec/eval of a name
_RUNS_CODE = frozenset({Ref("builtins.exec"), Ref("builtins.eval"), _COMPILE})
_IMPORTS = frozenset({Ref("builtins.__import__"), Ref("importlib.import_module"), Ref("importlib.__import__")})
_NAMESPACES = frozenset({"globals", "locals", "vars"})
# The last part of each name in _RUNS_CODE and _IMPORTS, and those names (see _dynamic_code).
_CODE_RUNNER_NAMES = frozenset(r.name.rpartition(".")[2] for r in _RUNS_CODE | _IMPORTS)
_CODE_RUNNER_ORIGINS = frozenset(r.name for r in _RUNS_CODE | _IMPORTS)
# Each node type's fields that can hold a node (filled on first use), for walks that skip nothing.
_ALL_FIELDS: dict[type, tuple[str, ...]] = {}


def _indirect_target(func: ast.AST) -> bool:
    """A callee chosen at run time: `globals()[name]`, `vars(mod)[name]`, `obj.__dict__[name]`,
    `getattr(obj, computed)`, `eval(...)`."""
    if isinstance(func, ast.Subscript):
        table = func.value
        if isinstance(table, ast.Call) and isinstance(table.func, ast.Name) and table.func.id in _NAMESPACES:
            return True
        return isinstance(table, ast.Attribute) and table.attr in ("__dict__", "modules")
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name):
        if func.func.id == "getattr" and len(func.args) >= 2:
            return not isinstance(func.args[1], ast.Constant)
        return func.func.id in ("eval", "exec")
    return False


def _docstring(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str | None:
    """`ast.get_docstring(node)`: the first statement's string, cleaned. The parser makes exactly
    these classes, so without that function's deprecated `ast.Str` test (an `isinstance` through a
    Python-level metaclass check, 2% of extraction)."""
    body = node.body
    if not body or type(body[0]) is not ast.Expr:
        return None
    value = body[0].value  # type: ignore[attr-defined]
    if type(value) is not ast.Constant or type(value.value) is not str:
        return None
    from inspect import cleandoc  # imported where ast.get_docstring imports it: on first use

    return cleandoc(value.value)


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A static or class method: its first parameter is not an instance."""
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list)


_GLOBALS = Ref("builtins.globals")
_VARS = Ref("builtins.vars")
_LOCALS = Ref("builtins.locals")
_OBJECT_SETATTR = Ref("builtins.object.__setattr__")


def _updated(call: Call) -> list[tuple[Expr, Expr]] | None:
    """The (key, value) pairs a `dict.update`-like call sets (`update(a=1)`, `update({"a": 1})`);
    None when some are not written out (a mapping computed at run time, `**kw`)."""
    pairs: list[tuple[Expr, Expr]] = [(Const(k), v) for k, v in call.kwargs]
    for arg in call.args:
        if type(arg) is not Map:
            return None
        pairs += arg.items
    return None if call.star or call.spread else pairs


def _position(item: Expr) -> int | None:
    """The constant position `C[1]` names in its container (a plain int, not a slice), else None."""
    if type(item) is Dyn and item.why == "subscript" and len(item.parts) == 2 and type(item.parts[1]) is Const:  # type: ignore[union-attr]
        index = item.parts[1].value  # type: ignore[union-attr]
        return index if type(index) is int else None
    return None


def _attributes_of(base: Expr) -> str | None:
    """The object whose attributes `base` is, as a mapping: `obj.__dict__` or `vars(obj)`."""
    if type(base) is Ref and base.name.endswith(".__dict__"):
        return base.name[: -len(".__dict__")]
    if type(base) is Call and base.func == _VARS and len(base.args) == 1 and type(base.args[0]) is Ref and not base.kwargs:
        return base.args[0].name  # type: ignore[union-attr]
    return None


def _namespace_key(target: ast.Subscript) -> str | None:
    """`x` of `globals()["x"]` (a call of a name without arguments, a constant identifier as key)."""
    call, key = target.value, target.slice
    if (type(call) is ast.Call and type(call.func) is ast.Name and not call.args and not call.keywords  # type: ignore[attr-defined]
            and type(key) is ast.Constant and type(key.value) is str and key.value.isidentifier()):  # type: ignore[attr-defined]
        return key.value  # type: ignore[attr-defined]
    return None


def _iterated_param(value: Expr, scope: _Scope) -> str | None:
    """The parameter a loop's items are objects of the caller's from: `*configs` iterated
    (`for config in configs`), or a literal of one parameter (`for c in (config,)`, `[config]`)."""
    items = value.items if type(value) is Seq else (value,)  # type: ignore[union-attr]
    names = {e.src for e in items if type(e) is Dyn and e.why == "parameter" and e.src in scope.params}  # type: ignore[union-attr]
    if len(names) != 1 or len(items) != len([e for e in items if type(e) is Dyn]):
        return None
    name = names.pop()
    return name if type(value) is Seq or name in scope.varargs else None


def _leading_name(node: ast.AST) -> str | None:
    """The name a chain of subscripts and attributes starts at (`CFG` of `CFG["a"][1:]`)."""
    while type(node) is ast.Subscript or type(node) is ast.Attribute:
        node = node.value  # type: ignore[attr-defined]
    return node.id if type(node) is ast.Name else None  # type: ignore[attr-defined]


def _no_star(ex: _Extractor, stmt: ast.Import | ast.ImportFrom) -> Iterable[tuple[str, str]]:
    if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
        return []
    return list(ex._import_bindings(stmt))


_TYPE_NAMES = frozenset({"Any", "None", "bool", "bytes", "dict", "float", "int", "list", "object", "set", "str", "tuple", "type"})


def _looks_like_type(node: ast.AST) -> bool:
    """`Ctx`, `mod.Ctx`, `dict[str, Any]`, `A | None`: a type argument, not an index (`handlers[i]`)."""
    if isinstance(node, ast.Name):
        return node.id in _TYPE_NAMES or _class_like(node.id)
    if isinstance(node, ast.Attribute):
        return _class_like(node.attr)
    if isinstance(node, ast.Subscript):
        return _looks_like_type(node.value)
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_looks_like_type(e) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _looks_like_type(node.left) and _looks_like_type(node.right)
    if isinstance(node, ast.Constant):
        return node.value is None
    return False


def _class_like(name: str) -> bool:
    # CapWords (or a one-letter TypeVar); an ALL_CAPS constant is more likely a dict key
    return name[:1].isupper() and (len(name) == 1 or not name.isupper())


def _class_body_names(stmt: ast.stmt, out: dict[str, ast.AST]) -> None:
    """The names a class-body statement that is not a plain assignment may bind (`x += 1`; an
    assignment, loop target, `with ... as`, `except ... as` or walrus inside an `if`, a loop, a
    `try`, a `with` or a `match`), each with the innermost statement or expression binding it
    (what is said of its value). Not the functions and classes it defines, nor their bodies."""
    todo: list[tuple[ast.AST, ast.AST]] = [(stmt, stmt)]
    while todo:
        node, binder = todo.pop()
        k = type(node)
        if k is ast.FunctionDef or k is ast.AsyncFunctionDef or k is ast.ClassDef or k is ast.Lambda:
            continue
        if k is ast.Name and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
            out.setdefault(node.id, binder)  # type: ignore[attr-defined]
        elif k is ast.ExceptHandler and node.name:  # type: ignore[attr-defined]
            out.setdefault(node.name, node)  # type: ignore[attr-defined]
        elif k is ast.Import or k is ast.ImportFrom:
            for a in node.names:  # type: ignore[attr-defined]
                out.setdefault((a.asname or a.name).split(".")[0], node)
            continue
        if isinstance(node, ast.stmt) or k is ast.NamedExpr:
            binder = node
        todo.extend((child, binder) for child in ast.iter_child_nodes(node))


def _uses_namespace(stmt: ast.stmt) -> bool:
    """Whether a class-body statement calls `locals()` or `vars()` (no argument: the namespace being built)."""
    for node in ast.walk(stmt):
        if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in ("locals", "vars") and not node.args:  # type: ignore[attr-defined]
            return True
    return False


def _add_target_names(t: ast.AST, out: set[str]) -> None:
    """The names an assignment to `t` binds (`a`, `a, (b, *c)`), added to `out`."""
    k = type(t)
    if k is ast.Name:
        out.add(t.id)  # type: ignore[attr-defined]
    elif k is ast.Tuple or k is ast.List:
        for e in t.elts:  # type: ignore[attr-defined]
            _add_target_names(e, out)
    elif k is ast.Starred:
        _add_target_names(t.value, out)  # type: ignore[attr-defined]


def _changes_in_place(node: ast.Call) -> bool:
    """`CONFIG.update(...)`, `CONFIG["tools"].append(x)`, `TOOLS.extend(...)`: a method changing the
    dict or list of a name (or of an item of one) in place."""
    func = node.func
    if type(func) is not ast.Attribute or func.attr not in _IN_PLACE:
        return False
    base = func.value
    while type(base) is ast.Subscript or type(base) is ast.Attribute:
        base = base.value  # type: ignore[attr-defined]
    return type(base) is ast.Name


def _read_as_loop(node: ast.ListComp | ast.SetComp) -> bool:
    """A comprehension statement `comprehension` reads as the loop it spells (its element an effect)."""
    return len(node.generators) == 1 and type(node.elt) is ast.Call


def _capture_names(pattern: ast.AST, out: set[str]) -> None:
    """The names a `case` pattern binds (`case {"k": v, **rest}`, `case [x, *xs]`, `case P() as p`)."""
    for node in ast.walk(pattern):
        name = getattr(node, "name", None) if type(node).__name__ in ("MatchAs", "MatchStar") else getattr(node, "rest", None)
        if isinstance(name, str):
            out.add(name)


def _irrefutable(pattern: ast.AST) -> bool:
    """A pattern matching every value: `_`, a bare capture, or an `|` holding one."""
    kind = type(pattern).__name__
    if kind == "MatchAs":
        return pattern.pattern is None or _irrefutable(pattern.pattern)  # type: ignore[attr-defined]
    if kind == "MatchOr":
        return any(_irrefutable(p) for p in pattern.patterns)  # type: ignore[attr-defined]
    return False


def _always_true(test: ast.AST) -> bool:
    """A constant the interpreter reads as true (`assert True`, `assert 1`): never fails."""
    return type(test) is ast.Constant and bool(test.value)  # type: ignore[attr-defined]


def _declared_global(body: list[ast.stmt]) -> set[str]:
    """Names declared `global`/`nonlocal` anywhere in a function, nested functions included
    (statements only: no expression holds a statement)."""
    out: set[str] = set()
    stack = [body]
    while stack:
        for stmt in stack.pop():
            t = type(stmt)
            if t is ast.Global or t is ast.Nonlocal:
                out.update(stmt.names)  # type: ignore[attr-defined]
                continue
            for name in _STATEMENT_LISTS:
                sub = getattr(stmt, name, None)
                if sub:
                    stack.append(sub)
            for h in getattr(stmt, "handlers", None) or ():
                stack.append(h.body)
            for case in getattr(stmt, "cases", None) or ():
                stack.append(case.body)
    return out


def _failed(path: str, source: str, line: int | None, reason: str, message: str) -> ModuleFacts:
    module, is_package = module_name_for(path)
    return ModuleFacts(
        path=path, module=module, is_package=is_package,
        error={"line": line, "reason": reason, "message": message, "frameworks": frameworks_imported(source)},
    )


def _receiver_root(expr: Expr) -> str | None:
    """The parameter name an expression reads its object from (`config`, `config["tools"]`,
    `config.get("tools")`, `config.setdefault(...)`): the leading name of a parameter `Dyn`, through
    attribute reads and method calls on it; None for anything else."""
    for _ in range(16):
        t = type(expr)
        if t is Attr:
            expr = expr.value  # type: ignore[union-attr]
        elif t is Call:
            expr = expr.func  # type: ignore[union-attr]
        elif t is Dyn:
            if expr.why not in ("parameter", "subscript"):  # type: ignore[union-attr]
                return None
            found = _LEADING_NAME.match(expr.src)  # type: ignore[union-attr]
            return found.group(0) if found is not None else None
        else:
            return None
    return None


# A line that is a Jinja / cookiecutter tag (`{%- if cookiecutter.x %}`, `{{ cookiecutter.name }}` as a
# statement): project templates keep them in `.py` files, which no Python parses.
_TEMPLATE_TAG = re.compile(r"^[ \t]*(?:\{%-?[ \t]*(?:if|for|else|elif|endif|endfor|raw|set|macro|include)\b|\{\{[ \t]*cookiecutter\.)", re.M)


def extract_python(path: str, source: str) -> ModuleFacts:
    """Facts of one Python file. A syntax error gives facts with `error` set, never an exception.

    A file this interpreter cannot parse because it uses newer syntax says which Python it needs:
    the Action pins that Python, so there the file is analysed; elsewhere it fails closed.
    """
    try:
        with _deep_recursion():
            tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        newer = newer_python_needed(source, e.msg or "")
        if newer:
            here = ".".join(map(str, sys.version_info[:2]))
            return _failed(path, source, e.lineno, "newer-syntax",
                           f"syntax of Python {newer} cannot be parsed by the analysing Python {here}; run the receipt on Python 3.14 (the Action pins it)")
        template = " (it holds template tags, {% ... %} / {{ ... }}: a template rendered into Python, not Python; exclude it in the config)"
        return _failed(path, source, e.lineno, "syntax-error", f"syntax error: {e.msg}{template if _TEMPLATE_TAG.search(source) else ''}")
    except (ValueError, RecursionError, MemoryError) as e:
        return _failed(path, source, None, "unparseable", f"cannot parse: {type(e).__name__}")
    try:
        # Keywords are matched literally (look-alike Unicode spellings are syntax errors): no word, no statement.
        scope_statements = "global" in source or "nonlocal" in source
        # Names are not (`ｅｖａｌ` is `eval`): a file with non-ASCII text is always scanned for dynamic code.
        dynamic_code = not source.isascii() or (
            any(word in source for word in _RUNS_CODE_WORDS) and _RUNS_CODE_HINT.search(source) is not None
        )
        with _deep_recursion():
            return _Extractor(path, tree, source, scope_statements=scope_statements, dynamic_code=dynamic_code).run()
    except RecursionError:
        return _failed(path, source, None, "too-deep", "statement nesting too deep to analyse")


class _deep_recursion:
    """Room for the deepest code CPython itself accepts (200 nested brackets, 100 indentation
    levels): statements nest through a few frames each, so the default limit of 1,000 is too low.

    The limit is the process's, not the thread's: threads extracting at once (a library caller's)
    share one raise, made by the first to enter and undone by the last to leave. Each saving and
    restoring its own would leave the raised limit behind when they interleave (the second saves
    the first's raise and restores it last)."""

    _LIMIT = 20_000
    _lock = threading.Lock()
    _inside = 0
    _saved = 0

    def __enter__(self) -> None:
        cls = type(self)
        with cls._lock:
            if cls._inside == 0:
                cls._saved = sys.getrecursionlimit()
                if cls._saved < self._LIMIT:
                    sys.setrecursionlimit(self._LIMIT)
            cls._inside += 1

    def __exit__(self, *exc: object) -> None:
        cls = type(self)
        with cls._lock:
            cls._inside -= 1
            if cls._inside == 0:
                sys.setrecursionlimit(cls._saved)

    @classmethod
    def _forked(cls) -> None:
        # A forked child (a pool worker, work done aside) starts with one thread: a lock another
        # thread of the parent held at the fork would never be released there.
        cls._lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_deep_recursion._forked)



def _field_gives_no_default(e: Expr | None) -> bool:
    """`order_id: str = Field(..., description="...")` or `Field(description="...")`: every
    framework that builds a tool's schema with pydantic (FastMCP, LangChain, CrewAI, PydanticAI,
    OpenAI Agents) reads a `Field` default as the field itself, and one with no default (`...`,
    or none given and no `default_factory`) is required, though Python sees a default. A call
    spreading `*args` or `**options` may give one: not read as required."""
    if e.__class__ is not Call or e.func.__class__ is not Ref or e.func.name not in PYDANTIC_FIELD or e.spread or e.star:  # type: ignore[union-attr]
        return False
    given = e.args[0] if e.args else e.kw("default")  # type: ignore[union-attr]
    if given is None:
        return e.kw("default_factory") is None  # type: ignore[union-attr]
    return is_ellipsis(given)

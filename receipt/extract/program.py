"""The linked program: every module's facts plus cross-module name resolution and static evaluation.

Dialects ask this object what a name *is* (`origin`), what a value *is* (`evaluate`), and which
items a list really holds (`items`, following `append`/`extend`/`+=`). Anything it cannot know is a
`Dynamic` with the source expression, never a guess.
"""

from __future__ import annotations

import inspect
import operator
import re
import string
import sys
import textwrap
from dataclasses import dataclass, fields, is_dataclass, replace
from itertools import repeat
from typing import Any, Callable, Iterable, Iterator, Union

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
    PIPE,
    Ref,
    Seq,
    Splat,
    alias_of,
    assigned_call_name,
    attribute_callee,
    calls_named,
    clipped,
    indexed_callee,
    item_written,
    mutates_of,
    nodes_in,
    op_of,
    walk,
)
from receipt.extract.python import _CHANGES_ARGUMENT, _READ_ONLY_METHODS
from receipt.extract.screens import ALWAYS, CANONICAL, INDEXES, Recorded, ScreenMemo
from receipt.layout import Layout, read_layout
from receipt.models import Dynamic

Definition = Union[FunctionFact, ClassFact, AssignFact]
_MAX_DEPTH = 24
# What a name resolves to when several outside packages a module star-imports could provide it:
# no package's name and no definition (dialects/unseen.py notes such modules).
STAR_AMBIGUOUS = "<several star imports>"
_NONE: list = []  # an empty selection, shared (never mutated: its readers only iterate it)
_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})  # `cast(T, value)` returns `value`


@dataclass(frozen=True)
class Item:
    """One element of a statically resolved collection, and whether it is only sometimes there."""

    expr: Expr
    conditional: bool = False


# Fact fields holding qualified names as plain strings (besides `Ref` expressions).
_NAME_FIELDS = frozenset({"annotation_ref", "refs"})


def _requalify(obj: Any, fix: Callable[[str], str]) -> Any:
    """A copy of a fact (or expression) whose qualified names pass through `fix`; the same object when
    nothing changes. Literals and source texts are left alone."""
    if isinstance(obj, Ref):
        name = fix(obj.name)
        return obj if name == obj.name else Ref(name)
    if isinstance(obj, Dyn):  # f-string pieces and subscripts hold names
        parts = _requalify(obj.parts, fix)
        return obj if parts is obj.parts else Dyn(obj.src, obj.why, parts)
    if isinstance(obj, (list, tuple)):
        items = [_requalify(x, fix) for x in obj]
        if all(a is b for a, b in zip(items, obj)):
            return obj
        return items if isinstance(obj, list) else tuple(items)
    if isinstance(obj, dict):
        out = {k: _requalify(v, fix) for k, v in obj.items()}
        return obj if all(out[k] is v for k, v in obj.items()) else out
    if is_dataclass(obj) and not isinstance(obj, type):
        changes: dict[str, Any] = {}
        for f in fields(obj):
            value = getattr(obj, f.name)
            if f.name in _NAME_FIELDS and isinstance(value, str):
                new = fix(value)
            elif f.name in _NAME_FIELDS and isinstance(value, tuple):
                new = tuple(fix(v) for v in value)
                new = value if new == value else new
            else:
                new = _requalify(value, fix)
            if new is not value:
                changes[f.name] = new
        return replace(obj, **changes) if changes else obj
    return obj


class Program:
    def __init__(self, modules: Iterable[ModuleFacts], layout: Layout | None = None):
        self.modules: dict[str, ModuleFacts] = {}
        for m in sorted(modules, key=lambda m: m.path):
            self.modules.setdefault(m.module, m)
        # Modules are keyed by their path (`src.shop.tools`, unique in a tree); the layout says the
        # name code imports them by (`shop.tools`) and the identity of what they define.
        projects, in_project, packages = self._index_tree(layout)
        if None in self._by_import.values() or len(set(projects.values())) > 1:
            self._own_projects_first(projects, in_project, packages)
        self.imports: dict[str, str] = {}
        self.functions: dict[str, FunctionFact] = {}
        self.classes: dict[str, ClassFact] = {}
        grown: dict[str, list[AssignFact]] = {}
        self.effects_by_receiver: dict[str, list[tuple[str, EffectFact]]] = {}
        self.module_of: dict[str, ModuleFacts] = {}
        # One pass per module and index, in C where it can be (a program has as many assignments as
        # calls: 114,000 at 1,500 files): what a loop of item assignments made, in the same order.
        imports, functions, classes, module_of = self.imports, self.functions, self.classes, self.module_of
        grow, held = grown.setdefault, module_of.setdefault
        symbol_of, target_of = operator.attrgetter("symbol"), operator.attrgetter("target")
        for m in self.modules.values():
            imports.update(m.imports)
            if m.functions:
                symbols = list(map(symbol_of, m.functions))
                functions.update(zip(symbols, m.functions))
                module_of.update(zip(symbols, repeat(m)))
            if m.classes:
                symbols = list(map(symbol_of, m.classes))
                classes.update(zip(symbols, m.classes))
                module_of.update(zip(symbols, repeat(m)))
            for target, a in zip(map(target_of, m.assigns), m.assigns):
                grow(target, []).append(a)
                held(target, m)
        # Read only from here on: a tuple per target is half the size of a list grown by appends
        # (a program has about as many assigned targets as calls).
        self.assigns: dict[str, tuple[AssignFact, ...]] = {target: tuple(found) for target, found in grown.items()}
        del grown
        self._index_suffixes()
        self._canon_cache: dict[str, str] = {}
        self._canon_span: dict[str, int] = {}  # steps a memoised resolution took, when not 0 (see canonical)
        self._calls: list[tuple[ModuleFacts, bool, list[Call]]] | None = None
        canonical, by_receiver, intern = self.canonical, self.effects_by_receiver.setdefault, sys.intern
        for m in self.modules.values():
            for e in m.effects:
                func = indexed_callee(e)  # not `e.call.func`: a lazily read effect stays unread (facts.py)
                if func is None:
                    continue
                if isinstance(func, Ref) and func.name.startswith(_CHANGING_MODULES) and canonical(func.name) in _CHANGES_ARGUMENT:
                    # `operator.setitem(CFG, "tools", [...])`, `dict.update(CFG, ...)`: changes its first argument
                    first = e.call.args[0] if e.call.args else None
                    if first.__class__ is Dyn and first.why == "subscript" and len(first.parts) == 2:  # type: ignore[union-attr]
                        first = first.parts[0]  # type: ignore[union-attr]  # `list.append(CFG["tools"], x)`: CFG's item changes
                    if first.__class__ is Ref:
                        by_receiver(canonical(first.name), []).append(("__passed__", e))  # type: ignore[union-attr]
                elif isinstance(func, Ref) and "." in func.name:
                    receiver, method = func.name.rsplit(".", 1)
                    by_receiver(canonical(receiver), []).append((intern(method), e))
                elif func.__class__ is Dyn and func.why == "subscript" and (inside := _ITEM_CHANGED.match(func.src)):  # type: ignore[union-attr]
                    # `CFG["tools"].append(refund)`: the dict holds a value changed in place, not read here.
                    by_receiver(canonical(f"{m.module}.{inside.group(1)}"), []).append(("__item_changed__", e))
        self._index_passed()

    @classmethod
    def tree_only(cls, modules: Iterable[ModuleFacts], layout: Layout | None = None) -> "Program":
        """Not a program: what of one depends on its tree alone (`modules` by name, `homes`,
        `_by_import`, `_suffix`), exactly as `Program(modules, layout)` makes them, with no
        definition indexed and no name resolved (what comparing a base's kept screens with its
        head's program reads of the base, its effects aside: screenstore.py). Its modules are the
        facts given, never rewritten for their project's imports (a module a program rewrites is
        another object in every program, a changed one either way)."""
        self = cls.__new__(cls)
        self.modules = {}
        for m in sorted(modules, key=lambda m: m.path):
            self.modules.setdefault(m.module, m)
        self._index_tree(layout)
        self._index_suffixes()
        return self

    def _index_tree(self, layout: Layout | None) -> tuple[dict[str, str], dict[tuple[str, str], str], dict[str, str]]:
        """`homes` and `_by_import` of `self.modules` under `layout`; (each module's project,
        (project, import name) -> module, each module's package) for `_own_projects_first`."""
        if layout is None:
            layout = read_layout({}, (m.path for m in self.modules.values()))
        self.homes: dict[str, str] = {}
        self._by_import: dict[str, str | None] = {}
        projects: dict[str, str] = {}
        in_project: dict[tuple[str, str], str] = {}  # (project, import name) -> module
        packages: dict[str, str] = {}  # module -> the import name of the package holding it
        for name, m in self.modules.items():
            where = layout.locate(m.path)
            self.homes[name] = where.home
            projects[name] = where.project
            packages[name] = where.module if where.is_package else where.module.rpartition(".")[0]
            in_project.setdefault((where.project, where.module), name)
            if where.module != name:
                self._by_import[where.module] = None if where.module in self._by_import else name
        return projects, in_project, packages

    def _index_suffixes(self) -> None:
        """Suffix index so `pkg.mod` finds `src/pkg/mod.py` (module "src.pkg.mod")."""
        self._suffix: dict[str, str | None] = {}
        for name in self.modules:
            parts = name.split(".")
            for i in range(1, len(parts)):
                suffix = ".".join(parts[i:])
                if suffix in self.modules:
                    continue
                self._suffix[suffix] = None if suffix in self._suffix else name

    def _index_passed(self) -> None:
        """`allow_refunds(CONFIG)` where the repository function changes that parameter in place
        (`FunctionFact.mutates`, and a function handing its parameter on to one that does): CONFIG
        is changed by the call, indexed as a change of CONFIG ("__passed__", not read: what the
        helper does to it is not followed). Calls made as statements or as an assigned value."""
        # Read through the accessors of facts.py: a lazily read module stays unread (most are).
        changing: dict[str, set[str]] = {f.symbol: set(found) for f in self.functions.values() if (found := mutates_of(f))}
        if not changing:
            return
        # Only calls spelling the last name of a changing function are looked at (a few of the program's).
        leaves = {symbol.rpartition(".")[2] for symbol in changing}
        leaves.add("partial")  # `functools.partial(allow_refunds, CFG)`: binds CFG to the parameter
        for symbol in changing:  # `Policy(CFG)`: a class whose __init__ changes its parameter
            owner, _, leaf = symbol.rpartition(".")
            if leaf == "__init__" and owner in self.classes:
                leaves.add(owner.rpartition(".")[2])
        # Names bound to a changing function (`allow = allow_refunds`, `for helper in (allow_refunds,)`) call it too.
        self._changing_names: dict[str, str] = {}
        for target, binds in self.assigns.items():
            for a in binds:
                op = op_of(a)
                if op == "=":  # `allow = allow_refunds`: what `alias_of` tells, a lazily read assignment left unread
                    names = () if (alias := alias_of(a)) is None else (alias,)
                elif op == "in":
                    items = a.value.items if a.value.__class__ is Seq else (a.value,)  # type: ignore[union-attr]
                    names = tuple(item.name for item in items if item.__class__ is Ref)  # type: ignore[union-attr]
                else:
                    continue
                for name in names:
                    if (symbol := self.canonical(name)) in changing:
                        self._changing_names.setdefault(target, symbol)
                        leaves.add(target.rpartition(".")[2])
        for _ in range(_MAX_DEPTH):  # a function handing its own parameter to one that changes it changes it too
            grew = []
            for f in self.functions.values():
                for call in calls_named(f, leaves):
                    own = {q.name for q in f.params}
                    for arg in self._changed_arguments(call, changing):
                        if arg.__class__ is Dyn and arg.why == "parameter" and arg.src in own and arg.src not in changing.get(f.symbol, ()):  # type: ignore[union-attr]
                            changing.setdefault(f.symbol, set()).add(arg.src)  # type: ignore[union-attr]
                            grew.append(f.symbol)
            if not grew:
                break
            leaves.update(symbol.rpartition(".")[2] for symbol in grew)
        for m in self.modules.values():
            for e in m.effects:
                func = indexed_callee(e)
                if func is None and attribute_callee(e) in leaves:  # `Policy().allow(CFG)`
                    func = e.call.func
                self._index_passed_call(func, e, changing, leaves)
            for a in m.assigns:
                func = assigned_call_name(a)
                if func is not None:
                    self._index_passed_call(func, a, changing, leaves)

    def _index_passed_call(self, func: Expr | None, fact: EffectFact | AssignFact, changing: dict[str, set[str]], leaves: set[str]) -> None:
        if func.__class__ is Attr:  # `Policy().allow(CFG)`: a method called on an instance made in place
            if func.attr not in leaves:  # type: ignore[union-attr]
                return
        elif func.__class__ is not Ref or func.name.rpartition(".")[2] not in leaves:  # type: ignore[union-attr]
            return
        e = fact if isinstance(fact, EffectFact) else EffectFact(fact.value, fact.conditional, fact.guarded)  # type: ignore[arg-type]
        call = e.call
        if func.__class__ is Ref and self.canonical(func.name) == "functools.partial" and call.args:  # type: ignore[union-attr]
            inner = call.args[0]
            if inner.__class__ is not Ref:
                return
            call = replace(call, func=inner, args=call.args[1:])
        for arg in self._changed_arguments(call, changing):
            if arg.__class__ is Dyn and arg.why == "subscript" and arg.parts and arg.parts[0].__class__ is Ref:  # type: ignore[union-attr]
                arg = arg.parts[0]  # type: ignore[union-attr]  # `allow_refunds(CFG["tools"])`: CFG's item changes
            if arg.__class__ is Ref:
                self.effects_by_receiver.setdefault(self.canonical(arg.name), []).append(("__passed__", e))  # type: ignore[union-attr]

    def _changed_arguments(self, call: Call, changing: dict[str, set[str]]) -> list[Expr]:
        """The arguments of `call` bound to parameters its callee changes in place (see `_index_passed`)."""
        if call.func.__class__ is Ref:
            symbol = self.canonical(call.func.name)  # type: ignore[union-attr]
            symbol = self.__dict__.get("_changing_names", {}).get(symbol, symbol)
            if symbol in self.classes:  # `Policy(CONFIG)`: its __init__ is called with CONFIG after the instance
                symbol = self.canonical(f"{symbol}.__init__")
            elif symbol not in self.functions:  # `p.allow(CONFIG)` with `p = Policy()`
                symbol = self._method_called(call.func) or symbol
        else:
            symbol = self._method_called(call.func) or ""
        names = changing.get(symbol)
        fn = self.functions.get(symbol)
        if not names or fn is None:
            return []
        positional = [q.name for q in fn.params if q.kind in ("pos", "posonly")]
        if fn.owner_class and positional and positional[0] in ("self", "cls"):
            positional = positional[1:]  # called on the instance or class: the first argument is the next one
        varargs = {q.name for q in fn.params if q.kind == "varargs"}
        out = []
        for name in sorted(names):
            if name in varargs:  # `allow_refunds(*configs)`: every positional argument past the named ones
                out.extend(call.args[len(positional):])
                continue
            index = positional.index(name) if name in positional else len(call.args)
            arg = call.arg(index, name)
            if arg is None and not call.star:  # `def allow(config=CONFIG)` called without it: the default is changed
                arg = next((q.default_expr for q in fn.params if q.name == name), None)
            if arg is not None:
                out.append(arg)
        return out

    def _method_called(self, func: Expr) -> str | None:
        """The repository method a call on an instance calls: `Policy().allow`, or `p.allow` where
        `p = Policy()` is `p`'s one binding; None for any other callee."""
        if func.__class__ is Attr:
            inst, attr = func.value, func.attr  # type: ignore[union-attr]
        elif func.__class__ is Ref and "." in func.name:  # type: ignore[union-attr]
            owner, _, attr = func.name.rpartition(".")  # type: ignore[union-attr]
            binds = [a for a in self.assigns.get(self.canonical(owner), ()) if a.op == "="]
            if len(binds) != 1:
                return None
            inst = binds[0].value
        else:
            return None
        if inst.__class__ is Call and inst.func.__class__ is Ref:  # type: ignore[union-attr]
            cls = self.canonical(inst.func.name)  # type: ignore[union-attr]
            if cls in self.classes:
                return self.canonical(f"{cls}.{attr}")
        return None

    def _own_projects_first(self, projects: dict[str, str], in_project: dict[tuple[str, str], str], packages: dict[str, str]) -> None:
        """Absolute imports of a name several projects of the tree define load the importing
        project's own module: each project of a monorepo runs in its own environment, so
        `from travel.tools import book` in one copy of a sample loads that copy's `travel`. The
        names a module's facts qualify through such imports are rewritten to that module (alone,
        the import name is ambiguous and nothing it names would resolve). A project without that
        name may still load it from the importing script's own folder (`python src/app/main.py` puts
        `src/app` on sys.path: `from tools.web import f` beside it is `app.tools.web`)."""

        def own(project: str, name: str, folder: str = "") -> str:
            parts = name.split(".")
            for i in range(len(parts), 0, -1):
                prefix = ".".join(parts[:i])
                if prefix in self.modules:
                    return name
                if prefix in self._by_import:  # the longest known import name decides
                    unique = self._by_import[prefix]
                    module = in_project.get((project, prefix))
                    if module is None and folder:  # the script's folder comes first on sys.path
                        module = in_project.get((project, f"{folder}.{prefix}"))
                    return ".".join([module, *parts[i:]]) if module and module != unique else name
            return name

        # `import tools.calc` binds `tools`, the beginning of the ambiguous name the code then spells
        ambiguous = [name.split(".") for name, module in self._by_import.items() if module is None]
        reaching = {".".join(parts[:i]) for parts in ambiguous for i in range(1, len(parts) + 1)}
        for key, m in list(self.modules.items()):
            project, folder = projects[key], packages.get(key, "")
            if not any(target in reaching or own(project, target, folder) != target for target in [*m.imports.values(), *m.star_imports]):
                continue
            fix = lambda name, project=project, folder=folder: own(project, name, folder)  # noqa: E731
            m = _requalify(m, fix)
            self.modules[key] = replace(m, imports={k: fix(v) for k, v in m.imports.items()}, star_imports=[fix(s) for s in m.star_imports])

    # -- names ----------------------------------------------------------------------------------

    def _module_for(self, dotted: str) -> tuple[str, str] | None:
        """Split `a.b.c.d` into (known module, rest) by the longest known module prefix."""
        # The prefixes as slices, longest first (a name is resolved once per program, but a
        # program has tens of thousands: no list of parts joined again for each prefix).
        modules, by_import, suffix = self.modules, self._by_import, self._suffix
        end = len(dotted)
        while end >= 0:
            prefix = dotted[:end]
            mod = prefix if prefix in modules else (by_import.get(prefix) or suffix.get(prefix))
            if mod:
                return mod, dotted[end + 1:]
            end = dotted.rfind(".", 0, end)
        return None

    def home_of(self, symbol: str) -> str:
        """A symbol keyed by path (`src.shop.server.mcp`) as its identity under the package layout
        (`shop.server.mcp`): the same wherever the project keeps its code."""
        parts = symbol.split(".")
        for i in range(len(parts), 0, -1):
            home = self.homes.get(".".join(parts[:i]))
            if home is not None:
                rest = ".".join(parts[i:])
                return f"{home}.{rest}" if rest else home
        return symbol

    # Name resolution is cut at `_MAX_DEPTH` steps (alias cycles, absurd chains), so what a name
    # resolves to may depend on how deep the resolution that asks for it already is. The memo
    # keeps only answers no cut shaped, each with the number of steps it took (`_canon_span`,
    # kept when not 0): one is reused at depth d only when d + its steps stays within the limit,
    # so every answer is what resolving afresh gives, whichever name was asked first.
    _deepest = 0  # the deepest step the resolutions under way reached
    _cut = False  # one of them was cut at the limit

    def canonical(self, name: str, _depth: int = 0) -> str:
        """Follow imports, re-exports, star imports and `x = y` aliases to the defining symbol.

        Names outside the repository come back as their import origin (`agents.function_tool`).
        """
        cached = self._canon_cache.get(name)
        if cached is not None and _depth:
            reach = _depth + self._canon_span.get(name, 0)
            if reach > _MAX_DEPTH:  # would be cut from here: resolved again, from here
                if self._reads is not None:
                    self._reads.add(ALWAYS)  # an answer that depends on where it was asked
                return self._resolve(name, _depth)
            if reach > self._deepest:
                self._deepest = reach
        if self._reads is not None:
            if cached is not None and name in self._recording_[1]:  # the common case, kept short
                self._reads.add((CANONICAL, name))
                return cached
            return self._recorded_canonical(name, _depth, cached)
        if cached is None:
            cached = self._resolve(name, _depth)
        return cached

    def _resolve(self, name: str, depth: int) -> str:
        """`name` resolved from `depth`; memoised unless the limit cut it."""
        outer_deepest, outer_cut = self._deepest, self._cut
        self._deepest, self._cut = depth, False
        try:
            # Both are names the facts already spell (interned there): one string object each.
            found = sys.intern(self._canonical(name, depth))
            span, cut = self._deepest - depth, self._cut
        finally:
            self._deepest, self._cut = max(outer_deepest, self._deepest), outer_cut or self._cut
        if not cut:
            name = sys.intern(name)
            self._canon_cache[name] = found
            if span:
                self._canon_span[name] = span
        return found

    def _recorded_canonical(self, name: str, depth: int, cached: str | None) -> str:
        """`canonical` while a screen records its reads. A screen reads the derived key
        (CANONICAL, name); the keys that resolution read are kept once per name in `canon_reads`
        (resolved again, recording, when it was cached outside a screen). A name resolved through
        another reads that one's derived key, not a copy of its keys: copies made every name's
        read set the closure of its resolution (tens of keys each, hundreds of MB at 5,000 files);
        the memo follows those links when it decides what changed (`ScreenMemo.attach`)."""
        reads = self._reads
        assert reads is not None
        canon_reads = self._recording[1]
        known = canon_reads.get(name)
        if known is None or cached is None:
            mine: set = set()
            self._reads = mine
            try:
                found = self._resolve(name, depth)
            finally:
                self._reads = reads
            if cached is None:
                cached = found
                if self._canon_cache.get(name) is not found:  # cut at the limit: not this name's answer elsewhere
                    mine.add(ALWAYS)
            elif cached != found:  # resolved at another depth before: its reads are not these
                mine.add(ALWAYS)
            name = sys.intern(name)
            known = canon_reads[name] = self.screens.listed(mine) if self.screens is not None else tuple(mine)
        # A new tuple each time, let go with the screen's reads: one kept per name was as much
        # memory as the names' recorded reads (a memo keeps the keys it holds, `ScreenMemo.frozen`).
        reads.add((CANONICAL, name))
        return cached

    def _canonical(self, name: str, depth: int) -> str:
        if depth > _MAX_DEPTH:
            self._cut = True
            return name
        if depth > self._deepest:
            self._deepest = depth
        split = self._module_for(name)
        if split is None:
            return name
        mod, rest = split
        if not rest:
            # `from pkg import x` where pkg/__init__.py rebinds `x` (`from pkg.x import x`): Python
            # returns the package attribute, i.e. the re-exported object, not the submodule.
            bound = self.imports.get(mod)
            if bound is not None and bound != mod:
                return self.canonical(bound, depth + 1)
            return mod
        head, _, tail = rest.partition(".")
        symbol = f"{mod}.{head}"
        target: str | None = None
        if symbol in self.imports:
            target = self.imports[symbol]
        elif symbol in self.functions or symbol in self.classes:
            if tail and symbol in self.classes:
                inherited = self._inherited(symbol, tail)
                if inherited is not None:
                    return inherited
            return f"{symbol}.{tail}" if tail else symbol
        elif symbol in self.assigns:
            alias = self._alias_of(symbol)
            if alias is None:
                return f"{symbol}.{tail}" if tail else symbol
            target = alias
        elif f"{mod}.{head}" in self.modules:  # submodule accessed as attribute
            target = f"{mod}.{head}"
        else:
            stars = self.modules[mod].star_imports
            # The last star import known to give the name takes effect (`ModuleFacts.star_imports`
            # lists them in that order). An outside package star-imported after it may give the
            # name too (which outside package exports what is not known): a repository definition
            # there (a stand-in for the SDK, `except ImportError: from compat import *`) reads as
            # that package's, so it is never silence where the SDK's thing runs.
            target = None
            later: list[str] = []  # outside packages star-imported after the one that gives it
            for star in reversed(stars):
                c = self.canonical(f"{star}.{head}", depth + 1)
                if c != f"{star}.{head}" or self._defined(c):
                    target = c
                    break
                if not self.in_repo(star):
                    later.append(star)
            if target is not None and later and self.in_repo(target):
                if len(later) > 1:
                    return f"{STAR_AMBIGUOUS}.{rest}"
                target = f"{later[0]}.{head}"
            if target is None:
                if not (name == mod or name.startswith(mod + ".")):
                    # Found only through the suffix index (`agents` -> `app.agents`) and not defined
                    # there: an external package that shares a directory's name, not that module.
                    return name
                # Defined nowhere in the repository: from an outside package this module star-imports
                # (`from agents import *` then `@function_tool`), when only one could provide it;
                # with several, not known (never a definition of this module).
                outside = [star for star in stars if not self.in_repo(star)]
                if len(outside) > 1:
                    return f"{STAR_AMBIGUOUS}.{rest}"
                if not outside:
                    return f"{symbol}.{tail}" if tail else symbol
                target = f"{outside[0]}.{head}"
        full = f"{target}.{tail}" if tail else target
        if full == name:
            return name
        return self.canonical(full, depth + 1)

    def _inherited(self, cls: str, tail: str) -> str | None:
        """`Sub.run` where `run` is defined on a repository base class of `Sub` (what `self.run` finds)."""
        head = tail.split(".", 1)[0]
        if self._defined(f"{cls}.{head}"):
            return None
        for base in sorted(self.class_bases(self.classes[cls])):
            if base in self.classes and self._defined(f"{base}.{head}"):
                return f"{base}.{tail}"
        return None

    def _alias_of(self, symbol: str) -> str | None:
        assigns = self.assigns.get(symbol, [])
        return alias_of(assigns[0]) if len(assigns) == 1 else None  # a lazily read assignment stays unread (facts.py)

    def module_split(self, dotted: str) -> tuple[str, str] | None:
        """(the repository module `dotted` lies in, the rest), or None outside the repository."""
        return self._module_for(dotted)

    def in_repo(self, name: str) -> bool:
        """`name` (canonical) is a module of the repository or lies in one; not an outside
        package's name (one a directory's name only shares is outside too)."""
        split = self._module_for(name)
        return split is not None and (name == split[0] or name.startswith(split[0] + "."))

    def _defined(self, symbol: str) -> bool:
        return symbol in self.functions or symbol in self.classes or symbol in self.assigns

    def origin(self, expr: Expr | None) -> str | None:
        """What a reference or a call's callee denotes, canonically (`mcp.server.fastmcp.FastMCP`)."""
        if isinstance(expr, Ref):
            return self.canonical(expr.name)
        if isinstance(expr, Call):
            return self.origin(expr.func)
        if isinstance(expr, Attr):
            base = self.origin(expr.value)
            return f"{base}.{expr.attr}" if base else None
        return None

    def lookup(self, name: str) -> Definition | None:
        symbol = self.canonical(name)
        if symbol in self.functions:
            return self.functions[symbol]
        if symbol in self.classes:
            return self.classes[symbol]
        assigns = [a for a in self.assigns.get(symbol, []) if a.op == "="]
        if assigns:
            unconditional = [a for a in assigns if not a.conditional]
            return (unconditional or assigns)[0]
        return None

    def built_once(self, symbol: str) -> AssignFact | None:
        """The one binding of `symbol` other than to None (`agent = None` until it is built:
        `try: agent = Agent(...)`): what the name holds wherever it is used; None when it is bound
        otherwise more or less than once."""
        built = [a for a in self.assigns.get(symbol, []) if a.op == "=" and not (isinstance(a.value, Const) and a.value.value is None)]
        return built[0] if len(built) == 1 else None

    def is_external(self, name: str) -> bool:
        return self._module_for(self.canonical(name)) is None

    # -- values ---------------------------------------------------------------------------------

    def value_of(self, expr: Expr | None) -> Expr | None:
        """Follow references to module-level assignments (and class attributes: `self.llm` where the
        class says `llm = ChatOpenAI(...)`) and `typing.cast(T, value)` (which returns `value`)
        until reaching an expression that is neither."""
        seen = 0
        while seen < _MAX_DEPTH:
            inner = self.uncast(expr)
            if inner is not expr:
                expr = inner
                seen += 1
                continue
            if not isinstance(expr, Ref):
                break
            d = self.lookup(expr.name)
            if isinstance(d, AssignFact) and self._unsettled(d):
                break  # `if a: model = X(...) elif b: model = Y(...)`: which one is not known (as `evaluate`)
            if isinstance(d, AssignFact):
                expr = d.value
                seen += 1
                continue
            if d is None:
                attr = self._enum_member(self.canonical(expr.name))
                if attr is not None:
                    expr = attr
                    seen += 1
                    continue
            break
        return expr

    def uncast(self, expr: Expr | None) -> Expr | None:
        """`cast(T, value)` -> `value` (one level); anything else itself. A cast changes no value."""
        if expr.__class__ is Call and expr.func.__class__ is not Call and self.origin(expr.func) in _CASTS:  # type: ignore[union-attr]
            inner = expr.arg(1, "val")  # type: ignore[union-attr]
            if inner is not None:
                return inner
        return expr

    def _rebound(self, symbol: str) -> str | None:
        """How `symbol`, which an assignment binds, may be bound otherwise by the time it is read,
        or None. After `for TOOLS in SETS:` the name holds what the loop last gave it; a name a def
        or a class binds as well holds whichever binding ran last (the facts keep no order between
        those and the assignment), as does a name a star import of a repository module defining it
        may rebind. A name only loops bind is a loop variable (`iterated`). (A name an import binds
        too is bound in statement order by the facts: python.py `_order_bindings`.)"""
        assigns = self.assigns.get(symbol, ())
        loops = [a for a in assigns if a.op == "in" or a.op.startswith("in:")]
        if loops:
            return f"rebound by the loop at line {loops[0].line}" if len(loops) < len(assigns) else None
        if symbol in self.functions or symbol in self.classes:
            return "also bound by a def or class statement"
        module, _, name = symbol.rpartition(".")
        m = self.modules.get(module)
        for star in m.star_imports if m is not None else ():
            split = self.module_split(star)
            if split is not None and not split[1] and self._defined(f"{split[0]}.{name}"):
                return f"also given by from {star} import *"
        return None

    def _assigned_more_than_once(self, symbol: str) -> bool:
        return sum(1 for a in self.assigns.get(symbol, ()) if a.op == "=") > 1

    def _unsettled(self, d: AssignFact) -> bool:
        """Whether which assignment of `d.target` a reader sees is not known: `d` runs under a
        condition and another one binds the name too, or several bind it to different values
        (`DANGER = ToolAnnotations(...)` and later `DANGER = DANGER.model_copy(...)`: which one a
        use sees depends on where it is, and the first one is not the answer)."""
        binds = [a for a in self.assigns.get(d.target, ()) if a.op == "="]
        if len(binds) < 2:
            return False
        return d.conditional or len({describe(a.value) for a in binds}) > 1

    def evaluate_at(self, expr: Expr | None, at: tuple[str, int, bool] | None) -> Any:
        """`evaluate(expr)` as the value is when a framework copies it at `at` (path, line, inside a
        function) of the use: a dict named by `expr` with only the in-place changes made before then
        (see `_mutated_dict`). `at` None: its value once the modules have run (`evaluate`)."""
        if at is not None and isinstance(expr, Ref):
            symbol = self.canonical(expr.name)
            d = self.lookup(symbol)
            if isinstance(d, AssignFact) and not self._unsettled(d):
                value = self._copied_at(d, symbol) if d.value.__class__ is Map else self.evaluate(d.value, 1)
                if isinstance(value, dict):
                    return self._mutated_dict(symbol, value, 0, d.value, at)
                return value
        return self.evaluate(expr)

    def _copied_at(self, d: AssignFact, symbol: str) -> Any:
        """The dict display `d` binds `symbol` to, its `**X` spreads of dict names taken as they are
        where `d` runs: `H = {**BASE}` copies BASE then, and a later change of BASE is not H's."""
        at = (self.path_of(symbol), d.line, d.conditional or ".<locals>." in symbol)
        return self._evaluate_map(d.value, 1, lambda v: self.evaluate_at(v, at) if v.__class__ is Ref else self.evaluate(v, 2))  # type: ignore[arg-type]

    def evaluate(self, expr: Expr | None, _depth: int = 0) -> Any:
        """A literal Python value (str/int/float/bool/None/list/dict), or `Dynamic(src)`."""
        if expr is None:
            return None
        if _depth > _MAX_DEPTH:
            return Dynamic(dynamic=describe(expr))
        if isinstance(expr, Const):
            return expr.value
        if isinstance(expr, Dyn):
            if expr.why == "subscript":
                return self._evaluate_subscript(expr, _depth)
            if expr.why == "conditional-expression" and len(expr.parts) == 3:  # the branch its known test picks
                test = self.evaluate(expr.parts[0], _depth + 1)
                if _scalar(test):
                    value = self.evaluate(expr.parts[1] if test else expr.parts[2], _depth + 1)
                    if not isinstance(value, Dynamic):
                        return value
                return Dynamic(dynamic=expr.src)
            if expr.why in _OPERATORS:
                return _operated(expr, [self.evaluate(p, _depth + 1) for p in expr.parts])
            if expr.parts:  # an f-string: its text when every piece is known
                pieces = [self.evaluate(p, _depth + 1) for p in expr.parts]
                if all(isinstance(p, (str, int, float, bool)) or p is None for p in pieces):
                    return _bounded("".join(str(p) for p in pieces), expr)
            return Dynamic(dynamic=expr.src)
        if isinstance(expr, Seq):
            out = []
            for item in expr.items:
                if isinstance(item, Splat):
                    inner = self.evaluate(item.value, _depth + 1)
                    if isinstance(inner, list):
                        out.extend(inner)
                        continue
                    return Dynamic(dynamic=describe(expr))
                out.append(self.evaluate(item, _depth + 1))
            return out
        if isinstance(expr, Map):
            return self._evaluate_map(expr, _depth, lambda v: self.evaluate(v, _depth + 1))
        if isinstance(expr, Concat):
            left, right = self.evaluate(expr.left, _depth + 1), self.evaluate(expr.right, _depth + 1)
            if isinstance(left, list) and isinstance(right, list):
                return left + right
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            return Dynamic(dynamic=describe(expr))
        if isinstance(expr, Ref):
            symbol = self.canonical(expr.name)
            d = self.lookup(symbol)
            if isinstance(d, AssignFact):
                if (rebound := self._rebound(symbol)) is not None:
                    return Dynamic(dynamic=f"{describe(expr)}, {rebound}")
                if self._unsettled(d):
                    # Which branch runs is not known; the alternatives are, and a changed one is a change.
                    choices = sorted({describe(a.value) for a in self.assigns.get(symbol, ()) if a.op == "="})
                    return Dynamic(dynamic=f"{describe(expr)}, one of: {' | '.join(choices)}")
                value = self.evaluate(d.value, _depth + 1)
                if isinstance(value, dict):
                    return self._mutated_dict(symbol, value, _depth, d.value)
                return self._augmented(expr, symbol, d, value, _depth)
            member = self._enum_member(symbol)
            if member is not None:
                return self.evaluate(member, _depth + 1)
            # A name of the repository as its module spells it (`configs.agent_settings.model`), not by
            # the project folder it sits in: readable, and moving the project does not change it.
            split = self._module_for(symbol)
            return Dynamic(dynamic=short_name(split[1] if split is not None and split[1] else expr.name))
        if isinstance(expr, Call):
            inner = self.uncast(expr)
            if inner is not expr:
                return self.evaluate(inner, _depth + 1)
            return self._evaluate_call(expr, _depth)
        return Dynamic(dynamic=describe(expr))

    def _augmented(self, expr: Ref, symbol: str, d: AssignFact, value: Any, depth: int) -> Any:
        """`value`, bound by `d`, after the augmented assignments of `symbol` below it: `PROMPT +=
        " Never ask."` extends a known text or list, `APPROVE &= False` (`|=`, `^=`) combines known
        flags; anything else, or one that may not run (under a condition, in a function), leaves it
        unknown, never as bound."""
        later = sorted((a for a in self.assigns.get(symbol, ()) if a.op in ("+=", "?=") and (a.conditional or a.line > d.line)), key=lambda a: a.line)
        for a in later:
            add = self.evaluate(a.value, depth + 1) if a.op == "+=" and not a.conditional else None
            if isinstance(value, str) and isinstance(add, str) or isinstance(value, list) and isinstance(add, list):
                value = _bounded(value + add, a.value) if isinstance(value, str) else value + add
                continue
            bits = a.value.parts if a.op == "?=" and not a.conditional and isinstance(a.value, Dyn) else ()
            if len(bits) == 2 and isinstance(bits[0], Const) and bits[0].value in _BITS:
                operand = self.evaluate(bits[1], depth + 1)
                if isinstance(value, (bool, int)) and isinstance(operand, (bool, int)):  # `APPROVE &= False`
                    value = _BITS[bits[0].value](value, operand)
                    continue
            then = a.value.src if isinstance(a.value, Dyn) and a.op == "?=" else f"{short_name(symbol)} += {describe(a.value)}"
            return Dynamic(dynamic=f"{describe(expr)}, then {then}")
        return value

    def _evaluate_map(self, expr: Map, depth: int, spread: Callable[[Expr], Any]) -> Any:
        """A dict display's value, each `**X` spread's value as `spread` gives it."""
        result: dict[str, Any] = {}
        for k, v in expr.items:
            if isinstance(k, Const) and k.value is None:  # **spread
                inner = spread(v)
                if isinstance(inner, dict):
                    result.update(inner)
                    continue
                return Dynamic(dynamic=describe(expr))
            key = self.evaluate(k, depth + 1)
            if not isinstance(key, (str, int, float, bool)):
                return Dynamic(dynamic=describe(expr))
            result[str(key) if not isinstance(key, str) else key] = self.evaluate(v, depth + 1)
        return result

    # -- values by meaning, for digests ---------------------------------------------------------

    def text(self, expr: Expr | None) -> Any:
        """A text attribute (instructions, description, prompt) by value: the string when it is
        statically known, else a Dynamic whose text is `render(expr)`, so its digest follows what
        the expression means (values of constants, bodies of helpers), not how it is spelt."""
        value = self.evaluate(expr)
        return Dynamic(dynamic=self.render(expr)) if isinstance(value, Dynamic) else value

    def function_value(self, fn: FunctionFact) -> str | Dynamic:
        """What a prompt function returns, by value: the string when every return gives the same
        statically known text; else a Dynamic over its parameters, body digest and rendered returns.
        Neither its name nor its module is part of it: a verbatim move or rename is no change, and
        any edit of its body or of a constant it returns is one."""
        values = [self.evaluate(r) for r in fn.returns_exprs]
        if values and all(isinstance(v, str) for v in values) and len(set(values)) == 1:
            return values[0]
        return Dynamic(dynamic=self._render_function(fn, 0, frozenset()))

    def render(self, expr: Expr | None, _depth: int = 0, _seen: frozenset[str] = frozenset()) -> str:
        """Text of an expression with every statically known part replaced by its value, repository
        names by their place inside their module, and called or passed repository functions by
        their bodies: equal for equal meanings, different whenever the value could differ."""
        if expr is None:
            return "None"
        if _depth > _MAX_DEPTH:
            return describe(expr)
        value = self.evaluate(expr)
        if _plain(value):
            return repr(value)
        deeper = _depth + 1
        if isinstance(expr, Dyn):
            if expr.why == "subscript":
                return self._render_subscript(expr, deeper, _seen)
            if expr.why in _OPERATORS:
                return expr.src
            if expr.parts:
                return "f(" + ", ".join(self.render(p, deeper, _seen) for p in expr.parts) + ")"
            return expr.src
        if isinstance(expr, Ref):
            symbol = self.canonical(expr.name)
            fn = self.functions.get(symbol)
            if fn is not None:
                return self._render_function(fn, deeper, _seen)
            assigns = self.assigns.get(symbol, [])
            if assigns:
                return "(" + " | ".join(f"{a.op} {self.render(a.value, deeper, _seen)}" for a in assigns) + ")"
            member = self._enum_member(symbol)
            if member is not None:
                return self.render(member, deeper, _seen)
            # An attribute of a value the code defines (`prompt.TEMPLATE.format`) is read on that value:
            # the template's text is part of what `.format(...)` of run-time arguments gives.
            owner, _, attr = symbol.rpartition(".")
            while owner:
                if owner in self.assigns:
                    return f"{self.render(Ref(owner), deeper, _seen)}.{symbol[len(owner) + 1:]}"
                owner, _, attr = owner.rpartition(".")
            split = self._module_for(symbol)
            name = split[1] if split is not None and split[1] else symbol
            # A function's local by its own name: renaming the function does not change what it holds.
            return name.rpartition("<locals>.")[2]
        if isinstance(expr, Call):
            inner = self.uncast(expr)
            if inner is not expr:
                return self.render(inner, deeper, _seen)
            args = [self.render(a, deeper, _seen) for a in expr.args]
            args += [f"{k}={self.render(v, deeper, _seen)}" for k, v in expr.kwargs]
            args += [f"**{self.render(v, deeper, _seen)}" for v in expr.spread]
            return f"{self.render(expr.func, deeper, _seen)}({', '.join(args)})"
        if isinstance(expr, Seq):
            return "[" + ", ".join(self.render(a, deeper, _seen) for a in expr.items) + "]"
        if isinstance(expr, Map):
            return "{" + ", ".join(f"{self.render(k, deeper, _seen)}: {self.render(v, deeper, _seen)}" for k, v in expr.items) + "}"
        if isinstance(expr, Attr):
            return f"{self.render(expr.value, deeper, _seen)}.{expr.attr}"
        if isinstance(expr, Splat):
            return "*" + self.render(expr.value, deeper, _seen)
        if isinstance(expr, Concat):
            return f"{self.render(expr.left, deeper, _seen)} + {self.render(expr.right, deeper, _seen)}"
        return describe(expr)

    def _evaluate_subscript(self, expr: Dyn, depth: int) -> Any:
        """`PROMPTS["en"]` -> the item when the container and the index are known; else Dynamic (as written)."""
        if len(expr.parts) == 2:
            container = self.evaluate(expr.parts[0], depth + 1)
            index = self.evaluate(expr.parts[1], depth + 1)
            if isinstance(container, dict) and isinstance(index, (str, int, float, bool)) and str(index) in container:
                return container[index if isinstance(index, str) else str(index)]
            if isinstance(container, list) and type(index) is int and -len(container) <= index < len(container):
                return container[index]
        return Dynamic(dynamic=expr.src)

    def _render_subscript(self, expr: Dyn, depth: int, seen: frozenset[str]) -> str:
        """An item chosen at run time from a container the code defines (`PROMPTS[lang]`) means one of
        the container's values: rendered as that set, so renaming the container or the index, or
        reordering its keys, is no change, and editing one of the texts is one."""
        if len(expr.parts) != 2:
            return expr.src
        container = self.evaluate(expr.parts[0], depth)
        values = container.values() if isinstance(container, dict) else container if isinstance(container, list) else None
        if not values:
            return f"{self.render(expr.parts[0], depth, seen)}[{self.render(expr.parts[1], depth, seen)}]"
        return "one of {" + ", ".join(sorted({v.dynamic if isinstance(v, Dynamic) else repr(v) for v in values})) + "}"

    def _render_function(self, fn: FunctionFact, depth: int, seen: frozenset[str]) -> str:
        if fn.symbol in seen or depth > _MAX_DEPTH:
            return f"<recursive {fn.name}>"
        seen = seen | {fn.symbol}
        params = ", ".join(p.name + (f"={self.render(p.default_expr, depth + 1, seen)}" if p.default_expr is not None else "") for p in fn.params)
        returns = " | ".join(self.render(r, depth + 1, seen) for r in fn.returns_exprs)
        # Repository helpers its body calls, one level deep, by their own bodies.
        helpers = sorted({h.body or h.name for c in fn.calls if (h := self.functions.get(self.origin(c.func) or "")) is not None and h is not fn})
        return f"def({params}) body {fn.body or '?'} calls [{', '.join(helpers)}] -> {returns}"

    def _mutated_dict(self, symbol: str, value: dict[str, Any], depth: int, source: Expr,
                      at: tuple[str, int, bool] | None = None) -> dict[str, Any] | Dynamic:
        """A dict with its later item assignments, deletions and `update(...)` calls applied, made
        through any name of the one object (`CFG = BASE`, or `cfg = BASE` bound after it), in the
        order they run: frameworks keep the object, so what counts is its content once the modules
        have run. The module building the dict runs first (its changes by line), then one other
        module may change it (by line); changes from two other modules, or from the building module
        and another (an import cycle runs the other in the middle of the first), are not ordered:
        what the other modules change is dynamic, key by key (`BRANDING["title"] = ...` elsewhere
        leaves the other keys read). A conditional change (under an `if`, in a function, in a `try`
        body) makes that key `dynamic`; a change we cannot read (a helper changing it in place
        included) makes the whole dict so. `source` is the expression `symbol` is bound to.

        `at` (path, line, inside a function): the use copies the dict there (an MCP server copies a
        tool's hints when it registers it). A change certainly after it (its module, a later line,
        the use at module level and the change not in a block: not run again before it) is left out;
        one of its module that may run before or after it (a later line, the use inside a function)
        makes that key dynamic; one in a third module, not ordered with the use, makes the keys it
        changes so (the whole dict, when which keys is not read)."""
        out = dict(value)
        chain = self._alias_chain(source)[0]
        names = self._all_names([*reversed(chain), symbol])
        changes = [(name, c) for name in names for c in self._dict_changes(name)]
        if not changes:
            return out
        # The modules holding the changes order them (a name imported elsewhere is changed there too).
        own = self._module_for(chain[-1] if chain else symbol)
        keyed = []
        for name, (op, expr, conditional, line) in changes:
            fact = AssignFact(name, expr, line, conditional, op) if op in _DICT_CHANGES else None
            where = self._module_owning(fact) if fact is not None else self._module_owning_assign(name, expr)
            keyed.append((where, line, (op, expr, conditional, line)))
        used = self.module_at(at[0]) if at is not None else None
        modules = {w for w, _, _ in keyed}
        others = {w for w in modules if own is None or w != own[0]}
        # Changes whose order with the others (or with the use) is not known: each makes the keys it
        # names dynamic, applied last so that no ordered change overrides it; one whose keys are not
        # read (`update(x)`, `clear()`, a helper) makes the whole dict so, as below.
        unordered = f"changed in {len(modules)} modules" if len(others) > 1 or (others and own is not None and own[0] in modules) else None
        marked = []
        for where, line, change in keyed:
            if unordered is not None and (own is None or where != own[0]):
                marked.append((where, line, change, unordered))
            else:
                marked.append((where, line, change, None))
        if at is not None:
            kept = []
            for where, line, (op, expr, conditional, _line), why in marked:
                if where != used and (own is None or where != own[0]):
                    why = why or "changed in a module not ordered with its use"
                elif where == used and line > at[1]:
                    if not at[2] and not conditional and why is None:
                        continue  # copied before this ran
                    conditional = True  # a function may run before or after it
                kept.append((where, line, (op, expr, conditional, _line), why))
            marked = kept
        ordered = [(c, why) for w, line, c, why in sorted(marked, key=lambda t: (t[3] is not None, own is None or t[0] != own[0], t[1]))]
        for (op, expr, conditional, _line), why in ordered:
            updates: Any
            if op in ("[]=", "del") and isinstance(expr, Map) and len(expr.items) == 1:
                key = self.evaluate(expr.items[0][0], depth + 1)
                if not isinstance(key, str):
                    return Dynamic(dynamic=f"{short_name(symbol)}[{describe(expr.items[0][0])}] changed")
                updates = {key: None if op == "del" else self.evaluate(expr.items[0][1], depth + 1)}
                deleting = op == "del"
            elif op == "update" and isinstance(expr, Call) and len(expr.args) <= 1 and not expr.star:
                updates = self.evaluate(expr.args[0], depth + 1) if expr.args else {}
                if not isinstance(updates, dict):
                    return Dynamic(dynamic=describe(expr))
                updates = {**updates, **{k: self.evaluate(v, depth + 1) for k, v in expr.kwargs}}
                deleting = False
            else:
                if why is not None:
                    return Dynamic(dynamic=f"{short_name(symbol)} {why}")
                return Dynamic(dynamic=describe(expr) if isinstance(expr, Call) else f"{short_name(symbol)} changed")
            for k, v in updates.items():
                if why is not None:
                    out[k] = Dynamic(dynamic=f"{short_name(symbol)}[{k!r}] {why}")
                elif conditional:
                    out[k] = Dynamic(dynamic=f"{short_name(symbol)}[{k!r}] changed under a condition")
                elif deleting:
                    out.pop(k, None)
                else:
                    out[k] = v
        return out

    def _enum_member(self, symbol: str) -> Expr | None:
        """`Tools.REFUND` where `class Tools(str, Enum): REFUND = "refund"` -> the member's value."""
        owner, _, attr = symbol.rpartition(".")
        if attr == "value":
            owner, _, attr = owner.rpartition(".")
        cls = self.classes.get(owner)
        if cls is None or attr not in cls.attrs:
            return None
        return cls.attrs[attr]

    def _evaluate_call(self, call: Call, depth: int) -> Any:
        func = self.origin(call.func)
        text = self._text_call(call, func, depth)
        if text is not None:
            return text
        if func in ("builtins.dict",) and not call.args and not call.star:
            return {k: self.evaluate(v, depth + 1) for k, v in call.kwargs}
        if func in ("builtins.list", "builtins.tuple", "builtins.set") and len(call.args) == 1:
            v = self.evaluate(call.args[0], depth + 1)
            return v if isinstance(v, list) else Dynamic(dynamic=describe(call))
        if func in ("builtins.str",) and len(call.args) == 1:
            v = self.evaluate(call.args[0], depth + 1)
            return v if isinstance(v, str) else Dynamic(dynamic=describe(call))
        if func in ("builtins.bool",) and len(call.args) == 1:
            v = self.evaluate(call.args[0], depth + 1)
            return bool(v) if isinstance(v, (bool, int, str)) else Dynamic(dynamic=describe(call))
        if func == "builtins.getattr" and len(call.args) == 2 and not call.kwargs and isinstance(call.args[0], Ref):
            # `getattr(Settings, "APPROVE")` is `Settings.APPROVE` (a default given: not known to be used)
            name = self.evaluate(call.args[1], depth + 1)
            if isinstance(name, str) and name.isidentifier():
                return self.evaluate(Ref(f"{call.args[0].name}.{name}"), depth + 1)
        fn = self.functions.get(func or "")
        if fn is not None and not call.args and not call.kwargs and len(fn.returns_exprs) == 1:
            # A helper that returns a literal (`def approval_map(): return {...}`).
            ret = fn.returns_exprs[0]
            if not _mentions_parameter(ret):
                return self.evaluate(ret, depth + 1)
        return Dynamic(dynamic=describe(call))

    def _text_call(self, call: Call, func: str | None, depth: int) -> Any:
        """Literal string building: `"...".format(...)`, `SEP.join([...])`, `textwrap.dedent(X)`,
        `repr`/`format` (f-string pieces). None when the call is not one of these; Dynamic when it is
        but an argument is not statically known."""
        if call.star:
            return None
        receiver: Expr | None = None
        method = ""
        if isinstance(call.func, Attr):
            receiver, method = call.func.value, call.func.attr
        elif func and func not in self.functions and "." in func:
            owner, _, method = func.rpartition(".")
            if method in _STR_METHODS and owner in self.assigns:
                receiver = Ref(owner)
        if receiver is not None and method in _STR_METHODS:
            value = self.evaluate(receiver, depth + 1)
            if not isinstance(value, str):
                return Dynamic(dynamic=describe(call)) if isinstance(value, Dynamic) else None
            args = [self.evaluate(a, depth + 1) for a in call.args]
            kwargs = {k: self.evaluate(v, depth + 1) for k, v in call.kwargs}
            return _apply_str_method(value, method, args, kwargs, call)
        pure = _PURE_TEXT_FUNCTIONS.get(func or "")
        if pure is None:
            return None
        args = [self.evaluate(a, depth + 1) for a in call.args]
        if call.kwargs or not args or not all(_plain(a) for a in args):
            return Dynamic(dynamic=describe(call))
        try:
            return _bounded(pure(*args), call)
        except Exception:  # noqa: BLE001 - a call Python would reject at run time is not a known value
            return Dynamic(dynamic=describe(call))

    def items(self, expr: Expr | None, _depth: int = 0, expand: Callable[[Call], Expr | None] | None = None) -> list[Item] | Dynamic:
        """The elements of a list-like expression, following variables and later mutations.

        `tools = [a]; if flag: tools.append(b)` -> [Item(a), Item(b, conditional=True)].
        `expand`: a dialect's reading of a call that stands for a list (a framework's grouping of
        tools): the expression of that list, or None; applied wherever a part of the list is a call.
        """
        if expr is None:
            return []
        if _depth > _MAX_DEPTH:
            return Dynamic(dynamic=describe(expr))
        if isinstance(expr, Call) and self.uncast(expr) is not expr:
            return self.items(self.uncast(expr), _depth + 1, expand)
        if expand is not None and isinstance(expr, Call):
            listed = expand(expr)
            if listed is not None:
                return self.items(listed, _depth + 1, expand)
        if isinstance(expr, Seq):
            out: list[Item] = []
            for item in expr.items:
                if isinstance(item, Splat):
                    inner = self.items(item.value, _depth + 1, expand)
                    if isinstance(inner, Dynamic):
                        return inner
                    out.extend(inner)
                else:
                    out.append(Item(item))
            return out
        if isinstance(expr, Concat):
            left, right = self.items(expr.left, _depth + 1, expand), self.items(expr.right, _depth + 1, expand)
            if isinstance(left, Dynamic):
                return left
            if isinstance(right, Dynamic):
                return right
            return [*left, *right]
        if isinstance(expr, Call) and self.origin(expr.func) in ("builtins.list", "builtins.tuple") and len(expr.args) == 1:
            return self.items(expr.args[0], _depth + 1, expand)
        if isinstance(expr, Ref):
            symbol = self.canonical(expr.name)
            assigns = self.assigns.get(symbol, [])
            base = [a for a in assigns if a.op == "="]
            if not base:
                return Dynamic(dynamic=short_name(expr.name))
            if (rebound := self._rebound(symbol)) is not None:
                return Dynamic(dynamic=f"{short_name(expr.name)} {rebound}")
            first = base[0]
            out = self.items(first.value, _depth + 1, expand)
            if isinstance(out, Dynamic):
                return out
            out = [Item(i.expr, i.conditional or first.conditional) for i in out]
            for later in base[1:]:  # reassigned: keep both, the later ones conditional
                more = self.items(later.value, _depth + 1, expand)
                if isinstance(more, Dynamic):
                    return more
                out.extend(Item(i.expr, True) for i in more)
            for a in assigns:
                if a.op == "+=":
                    more = self.items(a.value, _depth + 1, expand)
                    if isinstance(more, Dynamic):
                        return more
                    out.extend(Item(i.expr, i.conditional or a.conditional) for i in more)
                elif a.op in _LIST_ITEM_CHANGES:  # `TOOLS[1:] = [...]`, `del TOOLS[0]`, `TOOLS *= 2`: not read here
                    return Dynamic(dynamic=f"{short_name(expr.name)} changed in place (line {a.line})")
            for method, effect in self.effects_by_receiver.get(symbol, []):
                call = effect.call
                if method in ("append", "insert", "add") and call.args:
                    out.append(Item(call.args[-1], effect.conditional))
                elif method == "extend" and call.args:
                    more = self.items(call.args[0], _depth + 1, expand)
                    if isinstance(more, Dynamic):
                        return more
                    out.extend(Item(i.expr, i.conditional or effect.conditional) for i in more)
                elif method not in _READ_ONLY_METHODS and method not in _REORDERS:
                    # `TOOLS.remove(x)`, `add_refunds(TOOLS)` (a helper changing its parameter: "__passed__"),
                    # `list.append(TOOLS, x)`: changed in a way not read here (fail closed, as a dict's are)
                    return Dynamic(dynamic=f"{short_name(expr.name)} changed in place (line {call.line})")
            return out
        return Dynamic(dynamic=describe(expr))

    def mutations(self, symbol: str, attr: str) -> list[tuple[str, Expr, bool]]:
        """Changes made after construction to `symbol.attr`: (op, value, conditional).

        op is "=" (assigned), "+=" / "extend" / "append" (added to).
        """
        owner = self.canonical(symbol)
        target = f"{owner}.{attr}"
        out: list[tuple[str, Expr, bool]] = []
        for a in self.assigns.get(target, []):
            out.append((a.op, a.value, a.conditional))
        for a in self.assigns.get(f"{owner}.*", []):  # setattr(obj, computed, v): any attribute may change
            out.append(("=", a.value, a.conditional))
        for method, effect in self.effects_by_receiver.get(target, []):
            if method in ("append", "insert") and effect.call.args:
                out.append(("append", effect.call.args[-1], effect.conditional))
            elif method == "extend" and effect.call.args:
                out.append(("extend", effect.call.args[0], effect.conditional))
            elif method in _TAKES_ITEMS_OUT:
                # `support.tools.remove(refund)`, `.clear()`, `.pop()`: what is left is not read here
                out.append(("?=", Dyn(describe(effect.call), "changed in place"), effect.conditional))
        # `for t in support.tools: t.needs_approval = False`, `support.tools[1].needs_approval = False`:
        # set on the container's items, maybe this one
        out += self._set_on_items(attr, lambda e: e.__class__ is Ref and self.canonical(e.name) == owner)  # type: ignore[union-attr]
        for a in self.assigns.get(owner, ()):
            # `refund = dataclasses.replace(refund, needs_approval=False)`: a copy with that field set,
            # bound to the same name (anything it may set that is not read is unknown)
            v = a.value
            if a.op == "=" and v.__class__ is Call and self.origin(v.func) in _COPY_WITH_CHANGES and v.args:  # type: ignore[union-attr]
                first = v.args[0]  # type: ignore[union-attr]
                if first.__class__ is Ref and self.canonical(first.name) == owner:  # type: ignore[union-attr]
                    given = dict(v.kwargs)  # type: ignore[union-attr]
                    if attr in given:
                        out.append(("=", given[attr], a.conditional))
                    elif v.star or v.spread or len(v.args) > 1:  # type: ignore[union-attr]
                        out.append(("=", Dyn(describe(v), "replace"), a.conditional))
        return out

    def item_mutations(self, built: Expr, attr: str) -> list[tuple[str, Expr, bool]]:
        """`mutations` of an object built inline as an item of a container, by its expression (equal:
        the same call on the same line, wherever the dialect read it from): `Agent(tools=
        [function_tool(refund)])`, then `agent.tools[0].needs_approval = False` or a loop over
        `agent.tools` setting it."""
        return self._set_on_items(attr, lambda e: e is built or e == built)

    def _set_on_items(self, attr: str, is_it: Callable[[Expr], bool]) -> list[tuple[str, Expr, bool]]:
        """(op, value, conditional) of each `C[i].attr = v` / `for t in C: t.attr = v` whose container
        holds the item `is_it` says is the object (a container whose items are not known is the
        dialect's note). Only the item at a certain position when one is given, conditional
        unless the position is certain."""
        out: list[tuple[str, Expr, bool]] = []
        for container, index, a in self.item_writes(attr):
            items = self.container_items(container)
            if isinstance(items, Dynamic):
                continue
            if index is not None and -len(items) <= index < len(items) and not any(i.conditional for i in items):
                items = [items[index]]  # the position is certain only when every item is always there
            for i in items:
                if is_it(i.expr):
                    out.append((a.op, a.value, a.conditional or i.conditional or (index is not None and len(items) > 1)))
                    break
        return out

    def item_writes(self, attr: str) -> list[tuple[str, int | None, AssignFact]]:
        """(container, position or None, assignment) for each `facts.item_write` target of the
        program setting `attr` (or any attribute): set on items of what the container names.
        Indexed once, on the first question."""
        found = self.__dict__.get("_item_writes")
        if found is None:
            found = {}
            for target in [t for t in self.assigns if "]." in t]:  # a few of a program's targets, if any
                parts = item_written(target)
                if parts is not None:
                    container, index, name = parts
                    found.setdefault(name, []).extend((container, index, a) for a in self.assigns[target])
            self._item_writes = found
        return found.get(attr, []) + (found.get("*", []) if attr != "*" else [])

    def container_items(self, container: str) -> list[Item] | Dynamic:
        """The items of what `container` names: a list it is bound to, or the keyword argument an
        object was built with (`support.tools` of `support = Agent(tools=[...])`) and what is added
        to that attribute later (`support.tools.append(x)`)."""
        items = self.items(Ref(container))
        if not isinstance(items, Dynamic):
            return items
        resolving: set[str] = self.__dict__.setdefault("_containers_resolving", set())
        if container in resolving:  # `for a in X.tools: a.tools = ...`: read through itself
            return items
        resolving.add(container)
        try:
            return self._built_with_items(container, items)
        finally:
            resolving.discard(container)

    def _built_with_items(self, container: str, items: Dynamic) -> list[Item] | Dynamic:
        owner, _, field_name = self.canonical(container).rpartition(".")
        d = self.lookup(owner) if owner else None
        given = d.value.kw(field_name) if isinstance(d, AssignFact) and d.op == "=" and d.value.__class__ is Call else None  # type: ignore[union-attr]
        if given is None:
            return items
        found = self.items(given)
        if isinstance(found, Dynamic):
            return found
        for op, value, cond in self.mutations(owner, field_name):
            if op == "append":
                found = [*found, Item(value, True)]
            elif op in ("extend", "+=") and not isinstance(more := self.items(value), Dynamic):
                found = [*found, *(Item(i.expr, True) for i in more)]
            else:
                return Dynamic(dynamic=describe(Ref(container)))
        return found

    def iterated(self, name: str, line: int | None = None) -> list[Item] | Dynamic | None:
        """What a loop variable takes (`for f in [a, b]` -> a, b), or None when `name` is no loop variable.

        A name reused by several loops is the one of the nearest loop starting at or before `line`.
        """
        symbol = self.canonical(name)
        loops = [a for a in self.assigns.get(symbol, []) if a.op == "in" or a.op.startswith("in:")]
        if not loops:
            return None
        if line is not None and len(loops) > 1:
            before = [a for a in loops if a.line <= line]
            loops = [max(before, key=lambda a: a.line)] if before else loops
        out: list[Item] = []
        for a in loops:
            items = self.items(a.value)
            if isinstance(items, Dynamic):
                return items
            if a.op.startswith("in:"):  # one position of unpacked items
                index, picked = int(a.op[3:]), []
                for i in items:
                    row = self.value_of(i.expr) if isinstance(i.expr, Ref) else i.expr
                    if not isinstance(row, Seq) or index >= len(row.items) or any(isinstance(x, Splat) for x in row.items):
                        return Dynamic(dynamic=f"{short_name(symbol)} unpacked from {describe(a.value)}")
                    picked.append(Item(row.items[index], i.conditional))
                items = picked
            out.extend(Item(i.expr, i.conditional or a.conditional) for i in items)
        return out

    # -- callables, seen through the ways code spells them --------------------------------------------

    def see_through(self, expr: Expr, _depth: int = 0) -> Expr:
        """A callable or decorator expression with its spelling removed: a variable holding a decorator
        (`d = mcp.tool()`; `register = mcp.tool`), `getattr(x, "name")` with a literal name, and the
        arguments of `functools.partial` merged into the call they make.

        Returns an equivalent expression (a `Ref`, or a `Call` whose callee is seen through); what it
        cannot see through comes back unchanged, so callers still recognise (or report) it.
        """
        if _depth > _MAX_DEPTH:
            return expr
        if isinstance(expr, Ref):
            symbol = self.canonical(expr.name)
            binds = self.assigns.get(symbol, [])
            value = binds[0].value if len(binds) == 1 and binds[0].op == "=" else None
            if isinstance(value, (Call, Attr)) or (isinstance(value, Dyn) and value.why == "parameter" and "." in value.src):
                return self.see_through(value, _depth + 1)
            return expr if symbol == expr.name else Ref(symbol)  # the same object: callers keep their call
        if isinstance(expr, Call):
            func = self.canonical(expr.func.name) if isinstance(expr.func, Ref) else None
            if func == "builtins.getattr" and len(expr.args) in (2, 3) and not expr.kwargs and not expr.star:
                name = self.evaluate(expr.args[1])
                if isinstance(name, str) and name.isidentifier():
                    return self.see_through(attribute(expr.args[0], name), _depth + 1)
                return expr
            if func == "functools.partial":
                return expr
            return self.resolve_call(expr, _depth + 1)
        return expr

    def seen_decorator(self, dec: Expr) -> Expr:
        """A decorator with its spelling removed (`see_through`): a variable holding a decorator or a
        decorator factory's call (`guarded = function_tool(needs_approval=True)`, then `@guarded`, is
        `@function_tool(needs_approval=True)`), and `functools.partial(f, *a, **k)` as the call of
        `f` it makes (`@partial(mcp.tool, name="x")` calls `mcp.tool(fn, name="x")`: read as
        `@mcp.tool(name="x")`). A PR moving a tool's options into such a variable, or changing them
        there, changes what the tool is: every dialect reads its decorators through this (so each
        decorator is seen through once per program, not once per dialect)."""
        memo = self.__dict__.get("_seen_decorators")
        if memo is None:
            memo = self.__dict__["_seen_decorators"] = {}
        found = memo.get(id(dec))
        if found is not None and found[0] is dec:
            return found[1]
        seen = self._seen_decorator(dec)
        memo[id(dec)] = (dec, seen)  # the expression kept alive with its id, so the id is never reused
        return seen

    def _seen_decorator(self, dec: Expr) -> Expr:
        seen = self.see_through(dec)
        if (seen.__class__ is Call and seen.func.__class__ is Ref and seen.args  # type: ignore[union-attr]
                and seen.args[0].__class__ is not Splat and self.canonical(seen.func.name) == "functools.partial"):  # type: ignore[union-attr]
            seen = replace(seen, func=self.see_through(seen.args[0]), args=seen.args[1:])  # type: ignore[union-attr, arg-type]
        return seen

    def resolve_call(self, call: Call, _depth: int = 0) -> Call:
        """`call` with its callee seen through; `partial(f, *a, **k)(*b, **c)` becomes `f(*a, *b, **k, **c)`."""
        func = self.see_through(call.func, _depth + 1)
        if isinstance(func, Call) and isinstance(func.func, Ref) and self.canonical(func.func.name) == "functools.partial" and func.args and not isinstance(func.args[0], Splat):
            inner = self.see_through(func.args[0], _depth + 1)
            kwargs = dict(func.kwargs)
            kwargs.update(call.kwargs)
            return replace(call, func=inner, args=(*func.args[1:], *call.args), kwargs=tuple(kwargs.items()), star=call.star or func.star,
                           spread=(*func.spread, *call.spread))
        return call if func is call.func else replace(call, func=func)

    def spread_call(self, call: Call) -> Call:
        """`call` with what its `**x` spreads say, read by value: `Agent(**CFG)` where `CFG = {"tools":
        [...]}` (or `dict(tools=...)`, through variables, nested `**`, later `CFG["k"] = v`) is read
        as `Agent(tools=[...])`. A spread that cannot be read stays a spread (`star` set, so
        readers that mind it report the keys it may hold as dynamic); a key set only under a
        condition is a `Dyn`. The same object when there is nothing to read."""
        if not call.spread:
            return call
        found: dict[str, Expr] = {}
        kept: list[Expr] = []
        for s in call.spread:
            items = self._spread_items(s, 0, call)
            if items is None:
                kept.append(s)
            else:
                found.update(items)
        if not found and len(kept) == len(call.spread):
            return call
        given = {k for k, _ in call.kwargs}
        kwargs = (*call.kwargs, *((k, v) for k, v in found.items() if k not in given))  # both: a TypeError at run time
        star = bool(kept) or any(isinstance(a, Splat) for a in call.args)
        return replace(call, kwargs=kwargs, star=star, spread=tuple(kept))

    def _spread_items(self, expr: Expr, depth: int, site: Call | tuple[str, int, bool] | None) -> dict[str, Expr] | None:
        """The keyword expressions a `**expr` passes, or None when they cannot be read.

        `site` is where the keys are copied: the call, or (module, line, inside a function) of the
        assignment building a `{**BASE, ...}` that nests this spread; None when not known."""
        if depth > _MAX_DEPTH:
            return None
        chain, value = self._alias_chain(expr)
        out: dict[str, Expr] = {}
        if isinstance(value, Map):
            owner = self._defined_by(chain[-1]) if chain else None
            inner_site = (owner[0], owner[1].line, owner[1].conditional) if owner is not None else None
            for k, v in value.items:
                if isinstance(k, Const) and k.value is None:  # `{**BASE, ...}`: copied where the dict is built
                    inner = self._spread_items(v, depth + 1, inner_site if chain else site)
                    if inner is None:
                        return None
                    out.update(inner)
                elif isinstance(k, Const) and isinstance(k.value, str):
                    out[k.value] = v
                else:
                    return None
        elif isinstance(value, Call) and self.origin(value.func) == "builtins.dict" and not value.args:
            for s in value.spread:
                inner = self._spread_items(s, depth + 1, site)  # a copy made when the dict is built
                if inner is None:
                    return None
                out.update(inner)
            out.update(value.kwargs)
        else:
            return None
        if not chain:
            return out
        return self._rebound_keys(chain, out, site)

    def _dict_changes(self, symbol: str) -> list[tuple[str, Expr, bool, int]]:
        """(how, the expression, conditional, line) of each change made to the dict `symbol` names
        after it is bound: item assignments and deletions, dict-changing calls on it, and calls of
        helpers changing it in place ("__passed__")."""
        changes = [(a.op, a.value, a.conditional, a.line) for a in self.assigns.get(symbol, ()) if a.op in ("[]=", "del", "?=")]
        changes += [(method, e.call, e.conditional, e.call.line) for method, e in self.effects_by_receiver.get(symbol, []) if method in _DICT_CHANGES]
        changes += [(a.op, a.value, a.conditional, a.line) for a in self._item_changes(symbol)]
        return changes

    def _item_changes(self, symbol: str) -> list[AssignFact]:
        """Changes made through a name bound to an item of the dict `symbol` names (`TOOLS =
        CFG["tools"]`, `= CFG.get("tools")`, `= CFG.setdefault(...)`): `TOOLS.append(x)`, `TOOLS[0] = x`,
        `TOOLS += [...]` change what the dict holds ("__item_changed__", not read here)."""
        index = self.__dict__.get("_item_aliases_")
        holders: dict[str, list[str]] = self.__dict__.get("_holders_", {})
        if index is None:
            index = {}
            for target, binds in self.assigns.items():
                value = binds[0].value
                if binds[0].op != "=":
                    continue
                if value.__class__ is Dyn and value.why == "subscript" and len(value.parts) == 2 and value.parts[0].__class__ is Ref:  # type: ignore[union-attr]
                    index.setdefault(self.canonical(value.parts[0].name), []).append(target)  # type: ignore[union-attr]
                elif value.__class__ is Call and value.func.__class__ is Ref and value.func.name.endswith((".get", ".setdefault")):  # type: ignore[union-attr]
                    index.setdefault(self.canonical(value.func.name.rpartition(".")[0]), []).append(target)  # type: ignore[union-attr]
                elif value.__class__ is Seq or value.__class__ is Map:
                    # `ALL = [CFG]`: an item of ALL is CFG itself (`ALL[0]["tools"] = ...` changes it)
                    for item in value.items if value.__class__ is Seq else (v for _, v in value.items):  # type: ignore[union-attr]
                        if item.__class__ is Ref:
                            holders.setdefault(self.canonical(item.name), []).append(target)  # type: ignore[union-attr]
            self.__dict__["_item_aliases_"] = index
            self.__dict__["_holders_"] = holders
        out = []
        for holder in holders.get(symbol, ()):
            # Only a change made inside one of its items ("?=": `ALL[0]["tools"] = ...`, `ALL[0].update(...)`)
            # changes the held dict; rebinding an item or changing the container itself does not.
            out += [AssignFact(symbol, a.value, a.line, a.conditional, "__item_changed__") for a in self.assigns.get(holder, ()) if a.op == "?="]
            out += [AssignFact(symbol, e.call, e.call.line, e.conditional, "__item_changed__")
                    for method, e in self.effects_by_receiver.get(holder, []) if method == "__item_changed__"]
        for alias in index.get(symbol, ()):
            binds = self.assigns.get(alias, ())
            out += [AssignFact(symbol, a.value, a.line, a.conditional, "__item_changed__") for a in binds[1:] if a.op in ("[]=", "del", "?=", "+=")]
            out += [AssignFact(symbol, e.call, e.call.line, e.conditional, "__item_changed__")
                    for method, e in self.effects_by_receiver.get(alias, []) if method not in _READ_ONLY_METHODS]
        return out

    def _alias_chain(self, expr: Expr) -> tuple[list[str], Expr | None]:
        """The symbols `expr` reaches its value through (`CFG = BASE`: both name one dict object),
        and that value, as `value_of` follows them."""
        chain: list[str] = []
        seen = 0
        while seen < _MAX_DEPTH:
            inner = self.uncast(expr)
            if inner is not expr:
                expr, seen = inner, seen + 1
                continue
            if not isinstance(expr, Ref):
                break
            symbol = self.canonical(expr.name)
            d = self.lookup(symbol)
            if not isinstance(d, AssignFact) or self._unsettled(d):
                value = self.value_of(expr)
                if value is not expr:  # a class attribute (`C.CFG`): still a name the dict is changed through
                    chain.append(symbol)
                return chain, value
            chain.append(d.target)
            expr, seen = d.value, seen + 1
        return chain, expr

    def _all_names(self, chain: list[str]) -> list[str]:
        """`chain` with the names bound to the same object after it (`ALIAS = CFG`: a change through
        ALIAS is a change of what `**CFG` passes)."""
        index = self.__dict__.get("_aliases_")
        if index is None:
            index = {}
            for target, binds in self.assigns.items():
                first = binds[0]
                op = op_of(first)  # and `alias_of`: a lazily read assignment left unread
                if op == "=":
                    if (alias := alias_of(first)) is not None:
                        index.setdefault(self.canonical(alias), []).append(target)
                elif op == "in" and first.value.__class__ is Seq:  # `for c in (CFG,)`: c names CFG itself
                    for item in first.value.items:  # type: ignore[union-attr]
                        if item.__class__ is Ref:
                            index.setdefault(self.canonical(item.name), []).append(target)  # type: ignore[union-attr]
            self.__dict__["_aliases_"] = index
        out, todo = list(chain), list(chain)
        while todo and len(out) < _MAX_DEPTH:
            for alias in index.get(todo.pop(), ()):
                if alias not in out:
                    out.append(alias)
                    todo.append(alias)
        return out

    def _defined_by(self, symbol: str) -> tuple[str, AssignFact] | None:
        """(module, the assignment) binding `symbol` to its value."""
        d = self.lookup(symbol)
        split = self._module_for(symbol)
        return (split[0], d) if isinstance(d, AssignFact) and split is not None else None

    def _rebound_keys(self, chain: list[str], out: dict[str, Expr], site: Call | tuple[str, int, bool] | None) -> dict[str, Expr] | None:
        """`out` (the keys the dict was built with) with the item assignments and deletions made on
        the dict object, through any name of `chain`, before the keys are copied at `site`; None
        when one cannot be read or ordered. A change in the module the name is defined in ran at
        import (unconditional) or may run any time (conditional: that key is dynamic); one after a
        module-level copy in the copying module no longer matters; any other is not ordered."""
        changes: list[tuple[bool, AssignFact]] = []  # (a dict-changing call, the change)
        own = self._module_for(chain[-1])  # the module building the dict: it ran when first imported
        chain = self._all_names(chain)
        for symbol in chain:
            binds = self.assigns.get(symbol, ())
            for a in binds:
                if a.op == "=" and a is binds[0]:
                    continue
                if a.op not in ("[]=", "del"):
                    return None  # reassigned, or changed in a way not read here
                changes.append((False, a))
            for method, effect in self.effects_by_receiver.get(symbol, []):
                if method in _DICT_CHANGES:
                    changes.append((True, AssignFact(symbol, effect.call, effect.call.line, effect.conditional, method)))
            changes += [(True, a) for a in self._item_changes(symbol)]
        if not changes:
            return out
        if isinstance(site, Call):
            site = self.call_site(site)
        if site is None:
            return None
        module, line, in_function = site
        home = self._module_owning
        ordered: list[tuple[int, int, AssignFact]] = []
        for by_call, a in changes:
            where = home(a)
            if where == module:
                if a.line > line:
                    if not in_function:
                        continue  # the keys were copied before this ran
                    return None  # a function may run before or after it
                ordered.append((1, a.line, a))
            elif where is not None and own is not None and where == own[0]:
                ordered.append((0, a.line, a))  # its module ran when imported
            else:
                return None
            if by_call:  # update/pop/...: not read here
                return None
        for _, _, a in sorted(ordered, key=lambda t: (t[0], t[1])):
            if not (isinstance(a.value, Map) and len(a.value.items) == 1):
                return None
            key = self.evaluate(a.value.items[0][0])
            if not isinstance(key, str):
                return None
            if a.conditional:
                out[key] = Dyn(f"{short_name(a.target)}[{key!r}] changed under a condition", "spread")
            elif a.op == "del":
                out.pop(key, None)
            else:
                out[key] = a.value.items[0][1]
        return out

    def module_at(self, path: str) -> str | None:
        """The module whose file is `path`."""
        index = self.__dict__.get("_by_path_")
        if index is None:
            index = self.__dict__["_by_path_"] = {m.path: name for name, m in self.modules.items()}
        return index.get(path)

    def project_of(self, module: str) -> str:
        """The folder of the project holding `module` ("": the repository root), as the layout says."""
        return self.homes.get(module, "").rpartition(":")[0]

    def _module_owning_assign(self, target: str, value: Expr) -> str | None:
        """The module whose facts hold the assignment of `value` to `target`."""
        for a in self.assigns.get(target, ()):
            if a.value is value:
                return self._module_owning(a)
        return None

    def _module_owning(self, fact: AssignFact) -> str | None:
        """The module whose facts hold this change (an item assignment, or a dict-changing call).
        Memoised by the change's expression (its own object): a dict is evaluated many times."""
        memo = self.__dict__.setdefault("_owning_", {})
        key = id(fact.value)
        if key in memo:
            return memo[key]
        found = None
        for name, m in self.modules.items():
            if any(a is fact or a.value is fact.value for a in m.assigns) or any(e.call is fact.value for e in m.effects):
                found = name
                break
        if found is not None:
            memo[key] = found
        return found

    def call_site(self, call: Call) -> tuple[str, int, bool] | None:
        """(module, line, inside a function) of a call fact; None for a call not found as such."""
        index = self.__dict__.get("_call_sites_")
        if index is None:
            index = {}
            for name, m in self.modules.items():
                in_functions = {c.line for f in m.functions for c in f.calls}
                for f in m.functions:
                    for c in f.calls:
                        index.setdefault(id(c), (name, c.line, True))
                    for d in f.decorators:  # `@function_tool(**APPROVAL)`: runs where the function is defined
                        for c in calls_in(d):
                            index.setdefault(id(c), (name, c.line, "<locals>" in f.symbol))
                for e in [*(a.value for a in m.assigns), *(e.call for e in m.effects)]:
                    for c in calls_in(e):
                        index.setdefault(id(c), (name, c.line, c.line in in_functions))
            self.__dict__["_call_sites_"] = index
        found = index.get(id(call))
        if found is None:  # a copy (decoded again): the one call fact equal to it, if only one is
            sites = {(name, call.line, call.line in {c.line for f in m.functions for c in f.calls})
                     for name, m in self.modules.items()
                     for e in [*(a.value for a in m.assigns), *(e.call for e in m.effects), *(c for f in m.functions for c in f.calls)]
                     for c in calls_in(e) if c == call}
            found = sites.pop() if len(sites) == 1 else None
        return found

    # -- screened scans: what a dialect selects module by module, reused across programs -----------

    _reads: set | None = None  # the keys the screen being computed has read (None: not recording)
    screens: ScreenMemo | None = None  # results kept for the next program of the run

    @property
    def _recording(self) -> tuple[dict[str, Recorded], dict[str, tuple]]:
        """(a recording view of each index, the keys each recorded name resolution read)."""
        found = self.__dict__.get("_recording_")
        if found is None:
            found = self.__dict__["_recording_"] = ({tag: Recorded(self.__dict__[tag], tag, self) for tag in INDEXES}, {})
        return found

    @property
    def canon_reads(self) -> dict[str, tuple]:
        return self._recording[1]

    def scan(self, site: str, screen: Callable[["Program", ModuleFacts], list[Any]]) -> Iterator[tuple[ModuleFacts, Any]]:
        """(module, item) for each item `screen(self, module)` selects, module by module in program order.

        `screen` must be a pure function of that module's facts and of what it asks this program
        (names, lookups, values: all recorded here, hits and misses): never of a dialect's own
        state. `site` names it uniquely among screens. With a memo (`screens`), a module's result
        is taken from the program before whenever its facts are the same object and no key it
        read differs between the two programs; else it is computed again, recording its reads.
        """
        memo = self.screens
        if memo is not None:
            memo.attach(self)
        for m in self.modules.values():
            found = memo.get(site, m.module, m) if memo is not None else None
            if found is None:
                if memo is not None and memo.recording:
                    found, reads = self._screened(screen, m)
                    memo.put(site, m.module, m, found, reads)
                else:
                    found = screen(self, m)
            for item in found:
                yield m, item

    def _screened(self, screen: Callable[["Program", ModuleFacts], list[Any]], m: ModuleFacts) -> tuple[list[Any], set]:
        if self._reads is not None:
            raise RuntimeError("a screen must not run another screen")
        reads: set = set()
        views = self._recording[0]
        self._reads = reads
        try:
            self.__dict__.update(views)  # every read of an index goes through a recording view
            items = screen(self, m)
        finally:
            for tag, view in views.items():
                self.__dict__[tag] = view.data
            self._reads = None
        return items, reads

    # -- per-module selections shared by screens: pure functions of one module's facts (no name read,
    # so nothing to record), computed once per program instead of once per screen that needs them.

    def assigned_calls(self, m: ModuleFacts) -> list[AssignFact]:
        """The `=` assignments of `m` whose value is a call, in facts order: what a screen looking for
        a constructor or factory call (`x = Agent(...)`, `mcp = FastMCP(...)`) reads; about a tenth of
        a module's assignments (most are function locals holding no call)."""
        return self._selected("assigned calls", m, lambda m: [a for a in m.assigns if a.op == "=" and a.value.__class__ is Call])

    def assigned_calls_to(self, symbol: str) -> list[AssignFact]:
        """The `=` assignments of a call to `symbol`: what a screen asks of a returned name (`return
        agent` where `agent = Agent(...)`). Most names a function returns are locals bound to
        anything but a call (a dict, a constant): those are passed over by class, before any
        screen's test of a call."""
        return [a for a in self.assigns.get(symbol, _NONE) if a.op == "=" and a.value.__class__ is Call]

    def calls_into(self, m: ModuleFacts, tops: frozenset[str]) -> bool:
        """False when no callee written in `m`'s assigned calls (`assigned_calls`) or decorators
        denotes anything under the top-level packages `tops` (`origin`, first dotted part): a
        screen that selects only such a call or decorator whose origin one of `tops`' names
        matches (`base.origin_matches`, true only of an origin under its candidate's package) has
        nothing to select in `m`. The origin of a callee chain (`a.b(...).c`) is that of the name it
        starts from, so each module's names are resolved once for every screen and dialect. True
        while a screen records its reads: its result is then decided by what it reads itself."""
        if self._reads is not None:
            return True
        return not tops.isdisjoint(self._selected("callee tops", m, self._callee_tops))

    def _callee_tops(self, m: ModuleFacts) -> frozenset[str]:
        names: set[str] = set()
        for expr in [*(a.value for a in self.assigned_calls(m)), *(d for f in m.functions for d in f.decorators)]:
            _start_name(expr, names)
        # A name holding a decorator or a factory's call (`guarded = function_tool(...)`, perhaps in
        # another module: `@guarded`, `guarded(fn)`) is what it holds (`seen_decorator`).
        for name in list(names):
            seen = self.seen_decorator(Ref(name))
            if seen.__class__ is not Ref or seen.name != name:  # type: ignore[union-attr]
                _start_name(seen, names)
        return frozenset(self.canonical(name).partition(".")[0] for name in names)

    def _selected(self, kind: str, m: ModuleFacts, select: Callable[[ModuleFacts], Any]) -> Any:
        memo = self.__dict__.get("_selected_")
        if memo is None:
            memo = self.__dict__["_selected_"] = {}
        found = memo.get((kind, m.module))
        if found is None or found[0] is not m:
            found = memo[(kind, m.module)] = (m, select(m))
        return found[1]

    # -- iteration helpers for dialects -------------------------------------------------------------

    def iter_functions(self) -> Iterable[FunctionFact]:
        for m in self.modules.values():
            yield from m.functions

    def iter_classes(self) -> Iterable[ClassFact]:
        for m in self.modules.values():
            yield from m.classes

    def iter_assigns(self) -> Iterable[AssignFact]:
        for m in self.modules.values():
            yield from m.assigns

    def iter_effects(self) -> Iterable[EffectFact]:
        for m in self.modules.values():
            yield from m.effects

    def iter_calls(self) -> Iterator[tuple[Call, bool, ModuleFacts]]:
        """Every call found as an assignment value or a statement, with its conditional flag."""
        if self._reads is not None:  # a screen reading every module reads the whole program
            self._reads.add(ALWAYS)
        if self._calls is None:
            # Collected once per program (several analyses walk every expression for calls), as
            # runs of calls sharing a module and a flag: a tuple per call was most of the index.
            runs: list[tuple[ModuleFacts, bool, list[Call]]] = []
            for m in self.modules.values():
                for conditional, expr in [*((a.conditional, a.value) for a in m.assigns), *((e.conditional, e.call) for e in m.effects)]:
                    calls = calls_in(expr)
                    if not calls:
                        continue
                    if runs and runs[-1][0] is m and runs[-1][1] == conditional:
                        runs[-1][2].extend(calls)
                    else:
                        runs.append((m, conditional, calls))
            self._calls = runs
        for m, conditional, calls in self._calls:
            for call in calls:
                yield call, conditional, m

    def path_of(self, symbol: str) -> str:
        m = self.module_of.get(symbol)
        if m is None:
            split = self._module_for(symbol)
            m = self.modules.get(split[0]) if split else None
        return m.path if m else ""

    def class_bases(self, cls: ClassFact, _depth: int = 0) -> set[str]:
        """Canonical names of all base classes, transitively through classes in the repository."""
        out: set[str] = set()
        for b in cls.bases:
            name = self.origin(b)
            if not name:
                continue
            out.add(name)
            parent = self.classes.get(name)
            if parent is not None and _depth < _MAX_DEPTH:
                out |= self.class_bases(parent, _depth + 1)
        return out


# Assignments to an item or slice of a list, its deletion, an augmented assignment other than `+=`.
_LIST_ITEM_CHANGES = frozenset({"[]=", "del", "?="})
# Methods of a list or dict that take items out of it, in place (`mutations`).
_TAKES_ITEMS_OUT = frozenset({"remove", "pop", "clear", "popitem", "__delitem__"})
# Calls returning a copy of their first argument with the fields their keywords name set.
_COPY_WITH_CHANGES = frozenset({"dataclasses.replace", "copy.replace", "attr.evolve", "attrs.evolve"})
# What leaves a list's items the same (in another order, or one of them changed in itself).
_REORDERS = frozenset({"sort", "reverse", "__item_changed__"})  # (an item's own change: not its membership)
_DICT_CHANGES = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "__item_changed__", "__passed__",
                           "__init__", "__ior__"})  # (`CFG.__init__(tools=...)` updates it in place, as `CFG |= {...}`)
# A statement calling a method of an item of a name (`CFG["tools"].append(x)`): that name's value changes.
_ITEM_CHANGED = re.compile(r"([A-Za-z_][\w.]*)\[[^\]]*\]\.(?!(?:%s)$)[A-Za-z_]\w*$" % "|".join(sorted(_READ_ONLY_METHODS)))
_CHANGING_MODULES = ("operator.", "dict.", "list.", "builtins.")

# Pure, bounded string operations evaluated on statically known text (method name -> arity check
# happens in Python itself: a call it rejects is not a known value).
_STR_METHODS = frozenset(
    {"format", "join", "strip", "lstrip", "rstrip", "replace", "upper", "lower", "title", "capitalize",
     "casefold", "removeprefix", "removesuffix", "expandtabs"}
)
_TEXT_LIMIT = 1_000_000  # a built string longer than this is not kept (a digest of a bomb is no help)


def _format_spec(spec: Any) -> str:
    if not isinstance(spec, str) or any(len(run) > 4 for run in re.findall(r"[0-9]+", spec)):
        raise ValueError("unbounded width")
    return spec


def _safe_format(value: Any, spec: Any) -> str:
    return format(value, _format_spec(spec))


_PURE_TEXT_FUNCTIONS: dict[str, Any] = {
    "textwrap.dedent": lambda s: textwrap.dedent(s) if isinstance(s, str) else _reject(),
    "inspect.cleandoc": lambda s: inspect.cleandoc(s) if isinstance(s, str) else _reject(),
    "builtins.repr": repr,
    "builtins.ascii": ascii,
    "builtins.format": lambda v, spec="": _safe_format(v, spec),
}


def _reject() -> Any:
    raise TypeError("not a string")


def _plain(value: Any) -> bool:
    """A fully known value (no Dynamic anywhere inside)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return False


def _scalar(value: Any) -> bool:
    return value is None or value.__class__ in (str, int, float, bool)


def _compared(op: str, a: Any, b: Any) -> Any:
    if op in ("is", "is not"):  # identity is only known of the singletons
        if not (a is None or b is None or a.__class__ is bool or b.__class__ is bool):
            raise TypeError(op)
        same = a is b
        return same if op == "is" else not same
    return _COMPARE[op](a, b)


def _start_name(expr: Expr, names: set[str]) -> None:
    """Adds the name a callee chain starts from (`a.b(...).c` starts from `a.b`): what `origin` resolves."""
    while True:
        cls = expr.__class__
        if cls is Call:
            expr = expr.func  # type: ignore[union-attr]
        elif cls is Attr:
            expr = expr.value  # type: ignore[union-attr]
        else:
            if cls is Ref:
                names.add(expr.name)  # type: ignore[union-attr]
            return


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
_BITS: dict[str, Callable[[Any, Any], Any]] = {"&": operator.and_, "|": operator.or_, "^": operator.xor}  # python.py `_BIT_OPS`
# Dyn.why of the operators the extractor keeps with their operands (python.py `_operator`).
_OPERATORS = frozenset({"not", "and", "or", "is", "is not", "in", "not in", "conditional-expression", *_COMPARE})


def _operated(expr: Dyn, values: list[Any]) -> Any:
    """An operator's value as Python computes it, when every operand is a known scalar (`not True`
    is False, `APPROVE and False` is False): a flag spelt as an expression is still a value, never
    "set at run time". Anything else (an unknown operand, a list, an ordering Python refuses) stays
    `Dynamic`."""
    why = expr.why
    if why == "and" or why == "or":  # left to right, up to the operand that decides (`True or x` is True)
        for n, v in enumerate(values):
            if not _scalar(v):
                break
            if (not v if why == "and" else bool(v)) or n == len(values) - 1:
                return v
        return Dynamic(dynamic=expr.src)
    if why in ("in", "not in") and len(values) == 2 and _scalar(values[0]):  # in a known text, or a list of known scalars
        within = values[1]
        if isinstance(within, str) and isinstance(values[0], str) or isinstance(within, list) and all(_scalar(v) for v in within):
            return (values[0] in within) == (why == "in")
        return Dynamic(dynamic=expr.src)
    if not values or not all(_scalar(v) for v in values):
        return Dynamic(dynamic=expr.src)
    try:
        if why == "not":
            return not values[0]
        return _compared(why, values[0], values[1])
    except (TypeError, ValueError, IndexError):
        return Dynamic(dynamic=expr.src)


def _bounded(text: str, expr: Expr) -> str | Dynamic:
    return text if len(text) <= _TEXT_LIMIT else Dynamic(dynamic=describe(expr))


def _apply_str_method(value: str, method: str, args: list[Any], kwargs: dict[str, Any], call: Call) -> str | Dynamic:
    if not all(_plain(a) for a in args) or not all(_plain(v) for v in kwargs.values()):
        return Dynamic(dynamic=describe(call))
    try:
        if method == "format":
            # Every field's spec is checked first: `"{:>999999999}"` must not allocate gigabytes.
            for _, _, spec, _ in string.Formatter().parse(value):
                if spec and "{" in spec:
                    raise ValueError("computed format spec")
                if spec:
                    _format_spec(spec)
        if method == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
            if len(value) + value.count(args[0]) * max(0, len(args[1]) - len(args[0])) > _TEXT_LIMIT:
                raise ValueError("too long")
        if method == "join" and not (len(args) == 1 and isinstance(args[0], list) and all(isinstance(a, str) for a in args[0])):
            raise TypeError("join of something other than strings")
        result = getattr(value, method)(*args, **kwargs)
    except Exception:  # noqa: BLE001 - a call Python would reject at run time is not a known value
        return Dynamic(dynamic=describe(call))
    return _bounded(result, call) if isinstance(result, str) else Dynamic(dynamic=describe(call))


def attribute(obj: Expr, name: str) -> Expr:
    """`obj.name` as an expression, whatever `obj` is (a name, a parameter, a call's result)."""
    if isinstance(obj, Ref):
        return Ref(f"{obj.name}.{name}")
    if isinstance(obj, Dyn):
        return Dyn(f"{obj.src}.{name}", obj.why)
    return Attr(obj, name)


def calls_in(expr: Expr) -> list[Call]:
    """Every call inside `expr`, in `walk` order (parents first, source order)."""
    if expr.__class__ in _LEAVES:  # most assigned values and arguments: nothing inside
        return []
    out: list[Call] = []
    _calls(expr, out)
    return out


# Expressions `walk` does not descend into (a `Dyn`'s f-string parts are not walked either).
_LEAVES = frozenset({Const, Ref, Dyn})


def _calls(expr: Expr, out: list[Call]) -> None:
    # `nodes_in(expr, (Call,))` without a call per leaf (names and constants are most nodes, and
    # screens flatten every statement of a program); keep in step with `walk`.
    cls = expr.__class__
    if cls is Call:
        out.append(expr)  # type: ignore[arg-type]
        if expr.func.__class__ not in _LEAVES:  # type: ignore[union-attr]
            _calls(expr.func, out)  # type: ignore[union-attr]
        for a in expr.args:  # type: ignore[union-attr]
            if a.__class__ not in _LEAVES:
                _calls(a, out)
        for _, v in expr.kwargs:  # type: ignore[union-attr]
            if v.__class__ not in _LEAVES:
                _calls(v, out)
        for v in expr.spread:  # type: ignore[union-attr]
            if v.__class__ not in _LEAVES:
                _calls(v, out)
    elif cls is Seq:
        for a in expr.items:  # type: ignore[union-attr]
            if a.__class__ not in _LEAVES:
                _calls(a, out)
    elif cls is Map:
        for k, v in expr.items:  # type: ignore[union-attr]
            if k.__class__ not in _LEAVES:
                _calls(k, out)
            if v.__class__ not in _LEAVES:
                _calls(v, out)
    elif cls is Splat or cls is Attr:
        if expr.value.__class__ not in _LEAVES:  # type: ignore[union-attr]
            _calls(expr.value, out)  # type: ignore[union-attr]
    elif cls is Concat:
        _calls(expr.left, out)  # type: ignore[union-attr]
        _calls(expr.right, out)  # type: ignore[union-attr]


def _mentions_parameter(expr: Expr) -> bool:
    return any(isinstance(e, Dyn) and e.why == "parameter" for e in walk(expr))


def short_name(name: str) -> str:
    """A qualified name as a reader would write it: drop `<locals>` noise."""
    return name.replace(".<locals>", "")


def describe(expr: Expr) -> str:
    """Compact source-like text of an expression, for `dynamic` values and messages."""
    if isinstance(expr, Const):
        return repr(expr.value)
    if isinstance(expr, Ref):
        return short_name(expr.name)
    if isinstance(expr, Dyn):
        return expr.src
    if isinstance(expr, Call):
        if isinstance(expr.func, Ref) and expr.func.name == PIPE and len(expr.args) == 2:
            return clipped(f"{describe(expr.args[0])} | {describe(expr.args[1])}")
        args = [describe(a) for a in expr.args] + [f"{k}={describe(v)}" for k, v in expr.kwargs] + [f"**{describe(v)}" for v in expr.spread]
        # cut with a digest of the whole: two run-time spellings alike for 160 characters differ
        return clipped(f"{describe(expr.func)}({', '.join(args)})")
    if isinstance(expr, Seq):
        return "[" + ", ".join(describe(a) for a in expr.items) + "]"
    if isinstance(expr, Map):
        return "{" + ", ".join(f"{describe(k)}: {describe(v)}" for k, v in expr.items) + "}"
    if isinstance(expr, Attr):
        return f"{describe(expr.value)}.{expr.attr}"
    if isinstance(expr, Splat):
        return f"*{describe(expr.value)}"
    if isinstance(expr, Concat):
        return f"{describe(expr.left)} + {describe(expr.right)}"
    return "?"

"""The per-file intermediate representation: framework-agnostic facts about one Python module.

Extraction turns `(path, bytes)` into `ModuleFacts` without knowing any agent framework: imports,
assignments, functions, classes and statement-level calls, with every name already qualified
through the module's imports. Dialects interpret these facts later, over the whole linked program,
because what a decorator or a constructor *is* often depends on another module (re-exports,
`@agent.tool` where `agent` lives elsewhere). Keeping this layer generic is what makes it cacheable
per blob: a file's facts never depend on any other file.

Expressions are a tiny tagged tree (`Expr`): constants, qualified references, calls, sequences,
mappings, and `Dyn` for anything that cannot be known statically (kept with its source text).
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import json
import math
import operator
import re
import sys
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Callable, Iterator, Union

# Names and literals repeat across a program (every call of `acme.util.helper` spells it, every
# parameter annotation is one of a few words): facts keep one string object for each, not one per
# occurrence (the parser and json.loads make a new one every time). Measured on a 1,500-file
# repository: strings were 60 of 138 MB of facts, 17 MB once shared. Facts are immutable, so
# sharing is safe; a shared string is freed with its last use.
_shared = sys.intern
_set = object.__setattr__


def _shared_or_none(text: str | None) -> str | None:
    return None if text is None else _shared(text)


# --- expressions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Const:
    value: Any  # str | int | float | bool | None

    def __init__(self, value: Any) -> None:
        _set(self, "value", _shared(value) if value.__class__ is str else value)


@dataclass(frozen=True, slots=True)
class Ref:
    """A dotted name, qualified through imports: `mcp.server.fastmcp.FastMCP`, `pkg.tools.refund`."""

    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", _shared(name) if name.__class__ is str else name)


@dataclass(frozen=True, slots=True)
class Call:
    func: "Expr"
    args: tuple["Expr", ...] = ()
    kwargs: tuple[tuple[str, "Expr"], ...] = ()
    line: int = 0
    star: bool = False  # *args or **kwargs present: the call's arguments are not fully known
    # The `**x` expressions, in source order: what a spread dict holds is read through them
    # (`Agent(**CFG)`: an edit of CFG's "tools" is an edit of the agent), by `Program.spread_call`.
    spread: tuple["Expr", ...] = ()

    def kw(self, name: str) -> "Expr | None":
        for k, v in self.kwargs:
            if k == name:
                return v
        return None

    def arg(self, index: int, name: str | None = None) -> "Expr | None":
        """Positional argument `index`, or keyword `name`."""
        if name is not None:
            v = self.kw(name)
            if v is not None:
                return v
        if index < len(self.args):
            a = self.args[index]
            return None if isinstance(a, Splat) else a
        return None


@dataclass(frozen=True, slots=True)
class Seq:
    items: tuple["Expr", ...]


@dataclass(frozen=True, slots=True)
class Map:
    items: tuple[tuple["Expr", "Expr"], ...]  # a `**x` entry has key Const(None)


@dataclass(frozen=True, slots=True)
class Attr:
    """Attribute of something that is not a plain reference (e.g. `make()().tool`)."""

    value: "Expr"
    attr: str


@dataclass(frozen=True, slots=True)
class Splat:
    value: "Expr"  # `*x` inside a list or call


@dataclass(frozen=True, slots=True)
class Concat:
    left: "Expr"
    right: "Expr"  # `a + b` (lists, tuples, strings)


class Dyn:
    """Not knowable statically: a parameter, a subscript, an f-string, an env read, ...

    `src` is the expression's source text as `ast.unparse` writes it (whitespace collapsed, at most
    160 characters). Extraction makes most of them from the exact source span (`Dyn.of_source`)
    and renders that text only when something reads it: most dynamic expressions of a program
    (arguments of library calls) are never looked at. Immutable, compared by (src, why, parts)
    and hashed by (src, why) like the frozen dataclass it replaces.

    `parts` are an f-string's pieces in order (literal text as `Const`, each replacement field as
    its value, wrapped in `builtins.repr`/`str`/`ascii`/`format` calls for `!r`/`!s`/`!a`/`:spec`),
    so that an f-string of constants evaluates to its text. A subscript of a name by a name or a
    constant (`PROMPTS[lang]`) has two: the container and the index, so that its value is read from
    the container's items (a prompt chosen from a dict is digested by the texts it may be). A slice
    of a name (`TOOLS[start:end]`) has four: the container, then the lower bound, upper bound and
    step (`Const(None)` where absent), so that a page of a list is read as part of that list. Empty
    for anything else.
    """

    __slots__ = ("_src", "_span", "why", "parts")
    __match_args__ = ("src", "why")

    def __init__(self, src: str, why: str = "expression", parts: tuple["Expr", ...] = ()) -> None:
        object.__setattr__(self, "_src", src)
        object.__setattr__(self, "_span", None)
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "parts", parts)

    @classmethod
    def of_source(cls, span: str, why: str, parts: tuple["Expr", ...] = ()) -> "Dyn":
        """The expression whose exact source text is `span` (one expression, as written)."""
        d = object.__new__(cls)
        object.__setattr__(d, "_src", None)
        object.__setattr__(d, "_span", _shared(span))  # the same expression recurs (`self.items[i]`)
        object.__setattr__(d, "why", why)
        object.__setattr__(d, "parts", parts)
        return d

    @property
    def src(self) -> str:
        text = self._src
        if text is None:
            text = source_text(self._span)  # type: ignore[arg-type]
            object.__setattr__(self, "_src", text)
        return text

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Dyn:
            return NotImplemented
        return self.why == other.why and self.src == other.src and self.parts == other.parts  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.src, self.why))

    def __repr__(self) -> str:
        if self.parts:
            return f"Dyn(src={self.src!r}, why={self.why!r}, parts={self.parts!r})"
        return f"Dyn(src={self.src!r}, why={self.why!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


SRC_LIMIT = 160
# An annotation's text is kept longer: its words (`Field(description=...)`) are told apart from its
# type by reading that text (diff.py `_undescribed`), which a cut text cannot be.
ANNOTATION_LIMIT = 1000


def clipped(text: str, limit: int = SRC_LIMIT) -> str:
    """`text` cut to at most `limit` characters, the whole of it kept as a digest at the end: two
    texts alike up to the cut but not after it stay different, so a change past the cut is never
    unseen (`Field(description="<long>", max_length=5)` -> `max_length=500`)."""
    if len(text) <= limit:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{text[: limit - 23]}... sha256:{digest}"


def shorten(text: str, limit: int = SRC_LIMIT) -> str:
    """Source text as facts keep it: whitespace collapsed, at most `limit` characters (`clipped`)."""
    return clipped(" ".join(text.split()), limit)


# pydantic's Field, as the facts name it (qualified by the module's imports).
PYDANTIC_FIELD = frozenset({"pydantic.Field", "pydantic.fields.Field"})


def is_ellipsis(expr: Expr | None) -> bool:
    """`...` as an expression (a `Field(...)` that gives no default)."""
    return expr.__class__ is Dyn and expr.src == "..." and expr.why == "constant"  # type: ignore[union-attr]


def source_text(span: str) -> str:
    """What `ast.unparse` writes for the expression spelled `span`, shortened: parsing the span
    again gives the same tree the file held (a span that breaks a line outside its own brackets
    is parsed in parentheses, which add no node)."""
    import ast

    for text in (span, f"({span}\n)"):
        try:
            return shorten(ast.unparse(ast.parse(text, mode="eval").body))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        except Exception:  # noqa: BLE001 - unparse of odd nodes must not break a run
            break
    return shorten(span)


Expr = Union[Const, Ref, Call, Seq, Map, Attr, Splat, Concat, Dyn]

# The callee extraction gives `a | b` outside annotations: `Call(Ref(PIPE), (a, b))`.
PIPE = "operator.or_"


def walk(expr: Expr) -> Iterator[Expr]:
    """`expr` and every expression inside it, each parent before its children, in source order."""
    yield expr
    if isinstance(expr, Call):
        yield from walk(expr.func)
        for a in expr.args:
            yield from walk(a)
        for _, v in expr.kwargs:
            yield from walk(v)
        for v in expr.spread:
            yield from walk(v)
    elif isinstance(expr, Seq):
        for a in expr.items:
            yield from walk(a)
    elif isinstance(expr, Map):
        for k, v in expr.items:
            yield from walk(k)
            yield from walk(v)
    elif isinstance(expr, (Splat, Attr)):
        yield from walk(expr.value)
    elif isinstance(expr, Concat):
        yield from walk(expr.left)
        yield from walk(expr.right)


def nodes_in(expr: Expr, kinds: tuple[type, ...]) -> list[Expr]:
    """The expressions of these classes inside `expr` (itself included), in `walk` order."""
    out: list[Expr] = []
    _collect(expr, kinds, out)
    return out


def _collect(expr: Expr, kinds: tuple[type, ...], out: list[Expr]) -> None:
    # `walk` filtered by class, eagerly: no generator per node (a program holds hundreds of
    # thousands of expressions). Keep both traversals in step.
    cls = expr.__class__
    if cls in kinds:
        out.append(expr)
    if cls is Call:
        _collect(expr.func, kinds, out)  # type: ignore[union-attr]
        for a in expr.args:  # type: ignore[union-attr]
            _collect(a, kinds, out)
        for _, v in expr.kwargs:  # type: ignore[union-attr]
            _collect(v, kinds, out)
        for v in expr.spread:  # type: ignore[union-attr]
            _collect(v, kinds, out)
    elif cls is Seq:
        for a in expr.items:  # type: ignore[union-attr]
            _collect(a, kinds, out)
    elif cls is Map:
        for k, v in expr.items:  # type: ignore[union-attr]
            _collect(k, kinds, out)
            _collect(v, kinds, out)
    elif cls is Splat or cls is Attr:
        _collect(expr.value, kinds, out)  # type: ignore[union-attr]
    elif cls is Concat:
        _collect(expr.left, kinds, out)  # type: ignore[union-attr]
        _collect(expr.right, kinds, out)  # type: ignore[union-attr]


# --- statements and definitions ----------------------------------------------------------------


@dataclass(slots=True)
class ParamFact:
    name: str
    annotation: str | None = None  # source text
    annotation_ref: str | None = None  # qualified outermost name of the annotation (RunContext[...] -> pydantic_ai.RunContext)
    default: str | None = None  # source text
    default_expr: Expr | None = None
    required: bool = True
    kind: str = "pos"  # pos | kwonly | varargs | varkw | posonly
    # Qualified names the annotation mentions (`list[Args] | None` -> ("pkg.models.Args",)): what
    # link time resolves to schemas defined in the analysed tree (receipt.schemas).
    refs: tuple[str, ...] = ()

    def __post_init__(self) -> None:  # a few annotations and defaults recur everywhere: shared
        self.annotation = _shared_or_none(self.annotation)
        self.annotation_ref = _shared_or_none(self.annotation_ref)
        self.default = _shared_or_none(self.default)


@dataclass(slots=True)
class FunctionFact:
    symbol: str  # pkg.mod.name, pkg.mod.Class.name, pkg.mod.factory.<locals>.name
    name: str
    line: int
    params: list[ParamFact] = field(default_factory=list)
    returns: str | None = None
    doc: str | None = None
    decorators: list[Expr] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)  # every call made anywhere in the body
    raises: list[Expr] = field(default_factory=list)
    returns_exprs: list[Expr] = field(default_factory=list)
    conditional: bool = False  # defined under if/for/while/except or inside another function
    is_async: bool = False
    owner_class: str | None = None  # symbol of the enclosing class for methods
    # Calls whose target is computed at run time (`globals()["hel" + "per"]()`, `getattr(x, name)()`,
    # `eval(...)()`): (line, source text). What they reach cannot be followed.
    indirect: list[tuple[int, str]] = field(default_factory=list)
    # Digest of the body's source text (dedented; not the name, decorators or module): what a prompt
    # function computes beyond its return expressions, so a moved or renamed function keeps it and
    # any edit of the body changes it. None for functions that return nothing.
    body: str | None = None
    # Raises inside a `try` body with handlers: (index in `raises`, the handlers' exception types,
    # a bare `except:` as builtins.BaseException). Whether the raise leaves the function depends on them.
    guarded: list[tuple[int, tuple[Expr, ...]]] = field(default_factory=list)
    # Defined under an `if`/loop/handler of its own enclosing function (or module): `conditional` is
    # always true inside a function, so only this tells `if flag: @mcp.tool() def f` in a
    # registration function from an unconditional definition there.
    in_block: bool = False
    # Parameters whose argument the body changes in place (`p["k"] = v`, `del p["k"]`, `p.update(...)`,
    # `p["k"].append(x)`): a dict passed here is not its literal any more once the call ran.
    mutates: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.returns = _shared_or_none(self.returns)
        self.symbol = _shared(self.symbol)  # also in its class's `methods`
        self.name = _shared(self.name)  # `__init__`, `run`, `get`: the same few names everywhere
        self.owner_class = _shared_or_none(self.owner_class)  # its class's symbol, once per method


@dataclass(slots=True)
class FieldFact:
    """An annotated class-level declaration (`limit: int = Field(10, le=100)`): a field of a
    TypedDict, pydantic model or dataclass when the class turns out to be one (decided at link time)."""

    name: str
    annotation: str | None  # canonical text (annotations.py), `Annotated`/`Required` wrappers kept
    refs: tuple[str, ...] = ()  # qualified names the annotation mentions
    value: Expr | None = None  # the assigned value: a default, `Field(...)`, `field(...)`
    meta: tuple[Expr, ...] = ()  # `Annotated[T, Field(ge=1), ...]` metadata (annotation is then T's)
    # Qualifiers unwrapped from the annotation: "Required", "NotRequired", "ReadOnly", "ClassVar", "InitVar".
    qualifiers: tuple[str, ...] = ()
    line: int = 0


@dataclass(slots=True)
class TypeAliasFact:
    """A module-level type alias: `Mode = Literal["a", "b"]`, `Mode: TypeAlias = ...`, `type Mode = ...`."""

    annotation: str  # canonical text of the aliased type
    refs: tuple[str, ...] = ()
    line: int = 0


@dataclass(slots=True)
class ClassFact:
    symbol: str
    name: str
    line: int
    bases: list[Expr] = field(default_factory=list)
    decorators: list[Expr] = field(default_factory=list)
    attrs: dict[str, Expr] = field(default_factory=dict)  # class-level assignments
    attr_lines: dict[str, int] = field(default_factory=dict)
    methods: list[str] = field(default_factory=list)  # function symbols
    doc: str | None = None
    conditional: bool = False
    fields: list[FieldFact] = field(default_factory=list)  # annotated declarations, in source order
    keywords: dict[str, Expr] = field(default_factory=dict)  # class keywords: `total=False`, `metaclass=`

    def __post_init__(self) -> None:
        self.symbol = _shared(self.symbol)  # also each method's `owner_class`
        self.name = _shared(self.name)


# An assignment target `C[*].attr`: `attr` set on items of what `C` names (`for t in C: t.attr = v`,
# `C[i].attr = v`), or `C[2].attr`: on the item at that position. `Program.mutations` applies it.
_ITEM_WRITE = re.compile(r"(.+)\[(\*|-?[0-9]+)\]\.([^.\[\]]+)")


def item_write(container: str, index: int | None, attr: str) -> str:
    """The target of `attr` set on the item `index` (None: which one is not known) of `container`."""
    return f"{container}[{'*' if index is None else index}].{attr}"


def item_written(target: str) -> tuple[str, int | None, str] | None:
    """(container, index or None, attribute) of an `item_write` target, else None."""
    if "]." not in target:
        return None
    found = _ITEM_WRITE.fullmatch(target)
    if found is None:
        return None
    container, index, attr = found.groups()
    return container, None if index == "*" else int(index), attr


@dataclass(slots=True)
class AssignFact:
    target: str  # qualified symbol; attribute targets keep their path: pkg.mod.agent.handoffs
    value: Expr
    line: int
    conditional: bool = False
    op: str = "="  # "=" or "+="
    # Under an `if`/loop/handler of its own function (or module), as `EffectFact.guarded`.
    guarded: bool = False

    def __post_init__(self) -> None:
        self.target = _shared(self.target)
        self.op = _shared(self.op)


@dataclass(slots=True)
class EffectFact:
    """A call made as a statement: `tools.append(x)`, `mcp.add_tool(f)`, `app.mount(sub, ...)`."""

    call: Call
    conditional: bool = False
    # Under an `if`/loop/handler of its own function (or module): `conditional` is always true in a
    # function body, so only this tells a guarded registration in a helper from an unguarded one.
    guarded: bool = False


@dataclass(slots=True)
class ModuleFacts:
    path: str
    module: str  # dotted module name derived from the path
    is_package: bool = False
    imports: dict[str, str] = field(default_factory=dict)  # qualified local symbol -> origin dotted name
    # Modules whose names this one takes by `from m import *`, in the order they take effect: a name
    # two of them give is the later one's. Those imported only in an `except` handler (a fallback
    # when the `try` body's import failed) come first, the others in source order.
    star_imports: list[str] = field(default_factory=list)
    assigns: list[AssignFact] = field(default_factory=list)
    functions: list[FunctionFact] = field(default_factory=list)
    classes: list[ClassFact] = field(default_factory=list)
    effects: list[EffectFact] = field(default_factory=list)
    # Code run from values computed at run time: exec/eval/compile of a non-literal, importlib.import_module
    # / __import__ of a non-literal name. (line, kind "dynamic-code" | "dynamic-import", source text).
    dynamic_code: list[tuple[int, str, str]] = field(default_factory=list)
    # Descriptor files (e.g. Corvid ABI JSON) yield surface entries directly, as JSON dicts.
    entries: list[dict[str, Any]] = field(default_factory=list)
    type_aliases: dict[str, TypeAliasFact] = field(default_factory=dict)  # qualified symbol -> alias
    error: dict[str, Any] | None = None  # {"line": int|None, "reason": str, "message": str}

    def lazy(self) -> bool:
        """Whether a record of these facts is still a stand-in (read lazily, not read since: see
        `facts_from_json`), whose reading may raise CorruptEntry."""
        return any(r.__class__ in _LAZY for r in itertools.chain(self.functions, self.classes, self.assigns, self.effects))


# --- JSON round trip for the cache ----------------------------------------------------------------
#
# An entry is a flat table of the module's distinct expressions, each written once and referred to
# by its index, so that decoding builds each object once, with few Python calls per object:
#
# - sharing is kept: a `Call` is often in two places (its function's `calls` and the expression it
#   occurs in); extraction makes one object for both and so does decoding (decoded facts holding
#   every such call twice were a third of a 5,000-file run's peak). Composite expressions are
#   shared by object identity, never equality (equal calls extracted separately stay separate;
#   equality would hash a `Dyn`, which renders its source text). A `Ref` is written once per name
#   and a `Const` once per value in a module; decoding makes one `Ref` per name per module and takes
#   constants from the run's pools (`SharedValues`);
# - the table is in post-order (children before parents), so a row refers only to rows before it:
#   an index out of the table (or negative) fails the read, no cycle can be written;
# - records are positional lists (no field names: a third less text to parse), references lists of
#   ints that C code maps to objects (`map(X.__getitem__, ...)`), not one Python call per child.
#
# A row is a JSON scalar (a `Const` of that value) or a list whose first item says what it is.

_CALL, _REF, _SEQ, _MAP, _ATTR, _SPLAT, _CAT, _DYN, _DYS, _FLOAT = range(10)
# A call's `**x` is written among its keywords under this name (not an identifier, so no keyword
# is spelt so): the row's layout, and its check, stay those of a call without one.
_SPREAD = "**"


class _Encoder:
    """Expressions of one module to rows of `self.rows`, each distinct expression once."""

    def __init__(self) -> None:
        self.rows: list[Any] = []
        self._index: dict[int, int] = {}  # id(composite expression) -> its row; the facts keep them alive
        self._refs: dict[str, int] = {}  # name -> row
        self._consts: dict[tuple[type, Any], int] = {}  # (class, value) -> row: `True == 1`, they stay two

    def expr(self, e: Expr | None) -> int | None:
        if e is None:
            return None
        cls = e.__class__
        if cls is Ref:
            i = self._refs.get(e.name)  # type: ignore[union-attr]
            if i is None:
                i = self._refs[e.name] = len(self.rows)  # type: ignore[union-attr]
                self.rows.append([_REF, e.name])  # type: ignore[union-attr]
            return i
        if cls is Const:
            value = e.value  # type: ignore[union-attr]
            key = (value.__class__, value if value.__class__ is not float else repr(value))  # 0.0 and -0.0 stay two
            i = self._consts.get(key)
            if i is None:
                i = self._consts[key] = len(self.rows)
                # inf and nan have no JSON spelling (some writers make them null): their text instead
                self.rows.append([_FLOAT, repr(value)] if value.__class__ is float and not math.isfinite(value) else value)
            return i
        i = self._index.get(id(e))
        if i is not None:
            return i
        ex = self.expr
        if cls is Call:
            kw: list[Any] = []
            for k, v in e.kwargs:  # type: ignore[union-attr]
                kw += (k, ex(v))
            for v in e.spread:  # type: ignore[union-attr] # `**x` as a keyword no call can spell
                kw += (_SPREAD, ex(v))
            row = [_CALL, ex(e.func), [ex(a) for a in e.args], kw, e.line, e.star]  # type: ignore[union-attr]
        elif cls is Seq:
            row = [_SEQ, *[ex(a) for a in e.items]]  # type: ignore[union-attr]
        elif cls is Map:
            row = [_MAP]
            for k, v in e.items:  # type: ignore[union-attr]
                row += (ex(k), ex(v))
        elif cls is Attr:
            row = [_ATTR, ex(e.value), e.attr]  # type: ignore[union-attr]
        elif cls is Splat:
            row = [_SPLAT, ex(e.value)]  # type: ignore[union-attr]
        elif cls is Concat:
            row = [_CAT, ex(e.left), ex(e.right)]  # type: ignore[union-attr]
        elif cls is Dyn:
            parts = [ex(p) for p in e.parts]  # type: ignore[union-attr]
            if e._span is not None:  # type: ignore[union-attr] # the source span, rendered when read
                row = [_DYS, e._span, e.why, *parts]  # type: ignore[union-attr]
            else:
                row = [_DYN, e.src, e.why, *parts]  # type: ignore[union-attr]
        else:
            raise TypeError(f"not an expression: {cls.__name__}")
        i = self._index[id(e)] = len(self.rows)
        self.rows.append(row)
        return i

    def exprs(self, items: Any) -> list[int]:
        ex = self.expr
        return [ex(e) for e in items]  # type: ignore[misc]


class SharedValues:
    """Constants shared between the modules decoded in one run: one `Const` per string or integer
    (a program writes `None`, `0` or `"id"` in thousands of places; each occurrence was its own
    object, 100k per 1,000 files). Immutable values, so sharing is safe. Per class: `True == 1`,
    but they are different constants; floats are not shared (`0.0 == -0.0`)."""

    def __init__(self) -> None:
        self.strs: dict[str, Const] = {}
        self.ints: dict[int, Const] = {}
        self.fixed = {None: Const(None), True: Const(True), False: Const(False)}
        # One int object per line number: each past 256 was its own object (62,000 at 1,500 files,
        # 6,000 values), as JSON decodes them.
        self.lines: dict[int, int] = {}

    def line(self, n: Any) -> Any:
        """`n`, the object of the run's first equal line number (only an int is shared: never a bool for a 1)."""
        return self.lines.setdefault(n, n) if n.__class__ is int else n


class _NewCall:
    """Builds a `Call` at a third of the cost of its frozen `__init__` (one `object.__setattr__` call
    per field), for the decoder, which makes hundreds of thousands: the fields are stored through a
    mutable class of the same slot layout, and the object then becomes a `Call` (Python checks the
    layouts match). The same object as `Call(...)` makes, and no different afterwards."""

    __slots__ = Call.__slots__  # type: ignore[attr-defined]

    def __init__(self, func: Expr, args: tuple, kwargs: tuple, line: int, star: bool, spread: tuple = ()) -> None:
        self.func = func
        self.args = args
        self.line = line
        self.star = star
        if star and not spread and any(k == _SPREAD for k, _ in kwargs):  # decoded: `**x` written among the keywords
            spread = tuple(v for k, v in kwargs if k == _SPREAD)
            kwargs = tuple(kv for kv in kwargs if kv[0] != _SPREAD)
        self.kwargs = kwargs
        self.spread = spread
        self.__class__ = Call  # type: ignore[assignment]


class _NewRef:
    """`Ref(name)` for the decoder, as `_NewCall`."""

    __slots__ = Ref.__slots__  # type: ignore[attr-defined]

    def __init__(self, name: str) -> None:
        self.name = _shared(name)
        self.__class__ = Ref  # type: ignore[assignment]


class _NewSeq:
    """`Seq(items)` for the decoder, as `_NewCall`."""

    __slots__ = Seq.__slots__  # type: ignore[attr-defined]

    def __init__(self, items: tuple) -> None:
        self.items = items
        self.__class__ = Seq  # type: ignore[assignment]


class _NewMap:
    """`Map(items)` for the decoder, as `_NewCall`."""

    __slots__ = Map.__slots__  # type: ignore[attr-defined]

    def __init__(self, items: tuple) -> None:
        self.items = items
        self.__class__ = Map  # type: ignore[assignment]


class _NewDyn:
    """`Dyn(src, why, parts)` (`span` None) or `Dyn.of_source(span, why, parts)` for the decoder, as `_NewCall`."""

    __slots__ = Dyn.__slots__

    def __init__(self, src: str | None, span: str | None, why: str, parts: tuple) -> None:
        self._src = src
        self._span = span
        self.why = why
        self.parts = parts
        self.__class__ = Dyn  # type: ignore[assignment]


# -- what an entry's values must be (facts_to_json's layout), checked as they are decoded --
# The cache's binding proves where an entry claims to come from, not that its values have the types
# the extractor writes: a corrupted or hostile entry with a line that is text or a flag that is not
# a bool would decode and crash a later stage. The decoder reads every value once anyway, and checks
# each as it goes (any mismatch raises: a miss, the file is extracted again). Types are exact: a
# bool is not an int here, nor a float an index (both would find a row: `True == 1 == 1.0`).
# Fixed records are checked by the tuple of their items' types in one step (C code; optional items
# give a few allowed tuples); every index, line and name list of a module is gathered into one list
# and its items' types checked once, after the module is read and before its facts are returned.

_NONE = type(None)


def _shapes(*items: type | tuple[type, ...]) -> frozenset[tuple[type, ...]]:
    """Every allowed tuple of item types of a record whose items have these types (a tuple: any of them)."""
    return frozenset(itertools.product(*[i if isinstance(i, tuple) else (i,) for i in items]))


_OSTR, _OINT = (str, _NONE), (int, _NONE)
_INTS = frozenset({int}).issuperset  # `_INTS(map(type, x))`: every item of x is an int, no bool
_STRS = frozenset({str}).issuperset
_BOOLS = frozenset({bool}).issuperset
_FACTS_SHAPES = _shapes(
    str, str, bool, dict, list,  # path, module, is_package, imports, star imports
    list, list, list, list, list,  # assignments by column: target, value, line, conditional, op
    list, list, list, list,  # functions, classes, effects' calls and conditions
    str, dict, list, (_NONE, dict),  # entries (JSON text), aliases, dynamic code, error
    list, list,  # effects' guards (added after the columns above, so their positions stay), assignments' guards
    list,  # the expression table
)
_FUNCTION_SHAPES = _shapes(str, str, int, list, _OSTR, _OSTR, list, list, list, list, bool, bool, _OSTR, list, _OSTR, list, bool, list)
_PARAM_SHAPES = _shapes(str, _OSTR, _OSTR, _OSTR, _OINT, bool, str, list)
_CLASS_SHAPES = _shapes(str, str, int, list, list, dict, dict, list, _OSTR, bool, list, dict)
_FIELD_SHAPES = _shapes(str, _OSTR, list, _OINT, list, list, int)
_ALIAS_SHAPE = (str, list, int)
_DYNAMIC_SHAPES, _INDIRECT_SHAPES = _shapes(int, str, str), _shapes(int, str)
_GUARD_SHAPES = _shapes(int, list)  # a raise's index, the expressions of the handlers' types
_LISTS = frozenset({list}).issuperset
_TYPES = itertools.repeat(type)  # map(map, _TYPES, records): each record's item types
_chain = itertools.chain.from_iterable
_AT0, _AT1, _AT3, _AT6, _AT7, _AT8, _AT9, _AT13, _AT15, _AT17 = map(operator.itemgetter, (0, 1, 3, 6, 7, 8, 9, 13, 15, 17))


class _Mistyped(ValueError):
    """An entry's value has another type than the extractor writes."""


def _bools(x: Any) -> Any:
    if x.__class__ is not list or not _BOOLS(map(type, x)):
        raise _Mistyped("not a list of flags")
    return x


def _records(x: Any, shapes: frozenset[tuple[type, ...]]) -> Any:
    """`x` when it is a list of records (lists), each of one of these shapes (tuples of item types)."""
    if x.__class__ is not list or not _LISTS(map(type, x)) or not shapes.issuperset(map(tuple, map(map, _TYPES, x))):
        raise _Mistyped("a record of another shape")
    return x


def _error(e: Any) -> Any:
    if e is not None and not (
        e.__class__ is dict and e.get("line").__class__ in (int, _NONE) and e.get("reason").__class__ is str
        and e.get("message").__class__ is str and (e.get("frameworks") is None or e["frameworks"].__class__ is list and _STRS(map(type, e["frameworks"])))
    ):
        raise _Mistyped("not an extraction error")
    return e


def _decode_exprs(rows: list[Any], shared: SharedValues, ints: list[Any], table: dict[int, Expr] | None = None, only: list[int] | None = None) -> dict[int, Expr]:
    """The table of a module's expressions by index, built in order, each row's types checked but
    its indices: those are added to `ints`, for the caller to check with the module's other indices
    in one step (a list's item types in C code cost about the same for 1 item as for 100). A dict,
    not a list: a list reads a negative index from its end, where a row may only refer to rows
    before it. `only`: just these rows, ascending, into `table`, which holds every row they refer
    to that is not among them (read lazily, see `_Pending`)."""
    if table is None:
        table = {}
    get = table.__getitem__
    strs, consts, fixed = shared.strs, shared.ints, shared.fixed
    keep_line = shared.lines.setdefault
    add = ints.append
    for n, row in enumerate(rows) if only is None else zip(only, map(rows.__getitem__, only)):
        cls = row.__class__
        if cls is list:
            t = row[0]
            if t.__class__ is not int:
                raise _Mistyped("an expression tag that is not an int")
            if t == _CALL:
                _, func, args, kw, line, star = row
                # the line is checked before it is shared: a run-wide pool must never hold a 12.0 for a 12
                if func.__class__ is not int or line.__class__ is not int or args.__class__ is not list or kw.__class__ is not list or star.__class__ is not bool:
                    raise _Mistyped("a call of another shape")
                if args:
                    ints += args
                if kw:
                    values = kw[1::2]
                    ints += values
                    kwargs = tuple(zip(map(_shared, kw[::2]), map(get, values), strict=True))  # interned: names are text
                else:
                    kwargs = ()
                x: Expr = _NewCall(get(func), tuple(map(get, args)), kwargs, keep_line(line, line), star)
            elif t == _REF:
                _, name = row
                x = _NewRef(name)  # interned: text only
            elif t == _MAP:
                ints += row
                x = _NewMap(tuple(zip(map(get, row[1::2]), map(get, row[2::2]), strict=True)))
            elif t == _DYS or t == _DYN:
                parts = row[3:]
                ints += parts
                text, why = _shared(row[1]), _shared(row[2])  # interned: text only
                x = _NewDyn(None, text, why, tuple(map(get, parts))) if t == _DYS else _NewDyn(text, None, why, tuple(map(get, parts)))
            elif t == _SEQ:
                ints += row
                x = _NewSeq(tuple(map(get, row[1:])))
            elif t == _ATTR:
                _, value, attr = row
                add(value)
                x = Attr(get(value), _shared(attr))
            elif t == _SPLAT:
                _, value = row
                add(value)
                x = Splat(get(value))
            elif t == _CAT:
                _, left, right = row
                add(left), add(right)
                x = Concat(get(left), get(right))
            elif t == _FLOAT:
                _, text = row
                if text.__class__ is not str:
                    raise _Mistyped("a float that is not spelled as text")
                x = Const(float(text))
            else:
                raise ValueError(f"unknown expression tag {t!r}")
        elif cls is str:
            x = strs.get(row)  # type: ignore[assignment]
            if x is None:
                x = strs[row] = Const(row)
        elif cls is int:
            x = consts.get(row)  # type: ignore[assignment]
            if x is None:
                x = consts[row] = Const(row)
        elif row is None or cls is bool:
            x = fixed[row]
        elif cls is float:
            x = Const(row)
        else:
            raise ValueError("not an expression row")
        table[n] = x
    return table


def _expr_table(rows: list[Any], shared: SharedValues, check: bool = True) -> list[Expr]:
    """Every row's expression, by index: what `_decode_exprs` makes of the whole table (the same
    objects, shared the same way, the same rows rejected), for an eager read. A list, appended
    row by row: a reference to a row not made yet (after it, or itself) finds none and raises;
    a negative one, which a list reads from its end, is rejected with the other indices' types.
    `check=False`: rows this very run encoded (see `facts_from_json`), their types not checked.

    Tried and left out (2026-11-24, the 1,524 files of the 1,500-file tree, CPU): building each
    kind of expression column by column (every object of a kind made empty, then each field set by
    one `map` of its slot's setter over the kind's column): 0.52 s against 0.34 s row by row. A
    slot's setter called from C costs what a Python store costs, and the passes to sort rows by
    kind, pick their fields and check them come on top; what costs is making the objects."""
    table: list[Any] = []
    app, get = table.append, table.__getitem__
    strs, consts, fixed = shared.strs, shared.ints, shared.fixed
    keep_line = shared.lines.setdefault
    ints: list[Any] = []  # every index a row holds: their types checked at once, at the end
    add = ints.append
    for row in rows:
        cls = row.__class__
        if cls is list:
            t = row[0]
            if check and t.__class__ is not int:
                raise _Mistyped("an expression tag that is not an int")
            if t == _CALL:
                _, func, args, kw, line, star = row
                if check:
                    # the line is checked before it is shared: a run-wide pool must never hold a 12.0 for a 12
                    if line.__class__ is not int or args.__class__ is not list or kw.__class__ is not list or star.__class__ is not bool:
                        raise _Mistyped("a call of another shape")
                    add(func)
                    ints += args
                if kw:
                    values = kw[1::2]
                    if check:
                        ints += values
                    kwargs = tuple(zip(map(_shared, kw[::2]), map(get, values), strict=True))  # interned: names are text
                else:
                    kwargs = ()
                app(_NewCall(get(func), tuple(map(get, args)), kwargs, keep_line(line, line), star))
            elif t == _REF:
                _, name = row
                app(_NewRef(name))  # interned: text only
            elif t == _MAP:
                if check:
                    ints += row
                app(_NewMap(tuple(zip(map(get, row[1::2]), map(get, row[2::2]), strict=True))))
            elif t == _DYS or t == _DYN:
                parts = row[3:]
                if check:
                    ints += parts
                text, why = _shared(row[1]), _shared(row[2])  # interned: text only
                app(_NewDyn(None, text, why, tuple(map(get, parts))) if t == _DYS else _NewDyn(text, None, why, tuple(map(get, parts))))
            elif t == _SEQ:
                if check:
                    ints += row
                app(_NewSeq(tuple(map(get, row[1:]))))
            elif t == _ATTR:
                _, value, attr = row
                add(value)
                app(Attr(get(value), _shared(attr)))
            elif t == _SPLAT:
                _, value = row
                add(value)
                app(Splat(get(value)))
            elif t == _CAT:
                _, left, right = row
                add(left), add(right)
                app(Concat(get(left), get(right)))
            elif t == _FLOAT:
                _, text = row
                if text.__class__ is not str:
                    raise _Mistyped("a float that is not spelled as text")
                app(Const(float(text)))
            else:
                raise ValueError(f"unknown expression tag {t!r}")
        elif cls is str:
            x = strs.get(row)  # type: ignore[assignment]
            if x is None:
                x = strs[row] = Const(row)
            app(x)
        elif cls is int:
            x = consts.get(row)  # type: ignore[assignment]
            if x is None:
                x = consts[row] = Const(row)
            app(x)
        elif row is None or cls is bool:
            app(fixed[row])
        elif cls is float:
            app(Const(row))
        else:
            raise ValueError("not an expression row")
    if check and ints and (not _INTS(map(type, ints)) or min(ints) < 0):
        raise _Mistyped("an index that is not an int, or a negative one")
    return table


def facts_to_json(m: ModuleFacts) -> list[Any]:
    """The facts of a module as JSON data (see above; lists, never tuples: `facts_from_json` checks
    the types of what it reads, in memory too); `facts_from_json` reads them back."""
    enc = _Encoder()
    ex, exs = enc.expr, enc.exprs
    assigns = m.assigns
    functions = [
        [
            f.symbol, f.name, f.line,
            [[p.name, p.annotation, p.annotation_ref, p.default, ex(p.default_expr), p.required, p.kind, list(p.refs)] for p in f.params],
            f.returns, f.doc, exs(f.decorators), exs(f.calls), exs(f.raises), exs(f.returns_exprs),
            f.conditional, f.is_async, f.owner_class, [list(i) for i in f.indirect], f.body,
            [[i, exs(types)] for i, types in f.guarded], f.in_block, f.mutates,
        ]
        for f in m.functions
    ]
    classes = [
        [
            c.symbol, c.name, c.line, exs(c.bases), exs(c.decorators),
            {k: ex(v) for k, v in c.attrs.items()}, c.attr_lines, c.methods, c.doc, c.conditional,
            [[f.name, f.annotation, list(f.refs), ex(f.value), exs(f.meta), list(f.qualifiers), f.line] for f in c.fields],
            {k: ex(v) for k, v in c.keywords.items()},
        ]
        for c in m.classes
    ]
    return [
        m.path, m.module, m.is_package, m.imports, m.star_imports,
        # assignments and effects by column: each built with one `map` on decoding
        [a.target for a in assigns], exs(a.value for a in assigns), [a.line for a in assigns],
        [a.conditional for a in assigns], [a.op for a in assigns],
        functions, classes,
        exs(e.call for e in m.effects), [e.conditional for e in m.effects],
        # descriptor entries (JSON read from a file) as JSON text: exactly what they hold, nan included
        json.dumps(m.entries) if m.entries else "",
        {k: [a.annotation, list(a.refs), a.line] for k, a in m.type_aliases.items()},
        [list(d) for d in m.dynamic_code], m.error,
        [e.guarded for e in m.effects], [a.guarded for a in assigns],
        enc.rows,  # last: written after everything above has been numbered
    ]


def _check(j: list[Any]) -> None:
    """Raises unless the records of facts `j` (of the shape `_FACTS_SHAPES`) hold values of the
    types `facts_to_json` writes, every index inside the table (the table's rows: `_expr_table`)."""
    (_path, _module, _is_package, _imports, star_imports, targets, values, lines, conditionals, ops,
     functions, classes, effect_calls, effect_conditionals, _entries, type_aliases, dynamic_code, error, effect_guards, guards, rows) = j
    # Every value that must be an int (indices, lines) and every list that must hold text, checked
    # together once the module is read: nothing decoded leaves here before. The indices into the
    # table are kept apart (`idx`), to be checked inside it now.
    ints: list[Any] = [*lines]
    idx: list[Any] = [*values]
    idx += effect_calls
    texts: list[Any] = [*star_imports]
    if (len({len(targets), len(values), len(lines), len(conditionals), len(ops), len(guards)}) > 1
            or len({len(effect_calls), len(effect_conditionals), len(effect_guards)}) > 1):
        raise ValueError("columns of different lengths")
    _bools(conditionals), _bools(effect_conditionals), _bools(effect_guards), _bools(guards), _error(error)  # targets and ops: interned by AssignFact, text only
    _records(functions, _FUNCTION_SHAPES), _records(classes, _CLASS_SHAPES), _records(dynamic_code, _DYNAMIC_SHAPES)
    # The records inside functions (each function's a list: _FUNCTION_SHAPES) checked all at once,
    # and the values to check gathered the same way: one pass in C each, not a few Python calls per
    # function (a check per function's list of parameters, of indirect calls and of guarded raises
    # was a fifth of reading a module lazily; most of those lists are empty).
    params = _records(list(_chain(map(_AT3, functions))), _PARAM_SHAPES)
    _records(list(_chain(map(_AT13, functions))), _INDIRECT_SHAPES)
    guarded = _records(list(_chain(map(_AT15, functions))), _GUARD_SHAPES)
    ints += map(_AT0, guarded)  # a place in the function's raises, not in the table
    idx += _chain(map(_AT1, guarded))
    texts += _chain(map(_AT17, functions))
    for at in (_AT6, _AT7, _AT8, _AT9):
        idx += _chain(map(at, functions))
    texts += _chain(map(_AT7, params))
    idx += [p[4] for p in params if p[4] is not None]
    for c in classes:
        _records(c[10], _FIELD_SHAPES)
        if c[5].__class__ is not dict or c[6].__class__ is not dict or c[7].__class__ is not list or c[11].__class__ is not dict:
            raise _Mistyped("a class of another shape")
        idx += c[3]
        idx += c[4]
        idx += c[5].values()
        ints += c[6].values()
        idx += c[11].values()
        texts += c[7]
        for fl in c[10]:
            texts += fl[2]
            texts += fl[5]
            idx += fl[4]
            if fl[3] is not None:
                idx.append(fl[3])
    for a in type_aliases.values():
        if a.__class__ is not list or tuple(map(type, a)) != _ALIAS_SHAPE:
            raise _Mistyped("a type alias of another shape")
        texts += a[1]
    if not _INTS(map(type, ints)) or not _INTS(map(type, idx)) or not _STRS(map(type, texts)):
        raise _Mistyped("an index or line that is not an int, or a name that is not text")
    if idx and (min(idx) < 0 or max(idx) >= len(rows)):  # (a list reads a negative index from its end)
        raise _Mistyped("an index out of the table")


def facts_from_json(
    j: list[Any], shared: SharedValues | None = None, lazy: bool = False, where: str = "", check: bool = True,
    reread: Callable[[], list[Any]] | None = None,
) -> ModuleFacts:
    """The facts `j` encodes; `shared`: leaf expressions already decoded in this run, to reuse.
    Raises (ValueError, IndexError, TypeError, ...) on anything that is not such an encoding, a
    value of another type than facts_to_json writes included (see `_shapes`).

    `lazy`: read lazily (see `CorruptEntry`). Everything but the expression table is checked here
    as eagerly (every record's shape, every index and line an int, every index inside the table),
    but the table is neither decoded nor checked, nor the records built: each function, class,
    assignment and effect is a stand-in holding its name (what `Program` indexes by), read from
    `j` (kept) when anything else of it is first read, and only the expressions that reads.
    `where`: the entry, named in the `CorruptEntry` a malformed expression then raises.
    `reread`: a function giving `j` again (parsed anew from the bytes it was read from): with it, a
    lazy read takes what nearly every run reads of the module (`_Pending.peek`) and lets `j` go,
    parsed again only if a record is read.

    `check=False`: `j` is what `facts_to_json` made in this very run (a worker's entry, whose
    bytes the parent has from the worker itself, never from the cache directory): read eagerly,
    its types and indices not checked. An entry read from the cache directory is always checked."""
    if check and (j.__class__ is not list or tuple(map(type, j)) not in _FACTS_SHAPES):
        raise _Mistyped("not the facts of a module")
    (path, module, is_package, imports, star_imports, targets, values, lines, conditionals, ops,
     functions, classes, effect_calls, effect_conditionals, entries, type_aliases, dynamic_code, error, effect_guards, guards, rows) = j
    shared = shared or SharedValues()
    if check or lazy:
        _check(j)
    if lazy:
        return _lazy_facts(j, shared, where, reread)
    table = _expr_table(rows, shared, check)
    keep_line = shared.lines.setdefault
    parts = _Parts(table.__getitem__, shared.line, functions, classes, targets, values, lines, conditionals, ops, guards, effect_calls, effect_conditionals, effect_guards)
    return ModuleFacts(
        path=path,
        module=module,
        is_package=is_package,
        imports={k: _shared(v) for k, v in imports.items()},  # origins recur across modules; text only
        star_imports=star_imports,
        # lines: ints (checked above), each the run's first equal one (`SharedValues.line`)
        assigns=list(map(_assign, map(_shared, targets), map(parts.get, values), map(keep_line, lines, lines), conditionals, map(_shared, ops), guards)),
        functions=list(map(parts.function, range(len(functions)))),
        classes=list(map(parts.cls, range(len(classes)))),
        effects=list(map(_effect, map(parts.get, effect_calls), effect_conditionals, effect_guards)),
        entries=json.loads(entries) if entries else [],
        type_aliases={k: TypeAliasFact(a[0], tuple(a[1]), a[2]) for k, a in type_aliases.items()},
        dynamic_code=[(d[0], d[1], d[2]) for d in dynamic_code],
        error=error,
    )


class _ReadOnlyEmpty(list):
    """The one empty list every decoded function shares for each of its empty fields: most of a
    function's eight lists are empty, and an empty list each was 405,000 lists (29 MB) of the facts
    of a 5,000-file tree. Facts are never changed once extracted; this one refuses to be."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("decoded facts are read-only")

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse  # type: ignore[assignment]
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]


_EMPTY: list[Any] = _ReadOnlyEmpty()


# Records made for the decoder as `X(...)` makes them, __post_init__ included, with one Python call
# each, not two (a dataclass's __init__, then its __post_init__): 111,826 assignments, 35,740
# parameters and 18,963 functions at 1,500 files. Keep them in step with the classes' fields.
_new = object.__new__
_repeat = itertools.repeat


def _assign(target: str, value: Expr, line: int, conditional: bool, op: str, guarded: bool) -> AssignFact:
    """`AssignFact(...)` of a target and operator already shared."""
    a = _new(AssignFact)
    a.target = target
    a.value = value
    a.line = line
    a.conditional = conditional
    a.op = op
    a.guarded = guarded
    return a


def _effect(call: Call, conditional: bool, guarded: bool) -> EffectFact:
    e = _new(EffectFact)
    e.call = call
    e.conditional = conditional
    e.guarded = guarded
    return e


def _param(p: list[Any], get: Callable[[int], Expr]) -> ParamFact:
    """`ParamFact(...)` of a parameter's record (see facts_to_json)."""
    m = _new(ParamFact)
    m.name = _shared(p[0])
    m.annotation = None if p[1] is None else _shared(p[1])
    m.annotation_ref = None if p[2] is None else _shared(p[2])
    m.default = None if p[3] is None else _shared(p[3])
    m.default_expr = None if p[4] is None else get(p[4])
    m.required = p[5]
    m.kind = _shared(p[6])
    m.refs = tuple(p[7])
    return m


class _Parts:
    """A module's records as read (checked) and its expression table: each record built from them."""

    __slots__ = ("get", "line", "functions", "classes", "targets", "values", "lines", "conditionals", "ops", "guards", "effect_calls", "effect_conditionals", "effect_guards")

    def __init__(self, *parts: Any) -> None:
        (self.get, self.line, self.functions, self.classes, self.targets, self.values, self.lines, self.conditionals, self.ops, self.guards,
         self.effect_calls, self.effect_conditionals, self.effect_guards) = parts

    def function(self, i: int) -> FunctionFact:
        f, get = self.functions[i], self.get
        m = _new(FunctionFact)  # as FunctionFact(...) and its __post_init__ make it (see `_assign`)
        m.symbol = _shared(f[0])
        m.name = _shared(f[1])
        m.line = self.line(f[2])
        m.params = list(map(_param, f[3], _repeat(get))) if f[3] else _EMPTY
        m.returns = None if f[4] is None else _shared(f[4])
        m.doc = f[5]
        m.decorators = list(map(get, f[6])) if f[6] else _EMPTY
        m.calls = list(map(get, f[7])) if f[7] else _EMPTY
        m.raises = list(map(get, f[8])) if f[8] else _EMPTY
        m.returns_exprs = list(map(get, f[9])) if f[9] else _EMPTY
        m.conditional = f[10]
        m.is_async = f[11]
        m.owner_class = None if f[12] is None else _shared(f[12])
        m.indirect = [(i[0], i[1]) for i in f[13]] if f[13] else _EMPTY
        m.body = f[14]
        m.guarded = [(g[0], tuple(map(get, g[1]))) for g in f[15]] if f[15] else _EMPTY
        m.in_block = f[16]
        m.mutates = f[17] or _EMPTY
        return m

    def cls(self, i: int) -> ClassFact:
        c, get = self.classes[i], self.get
        return ClassFact(
            c[0], c[1], self.line(c[2]), list(map(get, c[3])), list(map(get, c[4])),
            {k: get(v) for k, v in c[5].items()}, c[6],
            [_shared(m) for m in c[7]],  # the symbols of its FunctionFacts
            c[8], c[9],
            [FieldFact(_shared(f[0]), f[1], tuple(f[2]), None if f[3] is None else get(f[3]), tuple(map(get, f[4])), tuple(f[5]), f[6]) for f in c[10]],
            {k: get(v) for k, v in c[11].items()},
        )

    def assign(self, i: int) -> AssignFact:
        return AssignFact(self.targets[i], self.get(self.values[i]), self.line(self.lines[i]), self.conditionals[i], self.ops[i], self.guards[i])

    def effect(self, i: int) -> EffectFact:
        return EffectFact(self.get(self.effect_calls[i]), self.effect_conditionals[i], self.effect_guards[i])


# --- lazy reading ------------------------------------------------------------------------------
#
# An incremental receipt's head reuses its base's screens (pipeline.KEEP_SCREENS): its dialects
# never look into most modules, whose facts were nonetheless decoded whole (61% of such a receipt
# at 1,500 files). Read lazily, a module's records are stand-ins: a subclass of the record's class,
# of the same layout, with its name set (what `Program` indexes by) and every other field a
# property. Reading one builds the record as an eager read does, from the entry's JSON (kept),
# decoding only the expressions it holds (each row once per module, with the rows it refers to);
# the stand-in then becomes an object of the record's class: the same object for whoever holds it,
# no different afterwards. A function is read field by field (see `_function_stand_in`). What
# `Program` reads of every module besides names (an assignment's alias, an effect's callee) is told
# by the rows themselves when they are plain names, without decoding (`alias_of`,
# `indexed_callee`). Equality makes both sides whole first (a stand-in equals the record it stands
# for). Everything but the rows is checked when the entry is read; a malformed row raises
# CorruptEntry when first read.


class CorruptEntry(BaseException):
    """A lazily read entry's expression table turned out malformed when first read (see
    `facts_from_json`): what read it so far cannot be trusted, nor may anything catch this on the
    way (`except Exception` does not), up to the run that read the entry lazily, which reads its
    files again, eagerly (pipeline `_surface_of`): the entry is then a miss, extracted again."""

    def __init__(self, where: str) -> None:
        super().__init__(f"cache entry malformed: {where}")
        self.where = where


class _Source:
    """The facts JSON a lazily read module's records are made from: as read, until its peeks are
    taken (see `_Pending`); from then on only its entry as stored, compressed (a fifth of the
    plain JSON, a fraction of it parsed), parsed again the first time a record needs what the
    peeks do not tell. `reread`: a function giving that JSON again (the cache's, over the bytes it
    read and checked: the same JSON, so not checked again); None: kept as read, never let go."""

    __slots__ = ("j", "reread", "where")

    def __init__(self, j: list[Any], reread: Callable[[], list[Any]] | None, where: str) -> None:
        self.j, self.reread, self.where = j, reread, where

    def facts(self) -> list[Any]:
        j = self.j
        if j is None:
            try:
                j = self.j = self.reread()  # type: ignore[misc]
            except Exception as e:  # noqa: BLE001 - bytes read and checked once: not what was written
                raise CorruptEntry(self.where) from e
        return j

    def let_go(self) -> None:
        if self.reread is not None:
            self.j = None


class _Pending:
    """What the stand-ins of one lazily read module are made from: its entry's records and rows
    (`_Source`, checked as `facts_from_json` says when read), and its expressions (`_Table`). Holds
    no stand-in, and nothing it holds refers back to it: no reference cycle. (Its records' reader
    once held its own bound method: every lazily read module was a cycle, freed only by the
    collector, which then traversed the JSON of every one of them at the end of the run, 0.26-0.34 s
    at 1,500 files.)

    Peeks: what `Program` and the dialects read of nearly every module (each effect's callee and
    the attribute it calls, each assignment's alias, assigned callee and operator, each function's
    return expressions and the parameters it changes) is taken once when the module is read (`peek`), and
    the parsed JSON then let go: kept to the end of the run, it held more memory than the decoded
    facts it stands for (887 vs 534 MB at 5,000 files)."""

    __slots__ = ("source", "_parts", "where", "shared", "expr", "peeks", "attrs", "aliases", "assigned", "ops", "returns", "mutates")

    def __init__(self, j: list[Any], shared: SharedValues, where: str, reread: Callable[[], list[Any]] | None = None) -> None:
        self.source = _Source(j, reread, where)
        self.expr = _Table(self.source, shared, where).expr
        self._parts: _Parts | None = None
        self.shared, self.where = shared, where
        self.peeks: dict[Any, Any] = {}  # what the accessors below found, for the next program of the run
        # Taken by `peek` (None: not taken, the rows tell):
        self.attrs: dict[int, Any] | None = None  # effect place -> its attribute callee, of effects whose callee is not a name
        self.aliases: list[Any] | None = None  # assignment place -> `alias_of`
        self.assigned: list[Any] | None = None  # assignment place -> `_assigned_peek`
        self.ops: list[str] | None = None  # assignment place -> its `op`
        self.returns: list[Any] | None = None  # function place -> its `returns_exprs`
        self.mutates: dict[int, list[str]] | None = None  # function place -> its `mutates`, when not empty

    @property
    def parts(self) -> _Parts:
        parts = self._parts
        if parts is None:  # not made yet, or let go with the JSON (`peek`)
            j = self.source.facts()
            parts = self._parts = _Parts(self.expr, self.shared.line, j[10], j[11], j[5], j[6], j[7], j[8], j[9], j[19], j[12], j[13], j[18])
        return parts

    @property
    def _rows(self) -> list[Any]:
        return self.source.facts()[20]

    def peek(self, callees: list[Any]) -> None:
        """Take the peeks (`callees`: each effect's, taken by the caller) and let the JSON go."""
        j = self.source.facts()
        rows, values, ops, functions = j[20], j[6], j[9], j[10]
        self.attrs = {n: _peeked_attr(rows, i) for n, (i, callee) in enumerate(zip(j[12], callees)) if callee is _NEITHER}
        # What `_alias_peeked(_peeked(...))` and `_assigned_row` say of each value, their commonest
        # answers spelt inline (a name's row; a row that is no call): a Python call per assignment
        # was most of the time a lazy read took (114,000 assignments at 1,500 files).
        vrows = list(map(rows.__getitem__, values))
        self.aliases = [
            None if op != "=" or r is None or r.__class__ in _SCALARS or (r.__class__ is list and r and r[0].__class__ is int and r[0] in _NOT_NAMES)
            else r[1] if r.__class__ is list and len(r) == 2 and r[0].__class__ is int and r[0] == _REF and r[1].__class__ is str
            else _alias_peeked(_peeked(rows, v))
            for r, v, op in zip(vrows, values, ops)
        ]
        assigned: list[Any] = [
            None if r.__class__ is not list or (r and r[0].__class__ is int and r[0] in _NOT_CALLS) else _UNKNOWN for r in vrows
        ]
        unknown = [n for n, found in enumerate(assigned) if found is _UNKNOWN]  # calls, mostly: their callees
        for n, found in zip(unknown, _callees_of(rows, [values[n] for n in unknown], self.expr)):
            assigned[n] = None if found is _NEITHER else found
        self.assigned = assigned
        self.ops = ops
        expr = self.expr
        self.returns = [list(map(expr, f[9])) or _EMPTY for f in functions]
        self.mutates = {n: f[17] for n, f in enumerate(functions) if f[17]}
        self._parts = None
        self.source.let_go()


class _Table:
    """The expressions of one lazily read module: decoded so far, each row once, only those read
    and the rows they refer to."""

    __slots__ = ("where", "shared", "source", "_table", "_reads", "complete")

    def __init__(self, source: _Source, shared: SharedValues, where: str) -> None:
        self.shared, self.where = shared, where
        self.source = source  # its rows: `source.facts()[20]`
        self._table: dict[int, Expr] = {}
        self._reads = 0
        self.complete = False  # every row decoded (see `expr`)

    def expr(self, i: int) -> Expr:
        """The expression of row `i` (an index checked when the entry was read: in the table)."""
        found = self._table.get(i)
        if found is not None:
            return found
        rows, table = self.source.facts()[20], self._table
        row = rows[i]
        if row.__class__ is list and len(row) == 2 and row[0] == _REF and tuple(map(type, row)) == _REF_ROW:  # most reads: a name
            found = table[i] = _NewRef(row[1])  # type: ignore[assignment]
            return found  # type: ignore[return-value]
        self._reads += 1
        if self._reads > _BULK:  # a module read much: the rest of its table at once, as an eager read does
            need = [n for n in range(len(rows)) if n not in table]
            try:
                ints: list[Any] = []
                _decode_exprs(rows, self.shared, ints, table, need)  # a row refers only to rows before it (`get` raises)
                if not _INTS(map(type, ints)):
                    raise _Mistyped("an index that is not an int")
            except Exception as e:  # noqa: BLE001 - whatever it is, the entry is not what was written
                for n in need:
                    table.pop(n, None)
                raise CorruptEntry(self.where) from e
            self.complete = True
            return table[i]
        try:
            # The rows `i` refers to, to any depth, not decoded yet: each only to rows before it
            # (else the entry is malformed: no cycle can be followed).
            todo, need = [i], {i}
            while todo:
                n = todo.pop()
                for c in _children(rows[n]):
                    if c.__class__ is not int or not 0 <= c < n:
                        raise _Mistyped("a row referring to one not before it")
                    if c not in need and c not in table:
                        need.add(c)
                        todo.append(c)
            ints: list[Any] = []
            _decode_exprs(rows, self.shared, ints, table, sorted(need))
            if not _INTS(map(type, ints)):
                raise _Mistyped("an index that is not an int")
            return table[i]
        except Exception as e:  # noqa: BLE001 - whatever it is, the entry is not what was written
            for n in need:  # nothing half-checked stays
                table.pop(n, None)
            raise CorruptEntry(self.where) from e


# Past this many expressions read one by one (names aside) in a module, the rest of its table is
# decoded at once: a module most of whose definitions a head's dialects read (awslabs/mcp: most
# modules' screens select something and are computed again) costs then what an eager read costs.
_BULK = 16


def _children(row: Any) -> list[Any]:
    """The rows a row refers to (by the table's layout; its other values are checked when decoded)."""
    if row.__class__ is not list:
        return []
    t = row[0]
    if t.__class__ is not int:
        raise _Mistyped("an expression tag that is not an int")
    if t == _CALL:
        return [row[1], *row[2], *row[3][1::2]]
    if t == _SEQ or t == _MAP:
        return row[1:]
    if t == _DYS or t == _DYN:
        return row[3:]
    if t == _ATTR or t == _SPLAT:
        return [row[1]]
    if t == _CAT:
        return [row[1], row[2]]
    return []


def _stand_in(cls: type, keep: tuple[str, ...], build: str, given: tuple[str, ...] | None = None) -> tuple[type, Callable[..., list[Any]]]:
    """The stand-in class of record class `cls` and the function making them: the fields `keep`
    are read as set when it is made, the others made on first read by `_Parts.<build>`. Until then,
    the first two of those hold the module's `_Pending` and the record's place in its module.
    `given`: the slots set when it is made (default: `keep`)."""
    slots = cls.__slots__  # type: ignore[attr-defined]
    members = [(name, cls.__dict__[name]) for name in slots]
    lazy = [name for name in slots if name not in keep]
    held, at = cls.__dict__[lazy[0]], cls.__dict__[lazy[1]]

    def whole(self: Any) -> None:
        if self.__class__ is cls:
            return
        try:
            real = getattr(held.__get__(self).parts, build)(at.__get__(self))
        except CorruptEntry:
            raise
        except Exception as e:  # noqa: BLE001 - a record the checked values cannot build
            raise CorruptEntry(held.__get__(self).where) from e
        self.__class__ = cls
        for _name, member in members:
            member.__set__(self, member.__get__(real))

    def field_of(name: str) -> property:
        member = cls.__dict__[name]

        def read(self: Any) -> Any:
            whole(self)
            return member.__get__(self)

        return property(read)

    return _lazy_class(cls, {name: field_of(name) for name in lazy}, whole, held, at, given if given is not None else keep)


def _lazy_class(cls: type, fields: dict[str, property], whole: Callable[[Any], None], held: Any, at: Any, given: tuple[str, ...]) -> tuple[type, Callable[..., list[Any]]]:
    """A stand-in class of `cls` reading `fields` through these properties, and its maker."""

    def __eq__(self: Any, other: object) -> bool:
        whole(self)
        if isinstance(other, cls) and other.__class__ is not cls:
            other._whole()  # type: ignore[attr-defined]
        return self == other

    body: dict[str, Any] = dict(fields)
    body.update(__slots__=(), __eq__=__eq__, __hash__=None, _whole=whole, __module__=cls.__module__, __qualname__=f"{cls.__qualname__}.Lazy")
    klass = type(f"Lazy{cls.__name__}", (cls,), body)
    kept = [cls.__dict__[name].__set__ for name in given]
    put_held, put_at = held.__set__, at.__set__

    def make(pending: _Pending, n: int, *values: list[Any]) -> list[Any]:
        """Stand-ins for the `n` records of one module, given each kept field's values: C code makes
        them and sets their slots, one pass per slot (a Python call per record was most of the time
        a lazy read took, 170,000 records at 1,500 files)."""
        made = list(map(object.__new__, itertools.repeat(klass, n)))
        _drain(map(put_held, made, itertools.repeat(pending)))
        _drain(map(put_at, made, itertools.count()))
        for put, got in zip(kept, values):
            _drain(map(put, made, got))
        return made

    return klass, make


_drain = collections.deque(maxlen=0).extend  # runs an iterator to its end, keeping nothing


class _Opened:
    """A lazily read function's state once one of its fields is read, until all are: its
    `_Pending`, its place in its module, the fields read, and the values of those whose slots hold
    this state until then (`name`, `line`, `guarded`)."""

    __slots__ = ("pending", "at", "done", "held")

    def __init__(self, pending: _Pending, at: int) -> None:
        self.pending, self.at, self.done, self.held = pending, at, set(), {}


# How each field of a function is read from its record `f` (see facts_to_json), as `_Parts.function`
# (FunctionFact and its __post_init__) makes it: keep both in step.
_FUNCTION_FIELDS: dict[str, Callable[[_Parts, list[Any]], Any]] = {
    "name": lambda parts, f: _shared(f[1]),
    "line": lambda parts, f: parts.line(f[2]),
    "params": lambda parts, f: [ParamFact(_shared(p[0]), p[1], p[2], p[3], None if p[4] is None else parts.get(p[4]), p[5], _shared(p[6]), tuple(p[7])) for p in f[3]] or _EMPTY,
    "returns": lambda parts, f: _shared_or_none(f[4]),
    "doc": lambda parts, f: f[5],
    "decorators": lambda parts, f: list(map(parts.get, f[6])) or _EMPTY,
    "calls": lambda parts, f: list(map(parts.get, f[7])) or _EMPTY,
    "raises": lambda parts, f: list(map(parts.get, f[8])) or _EMPTY,
    "returns_exprs": lambda parts, f: list(map(parts.get, f[9])) or _EMPTY,
    "conditional": lambda parts, f: f[10],
    "is_async": lambda parts, f: f[11],
    "owner_class": lambda parts, f: _shared_or_none(f[12]),
    "indirect": lambda parts, f: [(i[0], i[1]) for i in f[13]] or _EMPTY,
    "body": lambda parts, f: f[14],
    "guarded": lambda parts, f: [(g[0], tuple(map(parts.get, g[1]))) for g in f[15]] or _EMPTY,
    "in_block": lambda parts, f: f[16],
    "mutates": lambda parts, f: f[17] or _EMPTY,
}
_HELD = ("name", "line", "guarded")  # the slots a lazily read function's state is kept in
_PEEKED_FIELDS = frozenset({"returns_exprs", "mutates"})  # a function's fields taken by `_Pending.peek`


def _peeked_field(pending: _Pending, name: str, at: int) -> Any:
    return pending.returns[at] if name == "returns_exprs" else pending.mutates.get(at, _EMPTY)  # type: ignore[index, union-attr]


def _function_stand_in() -> tuple[type, Callable[..., list[Any]]]:
    """A function read lazily is read field by field: a dialect's screen reads one or two fields of
    every function (`returns_exprs`, `decorators`), whose expressions are a few percent of the
    module's (its `calls` are most of them). Until its first read, its `name` slot holds the
    module's `_Pending` and its `line` slot its place; from then on, its `guarded` slot an
    `_Opened`; once every field is read, it becomes a FunctionFact."""
    cls = FunctionFact
    lazy = [name for name in cls.__slots__ if name != "symbol"]  # type: ignore[attr-defined]
    assert set(lazy) == set(_FUNCTION_FIELDS)
    members = {name: cls.__dict__[name] for name in cls.__slots__}  # type: ignore[attr-defined]
    state, held, at_ = members["guarded"], members["name"], members["line"]

    def read_field(self: Any, name: str) -> Any:
        st = state.__get__(self)
        if st is None:  # not read before
            if name in _PEEKED_FIELDS and held.__get__(self).returns is not None:  # taken when the module was read
                return _peeked_field(held.__get__(self), name, at_.__get__(self))
            st = _Opened(held.__get__(self), at_.__get__(self))
            state.__set__(self, st)
        if name in st.done:
            return st.held[name] if name in _HELD else members[name].__get__(self)
        try:
            if name in _PEEKED_FIELDS and st.pending.returns is not None:
                value = _peeked_field(st.pending, name, st.at)
            else:
                parts = st.pending.parts
                value = _FUNCTION_FIELDS[name](parts, parts.functions[st.at])
        except CorruptEntry:
            raise
        except Exception as e:  # noqa: BLE001 - a record the checked values cannot build
            raise CorruptEntry(st.pending.where) from e
        st.done.add(name)
        if name in _HELD:
            st.held[name] = value
        else:
            members[name].__set__(self, value)
        if len(st.done) == len(lazy):  # every field read: a FunctionFact from now on
            self.__class__ = cls
            for n in _HELD:
                members[n].__set__(self, st.held[n])
        return value

    def field_of(name: str) -> property:
        return property(lambda self: read_field(self, name))

    def whole(self: Any) -> None:
        for name in lazy:
            if self.__class__ is cls:
                return
            read_field(self, name)

    return _lazy_class(cls, {name: field_of(name) for name in lazy}, whole, held, at_, ("symbol", "guarded"))


_LazyFunction, _lazy_functions = _function_stand_in()
_LazyClass, _lazy_classes = _stand_in(ClassFact, ("symbol",), "cls")
_LazyAssign, _lazy_assigns = _stand_in(AssignFact, ("target",), "assign")
_LazyEffect, _lazy_effects = _stand_in(EffectFact, (), "effect", ("guarded",))
_LAZY = frozenset({_LazyFunction, _LazyClass, _LazyAssign, _LazyEffect})
# Where a stand-in assignment or effect keeps its `_Pending` and its place (see `_stand_in`).
_ASSIGN_HELD, _ASSIGN_AT = AssignFact.__dict__["value"], AssignFact.__dict__["line"]
_EFFECT_HELD, _EFFECT_AT = EffectFact.__dict__["call"], EffectFact.__dict__["conditional"]
_EFFECT_PEEKED = EffectFact.__dict__["guarded"]  # its callee, taken when read (see `indexed_callee`)
_UNKNOWN = object()  # a peek that could not tell: the record is read
_NEITHER = object()  # an effect's callee that is neither a name nor a subscript


def indexed_callee(effect: EffectFact) -> Expr | None:
    """What `Program` indexes an effect by: its callee (`effect.call.func`) when that is a name
    (`Ref`) or a subscript (`Dyn`), else None; without reading a lazily read effect whose callee
    the entry's rows told when it was read."""
    if effect.__class__ is _LazyEffect:
        found = _EFFECT_PEEKED.__get__(effect)  # taken when the module was read (`_lazy_facts`)
        return None if found is _NEITHER else found
    func = effect.call.func
    return func if func.__class__ is Ref or func.__class__ is Dyn else None


def attribute_callee(effect: EffectFact) -> str | None:
    """The attribute named when `effect`'s callee is an attribute of an expression (`Policy().allow`),
    else None; without reading a lazily read effect whose rows tell it (else it is read)."""
    if effect.__class__ is _LazyEffect:
        pending: _Pending = _EFFECT_HELD.__get__(effect)
        at = _EFFECT_AT.__get__(effect)
        if pending.attrs is None:
            found = _peeked_attr(pending._rows, pending.parts.effect_calls[at])
        else:  # peeked: of an effect whose callee is a name or a subscript, none
            found = pending.attrs.get(at)
        if found is not _UNKNOWN:
            return found
    func = effect.call.func
    return func.attr if func.__class__ is Attr else None  # type: ignore[union-attr]


def _peeked_attr(rows: list[Any], i: int) -> Any:
    """`attribute_callee` of call row `i` as the rows tell it: `_UNKNOWN` when they do not."""
    row = rows[i]
    if row.__class__ is list and len(row) == 6 and row[0].__class__ is int and row[0] == _CALL and row[1].__class__ is int and 0 <= row[1] < i:
        f = rows[row[1]]
        if f.__class__ is not list or not f or f[0].__class__ is not int or (f[0] != _ATTR and f[0] in _NOT_NAMES):
            return None  # a constant, or another kind of expression than an attribute
        if f[0] == _ATTR and len(f) == 3 and f[2].__class__ is str:
            return f[2]
    return _UNKNOWN


def alias_of(a: AssignFact) -> str | None:
    """The name `a` binds its target to when it is `target = name`, else None; without reading a
    lazily read assignment (the entry's rows told when it was read)."""
    if a.__class__ is _LazyAssign:
        pending: _Pending = _ASSIGN_HELD.__get__(a)
        i = _ASSIGN_AT.__get__(a)
        if pending.aliases is not None:
            found = pending.aliases[i]
        else:
            parts = pending.parts
            if parts.ops[i] != "=":
                return None
            found = _alias_peeked(_peeked(pending._rows, parts.values[i]))
        if found is not _UNKNOWN:
            return found
    return a.value.name if a.op == "=" and a.value.__class__ is Ref else None  # type: ignore[union-attr]


def op_of(a: AssignFact) -> str:
    """`a.op`, without reading a lazily read assignment (its entry's column, checked when read)."""
    if a.__class__ is _LazyAssign:
        pending: _Pending = _ASSIGN_HELD.__get__(a)
        return (pending.parts.ops if pending.ops is None else pending.ops)[_ASSIGN_AT.__get__(a)]
    return a.op


def mutates_of(f: FunctionFact) -> list[str]:
    """`f.mutates`, without reading a lazily read function (its record says it, checked when read)."""
    place = _unread(f, "mutates")
    if place is None:
        return f.mutates
    pending, at = place
    return pending.parts.functions[at][17] if pending.mutates is None else pending.mutates.get(at, _EMPTY)


def calls_named(f: FunctionFact, leaves: set[str] | frozenset[str]) -> list[Call]:
    """The calls of `f` (in order) whose callee is a name (`Ref`) ending with one of `leaves`;
    of a lazily read function, only those are decoded (its calls are most of a module's expressions)."""
    place = _unread(f, "calls")
    if place is None:
        return [c for c in f.calls if c.func.__class__ is Ref and c.func.name.rpartition(".")[2] in leaves]  # type: ignore[union-attr]
    pending, at = place
    named = pending.peeks.get(("calls", at))
    if named is None:  # (row, last name of its callee) of each call whose callee is a name, once
        named = pending.peeks[("calls", at)] = []
        rows = pending._rows
        for i in pending.parts.functions[at][7]:
            func = _peeked_callee(rows, i)
            if func is _NEITHER:
                continue
            if func is _UNKNOWN:  # read it
                func = pending.expr(i).func  # type: ignore[union-attr]
                if func.__class__ is not Ref:
                    continue
            named.append((i, func.name.rpartition(".")[2]))  # type: ignore[union-attr]
    return [pending.expr(i) for i, leaf in named if leaf in leaves]  # type: ignore[misc]


def assigned_call_name(a: AssignFact) -> Ref | None:
    """The callee of the value `a` assigns when that is a call of a name (`x = make(...)`), else
    None; without reading a lazily read assignment whose value the rows tell."""
    if a.__class__ is _LazyAssign:
        pending: _Pending = _ASSIGN_HELD.__get__(a)
        at = _ASSIGN_AT.__get__(a)
        if pending.assigned is not None:
            found = pending.assigned[at]
        else:
            found = pending.peeks.get(("assigned", at), _UNKNOWN)
            if found is _UNKNOWN:
                found = pending.peeks[("assigned", at)] = _assigned_row(pending._rows, pending.parts.values[at])
        if found is not _UNKNOWN:
            return found
    value = a.value
    return value.func if value.__class__ is Call and value.func.__class__ is Ref else None  # type: ignore[union-attr, return-value]


def _assigned_row(rows: list[Any], i: int) -> Any:
    """`assigned_call_name` of an assignment of row `i` as the rows tell it: `_UNKNOWN` when they do not."""
    row = rows[i]
    is_call = row.__class__ is list and row and row[0].__class__ is int and row[0] == _CALL
    if not is_call and (row.__class__ is not list or (row and row[0].__class__ is int and row[0] in _NOT_CALLS)):
        return None  # a constant or another kind of expression: not a call
    found = _peeked_callee(rows, i) if is_call else _UNKNOWN
    return None if found is _NEITHER else found


def _unread(f: FunctionFact, name: str) -> tuple[_Pending, int] | None:
    """(its `_Pending`, its place) when `f` is a lazily read function whose field `name` is not read."""
    if f.__class__ is not _LazyFunction:
        return None
    st = FunctionFact.__dict__["guarded"].__get__(f)
    if st is None:
        return FunctionFact.__dict__["name"].__get__(f), FunctionFact.__dict__["line"].__get__(f)
    return None if name in st.done else (st.pending, st.at)


_REF_ROW = (int, str)


def _peeked(rows: list[Any], i: Any) -> Any:
    """What row `i` is, as far as the entry's rows tell without decoding: `Ref(name)` for a plain
    name, `_NEITHER` for an expression that is neither a name nor `Dyn`, `_UNKNOWN` when they do
    not tell (a `Dyn`, or a malformed row: read whole, it raises). Nothing else of the entry is
    trusted here; a row read here is what decoding it gives."""
    row = rows[i]
    if row.__class__ is not list:
        return _NEITHER if row is None or row.__class__ in (str, int, float, bool) else _UNKNOWN
    if len(row) == 2 and tuple(map(type, row)) == _REF_ROW and row[0] == _REF:
        return _NewRef(row[1])
    t = row[0] if row else None
    if t.__class__ is int and t in _NOT_NAMES:
        return _NEITHER
    return _UNKNOWN


_NOT_NAMES = frozenset({_CALL, _SEQ, _MAP, _ATTR, _SPLAT, _CAT, _FLOAT})
_SCALARS = frozenset({str, int, float, bool})  # a row that is a constant (None aside)
_NOT_CALLS = _NOT_NAMES - {_CALL} | {_REF, _DYN, _DYS}


def _alias_peeked(found: Any) -> Any:
    return found.name if found.__class__ is Ref else None if found is _NEITHER else _UNKNOWN


def _callees_of(rows: list[Any], calls: list[Any], expr: Callable[[int], Expr]) -> list[Any]:
    """`_peeked_callee` of each of rows `calls`, a name's row spelt inline: one loop, not a Python
    call per row (70,000 effects and 28,000 assigned calls at 1,500 files). A name is the module's
    one `Ref` of it (`expr`: its table's, as decoding the call would give it)."""
    out: list[Any] = []
    append = out.append
    names: dict[int, Any] = {}
    for i in calls:
        row = rows[i]
        if row.__class__ is list and len(row) == 6 and row[0].__class__ is int and row[0] == _CALL:
            f = row[1]
            if f.__class__ is int and 0 <= f < i:
                fr = rows[f]
                if fr.__class__ is list and len(fr) == 2 and fr[0].__class__ is int and fr[0] == _REF and fr[1].__class__ is str:
                    ref = names.get(f)
                    if ref is None:
                        ref = names[f] = expr(f)
                    append(ref)
                else:
                    append(_peeked(rows, f))
                continue
        append(_UNKNOWN)
    return out


def _peeked_callee(rows: list[Any], i: Any) -> Any:
    """The callee of row `i`, when it is a call, as `_peeked` tells it."""
    row = rows[i]
    if row.__class__ is not list or len(row) != 6 or row[0].__class__ is not int or row[0] != _CALL:
        return _UNKNOWN
    f = row[1]
    if f.__class__ is not int or not 0 <= f < i:
        return _UNKNOWN
    return _peeked(rows, f)


_NONES = itertools.repeat(None)  # a slot's value for every stand-in (`make` reads as many as it makes)


def _lazy_facts(j: list[Any], shared: SharedValues, where: str, reread: Callable[[], list[Any]] | None) -> ModuleFacts:
    (path, module, is_package, imports, star_imports, targets, _values, _lines, _conditionals, _ops,
     functions, classes, _effect_calls, _effect_conditionals, entries, type_aliases, dynamic_code, error, _effect_guards, _guards, _rows) = j
    pending, callees = _peeked_pending(j, shared, where, reread)
    return _lazy_module(
        pending, path, module, is_package, imports, star_imports, targets, [f[0] for f in functions], [c[0] for c in classes], callees,
        entries, {k: TypeAliasFact(a[0], tuple(a[1]), a[2]) for k, a in type_aliases.items()}, dynamic_code, error,
    )


def _peeked_pending(j: list[Any], shared: SharedValues, where: str, reread: Callable[[], list[Any]] | None) -> tuple[_Pending, list[Any]]:
    """The `_Pending` of facts `j` (checked), its peeks taken when `reread` can give `j` again, and
    each effect's callee (`indexed_callee`, `_NEITHER` when neither a name nor a subscript)."""
    targets, ops, effect_calls, rows = j[5], j[9], j[12], j[20]
    if not _STRS(map(type, targets)) or not _STRS(map(type, ops)):
        raise _Mistyped("an assignment target or operator that is not text")
    pending = _Pending(j, shared, where, reread)
    # What `Program` indexes each effect by (`indexed_callee`); a callee the rows do not tell (a
    # subscript: `handlers["x"](...)`) decoded now, with its call, not read again later.
    callees = _callees_of(rows, effect_calls, pending.expr)
    try:
        for n, callee in enumerate(callees):
            if callee is _UNKNOWN:
                func = pending.expr(effect_calls[n]).func  # type: ignore[union-attr]
                callees[n] = func if func.__class__ is Ref or func.__class__ is Dyn else _NEITHER
        if reread is not None:
            pending.peek(callees)
    except (CorruptEntry, AttributeError) as e:  # a malformed row among those peeked: the entry is not read at all
        raise _Mistyped("a malformed expression") from e
    return pending, callees


def _lazy_module(
    pending: _Pending, path: str, module: str, is_package: bool, imports: dict[str, str], star_imports: list[str], targets: list[str],
    function_symbols: list[str], class_symbols: list[str], callees: list[Any], entries: str, type_aliases: dict[str, TypeAliasFact],
    dynamic_code: list[Any], error: dict[str, Any] | None,
) -> ModuleFacts:
    """The facts of a lazily read module: stand-ins for its records, made from `pending`."""
    return ModuleFacts(
        path=path,
        module=module,
        is_package=is_package,
        imports={k: _shared(v) for k, v in imports.items()},
        star_imports=star_imports,
        assigns=_lazy_assigns(pending, len(targets), list(map(_shared, targets))),
        functions=_lazy_functions(pending, len(function_symbols), list(map(_shared, function_symbols)), _NONES),
        classes=_lazy_classes(pending, len(class_symbols), list(map(_shared, class_symbols))),
        effects=_lazy_effects(pending, len(callees), callees),
        entries=json.loads(entries) if entries else [],
        type_aliases=type_aliases,
        dynamic_code=[(d[0], d[1], d[2]) for d in dynamic_code],
        error=error,
    )


# --- a module as a linked tree's index holds it (moduleindex.py) --------------------------------
#
# What a lazily read module is made of, apart from its entry: its names, the peeks (each effect's
# callee and the attribute it calls, each assignment's alias and assigned callee, each function's
# return expressions and the parameters it changes) and the rows of the expressions those peeks
# are, at their places in the entry's table. Made from the entry's JSON by the very code a lazy
# read takes its peeks with; read back, it makes the same stand-ins, whose `_Table` already holds
# those rows' expressions, decoded from the record: the entry is read only if a record needs more
# (its `reread`, which checks it as any entry read from the cache directory is checked).
# What the rows alone could not tell a lazy read (`_UNKNOWN`: a subscript's alias, say) is decoded
# when the record is made, so that no peek reads the entry. Places: a row's index in the entry's
# table; -1 in `callees` is `_NEITHER`.

_INDEX_SHAPES = _shapes(
    str, str, bool, dict, list,  # path, module, is_package, imports, star imports
    list, list, list, list,  # assignment targets and operators, function symbols, class symbols
    list, list, list, list, list, list,  # callees, attrs, aliases, assigned, returns, mutates
    str, dict, list, (_NONE, dict),  # entries (JSON text), type aliases, dynamic code, error
    list,  # the rows of the peeked expressions: [index, row], ascending
)
_PLACED_SHAPES = _shapes(int, _OSTR)  # [effect, attribute] of `attrs`
_MUTATES_SHAPES = _shapes(int, list)  # [function, its changed parameters]
_ROW_PLACES = _shapes(int, (list, str, int, float, bool, _NONE))  # [index, row] of the rows
_ALIASES = frozenset({str, _NONE}).issuperset
_OINTS = frozenset({int, _NONE}).issuperset
_CALLEES = frozenset({Ref, Dyn, object}).issuperset  # a name, a subscript, or `_NEITHER`
_ASSIGNED = frozenset({Ref, _NONE}).issuperset


def checked_facts_json(j: Any) -> list[Any]:
    """`j` when it is facts JSON of the layout `facts_to_json` writes, checked as a lazy read checks
    an entry read from the cache directory (its rows aside: each is checked when decoded)."""
    if j.__class__ is not list or tuple(map(type, j)) not in _FACTS_SHAPES:
        raise _Mistyped("not the facts of a module")
    _check(j)
    if not _STRS(map(type, j[5])) or not _STRS(map(type, j[9])):
        raise _Mistyped("an assignment target or operator that is not text")
    return j


def index_record(j: list[Any]) -> list[Any]:
    """The index record of facts `j` (made by `facts_to_json`, or checked): see above."""
    pending, callees = _peeked_pending(j, SharedValues(), "", lambda: j)
    assert pending.returns is not None and pending.aliases is not None and pending.assigned is not None and pending.attrs is not None and pending.mutates is not None
    expr, values, ops, effect_calls = pending.expr, j[6], j[9], j[12]
    # What the accessors read of the record when the rows do not tell, decoded now.
    aliases = [
        a if a is not _UNKNOWN else v.name if ops[n] == "=" and (v := expr(values[n])).__class__ is Ref else None  # type: ignore[union-attr]
        for n, a in enumerate(pending.aliases)
    ]
    assigned = [
        a if a is not _UNKNOWN else v.func if (v := expr(values[n])).__class__ is Call and v.func.__class__ is Ref else None  # type: ignore[union-attr]
        for n, a in enumerate(pending.assigned)
    ]
    attrs = {
        n: a if a is not _UNKNOWN else f.attr if (f := expr(effect_calls[n]).func).__class__ is Attr else None  # type: ignore[union-attr]
        for n, a in pending.attrs.items()
    }
    table = expr.__self__._table  # type: ignore[attr-defined]
    at = {id(x): i for i, x in table.items()}
    rows = j[20]
    return [
        j[0], j[1], j[2], j[3], j[4], j[5], ops, [f[0] for f in j[10]], [c[0] for c in j[11]],
        [-1 if c is _NEITHER else at[id(c)] for c in callees],
        [[n, a] for n, a in attrs.items()],
        aliases,
        [None if a is None else at[id(a)] for a in assigned],
        [[at[id(x)] for x in r] for r in pending.returns],
        [[n, list(m)] for n, m in pending.mutates.items()],
        j[14], j[15], j[16], j[17],
        [[i, rows[i]] for i in sorted(table)],
    ]


def facts_from_index(rec: Any, shared: SharedValues, where: str, reread: Callable[[], list[Any]]) -> ModuleFacts:
    """The facts an index record (`index_record`) stands for, read lazily: as `facts_from_json(lazy=True)`
    reads the entry it was made from, without reading it (`reread` gives the entry's facts JSON,
    checked, when a record needs more than the record tells). Raises on anything that is not such
    a record, a value of another type than `index_record` writes included."""
    if rec.__class__ is not list or tuple(map(type, rec)) not in _INDEX_SHAPES:
        raise _Mistyped("not the index record of a module")
    (path, module, is_package, imports, star_imports, targets, ops, function_symbols, class_symbols, callees, attrs, aliases, assigned,
     returns, mutates, entries, type_aliases, dynamic_code, error, rows) = rec
    if len(aliases) != len(targets) or len(assigned) != len(targets) or len(ops) != len(targets) or len(returns) != len(function_symbols):
        raise ValueError("columns of different lengths")
    _records(rows, _ROW_PLACES), _error(error)
    if attrs or mutates or dynamic_code:  # seldom
        _records(attrs, _PLACED_SHAPES), _records(mutates, _MUTATES_SHAPES), _records(dynamic_code, _DYNAMIC_SHAPES)
        if not all(0 <= a[0] < len(callees) for a in attrs) or not all(0 <= m[0] < len(function_symbols) for m in mutates):
            raise _Mistyped("a place out of its module")
    # One pass in C per kind of value (114,000 assignments and 71,000 effects at 1,500 files). The
    # targets, symbols and imported origins are interned as they are made (`sys.intern` takes text only).
    if not _STRS(map(type, _chain((star_imports, ops, imports, *map(_AT1, mutates))))):
        raise _Mistyped("a name that is not text")
    if not _LISTS(map(type, returns)) or not _INTS(map(type, _chain((callees, *returns)))) or not _OINTS(map(type, assigned)) or not _ALIASES(map(type, aliases)):
        raise _Mistyped("a place that is not an int")
    for a in type_aliases.values():
        if a.__class__ is not list or tuple(map(type, a)) != _ALIAS_SHAPE or not _STRS(map(type, a[1])):
            raise _Mistyped("a type alias of another shape")
    places = list(map(_AT0, rows))
    if places != sorted(set(places)) or (places and places[0] < 0):
        raise _Mistyped("rows out of order")
    ints: list[Any] = []
    # Every row refers only to rows before it, all among these (`get` raises on any other).
    table = _decode_exprs(dict(rows), shared, ints, {}, places)
    if not _INTS(map(type, ints)):
        raise _Mistyped("an index that is not an int")
    get = table.__getitem__
    named = list(map({**table, -1: _NEITHER}.__getitem__, callees))
    peeked_assigned = list(map({**table, None: None}.__getitem__, assigned))
    if not _CALLEES(map(type, named)) or not _ASSIGNED(map(type, peeked_assigned)):
        raise _Mistyped("a callee that is neither a name nor a subscript")
    pending = _Pending(None, shared, where, reread)  # type: ignore[arg-type]
    pending.expr.__self__._table = table  # type: ignore[attr-defined]  # the peeked rows, decoded: the entry's others when read
    pending.attrs = {n: a for n, a in attrs}
    pending.aliases = aliases
    pending.assigned = peeked_assigned
    pending.ops = ops
    pending.returns = [list(map(get, r)) or _EMPTY for r in returns]
    pending.mutates = {n: m for n, m in mutates}
    return _lazy_module(
        pending, path, module, is_package, imports, star_imports, targets, function_symbols, class_symbols, named,
        entries, {k: TypeAliasFact(a[0], tuple(a[1]), a[2]) for k, a in type_aliases.items()}, dynamic_code, error,
    )

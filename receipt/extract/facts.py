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

import json
import math
import operator
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
    the container's items (a prompt chosen from a dict is digested by the texts it may be). Empty for
    anything else.
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


def shorten(text: str) -> str:
    """Source text as facts keep it: whitespace collapsed, at most SRC_LIMIT characters."""
    text = " ".join(text.split())
    return text if len(text) <= SRC_LIMIT else text[: SRC_LIMIT - 3] + "..."


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


@dataclass(slots=True)
class AssignFact:
    target: str  # qualified symbol; attribute targets keep their path: pkg.mod.agent.handoffs
    value: Expr
    line: int
    conditional: bool = False
    op: str = "="  # "=" or "+="

    def __post_init__(self) -> None:
        self.target = _shared(self.target)
        self.op = _shared(self.op)


@dataclass(slots=True)
class EffectFact:
    """A call made as a statement: `tools.append(x)`, `mcp.add_tool(f)`, `app.mount(sub, ...)`."""

    call: Call
    conditional: bool = False


@dataclass(slots=True)
class ModuleFacts:
    path: str
    module: str  # dotted module name derived from the path
    is_package: bool = False
    imports: dict[str, str] = field(default_factory=dict)  # qualified local symbol -> origin dotted name
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


def _decode_exprs(rows: list[Any], shared: SharedValues) -> dict[int, Expr]:
    """The table of a module's expressions by index, built in order. A dict, not a list: a list
    reads a negative index from its end, where a row may only refer to rows before it."""
    table: dict[int, Expr] = {}
    get = table.__getitem__
    strs, ints, fixed = shared.strs, shared.ints, shared.fixed
    keep_line = shared.lines.setdefault
    n = 0
    for row in rows:
        cls = row.__class__
        if cls is list:
            t = row[0]
            if t == _CALL:
                kw = row[3]
                line = row[4]
                if line.__class__ is int:
                    line = keep_line(line, line)
                x: Expr = _NewCall(get(row[1]), tuple(map(get, row[2])), tuple(zip(map(_shared, kw[::2]), map(get, kw[1::2]), strict=True)) if kw else (), line, row[5])
            elif t == _REF:
                x = _NewRef(row[1])
            elif t == _MAP:
                x = _NewMap(tuple(zip(map(get, row[1::2]), map(get, row[2::2]), strict=True)))
            elif t == _DYS:
                x = _NewDyn(None, _shared(row[1]), _shared(row[2]), tuple(map(get, row[3:])))
            elif t == _SEQ:
                x = _NewSeq(tuple(map(get, row[1:])))
            elif t == _DYN:
                x = _NewDyn(_shared(row[1]), None, _shared(row[2]), tuple(map(get, row[3:])))
            elif t == _ATTR:
                x = Attr(get(row[1]), _shared(row[2]))
            elif t == _SPLAT:
                x = Splat(get(row[1]))
            elif t == _CAT:
                x = Concat(get(row[1]), get(row[2]))
            elif t == _FLOAT:
                x = Const(float(row[1]))
            else:
                raise ValueError(f"unknown expression tag {t!r}")
        elif cls is str:
            x = strs.get(row)  # type: ignore[assignment]
            if x is None:
                x = strs[row] = Const(row)
        elif cls is int:
            x = ints.get(row)  # type: ignore[assignment]
            if x is None:
                x = ints[row] = Const(row)
        elif row is None or cls is bool:
            x = fixed[row]
        elif cls is float:
            x = Const(row)
        else:
            raise ValueError("not an expression row")
        table[n] = x
        n += 1
    return table


def facts_to_json(m: ModuleFacts) -> list[Any]:
    """The facts of a module as JSON data (see above); `facts_from_json` reads them back."""
    enc = _Encoder()
    ex, exs = enc.expr, enc.exprs
    assigns = m.assigns
    functions = [
        [
            f.symbol, f.name, f.line,
            [[p.name, p.annotation, p.annotation_ref, p.default, ex(p.default_expr), p.required, p.kind, p.refs] for p in f.params],
            f.returns, f.doc, exs(f.decorators), exs(f.calls), exs(f.raises), exs(f.returns_exprs),
            f.conditional, f.is_async, f.owner_class, f.indirect, f.body,
        ]
        for f in m.functions
    ]
    classes = [
        [
            c.symbol, c.name, c.line, exs(c.bases), exs(c.decorators),
            {k: ex(v) for k, v in c.attrs.items()}, c.attr_lines, c.methods, c.doc, c.conditional,
            [[f.name, f.annotation, f.refs, ex(f.value), exs(f.meta), f.qualifiers, f.line] for f in c.fields],
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
        {k: [a.annotation, a.refs, a.line] for k, a in m.type_aliases.items()},
        m.dynamic_code, m.error,
        enc.rows,  # last: written after everything above has been numbered
    ]


def facts_from_json(j: list[Any], shared: SharedValues | None = None) -> ModuleFacts:
    """The facts `j` encodes; `shared`: leaf expressions already decoded in this run, to reuse.
    Raises (ValueError, IndexError, TypeError, ...) on anything that is not such an encoding."""
    (path, module, is_package, imports, star_imports, targets, values, lines, conditionals, ops,
     functions, classes, effect_calls, effect_conditionals, entries, type_aliases, dynamic_code, error, rows) = j
    shared = shared or SharedValues()
    table = _decode_exprs(rows, shared)
    line = shared.line
    get = table.__getitem__
    if len(targets) != len(values) or len(effect_calls) != len(effect_conditionals):
        raise ValueError("columns of different lengths")
    return ModuleFacts(
        path=path,
        module=module,
        is_package=is_package,
        imports={k: _shared(v) for k, v in imports.items()},  # origins recur across modules
        star_imports=star_imports,
        assigns=list(map(AssignFact, targets, map(get, values), map(line, lines), conditionals, ops)),
        functions=[
            FunctionFact(
                f[0], f[1], line(f[2]),
                [ParamFact(_shared(p[0]), p[1], p[2], p[3], None if p[4] is None else get(p[4]), p[5], _shared(p[6]), tuple(p[7])) for p in f[3]],
                f[4], f[5], list(map(get, f[6])), list(map(get, f[7])), list(map(get, f[8])), list(map(get, f[9])),
                f[10], f[11], f[12], [(i[0], i[1]) for i in f[13]], f[14],
            )
            for f in functions
        ],
        classes=[
            ClassFact(
                c[0], c[1], line(c[2]), list(map(get, c[3])), list(map(get, c[4])),
                {k: get(v) for k, v in c[5].items()}, c[6],
                [_shared(m) for m in c[7]],  # the symbols of its FunctionFacts
                c[8], c[9],
                [FieldFact(_shared(f[0]), f[1], tuple(f[2]), None if f[3] is None else get(f[3]), tuple(map(get, f[4])), tuple(f[5]), f[6]) for f in c[10]],
                {k: get(v) for k, v in c[11].items()},
            )
            for c in classes
        ],
        effects=list(map(EffectFact, map(get, effect_calls), effect_conditionals)),
        entries=json.loads(entries) if entries else [],
        type_aliases={k: TypeAliasFact(a[0], tuple(a[1]), a[2]) for k, a in type_aliases.items()},
        dynamic_code=[(d[0], d[1], d[2]) for d in dynamic_code],
        error=error,
    )


# -- what an entry's facts are made of (facts_to_json's layout), checked before they are decoded --
# The binding proves where an entry claims to come from, not that its values have the types the
# extractor writes: a corrupted or hostile entry with a line that is text or a flag that is not a
# bool would decode and crash a later stage. Any mismatch is a miss: the file is extracted again.
# Types are exact (a bool is not an int here). Indices into the expression table are ints; that
# they point before their row is the decoder's check.


_call = getattr(operator, "call", lambda f, x: f(x))  # Python 3.10 has no operator.call


def _is(t: type) -> Callable[[Any], bool]:
    return lambda x: x.__class__ is t


def _opt(f: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda x: x is None or f(x)


def _list(f: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda x: x.__class__ is list and all(map(f, x))


def _list_of(*types: type) -> Callable[[Any], bool]:
    """A list of scalars of these exact types (checked in C: one set of the item types)."""
    allowed = frozenset(types)
    return lambda x: x.__class__ is list and set(map(type, x)) <= allowed


def _dict_of(*types: type) -> Callable[[Any], bool]:
    allowed = frozenset(types)
    return lambda x: x.__class__ is dict and set(map(type, x)) <= _STR_TYPE and set(map(type, x.values())) <= allowed


def _dict(f: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda x: x.__class__ is dict and set(map(type, x)) <= _STR_TYPE and all(map(f, x.values()))


def _record(*fields: Callable[[Any], bool]) -> Callable[[Any], bool]:
    n = len(fields)
    return lambda x: x.__class__ is list and len(x) == n and all(map(_call, fields, x))


_STR_TYPE, _INT_TYPE = frozenset({str}), frozenset({int})
_STR, _INT, _BOOL = _is(str), _is(int), _is(bool)
_OSTR, _INDEX, _OINDEX = _opt(_STR), _INT, _opt(_INT)
_STRS, _INDICES = _list_of(str), _list_of(int)
_PARAM = _record(_STR, _OSTR, _OSTR, _OSTR, _OINDEX, _BOOL, _STR, _STRS)
_FUNCTION = _record(
    _STR, _STR, _INT, _list(_PARAM), _OSTR, _OSTR, _INDICES, _INDICES, _INDICES, _INDICES,
    _BOOL, _BOOL, _OSTR, _list(_record(_INT, _STR)), _OSTR,
)
_FIELD = _record(_STR, _OSTR, _STRS, _OINDEX, _INDICES, _STRS, _INT)
_CLASS = _record(_STR, _STR, _INT, _INDICES, _INDICES, _dict_of(int), _dict_of(int), _STRS, _OSTR, _BOOL, _list(_FIELD), _dict_of(int))
_ERROR = _opt(lambda e: e.__class__ is dict and _OINDEX(e.get("line")) and _STR(e.get("reason")) and _STR(e.get("message"))
              and _opt(_STRS)(e.get("frameworks")))
_FACTS = _record(
    _STR, _STR, _BOOL, _dict_of(str), _STRS,  # path, module, is_package, imports, star imports
    _STRS, _INDICES, _INDICES, _list_of(bool), _STRS,  # assignments by column: target, value, line, conditional, op
    _list(_FUNCTION), _list(_CLASS), _INDICES, _list_of(bool),  # functions, classes, effects' calls and conditions
    _STR, _dict(_record(_STR, _STRS, _INT)), _list(_record(_INT, _STR, _STR)), _ERROR,  # entries (JSON text), aliases, dynamic code, error
    lambda rows: rows.__class__ is list,  # the table of expressions: `well_typed` reads each row
)
_SCALAR_ROWS = frozenset({str, int, float, bool, type(None)})


def well_typed(j: Any) -> bool:
    """True when `j` has the shape and scalar types facts_to_json writes. Rows of the expression
    table that are lists start with their tag (`_CALL` ... `_FLOAT`); the common ones
    are checked inline (a warm run reads every row of every file it decodes)."""
    if not _FACTS(j):
        return False
    ints = _INT_TYPE
    for r in j[-1]:
        cls = r.__class__
        if cls is not list:
            if cls not in _SCALAR_ROWS:
                return False
            continue
        n = len(r)
        tag = r[0] if n else None
        if tag.__class__ is not int:
            return False
        if tag == _CALL:  # call: func, args, kwargs (name, value, ...), line, star
            if n != 6 or r[1].__class__ is not int or r[2].__class__ is not list or not set(map(type, r[2])) <= ints:
                return False
            kw = r[3]
            if kw.__class__ is not list or not set(map(type, kw[::2])) <= _STR_TYPE or not set(map(type, kw[1::2])) <= ints:
                return False
            if r[4].__class__ is not int or r[5].__class__ is not bool:
                return False
        elif tag == _REF or tag == _FLOAT:  # ref: name; float: its text
            if n != 2 or r[1].__class__ is not str:
                return False
        elif tag == _DYN or tag == _DYS:  # dyn: source or span, why, parts
            if n < 3 or r[1].__class__ is not str or r[2].__class__ is not str or not set(map(type, r[3:])) <= ints:
                return False
        elif tag == _ATTR:  # attr: value, name
            if n != 3 or r[1].__class__ is not int or r[2].__class__ is not str:
                return False
        elif tag in (_SEQ, _MAP, _SPLAT, _CAT):  # seq, map, splat, concat: expressions only
            if not set(map(type, r[1:])) <= ints or (tag == _SPLAT and n != 2) or (tag == _CAT and n != 3):
                return False
        else:
            return False
    return True

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

import sys
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Iterator, Union

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
# A `Call` is often in two places: its function's `calls` and the expression it occurs in (an
# assignment's value, an effect, a return, the argument of another call). Extraction makes one
# object for both; the entry keeps that sharing, so that decoding makes one object too (decoded
# facts held every such call twice: a third of a 5,000-file run's peak). Every `Call` of a module
# is written once, in the table "calls", after the calls inside it (post-order), and an expression
# that is a call is written as its index in that table (a bare int: no other expression is one).
# Sharing follows object identity, never equality: equal calls extracted separately stay separate
# (equality would hash a `Dyn`, which renders its source text).

_EXPR_TYPES = {"c": Const, "r": Ref, "seq": Seq, "map": Map, "attr": Attr, "splat": Splat, "cat": Concat, "dyn": Dyn}
_EXPR_TAGS = {v: k for k, v in _EXPR_TYPES.items()}


class _Encoder:
    """Expressions of one module to JSON, each `Call` object once in `self.calls`."""

    def __init__(self) -> None:
        self.calls: list[list[Any]] = []
        self._index: dict[int, int] = {}  # id(call) -> its index; the facts keep the calls alive

    def expr(self, e: Expr | None) -> Any:
        if e is None:
            return None
        cls = e.__class__
        if cls is Call:
            i = self._index.get(id(e))
            if i is None:
                ex = self.expr
                row = [ex(e.func), [ex(a) for a in e.args], [[k, ex(v)] for k, v in e.kwargs], e.line, e.star]  # type: ignore[union-attr]
                i = self._index[id(e)] = len(self.calls)
                self.calls.append(row)
            return i
        t = _EXPR_TAGS[cls]
        if t == "c":
            return [t, e.value]  # type: ignore[union-attr]
        if t == "r":
            return [t, e.name]  # type: ignore[union-attr]
        ex = self.expr
        if t == "seq":
            return [t, [ex(a) for a in e.items]]  # type: ignore[union-attr]
        if t == "map":
            return [t, [[ex(k), ex(v)] for k, v in e.items]]  # type: ignore[union-attr]
        if t == "attr":
            return [t, ex(e.value), e.attr]  # type: ignore[union-attr]
        if t == "splat":
            return [t, ex(e.value)]  # type: ignore[union-attr]
        if t == "cat":
            return [t, ex(e.left), ex(e.right)]  # type: ignore[union-attr]
        tail = [[ex(p) for p in e.parts]] if e.parts else []  # type: ignore[union-attr]
        if e._span is not None:  # type: ignore[union-attr] # the source span, rendered when read
            return ["dys", e._span, e.why, *tail]  # type: ignore[union-attr]
        return [t, e.src, e.why, *tail]  # type: ignore[union-attr]


class SharedValues:
    """Constants shared between the modules decoded in one run: one `Const` per string or integer
    (a program writes `None`, `0` or `"id"` in thousands of places; each occurrence was its own
    object, 100k per 1,000 files). Immutable values, so sharing is safe. Per class: `True == 1`,
    but they are different constants; floats are not shared (`0.0 == -0.0`)."""

    def __init__(self) -> None:
        self.strs: dict[str, Const] = {}
        self.ints: dict[int, Const] = {}
        self.fixed = {None: Const(None), True: Const(True), False: Const(False)}


class _Decoder:
    """JSON of one module to expressions: the table of calls first, each call built once. A `Ref`
    is made once per name in the module (a few thousand names recur in a module's hundreds of
    references; a table for the whole run would cost about what it saves)."""

    def __init__(self, calls: list[Any], shared: SharedValues | None = None) -> None:
        self.shared = shared or SharedValues()
        self.refs: dict[str, Ref] = {}
        self.calls: list[Call] = []
        ex = self.expr
        for row in calls:  # each row refers only to rows before it
            self.calls.append(Call(ex(row[0]), tuple(ex(a) for a in row[1]), tuple((_shared(k), ex(v)) for k, v in row[2]), row[3], row[4]))

    def expr(self, j: Any) -> Any:
        if j is None:
            return None
        if j.__class__ is int:
            if j < 0:
                raise ValueError("negative call index")
            return self.calls[j]
        t = j[0]
        if t == "r":
            ref = self.refs.get(j[1])
            if ref is None:
                ref = self.refs[j[1]] = Ref(j[1])
            return ref
        if t == "c":
            value = j[1]
            cls = value.__class__
            if cls is str:
                pool: dict[Any, Const] = self.shared.strs
            elif cls is int:
                pool = self.shared.ints
            elif value is None or cls is bool:
                return self.shared.fixed[value]
            else:
                return Const(value)
            const = pool.get(value)
            if const is None:
                const = pool[value] = Const(value)
            return const
        ex = self.expr
        if t == "seq":
            return Seq(tuple(ex(a) for a in j[1]))
        if t == "map":
            return Map(tuple((ex(k), ex(v)) for k, v in j[1]))
        if t == "attr":
            return Attr(ex(j[1]), _shared(j[2]))
        if t == "splat":
            return Splat(ex(j[1]))
        if t == "cat":
            return Concat(ex(j[1]), ex(j[2]))
        if t == "dyn":
            return Dyn(_shared(j[1]), _shared(j[2]), tuple(ex(p) for p in j[3]) if len(j) > 3 else ())
        if t == "dys":
            return Dyn.of_source(j[1], _shared(j[2]), tuple(ex(p) for p in j[3]) if len(j) > 3 else ())
        raise ValueError(f"unknown expression tag {t!r}")


def _param_to_json(p: ParamFact, ex: Any) -> list[Any]:
    return [p.name, p.annotation, p.annotation_ref, p.default, ex(p.default_expr), p.required, p.kind, list(p.refs)]


def _param_from_json(j: list[Any], ex: Any) -> ParamFact:
    return ParamFact(_shared(j[0]), j[1], j[2], j[3], ex(j[4]), j[5], _shared(j[6]), tuple(j[7]))


def _field_to_json(f: FieldFact, ex: Any) -> list[Any]:
    return [f.name, f.annotation, list(f.refs), ex(f.value), [ex(m) for m in f.meta], list(f.qualifiers), f.line]


def _field_from_json(j: list[Any], ex: Any) -> FieldFact:
    return FieldFact(_shared(j[0]), j[1], tuple(j[2]), ex(j[3]), tuple(ex(m) for m in j[4]), tuple(j[5]), j[6])


def _fn_to_json(f: FunctionFact, ex: Any) -> dict[str, Any]:
    return {
        "symbol": f.symbol,
        "name": f.name,
        "line": f.line,
        "params": [_param_to_json(p, ex) for p in f.params],
        "returns": f.returns,
        "doc": f.doc,
        "decorators": [ex(d) for d in f.decorators],
        "calls": [ex(c) for c in f.calls],
        "raises": [ex(r) for r in f.raises],
        "returns_exprs": [ex(r) for r in f.returns_exprs],
        "conditional": f.conditional,
        "is_async": f.is_async,
        "owner_class": f.owner_class,
        "indirect": [list(i) for i in f.indirect],
        "body": f.body,
    }


def _fn_from_json(j: dict[str, Any], ex: Any) -> FunctionFact:
    return FunctionFact(
        symbol=j["symbol"],
        name=j["name"],
        line=j["line"],
        params=[_param_from_json(p, ex) for p in j["params"]],
        returns=j["returns"],
        doc=j["doc"],
        decorators=[ex(d) for d in j["decorators"]],
        calls=[ex(c) for c in j["calls"]],
        raises=[ex(r) for r in j["raises"]],
        returns_exprs=[ex(r) for r in j["returns_exprs"]],
        conditional=j["conditional"],
        is_async=j["is_async"],
        owner_class=j["owner_class"],
        indirect=[(i[0], i[1]) for i in j.get("indirect", [])],
        body=j.get("body"),
    )


def facts_to_json(m: ModuleFacts) -> dict[str, Any]:
    enc = _Encoder()
    ex = enc.expr
    out = {
        "path": m.path,
        "module": m.module,
        "is_package": m.is_package,
        "imports": m.imports,
        "star_imports": m.star_imports,
        "assigns": [[a.target, ex(a.value), a.line, a.conditional, a.op] for a in m.assigns],
        "functions": [_fn_to_json(f, ex) for f in m.functions],
        "classes": [
            {
                "symbol": c.symbol,
                "name": c.name,
                "line": c.line,
                "bases": [ex(b) for b in c.bases],
                "decorators": [ex(d) for d in c.decorators],
                "attrs": {k: ex(v) for k, v in c.attrs.items()},
                "attr_lines": c.attr_lines,
                "methods": c.methods,
                "doc": c.doc,
                "conditional": c.conditional,
                "fields": [_field_to_json(f, ex) for f in c.fields],
                "keywords": {k: ex(v) for k, v in c.keywords.items()},
            }
            for c in m.classes
        ],
        "effects": [[ex(e.call), e.conditional] for e in m.effects],
        "entries": m.entries,
        "type_aliases": {k: [a.annotation, list(a.refs), a.line] for k, a in m.type_aliases.items()},
        "dynamic_code": [list(d) for d in m.dynamic_code],
        "error": m.error,
    }
    out["calls"] = enc.calls
    return out


def facts_from_json(j: dict[str, Any], shared: SharedValues | None = None) -> ModuleFacts:
    """The facts `j` encodes; `shared`: leaf expressions already decoded in this run, to reuse."""
    ex = _Decoder(j["calls"], shared).expr
    return ModuleFacts(
        path=j["path"],
        module=j["module"],
        is_package=j["is_package"],
        imports={k: _shared(v) for k, v in j["imports"].items()},  # origins recur across modules
        star_imports=j["star_imports"],
        assigns=[AssignFact(a[0], ex(a[1]), a[2], a[3], a[4]) for a in j["assigns"]],
        functions=[_fn_from_json(f, ex) for f in j["functions"]],
        classes=[
            ClassFact(
                symbol=c["symbol"],
                name=c["name"],
                line=c["line"],
                bases=[ex(b) for b in c["bases"]],
                decorators=[ex(d) for d in c["decorators"]],
                attrs={k: ex(v) for k, v in c["attrs"].items()},
                attr_lines=c["attr_lines"],
                methods=[_shared(m) for m in c["methods"]],  # the symbols of its FunctionFacts
                doc=c["doc"],
                conditional=c["conditional"],
                fields=[_field_from_json(f, ex) for f in c["fields"]],
                keywords={k: ex(v) for k, v in c["keywords"].items()},
            )
            for c in j["classes"]
        ],
        effects=[EffectFact(ex(e[0]), e[1]) for e in j["effects"]],
        entries=j["entries"],
        type_aliases={k: TypeAliasFact(a[0], tuple(a[1]), a[2]) for k, a in j["type_aliases"].items()},
        dynamic_code=[(d[0], d[1], d[2]) for d in j.get("dynamic_code", [])],
        error=j["error"],
    )

"""Schemas defined elsewhere: the types a signature names, resolved over the linked program.

A tool parameter typed by a TypedDict, a pydantic model, a dataclass, an Enum or a type alias
defined anywhere in the analysed tree (through imports and re-exports) gets that type's schema in
its signature (`Signature.schemas`, by the name the type text uses), nested types included up to a
depth cap, so that adding a field or narrowing a `Field(le=...)` range is a signature change while
moving the class to another module is none. What cannot be read is said: `create_model(...)` and
other schemas built at run time are `dynamic`; classes outside the tree stay name-only.

Also the low-level MCP `inputSchema=Args.model_json_schema()` (`Args.schema()`,
`TypeAdapter(Args).json_schema()`), which becomes the same signature as a parameter typed `Args`.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from receipt.extract.facts import PYDANTIC_FIELD, Attr, Call, Dyn, Expr, FieldFact, Ref, TypeAliasFact, is_ellipsis

if TYPE_CHECKING:
    from receipt.extract.program import Program


# extract.program is imported on first use, not with this module: the diff reads schemas
# (schema_differences), and a rerun served by the surface cache diffs without ever building a program.
def describe(expr: Expr) -> str:
    from receipt.extract.program import describe as program_describe

    return program_describe(expr)


def short_name(symbol: str) -> str:
    from receipt.extract.program import short_name as program_short_name

    return program_short_name(symbol)
from receipt.models import Dynamic, Entry, Param, Schema, SchemaField, Signature

_MODEL_BASES = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel"})
_TYPEDDICT_BASES = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})
_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "pydantic.dataclasses.dataclass"})
_FIELD_FUNCTIONS = PYDANTIC_FIELD | {"dataclasses.field"}
# Types built by a call at run time: their fields are not read (`dynamic`, never guessed).
_BUILT_AT_RUN_TIME = frozenset(
    {"pydantic.create_model", "pydantic.main.create_model", "typing.TypedDict", "typing_extensions.TypedDict",
     "enum.Enum", "enum.IntEnum", "enum.StrEnum", "dataclasses.make_dataclass"}
)
# Keyword arguments of Field()/field() that change nothing a caller sends or sees.
_NOT_SCHEMA = frozenset({"repr", "compare", "hash", "kw_only", "init_var", "exclude", "frozen"})
_RANGE = ("ge", "gt", "le", "lt")
# Keywords of a field that only say something to the reader (JSON Schema's annotations: nothing
# validates against them): a change of them alone is a change of wording, not of what is accepted.
WORDS = frozenset({"description", "title", "examples"})
_JSON_SCHEMA_METHODS = ("model_json_schema", "schema")
# Containers whose parametrised spelling (`list[Step]`) builds the same empty value as the bare class
# (`list`) when called as a default factory: type checkers ask for the former, the value is the same.
_CONTAINER_FACTORIES = frozenset(
    {"list", "dict", "set", "frozenset", "tuple", "deque", "defaultdict", "OrderedDict", "Counter"}
)
_MAX_DEPTH = 8  # nesting of schemas inside schemas
_MAX_SCHEMAS = 64  # per signature
_LONG_TEXT = 120  # longer literal texts (descriptions) are kept as a digest


class SchemaResolver:
    """Schemas of symbols of one program, each computed once."""

    def __init__(self, program: Program):
        self.p = program
        self._aliases: dict[str, TypeAliasFact] | None = None
        self._memo: dict[str, tuple[Schema, tuple[str, ...]] | None] = {}

    # -- per symbol ---------------------------------------------------------------------------------

    def kind(self, symbol: str) -> str | None:
        cls = self.p.classes.get(symbol)
        if cls is None:
            return None
        if any(_decorator_origin(self.p, d) in _DATACLASS_DECORATORS for d in cls.decorators):
            return "dataclass"
        bases = self.p.class_bases(cls)
        for kind, markers in (("model", _MODEL_BASES), ("typeddict", _TYPEDDICT_BASES), ("enum", _ENUM_BASES)):
            if bases & markers:
                return kind
        return None

    def schema(self, symbol: str) -> tuple[Schema, tuple[str, ...]] | None:
        """The schema a canonical symbol denotes with the references it makes, or None (not a schema)."""
        if symbol not in self._memo:
            self._memo[symbol] = None  # a class naming itself (`children: list["Node"]`) ends here
            self._memo[symbol] = self._schema(symbol, 0)
        return self._memo[symbol]

    def _schema(self, symbol: str, depth: int) -> tuple[Schema, tuple[str, ...]] | None:
        kind = self.kind(symbol)
        if kind == "enum":
            return Schema(kind="enum", members=self._members(symbol)), ()
        if kind is not None:
            fields, refs = self._fields(symbol, kind, depth)
            return Schema(kind=kind, fields=list(fields.values())), refs  # type: ignore[arg-type]
        alias = self.aliases().get(symbol)
        if alias is not None:
            return Schema(kind="alias", type=alias.annotation), alias.refs
        value = self.p.lookup(symbol)
        expr = getattr(value, "value", None)
        if isinstance(expr, Call) and self.p.origin(expr.func) in _BUILT_AT_RUN_TIME:
            return Schema(kind="dynamic", unknown=describe(expr)), ()
        return None

    def aliases(self) -> dict[str, TypeAliasFact]:
        if self._aliases is None:
            self._aliases = {s: a for m in self.p.modules.values() for s, a in m.type_aliases.items()}
        return self._aliases

    def _members(self, symbol: str) -> list[str]:
        cls = self.p.classes[symbol]
        out = []
        for name, expr in cls.attrs.items():
            if name.startswith("_") or name in cls.methods:
                continue
            if isinstance(expr, Call) and self.p.origin(expr.func) == "enum.auto":
                out.append(f"{name} = auto()")
            else:
                out.append(f"{name} = {self.text(expr)}")
        return sorted(out)

    def _fields(self, symbol: str, kind: str, depth: int) -> tuple[dict[str, SchemaField], tuple[str, ...]]:
        """Fields of a schema class, its schema base classes' first (a subclass overrides by name)."""
        cls = self.p.classes[symbol]
        fields: dict[str, SchemaField] = {}
        refs: list[str] = []
        if depth < _MAX_DEPTH:
            for base in cls.bases:
                origin = self.p.origin(base)
                if origin in self.p.classes and self.kind(origin) is not None:
                    inherited, inherited_refs = self._fields(origin, kind, depth + 1)
                    fields.update(inherited)
                    refs.extend(inherited_refs)
        total = self.p.evaluate(cls.keywords.get("total")) is not False
        for f in cls.fields:
            field = self._field(f, kind, total)
            if field is None:
                fields.pop(f.name, None)
                continue
            fields[f.name] = field
            refs.extend(f.refs)
        return fields, tuple(dict.fromkeys(refs))

    def _field(self, f: FieldFact, kind: str, total: bool) -> SchemaField | None:
        if {"ClassVar", "InitVar"} & set(f.qualifiers) or (kind == "model" and (f.name.startswith("_") or f.name == "model_config")):
            return None
        constraints: dict[str, str] = {}
        annotated_default: str | None = None
        for meta in f.meta:
            if isinstance(meta, Call) and self.p.origin(meta.func) in _FIELD_FUNCTIONS:
                kwargs = dict(meta.kwargs)
                if kind == "model":  # pydantic reads a default from `Annotated[T, Field(default=...)]` too
                    annotated_default = self._default(meta.args[0] if meta.args else kwargs.pop("default", None), kwargs.pop("default_factory", None)) or annotated_default
                constraints.update(self._keywords(tuple(kwargs.items())))
            else:
                constraints["annotated"] = ", ".join(filter(None, [constraints.get("annotated"), describe(meta)]))
        if kind == "typeddict":
            required = "Required" in f.qualifiers or (total and "NotRequired" not in f.qualifiers)
            return SchemaField(name=f.name, type=f.annotation, required=required, constraints=dict(sorted(constraints.items())))
        default: str | None = None
        value = f.value
        if isinstance(value, Call) and self.p.origin(value.func) in _FIELD_FUNCTIONS:
            kwargs = dict(value.kwargs)
            if self.p.evaluate(kwargs.get("init")) is False:
                return None  # not a constructor argument
            default = self._default(value.args[0] if value.args else kwargs.pop("default", None), kwargs.pop("default_factory", None))
            kwargs.pop("init", None)
            constraints.update(self._keywords(tuple(kwargs.items())))
        elif value is not None and not is_ellipsis(value):
            default = self.text(value)
        default = default if default is not None else annotated_default
        return SchemaField(name=f.name, type=f.annotation, required=default is None, default=default,
                           constraints=dict(sorted(constraints.items())))

    def _default(self, given: Expr | None, factory: Expr | None) -> str | None:
        """The default a `Field(...)`/`field(...)` gives (its first argument or `default=`, else
        `default_factory=`); None when it gives none (`...` is none: the field is required)."""
        if given is not None and not is_ellipsis(given):
            return self.text(given)
        if factory is not None:
            return f"factory: {_factory(factory)}"
        return None

    def _keywords(self, kwargs: Iterable[tuple[str, Expr]]) -> dict[str, str]:
        return {k: self.text(v) for k, v in kwargs if k not in _NOT_SCHEMA}

    def text(self, expr: Expr) -> str:
        """A value as canonical Python text: literals by value (`1_0` is `10`), the rest as written."""
        value = self.p.evaluate(expr)
        if isinstance(value, Dynamic) or _has_dynamic(value):
            return describe(expr)
        text = repr(value) if not isinstance(value, (list, dict)) else json.dumps(value, sort_keys=True, ensure_ascii=False)
        if len(text) > _LONG_TEXT:
            return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        return text

    # -- per signature ----------------------------------------------------------------------------

    def schemas_of(self, refs: Iterable[str]) -> dict[str, Schema]:
        """Schemas of the types `refs` name and of the types those name, by the name the type text uses."""
        out: dict[str, Schema] = {}
        names: dict[str, str] = {}  # name used -> canonical symbol
        queue = [(r, 0) for r in refs]
        seen: set[str] = set()
        while queue and len(out) < _MAX_SCHEMAS:
            ref, depth = queue.pop(0)
            symbol = self.p.canonical(ref)
            if symbol in seen or depth > _MAX_DEPTH:
                continue
            seen.add(symbol)
            found = self.schema(symbol)
            if found is None:
                continue
            schema, nested = found
            name = ref.rsplit(".", 1)[-1]  # what the annotation text says (annotations.py renders last parts)
            if names.get(name, symbol) != symbol:
                name = short_name(symbol)
            names[name] = symbol
            out[name] = schema
            queue.extend((r, depth + 1) for r in nested)
        return dict(sorted(out.items()))


def attach_schemas(program: Program, entries: Iterable[Entry]) -> None:
    """Fill `signature.schemas` of every entry whose params name schema types of the tree."""
    resolver = SchemaResolver(program)
    for e in entries:
        sig = e.signature
        if sig is None:
            continue
        refs = [r for p in sig.params for r in p.refs]
        if refs:  # joins what a dialect already put there (an `args_schema` model)
            sig.schemas = dict(sorted({**sig.schemas, **resolver.schemas_of(refs)}.items()))


def input_schema_signature(program: Program, expr: Expr) -> Signature | None:
    """`inputSchema=Args.model_json_schema()` (or `Args.schema()`, `TypeAdapter(Args).json_schema()`,
    through module constants) as the signature of a function taking `Args`'s fields; None when the
    expression is none of those or `Args` is not a schema class of the tree."""
    target = _schema_class_of(program, expr)
    return model_signature(program, target, json_types=True) if target is not None else None


def with_args_schema(program: Program, signature: Signature | None, expr: Expr | None) -> Signature | None:
    """`args_schema=Args` (LangChain, CrewAI): what the model sees and fills in is `Args`, and both
    frameworks call the function with the fields it validated. So the params are `Args`'s fields
    (a `limit=None` added to `_run` beside a schema without it, or a field taken by `**kwargs`
    before and by name after, changes nothing the model sees), and `Args`'s schema joins the
    signature (its constraints and descriptions compared). A required function param the schema
    lacks stays a param: the call breaks without it, and that is said. With no schema resolved in
    the tree, the params stay the function's."""
    if not isinstance(expr, Ref):
        return signature
    if signature is None:
        return model_signature(program, expr.name)
    resolver = SchemaResolver(program)
    found = resolver.schemas_of([expr.name])
    if found:
        signature.schemas = dict(sorted({**signature.schemas, **found}.items()))
        fields = _field_params(resolver, program, expr.name)
        if fields is not None:
            named = {f.name for f in fields}
            signature.params = [*fields, *(q for q in signature.params if q.required and q.name not in named)]
    return signature


def unpacked_single_object(program: Program, signature: Signature | None) -> Signature | None:
    """PydanticAI's schema of a tool whose one parameter is a model, dataclass or TypedDict: that
    object's fields are the tool's parameters (the SDK unpacks it)."""
    if signature is None or len(signature.params) != 1 or not signature.params[0].refs:
        return signature
    ref = signature.params[0].refs[0]
    if signature.params[0].type != ref.rsplit(".", 1)[-1]:
        return signature  # `list[Args]`, `Args | None`: not unpacked
    unpacked = model_signature(program, ref)
    if unpacked is None:
        return signature
    return unpacked.model_copy(update={"returns": signature.returns})


def _field_params(resolver: SchemaResolver, program: Program, ref: str) -> list[Param] | None:
    """The fields of the model, TypedDict or dataclass `ref` names, as the parameters a caller fills in; None for anything else."""
    found = resolver.schema(program.canonical(ref))
    if found is None or found[0].kind not in ("model", "typeddict", "dataclass"):
        return None
    return [Param(name=f.name, type=f.type, required=f.required, default=f.default) for f in found[0].fields]


def model_signature(program: Program, ref: str, *, json_types: bool = False) -> Signature | None:
    """The signature of a tool whose arguments are the fields of the schema class `ref`. With
    `json_types`, param types are said as a literal JSON `inputSchema` says them (`str` -> `string`),
    so writing the schema out by hand or deriving it from the model is the same signature."""
    resolver = SchemaResolver(program)
    params = _field_params(resolver, program, ref)
    if params is None:
        return None
    schemas = resolver.schemas_of([ref])
    if json_types:  # a literal schema's `"default": None` reads as no default (receipt.dialects.mcp)
        params = [p.model_copy(update={"type": json_type(p.type, schemas), "default": None if p.default == "None" else p.default})
                  for p in params]
    return Signature(params=params, schemas=schemas)


_JSON_SCALARS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "None": "null",
                 "list": "array", "tuple": "array", "set": "array", "frozenset": "array", "dict": "object"}


def json_type(text: str | None, schemas: Mapping[str, Schema]) -> str | None:
    """The `type` a property of `model_json_schema()` has for a field annotated `text` (what
    `receipt.dialects.mcp` reads from a literal schema); None where pydantic writes `anyOf`."""
    if text is None:
        return None
    head = text.split("[", 1)[0]
    if head in _JSON_SCALARS:
        return _JSON_SCALARS[head]
    if " | " in text:
        return None
    schema = schemas.get(text)
    if schema is not None and schema.kind == "alias":
        return json_type(schema.type, schemas)
    if head == "Literal":
        values = _literal_values(text) or []
        kinds = {_JSON_SCALARS.get(type(_literal_value(v)).__name__) for v in values}
        return kinds.pop() if len(kinds) == 1 else None
    return text  # a model, TypedDict, dataclass or enum: pydantic refers to it by name ($ref)


def _literal_value(text: str) -> Any:
    import ast

    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None


def _schema_class_of(program: Program, expr: Expr, depth: int = 0) -> str | None:
    if depth > _MAX_DEPTH:
        return None
    expr = program.value_of(expr) or expr
    if not isinstance(expr, Call) or expr.args or expr.kwargs and not _only_json_options(expr):
        return None
    func = expr.func
    if isinstance(func, Ref):
        owner, _, method = func.name.rpartition(".")
        if method in _JSON_SCHEMA_METHODS:
            return owner
        if method == "json_schema":  # `adapter.json_schema()` where `adapter = TypeAdapter(Args)`
            return _adapted(program, program.value_of(Ref(owner)))
    if isinstance(func, Attr) and func.attr == "json_schema":
        return _adapted(program, func.value)
    return None


def _adapted(program: Program, expr: Expr | None) -> str | None:
    if isinstance(expr, Call) and program.origin(expr.func) in ("pydantic.TypeAdapter", "pydantic.type_adapter.TypeAdapter"):
        arg = expr.args[0] if expr.args else None
        return arg.name if isinstance(arg, Ref) else None
    return None


def _only_json_options(call: Call) -> bool:
    """`model_json_schema(by_alias=True)`-like options that keep the schema's fields as declared."""
    return all(k in ("by_alias", "ref_template", "mode") for k, _ in call.kwargs)


def _leaf(expr: Expr) -> str:
    """A callable by its last name: moving `make_tags` to another module changes no default."""
    return expr.name.rsplit(".", 1)[-1] if isinstance(expr, Ref) else describe(expr)


def _factory(expr: Expr) -> str:
    """A default factory by what it builds: `list[Step]` builds what `list` builds (an empty list)."""
    if isinstance(expr, Dyn) and expr.why == "subscript":
        base = expr.src.partition("[")[0].strip().rsplit(".", 1)[-1]
        if base in _CONTAINER_FACTORIES:
            return base
    return _leaf(expr)


def _decorator_origin(program: Program, decorator: Expr) -> str | None:
    return program.origin(decorator.func if isinstance(decorator, Call) else decorator)


def _has_dynamic(value: Any) -> bool:
    if isinstance(value, Dynamic):
        return True
    if isinstance(value, list):
        return any(_has_dynamic(v) for v in value)
    if isinstance(value, dict):
        return any(_has_dynamic(v) for v in value.values())
    return False


# --- differences, in words ------------------------------------------------------------------------


def schema_differences(
    before: dict[str, Schema], after: dict[str, Schema], wording: list[str] | None = None, echoes: frozenset[str] = frozenset(),
) -> list[str]:
    """Phrases for what changed in the schemas both signatures name; [] when equivalent.

    A schema named on one side only comes with a param type change, which says it already.
    `wording`: where a field's description changes go instead (a change of words the model reads,
    not of what the tool accepts: the receipt reports it as a description change); without it, last.
    `echoes`: schemas whose fields are the parameters themselves (a low-level MCP tool's input
    model), whose fields added, removed or retyped the parameters' phrases say already: only
    what the parameters do not carry (constraints, descriptions) is said of them."""
    out: list[str] = []
    words: list[str] = [] if wording is None else wording
    for name in sorted(set(before) & set(after)):
        a, b = before[name], after[name]
        if a == b:
            continue
        if a.kind == "dynamic" or b.kind == "dynamic":
            if a.kind != "dynamic":
                out.append(f"{name} is no longer statically known ({b.unknown})")
            elif b.kind != "dynamic":
                out.append(f"{name} is now statically known")
            else:
                out.append(f"{name} is built differently at run time ({a.unknown} -> {b.unknown})")
        elif a.kind == "alias" and b.kind == "alias":
            out.extend(_alias_differences(name, a.type or "", b.type or ""))
        elif a.kind == "enum" and b.kind == "enum":
            out.extend(_member_differences(name, a.members, b.members))
        elif "enum" in (a.kind, b.kind) or "alias" in (a.kind, b.kind):
            out.append(f"{name} changed from {_what(a)} to {_what(b)}")
        else:
            out.extend(_field_differences(name, a.fields, b.fields, words, constraints_only=name in echoes))
    return out if wording is not None else out + words


def _what(s: Schema) -> str:
    return {"alias": f"type {s.type}", "enum": "an enum", "model": "a model", "typeddict": "a TypedDict", "dataclass": "a dataclass"}.get(s.kind, s.kind)


def _alias_differences(name: str, a: str, b: str) -> list[str]:
    old, new = _literal_values(a), _literal_values(b)
    if old is not None and new is not None:
        out = [f"{name} value {v} added" for v in new if v not in old]
        out += [f"{name} value {v} removed" for v in old if v not in new]
        return out
    return [f"{name} type changed ({a} -> {b})"]


def _literal_values(text: str) -> list[str] | None:
    """`Literal['a', 'b']` -> ["'a'", "'b'"] (the canonical text: values sorted, quotes escaped)."""
    if not (text.startswith("Literal[") and text.endswith("]")):
        return None
    import ast

    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Subscript):
        return None
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return [ast.unparse(e) for e in elts]


def _member_differences(name: str, a: list[str], b: list[str]) -> list[str]:
    old = dict(m.split(" = ", 1) for m in a)
    new = dict(m.split(" = ", 1) for m in b)
    out = [f"{name} member {m} = {v} added" for m, v in new.items() if m not in old]
    out += [f"{name} member {m} removed" for m in old if m not in new]
    out += [f"{name} member {m} value changed ({old[m]} -> {v})" for m, v in new.items() if m in old and old[m] != v]
    return out


def _field_differences(name: str, a: list[SchemaField], b: list[SchemaField], wording: list[str], constraints_only: bool = False) -> list[str]:
    old = {f.name: f for f in a}
    new = {f.name: f for f in b}
    out: list[str] = []
    for f in b:
        q = old.get(f.name)
        where = f"{name} field '{f.name}'"
        if constraints_only:
            if q is not None:
                out.extend(_constraint_differences(where, q.constraints, f.constraints, wording))
            continue
        if q is None:
            out.append(f"{where} added ({'required' if f.required else 'optional'})")
            continue
        if f.required != q.required:
            out.append(f"{where} now {'required' if f.required else 'optional'}")
        if f.type != q.type:
            out.append(f"{where} type changed ({q.type or 'untyped'} -> {f.type or 'untyped'})")
        if f.default != q.default and f.required == q.required:
            out.append(f"{where} default changed ({q.default or 'none'} -> {f.default or 'none'})")
        out.extend(_constraint_differences(where, q.constraints, f.constraints, wording))
    out += [] if constraints_only else [f"{name} field '{q.name}' removed" for q in a if q.name not in new]
    return out


def _constraint_differences(where: str, a: dict[str, str], b: dict[str, str], wording: list[str]) -> list[str]:
    out: list[str] = []
    old_range, new_range = _range(a), _range(b)
    if old_range != new_range:
        out.append(f"{where} range changed ({old_range or 'unbounded'} -> {new_range or 'unbounded'})")
    for key in sorted((set(a) | set(b)) - set(_RANGE)):
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if key in WORDS:
            wording.append(f"{where} {key} {'added' if x is None else 'removed' if y is None else 'changed'}")
        elif x is None:
            out.append(f"{where} {key}={y} added")
        elif y is None:
            out.append(f"{where} {key}={x} removed")
        else:
            out.append(f"{where} {key} changed ({x} -> {y})")
    return out


def _range(c: dict[str, str]) -> str:
    return ", ".join(f"{k}={c[k]}" for k in _RANGE if k in c)

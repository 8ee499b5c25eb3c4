"""Per-file schema facts: class field declarations, class keywords and module-level type aliases.

Whether a class is a TypedDict, a pydantic model, a dataclass or an Enum is decided at link time
(its base may live in another module); here every class records its annotated declarations the
same way, after griffe's dataclass/TypedDict extensions: name, canonical annotation with the
qualified names it mentions, `Annotated` metadata and `Required`-like qualifiers unwrapped, and
the assigned value as an expression (`Field(ge=1)`, `field(default=...)`, a literal default).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from receipt.extract.annotations import _qualified as qualified_name
from receipt.extract.facts import ClassFact, Expr, FieldFact, TypeAliasFact

if TYPE_CHECKING:
    from receipt.extract.python import _Extractor, _Scope

# Names that never denote a schema of the analysed tree: not worth a reference in the facts.
_NOT_SCHEMAS = ("typing.", "typing_extensions.", "builtins.", "collections.abc.", "types.")
_QUALIFIERS = {"Required", "NotRequired", "ReadOnly", "ClassVar", "InitVar", "Final"}
_TYPE_HEADS = {"Literal", "Union", "Optional", "Annotated", "list", "dict", "set", "frozenset", "tuple", "List", "Dict",
               "Set", "Tuple", "Sequence", "Mapping"}
_MAX_REFS = 32


def annotation_refs(node: ast.AST | None, resolve: Callable[[str], "str | None"]) -> tuple[str, ...]:
    """Qualified names an annotation mentions, in order, without typing/builtins names; quoted
    (forward) annotations are read, `Literal[...]` values and `Annotated` metadata are not."""
    out: list[str] = []
    if node is not None:
        _visit_annotation(node, 0, resolve, out)
    return tuple(out)


def _visit_annotation(n: ast.AST, depth: int, resolve: Callable[[str], "str | None"], out: list[str]) -> None:
    # A module-level function, not a closure: a recursive closure is a reference cycle that would
    # keep the resolver, and through it the file's whole syntax tree, alive until a GC pass.
    if depth > 32 or len(out) >= _MAX_REFS:
        return
    if isinstance(n, ast.Constant) and isinstance(n.value, str):
        try:
            _visit_annotation(ast.parse(n.value.strip(), mode="eval").body, depth + 1, resolve, out)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
        return
    if isinstance(n, (ast.Name, ast.Attribute)):
        origin = qualified_name(n, resolve)
        if origin is not None and not origin.startswith(_NOT_SCHEMAS) and origin not in out:
            out.append(origin)
        return
    if isinstance(n, ast.Subscript):
        head = qualified_name(n.value, resolve)
        leaf = head.rsplit(".", 1)[-1] if head else ""
        if leaf == "Literal":
            return
        _visit_annotation(n.value, depth + 1, resolve, out)
        if leaf == "Annotated":
            elts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            if elts:
                _visit_annotation(elts[0], depth + 1, resolve, out)
            return
        _visit_annotation(n.slice, depth + 1, resolve, out)
        return
    for child in ast.iter_child_nodes(n):
        _visit_annotation(child, depth + 1, resolve, out)


def param_refs(ex: "_Extractor", node: ast.AST | None, scope: "_Scope") -> tuple[str, ...]:
    return annotation_refs(node, ex.resolver(scope)) if node is not None else ()


def _unwrap(ex: "_Extractor", node: ast.expr, scope: "_Scope") -> tuple[ast.expr, tuple[Expr, ...], tuple[str, ...]]:
    """`NotRequired[Annotated[int, Field(ge=1)]]` -> (int, (Field(ge=1),), ("NotRequired",))."""
    meta: list[Expr] = []
    qualifiers: list[str] = []
    for _ in range(8):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                break
            continue
        if not isinstance(node, ast.Subscript):
            break
        origin = qualified_name(node.value, ex.resolver(scope)) or ""
        leaf = origin.rsplit(".", 1)[-1]
        if not (origin.startswith(("typing.", "dataclasses.")) and (leaf in _QUALIFIERS or leaf == "Annotated")):
            break
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if leaf == "Annotated":
            meta.extend(ex.expr(e, scope) for e in elts[1:])
        else:
            qualifiers.append(leaf)
        node = elts[0]
    return node, tuple(meta), tuple(qualifiers)


def class_schema_facts(ex: "_Extractor", node: ast.ClassDef, scope: "_Scope", cls: ClassFact) -> None:
    """Fill `cls.fields` (annotated declarations) and `cls.keywords` (`total=False`, ...)."""
    cls.keywords = {kw.arg: ex.expr(kw.value, scope) for kw in node.keywords if kw.arg is not None}
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        core, meta, qualifiers = _unwrap(ex, stmt.annotation, scope)
        cls.fields.append(
            FieldFact(
                name=stmt.target.id,
                annotation=ex.annotation(core, scope),
                refs=param_refs(ex, core, scope),
                value=ex.expr(stmt.value, scope) if stmt.value is not None else None,
                meta=meta,
                qualifiers=qualifiers,
                line=stmt.lineno,
            )
        )


def type_alias_fact(ex: "_Extractor", stmt: ast.stmt, scope: "_Scope") -> tuple[str, TypeAliasFact] | None:
    """A module-level type alias, or None: `X = Literal[...]` / `X = A | B` / `X = list[Args]`,
    `X: TypeAlias = ...`, `type X = ...` (3.12+)."""
    value: ast.expr | None = None
    name: str | None = None
    type_alias = getattr(ast, "TypeAlias", None)
    if type_alias is not None and isinstance(stmt, type_alias) and isinstance(stmt.name, ast.Name):  # type: ignore[attr-defined]
        name, value = stmt.name.id, stmt.value  # type: ignore[attr-defined]
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        if qualified_name(stmt.annotation, ex.resolver(scope)) == "typing.TypeAlias":
            name, value = stmt.target.id, stmt.value
    elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        if _type_expression(ex, stmt.value, scope):
            name, value = stmt.targets[0].id, stmt.value
    if name is None or value is None:
        return None
    text = ex.annotation(value, scope)
    if text is None:
        return None
    return f"{scope.prefix}.{name}", TypeAliasFact(text, param_refs(ex, value, scope), stmt.lineno)


def _type_expression(ex: "_Extractor", node: ast.expr, scope: "_Scope") -> bool:
    """A subscripted typing construct (`Literal[...]`, `Optional[X]`, `list[X]`) or a `|` union of types."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return all(_type_expression(ex, side, scope) or _typeish_name(side) for side in (node.left, node.right))
    if isinstance(node, ast.Subscript):
        origin = qualified_name(node.value, ex.resolver(scope)) or ""
        return origin.rsplit(".", 1)[-1] in _TYPE_HEADS and origin.startswith(("typing.", "builtins.", "collections.abc."))
    return False


def _as_written(dotted: str) -> None:
    return None  # no resolution: `qualified_name` then keeps the name as written


def _typeish_name(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None
    dotted = qualified_name(node, _as_written)
    if dotted is None:
        return False
    leaf = dotted.rsplit(".", 1)[-1]
    return leaf in ("int", "str", "float", "bool", "bytes") or (leaf[:1].isupper() and not leaf.isupper())

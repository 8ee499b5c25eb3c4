"""Type annotations as normalised expression trees, rendered canonically.

Two annotations that mean the same type render to the same text, so a signature compares by
meaning, not spelling (after griffe's expression model: names resolved, then rendered):

- `Optional[X]`, `Union[X, None]`, `X | None` -> `X | None`; union members flattened, deduplicated
  and sorted (`None` last); `Literal` members likewise;
- `typing.List`/`Dict`/`Set`/`FrozenSet`/`Tuple`/`Type` -> the builtins; `typing.Sequence` & co.
  -> `collections.abc`; `typing_extensions.X` -> `typing.X`;
- a quoted annotation is parsed and normalised like an unquoted one;
- names render by their last part (`Args`, not `pkg.models.Args`): moving a class is not a change.

Pure: `resolve` maps a dotted name as written in the file to its qualified origin.
"""

from __future__ import annotations

import ast
from typing import Callable

_BUILTIN_ALIASES = {
    "typing.List": "builtins.list",
    "typing.Dict": "builtins.dict",
    "typing.Set": "builtins.set",
    "typing.FrozenSet": "builtins.frozenset",
    "typing.Tuple": "builtins.tuple",
    "typing.Type": "builtins.type",
    "typing.Text": "builtins.str",
}
_ABC = frozenset(
    {"Sequence", "MutableSequence", "Mapping", "MutableMapping", "Iterable", "Iterator", "Callable", "Collection",
     "AbstractSet", "MutableSet", "Awaitable", "Coroutine", "AsyncIterator", "AsyncIterable", "Generator",
     "AsyncGenerator", "Container", "Hashable", "Sized", "Reversible"}
)
_MAX_DEPTH = 48

Resolve = Callable[[str], "str | None"]


def canonical_annotation(node: ast.expr, resolve: Resolve) -> str:
    try:
        return _render(_tree(node, resolve, 0))
    except (RecursionError, ValueError, SyntaxError, TypeError, MemoryError):
        return " ".join(_unparse(node).split())


# A tree is a str (a leaf: a name or a literal) or a tuple (head, [args]) with head "|" for unions,
# "Literal" for literals, "Annotated" for annotated types.
Tree = "str | tuple[str, list[Tree]]"


def _qualified(node: ast.expr, resolve: Resolve) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    dotted = ".".join([node.id, *reversed(parts)])
    origin = resolve(dotted) or dotted
    if origin.startswith("typing_extensions."):
        origin = "typing." + origin.removeprefix("typing_extensions.")
    origin = _BUILTIN_ALIASES.get(origin, origin)
    if origin.startswith("typing.") and origin.removeprefix("typing.") in _ABC:
        origin = "collections.abc." + origin.removeprefix("typing.")
    return origin


def _tree(node: ast.expr, resolve: Resolve, depth: int):  # type: ignore[no-untyped-def]
    if depth > _MAX_DEPTH:
        raise ValueError("annotation too deep")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):  # a quoted (forward) annotation
            inner = ast.parse(node.value.strip(), mode="eval").body
            return _tree(inner, resolve, depth + 1)
        return "None" if node.value is None else repr(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([_tree(node.left, resolve, depth + 1), _tree(node.right, resolve, depth + 1)])
    if isinstance(node, (ast.Name, ast.Attribute)):
        origin = _qualified(node, resolve)
        if origin is not None:
            return _leaf(origin)
    if isinstance(node, ast.Subscript):
        head = _qualified(node.value, resolve)
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head in ("typing.Optional",) and len(elts) == 1:
            return _union([_tree(elts[0], resolve, depth + 1), "None"])
        if head == "typing.Union":
            return _union([_tree(e, resolve, depth + 1) for e in elts])
        if head == "typing.Literal":
            return ("Literal", sorted({_literal(e) for e in elts}))
        if head == "typing.Annotated" and elts:
            return ("Annotated", [_tree(elts[0], resolve, depth + 1), *(" ".join(_unparse(e).split()) for e in elts[1:])])
        base = _leaf(head) if head else _render(_tree(node.value, resolve, depth + 1))
        return (base, [_tree(e, resolve, depth + 1) for e in elts])
    if isinstance(node, (ast.List, ast.Tuple)):  # Callable[[int, str], bool]
        return ("", [_tree(e, resolve, depth + 1) for e in node.elts])
    return " ".join(_unparse(node).split())


def _leaf(origin: str) -> str:
    return "None" if origin in ("builtins.None", "types.NoneType") else origin.rsplit(".", 1)[-1]


def _literal(node: ast.expr) -> str:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return repr(-node.operand.value)  # type: ignore[operator]
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return " ".join(_unparse(node).split())


def _union(members: list) -> object:  # type: ignore[type-arg]
    flat: dict[str, object] = {}
    for m in members:
        for x in (m[1] if isinstance(m, tuple) and m[0] == "|" else [m]):
            flat.setdefault(_render(x), x)
    if len(flat) == 1:
        return next(iter(flat.values()))
    keys = sorted(k for k in flat if k != "None") + (["None"] if "None" in flat else [])
    return ("|", [flat[k] for k in keys])


def _render(tree: object) -> str:
    if isinstance(tree, str):
        return tree
    head, args = tree  # type: ignore[misc]
    if head == "|":
        return " | ".join(_render(a) for a in args)
    inner = ", ".join(_render(a) for a in args)
    return f"[{inner}]" if head == "" else f"{head}[{inner}]"


def _unparse(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - an odd node renders as its type, never breaks extraction
        return type(node).__name__

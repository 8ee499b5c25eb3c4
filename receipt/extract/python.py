"""Python source -> ModuleFacts, with `ast` only: the analysed code is never imported or executed."""

from __future__ import annotations

import ast
import builtins
import re
import sys
from dataclasses import dataclass, field
from typing import Iterable

from receipt.extract.annotations import canonical_annotation
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
    ParamFact,
    Ref,
    Seq,
    Splat,
)

_BUILTINS = frozenset(dir(builtins))
_SRC_LIMIT = 160
# Expressions nested deeper than this become `Dyn(..., "too-deep")`: the value is unknown, the rest
# of the file is still analysed (a 1,200-term sum next to a tool must not hide the tool).
_MAX_EXPR_DEPTH = 64

# Packages whose import makes a file agent code for the fail-closed rule: an unreadable file that
# imports one of these and that the change touches fails the gate (see receipt.diff).
AGENT_FRAMEWORKS: tuple[str, ...] = (
    "agents", "mcp", "fastmcp", "pydantic_ai", "langchain", "langchain_core", "langchain_community",
    "langgraph", "crewai", "crewai_tools", "google.adk", "smolagents", "receipt.markers",
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
    """`pkg/sub/mod.py` -> ("pkg.sub.mod", False); `pkg/__init__.py` -> ("pkg", True)."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(p for p in parts if p) or "__root__", is_package


def _src(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of odd nodes must not break extraction
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= _SRC_LIMIT else text[: _SRC_LIMIT - 3] + "..."


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
    conditional: bool = False
    is_function: bool = False
    class_symbol: str | None = None
    # In a method, the name of its instance parameter and the class it belongs to: `self.x` is the
    # class attribute `pkg.mod.Class.x` (a method, or what `self.x = ...` stores).
    self_name: str | None = None
    self_class: str | None = None


class _Extractor:
    def __init__(self, path: str, tree: ast.Module, *, scope_statements: bool = True, dynamic_code: bool = True):
        self.module, is_package = module_name_for(path)
        # False when the source cannot contain `global`/`nonlocal`: skips one walk per function.
        self.scope_statements = scope_statements
        # False when the source names none of exec/eval/compile/import_module/__import__: skips a full walk.
        self.scan_dynamic_code = dynamic_code
        self.is_package = is_package
        self.facts = ModuleFacts(path=path, module=self.module, is_package=is_package)
        self.tree = tree
        self.depth = 0  # expression nesting, capped at _MAX_EXPR_DEPTH

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
                    continue
                yield alias.asname or alias.name, f"{mod}.{alias.name}" if mod else alias.name

    # -- module-level name collection ----------------------------------------------------

    def _collect_names(self, body: list[ast.stmt], names: set[str], imports: dict[str, str], *, top: bool) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for local, origin in self._import_bindings(stmt) if top else _no_star(self, stmt):
                    imports.setdefault(local, origin)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    names.update(_target_names(t))
            elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                names.update(_target_names(stmt.target))
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        names.update(_target_names(item.optional_vars))
            if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)) or (
                hasattr(ast, "TryStar") and isinstance(stmt, getattr(ast, "TryStar"))
            ):
                for sub in _child_bodies(stmt):
                    self._collect_names(sub, names, imports, top=top)

    # -- expressions -----------------------------------------------------------------------

    def _name(self, name: str, scope: _Scope) -> Expr:
        if scope.is_function:
            if name in scope.params:
                return Dyn(name, "parameter")
            if name in scope.local_imports:
                return Ref(scope.local_imports[name])
            if name in scope.locals:
                return Ref(f"{scope.prefix}.{name}")
        if name in scope.imports:
            return Ref(scope.imports[name])
        if name in scope.module_names:
            return Ref(f"{self.module}.{name}")
        if name in _BUILTINS:
            return Ref(f"builtins.{name}")
        return Ref(f"{self.module}.{name}")  # maybe from a star import; the linker tries those

    def expr(self, node: ast.AST | None, scope: _Scope) -> Expr:
        if node is None:
            return Const(None)
        if self.depth >= _MAX_EXPR_DEPTH:
            return Dyn(_src(node), "too-deep")
        self.depth += 1
        try:
            return self._expr(node, scope)
        finally:
            self.depth -= 1

    def _expr(self, node: ast.AST, scope: _Scope) -> Expr:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, int, float, bool)) or node.value is None:
                return Const(node.value)
            return Dyn(_src(node), "constant")
        if isinstance(node, ast.Name):
            return self._name(node.id, scope)
        if isinstance(node, ast.Attribute):
            if scope.self_name and isinstance(node.value, ast.Name) and node.value.id == scope.self_name:
                return Ref(f"{scope.self_class}.{node.attr}")
            base = self.expr(node.value, scope)
            if isinstance(base, Ref):
                return Ref(f"{base.name}.{node.attr}")
            if isinstance(base, Dyn):
                return Dyn(_src(node), base.why)
            return Attr(base, node.attr)
        if isinstance(node, ast.Call):
            imported = self._literal_import(node, scope)
            if imported is not None:
                return imported
            return self.call(node, scope)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return Seq(tuple(self.expr(e, scope) for e in node.elts))
        if isinstance(node, ast.Starred):
            return Splat(self.expr(node.value, scope))
        if isinstance(node, ast.Dict):
            return Map(
                tuple(
                    (Const(None) if k is None else self.expr(k, scope), self.expr(v, scope))
                    for k, v in zip(node.keys, node.values)
                )
            )
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return Concat(self.expr(node.left, scope), self.expr(node.right, scope))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            if isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
                return Const(-node.operand.value)
        if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
            return Const("".join(str(v.value) for v in node.values))  # type: ignore[attr-defined]
        if isinstance(node, ast.Await):
            return self.expr(node.value, scope)
        why = "expression"
        if isinstance(node, ast.Subscript):
            why = "subscript"
        elif isinstance(node, ast.JoinedStr):
            why = "f-string"
        elif isinstance(node, ast.IfExp):
            why = "conditional-expression"
        elif isinstance(node, ast.Lambda):
            why = "lambda"
        return Dyn(_src(node), why)

    def _literal_import(self, node: ast.Call, scope: _Scope) -> Ref | None:
        """`importlib.import_module("pkg.server")` is the module `pkg.server`; `__import__("pkg.server")`
        is the top package `pkg` (what Python returns). Only absolute literal names are followed."""
        if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Constant):
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

    def call(self, node: ast.Call, scope: _Scope) -> Call:
        args: list[Expr] = []
        star = False
        for a in node.args:
            if isinstance(a, ast.Starred):
                star = True
            args.append(self.expr(a, scope))
        kwargs: list[tuple[str, Expr]] = []
        for kw in node.keywords:
            if kw.arg is None:
                star = True
                continue
            kwargs.append((kw.arg, self.expr(kw.value, scope)))
        return Call(self._callee(node.func, scope), tuple(args), tuple(kwargs), node.lineno, star)

    def _callee(self, func: ast.AST, scope: _Scope) -> Expr:
        """A call's callee or a class's base; a generic class parametrised by a type (`Agent[Ctx](...)`,
        `class Main(FastMCP[Ctx])`) is that class. The one place generic subscripts are resolved."""
        if isinstance(func, ast.Subscript) and _looks_like_type(func.slice):
            base = self.expr(func.value, scope)
            if isinstance(base, Ref):
                return base
        return self.expr(func, scope)

    # -- statements -----------------------------------------------------------------------

    def body(self, stmts: list[ast.stmt], scope: _Scope) -> None:
        for stmt in stmts:
            self.stmt(stmt, scope)

    def stmt(self, stmt: ast.stmt, scope: _Scope) -> None:
        if not scope.is_function and isinstance(stmt, (ast.Assign, ast.AnnAssign, *_TYPE_ALIAS)):
            alias = type_alias_fact(self, stmt, scope)
            if alias is not None:
                self.facts.type_aliases[alias[0]] = alias[1]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.function(stmt, scope)
        elif isinstance(stmt, ast.ClassDef):
            self.klass(stmt, scope)
        elif isinstance(stmt, ast.Assign):
            value = self.expr(stmt.value, scope)
            for t in stmt.targets:
                self.assign(t, value, stmt, scope, "=")
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.assign(stmt.target, self.expr(stmt.value, scope), stmt, scope, "=")
        elif isinstance(stmt, ast.AugAssign):
            op = "+=" if isinstance(stmt.op, ast.Add) else "?="
            value = self.expr(stmt.value, scope) if op == "+=" else Dyn(_src(stmt), "augmented-assignment")
            self.assign(stmt.target, value, stmt, scope, op)
        elif isinstance(stmt, ast.Expr):
            value = stmt.value
            if isinstance(value, ast.Await):
                value = value.value
            if isinstance(value, ast.Call):
                call = self.call(value, scope)
                if not self._setattr(call, stmt, scope):
                    self.facts.effects.append(EffectFact(call, scope.conditional))
            elif isinstance(value, (ast.ListComp, ast.SetComp)):
                self.comprehension(value, stmt, scope)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            # `for f in [a, b]: mcp.tool()(f)`: the target is bound to each item (op "in"); a loop over a
            # literal non-empty list runs its body for sure, so only then is the body unconditional.
            iterable = self.expr(stmt.iter, scope)
            self.assign(stmt.target, iterable, stmt, scope, "in")
            certain = _runs(iterable)
            self.body(stmt.body, scope if certain else _Scope(**{**scope.__dict__, "conditional": True}))
            self.body(stmt.orelse, _Scope(**{**scope.__dict__, "conditional": True}))
        elif isinstance(stmt, ast.Delete):
            for t in stmt.targets:
                if isinstance(t, ast.Subscript):
                    self.assign(t, Const(None), stmt, scope, "del")
        elif isinstance(stmt, (ast.If, ast.While)):
            inner = _Scope(**{**scope.__dict__, "conditional": True})
            for sub in _child_bodies(stmt):
                self.body(sub, inner)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            self.body(stmt.body, scope)
        elif isinstance(stmt, ast.Try) or (hasattr(ast, "TryStar") and isinstance(stmt, getattr(ast, "TryStar"))):
            self.body(stmt.body, scope)
            self.body(stmt.orelse, scope)
            self.body(stmt.finalbody, scope)
            inner = _Scope(**{**scope.__dict__, "conditional": True})
            for h in stmt.handlers:  # type: ignore[attr-defined]
                self.body(h.body, inner)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)) and not scope.is_function:
            for local, origin in self._import_bindings(stmt):
                self.facts.imports.setdefault(f"{self.module}.{local}", origin)

    def comprehension(self, node: ast.ListComp | ast.SetComp, stmt: ast.stmt, scope: _Scope) -> None:
        """`[mcp.tool()(f) for f in [a, b]]` run for its effect: like the loop it spells."""
        if len(node.generators) != 1 or not isinstance(node.elt, ast.Call):
            return
        gen = node.generators[0]
        iterable = self.expr(gen.iter, scope)
        self.assign(gen.target, iterable, stmt, scope, "in")
        certain = _runs(iterable) and not gen.ifs
        self.facts.effects.append(EffectFact(self.call(node.elt, scope), scope.conditional or not certain))

    def _setattr(self, call: Call, stmt: ast.stmt, scope: _Scope) -> bool:
        """`setattr(obj, "attr", v)` is `obj.attr = v`; with a computed name, any attribute (`obj.*`) may change."""
        if call.func != Ref("builtins.setattr") or len(call.args) != 3 or call.star or not isinstance(call.args[0], Ref):
            return False
        obj, name, value = call.args
        attr = name.value if isinstance(name, Const) and isinstance(name.value, str) else "*"
        if attr == "*":
            value = Dyn(_src(stmt.value), "setattr")  # type: ignore[attr-defined]
        self.facts.assigns.append(AssignFact(f"{obj.name}.{attr}", value, stmt.lineno, scope.conditional, "="))  # type: ignore[union-attr]
        return True

    def assign(self, target: ast.AST, value: Expr, stmt: ast.stmt, scope: _Scope, op: str) -> None:
        if isinstance(target, ast.Subscript):
            # `ANN["readOnlyHint"] = False` / `del ANN["x"]`: recorded on ANN as a one-item mapping (op "[]=" /
            # "del"), so evaluating ANN applies it; a computed key is a Dyn key (the whole value is then unknown).
            base = self.expr(target.value, scope)
            if isinstance(base, Ref) and op != "in":
                key = self.expr(target.slice, scope)
                if op not in ("=", "del"):  # `ANN["x"] += ...`
                    value = Dyn(_src(stmt), "augmented-assignment")
                self.facts.assigns.append(AssignFact(base.name, Map(((key, value),)), stmt.lineno, scope.conditional, "del" if op == "del" else "[]="))
            return
        if op == "in" and isinstance(target, (ast.Tuple, ast.List)):
            # `for name, cls in [("a", A), ...]`: each name takes its position in every item (op "in:<i>")
            for i, t in enumerate(target.elts):
                if isinstance(t, ast.Name):
                    self.assign(t, value, stmt, scope, f"in:{i}")
            return
        if op.startswith("in") and not isinstance(target, ast.Name):
            return  # other loop targets (attributes, starred): not followed
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, Seq) and len(value.items) == len(target.elts):
                for t, v in zip(target.elts, value.items):
                    self.assign(t, v, stmt, scope, op)
            return
        ref = self.expr(target, scope)
        if isinstance(ref, Ref):
            self.facts.assigns.append(AssignFact(ref.name, value, stmt.lineno, scope.conditional, op))

    def annotation(self, node: ast.expr | None, scope: _Scope) -> str | None:
        """The annotation's canonical text: same type, same text (see annotations.py)."""
        if node is None:
            return None

        def resolve(dotted: str) -> str | None:
            first, _, rest = dotted.partition(".")
            ref = self._name(first, scope)
            if not isinstance(ref, Ref):
                return None
            return f"{ref.name}.{rest}" if rest else ref.name

        text = canonical_annotation(node, resolve)
        return text if len(text) <= _SRC_LIMIT else text[: _SRC_LIMIT - 3] + "..."

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

    def _param(self, a: ast.arg, default: ast.expr | None, kind: str, scope: _Scope, required: bool | None = None) -> ParamFact:
        ann_ref = None
        if a.annotation is not None:
            head = a.annotation
            while isinstance(head, ast.Subscript):
                # Annotated[X, ...] keeps X; Optional[X]/RunContext[D] keep the outer name
                head = head.value
            e = self.expr(head, scope)
            if isinstance(e, Ref):
                ann_ref = e.name
        return ParamFact(
            name=a.arg,
            annotation=self.annotation(a.annotation, scope),
            annotation_ref=ann_ref,
            default=_src(default) if default is not None else None,
            default_expr=self.expr(default, scope) if default is not None else None,
            required=(default is None) if required is None else required,
            kind=kind,
            refs=param_refs(self, a.annotation, scope),
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
            inner.prefix = f"{symbol}.<locals>"
        local_names: set[str] = set()
        local_imports: dict[str, str] = {}
        self._collect_names(node.body, local_names, local_imports, top=False)
        declared_global = (
            {n for s in ast.walk(node) if isinstance(s, (ast.Global, ast.Nonlocal)) for n in s.names} if self.scope_statements else set()
        )
        inner.locals |= local_names - declared_global - inner.params
        inner.local_imports.update(local_imports)

        calls: list[Call] = []
        raises: list[Expr] = []
        returns: list[Expr] = []
        indirect: list[tuple[int, str]] = []
        for sub in _walk_own_body(node):
            if isinstance(sub, ast.Call):
                c = self.call(sub, inner)
                if not isinstance(c.func, Dyn):
                    calls.append(c)
                if _indirect_target(sub.func):
                    indirect.append((sub.lineno, _src(sub.func)))
            elif isinstance(sub, ast.Raise) and sub.exc is not None:
                raises.append(self.expr(sub.exc, inner))
            elif isinstance(sub, ast.Return) and sub.value is not None:
                returns.append(self.expr(sub.value, inner))
        fn = FunctionFact(
            symbol=symbol,
            name=node.name,
            line=node.lineno,
            params=params,
            returns=self.annotation(node.returns, scope),
            doc=ast.get_docstring(node),
            decorators=decorators,
            calls=calls,
            raises=raises,
            returns_exprs=returns,
            conditional=scope.conditional,
            is_async=isinstance(node, ast.AsyncFunctionDef),
            owner_class=scope.class_symbol,
            indirect=indirect,
        )
        self.facts.functions.append(fn)
        # Factories: what a function body registers is real surface, but conditional.
        self.body(node.body, inner)

    def klass(self, node: ast.ClassDef, scope: _Scope) -> None:
        symbol = f"{scope.prefix}.{node.name}"
        cls = ClassFact(
            symbol=symbol,
            name=node.name,
            line=node.lineno,
            bases=[self._callee(b, scope) for b in node.bases],  # `class Ops(Agent[Ctx])` derives from Agent
            decorators=[self.expr(d, scope) for d in node.decorator_list],
            doc=ast.get_docstring(node),
            conditional=scope.conditional,
        )
        class_schema_facts(self, node, scope, cls)
        class_scope = _Scope(**{**scope.__dict__, "prefix": symbol, "class_symbol": symbol})
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(stmt, class_scope)
                cls.methods.append(f"{symbol}.{stmt.name}")
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if stmt.value is None:
                    continue
                value = self.expr(stmt.value, scope)
                for t in targets:
                    if isinstance(t, ast.Name):
                        cls.attrs[t.id] = value
                        cls.attr_lines[t.id] = stmt.lineno
            elif isinstance(stmt, ast.ClassDef):
                self.klass(stmt, class_scope)
        self.facts.classes.append(cls)

    def run(self) -> ModuleFacts:
        names: set[str] = set()
        imports: dict[str, str] = {}
        self._collect_names(self.tree.body, names, imports, top=True)
        scope = _Scope(module=self.module, module_names=names, imports=imports, prefix=self.module)
        self.body(self.tree.body, scope)
        self.facts.star_imports = sorted(set(self.facts.star_imports))
        if self.scan_dynamic_code:
            self.facts.dynamic_code = self._dynamic_code(scope)
        return self.facts

    def _dynamic_code(self, scope: _Scope) -> list[tuple[int, str, str]]:
        """exec/eval/compile of a non-literal and imports of computed module names, anywhere in the file."""
        out: list[tuple[int, str, str]] = []
        stack: list[ast.AST] = [self.tree]
        while stack:
            node = stack.pop()
            stack.extend(ast.iter_child_nodes(node))
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = self.expr(node.func, scope) if isinstance(node.func, (ast.Name, ast.Attribute)) else None
            literal = isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))
            if func in _RUNS_CODE and not literal:
                out.append((node.lineno, "dynamic-code", _src(node)))
            elif func in _IMPORTS and not literal:
                out.append((node.lineno, "dynamic-import", _src(node)))
        return sorted(set(out))


def _runs(iterable: Expr) -> bool:
    """A loop body that runs (once per item) for sure: over a literal non-empty list, or over a named
    collection (what it registers is then exactly its items, each as conditional as the item itself)."""
    if isinstance(iterable, Seq):
        return bool(iterable.items) and not any(isinstance(i, Splat) for i in iterable.items)
    return isinstance(iterable, Ref)


_TYPE_ALIAS: tuple[type, ...] = (ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ()  # `type X = ...`, 3.12+
_RUNS_CODE = frozenset({Ref("builtins.exec"), Ref("builtins.eval"), Ref("builtins.compile")})
_IMPORTS = frozenset({Ref("builtins.__import__"), Ref("importlib.import_module"), Ref("importlib.__import__")})
_NAMESPACES = frozenset({"globals", "locals", "vars"})


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


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A static or class method: its first parameter is not an instance."""
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list)


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


def _target_names(t: ast.AST) -> Iterable[str]:
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_names(e)
    elif isinstance(t, ast.Starred):
        yield from _target_names(t.value)


def _child_bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out = []
    for attr in ("body", "orelse", "finalbody"):
        b = getattr(stmt, attr, None)
        if b:
            out.append(b)
    for h in getattr(stmt, "handlers", []) or []:
        out.append(h.body)
    return out


def _walk_own_body(fn: ast.AST) -> Iterable[ast.AST]:
    """Every node of a function body, without descending into nested functions or classes."""
    stack = list(reversed(fn.body))  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            stack.append(child)


def _failed(path: str, source: str, line: int | None, reason: str, message: str) -> ModuleFacts:
    module, is_package = module_name_for(path)
    return ModuleFacts(
        path=path, module=module, is_package=is_package,
        error={"line": line, "reason": reason, "message": message, "frameworks": frameworks_imported(source)},
    )


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
        return _failed(path, source, e.lineno, "syntax-error", f"syntax error: {e.msg}")
    except (ValueError, RecursionError, MemoryError) as e:
        return _failed(path, source, None, "unparseable", f"cannot parse: {type(e).__name__}")
    try:
        # Keywords are matched literally (look-alike Unicode spellings are syntax errors): no word, no statement.
        scope_statements = "global" in source or "nonlocal" in source
        dynamic_code = any(w in source for w in ("exec", "eval", "compile", "import_module", "__import__"))
        with _deep_recursion():
            return _Extractor(path, tree, scope_statements=scope_statements, dynamic_code=dynamic_code).run()
    except RecursionError:
        return _failed(path, source, None, "too-deep", "statement nesting too deep to analyse")


class _deep_recursion:
    """Room for the deepest code CPython itself accepts (200 nested brackets, 100 indentation
    levels): statements nest through a few frames each, so the default limit of 1,000 is too low."""

    _LIMIT = 20_000

    def __enter__(self) -> None:
        self.saved = sys.getrecursionlimit()
        if self.saved < self._LIMIT:
            sys.setrecursionlimit(self._LIMIT)

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.saved)

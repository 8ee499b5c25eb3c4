"""smolagents (Hugging Face).

Recognised (by import origin, aliases and re-export paths included):
- `@tool` from smolagents on a function: name = function name, description = docstring (smolagents
  builds the model-facing description from it), signature from the function.
- `Tool` subclasses (transitively): class attributes `name`, `description`, `inputs`, `output_type`;
  the signature comes from `forward` (types taken from `inputs` where declared, returns from
  `output_type`); the description digest covers `description` and `inputs` (both reach the model).
- `CodeAgent(tools=, model=, managed_agents=, name=, description=, instructions=,
  additional_authorized_imports=, executor_type=)`, `ToolCallingAgent(...)`, local subclasses of
  `MultiStepAgent`. Model: a literal, `XxxModel(model_id=...)`, or dynamic.
- Code execution: every `CodeAgent` gets `extra["code_execution"] = {"authorized_imports": [...],
  "executor": ...}` (executor defaults to "local"). The agent is `dangerous` when its generated code
  may import `*` or a module that reaches the host (os, subprocess, shutil, socket, ...); dynamic
  when the import list is not statically known. Tools are not changed: the risk is the agent's code.
- smolagents' own tools (`WebSearchTool()`, `PythonInterpreterTool()`, ...) become external tool
  entries under their framework names; `PythonInterpreterTool` is `dangerous`. Tools loaded at
  runtime (`load_tool`, `Tool.from_space`, `ToolCollection.from_mcp`, ...) are reported as issues.
- Roots: public module-level agents and agents returned by public module-level factories
  (conditional). Managed agents and tools are reached.

Not recognised: `add_base_tools=True` expands to a version-dependent tool set (noted in `extra` only);
`prompt_templates` contents; approval (smolagents has no approval concept).
"""

from __future__ import annotations

import re
from typing import Any

from receipt.canonical import canonical_json
from receipt.dialects._agentkit import Kit, Site, from_package, model_value, text_digest
from receipt.dialects.base import DialectResult, decorator_call, digest, leaf, name_expression, shape, signature_of
from receipt.extract.facts import Call, ClassFact, Expr, FunctionFact, Ref
from receipt.extract.program import Program, describe
from receipt.models import Dynamic, Param, Signature

NAME = "smolagents"
_PKG = ("smolagents",)
_AGENTS = ("CodeAgent", "ToolCallingAgent")
# Framework tools and the names their class attribute gives them.
_KNOWN_TOOLS = {
    "PythonInterpreterTool": "python_interpreter",
    "FinalAnswerTool": "final_answer",
    "UserInputTool": "user_input",
    "WebSearchTool": "web_search",
    "DuckDuckGoSearchTool": "web_search",
    "GoogleSearchTool": "web_search",
    "ApiWebSearchTool": "web_search",
    "VisitWebpageTool": "visit_webpage",
    "WikipediaSearchTool": "wikipedia_search",
    "SpeechToTextTool": "transcriber",
}
_DANGEROUS_TOOLS = {"PythonInterpreterTool"}
# Model classes smolagents renamed, kept a while under the old name (a deprecated subclass or an
# alias of the new one): a model described through either spelling is the same model.
_RENAMED_MODELS = {
    "HfApiModel": "InferenceClientModel",  # 1.14
    "OpenAIServerModel": "OpenAIModel",  # 1.21 (alias)
    "AzureOpenAIServerModel": "AzureOpenAIModel",
    "AmazonBedrockServerModel": "AmazonBedrockModel",
}
_RENAMED_MODEL_RE = re.compile(r"\b(smolagents(?:\.\w+)*)\.(" + "|".join(_RENAMED_MODELS) + r")\b")


def _model(p: Program, expr: Expr | None) -> Any:
    model = model_value(p, expr)
    if isinstance(model, Dynamic):
        return Dynamic(dynamic=_RENAMED_MODEL_RE.sub(lambda m: f"{m.group(1)}.{_RENAMED_MODELS[m.group(2)]}", model.dynamic))
    return model
_RUNTIME_LOADERS = ("load_tool", "from_space", "from_hub", "from_langchain", "from_gradio", "from_mcp", "from_code", "from_dict")
# Imports that let generated code touch the host (files, processes, network sockets, the interpreter).
HOST_IMPORTS = frozenset(
    {
        "builtins", "ctypes", "glob", "importlib", "io", "marshal", "multiprocessing", "nt", "os", "pathlib",
        "pickle", "posix", "pty", "shelve", "shutil", "signal", "socket", "subprocess", "sys", "tempfile",
    }
)


def _dangerous_imports(imports: Any) -> bool | Dynamic:
    if isinstance(imports, Dynamic):
        return imports
    if not isinstance(imports, list):
        return Dynamic(dynamic=repr(imports)[:120])
    for name in imports:
        if isinstance(name, Dynamic):
            return name
        if not isinstance(name, str):
            continue
        if name == "*" or name.split(".")[0] in HOST_IMPORTS:
            return True
    return False


def _jsonable(value: Any) -> Any:
    if isinstance(value, Dynamic):
        return {"dynamic": value.dynamic}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class _Smol:
    def __init__(self, program: Program):
        self.program = program
        self.kit = Kit(program, NAME, self.is_agent, self.agent)

    def is_agent(self, origin: str | None) -> bool:
        return self.kit.is_class(origin, _PKG, _AGENTS, "MultiStepAgent")

    def is_tool_class(self, cls: ClassFact) -> bool:
        return self.kit.subclass_of(cls, _PKG, "Tool", "PipelineTool")

    def is_tool_decorator(self, dec: Expr) -> bool:
        return from_package(self.program.origin(decorator_call(dec, self.program)[0]), _PKG, "tool")

    # -- tool declarations ----------------------------------------------------------------------

    def decorated(self, fn: FunctionFact) -> None:
        site = Site(self.program.path_of(fn.symbol), fn.line, fn.conditional)
        entry = self.kit.entry("tool", fn.name, site, signature=signature_of(fn), description_sha256=digest(fn.doc))
        self.kit.add(fn.symbol, entry)

    def tool_class(self, cls: ClassFact) -> None:
        p = self.program
        attrs = {k: (p.text(v) if k == "description" else p.evaluate(v)) for k, v in cls.attrs.items() if k in ("name", "description", "inputs", "output_type")}
        name = attrs.get("name")
        description = attrs.get("description", cls.doc)
        inputs = attrs.get("inputs")
        if inputs is not None and description is not None:
            # The model sees the input descriptions too: a changed one is a changed description.
            text: Any = Dynamic(dynamic=canonical_json(_jsonable([description, inputs])).decode())
            if not isinstance(description, Dynamic) and not isinstance(inputs, Dynamic):
                text = f"{description}\n\ninputs: {canonical_json(_jsonable(inputs)).decode()}"
        else:
            text = description
        forward = p.functions.get(f"{cls.symbol}.forward")
        signature = signature_of(forward) if forward is not None else None
        if signature is not None and isinstance(inputs, dict):
            params = []
            for prm in signature.params:
                spec = inputs.get(prm.name)
                if isinstance(spec, dict) and isinstance(spec.get("type"), str):
                    prm = Param(name=prm.name, type=spec["type"], required=prm.required and not spec.get("nullable"), default=prm.default)
                params.append(prm)
            signature = Signature(params=params, returns=signature.returns)
        output_type = attrs.get("output_type")
        if signature is not None and isinstance(output_type, str):
            signature = Signature(params=signature.params, returns=output_type)
        site = Site(p.path_of(cls.symbol), cls.line, cls.conditional)
        entry = self.kit.entry(
            "tool",
            name if isinstance(name, str) and name else cls.name,
            site,
            name_expr=name_expression(p, cls.attrs.get("name")),
            signature=signature,
            description_sha256=digest(text),
        )
        self.kit.add(cls.symbol, entry)

    # -- agents ---------------------------------------------------------------------------------

    def agent(self, call: Call, identity: str, site: Site, fallback: str) -> str:
        if self.kit.get(identity) is not None:
            return identity
        p = self.program
        origin = p.origin(call.func) or ""
        name = p.evaluate(call.kw("name"))
        parts = []
        for key in ("instructions", "prompt_templates"):
            expr = call.kw(key)
            if expr is not None:
                parts.append((key, p.text(expr)))
        extra: dict[str, Any] = {}
        dangerous: Any = False
        if self.kit.is_class(origin, _PKG, ("CodeAgent",)):
            imports_expr = call.kw("additional_authorized_imports")
            imports = p.evaluate(imports_expr) if imports_expr is not None else []
            executor: Any = "local"
            if call.kw("executor") is not None:
                executor = Dynamic(dynamic=describe(call.kw("executor")))  # type: ignore[arg-type]
            elif call.kw("executor_type") is not None:
                executor = p.evaluate(call.kw("executor_type"))
            elif p.evaluate(call.kw("use_e2b_executor")) is True:
                executor = "e2b"
            if isinstance(imports, list) and all(isinstance(i, str) for i in imports):
                shown: Any = sorted(set(imports))
            else:
                shown = imports.model_dump() if isinstance(imports, Dynamic) else {"dynamic": describe(imports_expr) if imports_expr is not None else "?"}
            extra["code_execution"] = {
                "authorized_imports": shown,
                "executor": executor.model_dump() if isinstance(executor, Dynamic) else executor,
            }
            dangerous = _dangerous_imports(imports)
        if call.kw("add_base_tools") is not None:
            base = p.evaluate(call.kw("add_base_tools"))
            if base is not False:
                extra["add_base_tools"] = base.model_dump() if isinstance(base, Dynamic) else base
        entry = self.kit.entry(
            "agent",
            name if isinstance(name, str) and name else fallback,
            site,
            name_expr=name_expression(p, call.kw("name")),
            model=_model(p, call.kw("model") or (call.args[1] if len(call.args) > 1 else None)),
            instructions_sha256=text_digest(parts),
            description_sha256=digest(p.text(call.kw("description"))) if call.kw("description") is not None else None,
            dangerous=dangerous,
            extra=extra,
        )
        cand = self.kit.add(identity, entry)
        reach: list[str] = []
        for item in self.kit.items(call.arg(0, "tools"), site, "tools", identity, "tools"):
            reach += self.tool_item(item.expr, item.conditional, site)
        for item in self.kit.items(call.kw("managed_agents"), site, "managed_agents"):
            reach += self.kit.agent_item(item.expr, item.conditional, site, "managed agent")
        cand.reach.extend(reach)
        return identity

    def tool_item(self, expr: Expr, conditional: bool, owner: Site) -> list[str]:
        p = self.program
        value, var = self.kit.follow(expr)
        if isinstance(value, Ref) and value.name in p.functions:
            return self.kit.attached(value.name, conditional)
        if isinstance(value, Call):
            origin = p.origin(value.func) or ""
            if leaf(origin) in _RUNTIME_LOADERS or (from_package(origin, _PKG) and leaf(origin)[:1].islower()):
                self.kit.warn(owner.path, value.line, f"tool {describe(value)} is loaded at runtime and is not analysed", ("runtime tool", shape(value)))
                return []
            if origin in p.classes:
                return self.kit.attached(origin, conditional)
            if from_package(origin, _PKG):
                return self.external(origin, value.line, owner, conditional, var)
            if origin in p.functions:
                return [origin]
            if origin:
                self.kit.warn(owner.path, value.line, f"tool {describe(value)} from outside the repository is not analysed", ("external tool", shape(value)))
                return [origin]
        return self.kit.named_tool(value, expr, owner)

    def external(self, origin: str, line: int, owner: Site, conditional: bool, var: str | None) -> list[str]:
        cls = leaf(origin)
        return self.kit.external(origin, line, owner, conditional, var, _KNOWN_TOOLS.get(cls, cls), dangerous=cls in _DANGEROUS_TOOLS)

    # -- driver ---------------------------------------------------------------------------------

    def run(self) -> DialectResult:
        p = self.program
        for fn in p.iter_functions():
            if any(self.is_tool_decorator(d) for d in fn.decorators):
                self.decorated(fn)
        for cls in p.iter_classes():
            if self.is_tool_class(cls) and not self.is_agent(cls.symbol):
                self.tool_class(cls)
        self.kit.assigned_agents()
        for fn in p.iter_functions():
            for r in fn.returns_exprs:
                self.kit.returned(fn, r)
        self.kit.bind_factory_results()
        return self.kit.result()


def extract(program: Program) -> DialectResult:
    return _Smol(program).run()

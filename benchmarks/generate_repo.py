"""Build a large synthetic git repository for the benchmarks, deterministically (seeded).

    python benchmarks/generate_repo.py                       # defaults: 5,000 .py files, 300 agent files, 50 commits
    python benchmarks/generate_repo.py --files 20000 --agents 1000 --commits 100 --seed 7 --out /tmp/big

What it writes (all content is a pure function of the parameters; commit ids are identical on
every machine because author/committer dates and identities are fixed):

- ordinary library code under `src/acme/<area>/<sub>/` (src layout, so imports say `acme.x.y`):
  modules of 100-400 lines with dataclasses, service classes, functions, constants and imports of
  symbols defined in other modules of the repository;
- agent files in the styles behavior-receipt recognises: native markers, MCP FastMCP servers,
  OpenAI Agents SDK, PydanticAI, LangChain (with `HumanInTheLoopMiddleware`); framework tools that
  are dangerous carry a native `@tool(dangerous=True)` overlay, as a team would write it;
- some non-Python files (docs, YAML, JSON, shell, pyproject.toml);
- history: one initial commit with the whole tree, then small commits each touching a handful of
  files; about a third of them change the agent surface (approval removed, dangerous added, tool
  added/removed, read-only lost, model or description changed, agent file added). The last commit
  always removes an approval, makes a tool dangerous and adds a tool, so `HEAD~1 HEAD` has findings.

The repository is written with one `git fast-import` stream (no worktree churn, no per-commit
`git add`), then checked out once unless `--no-checkout` (the receipt reads git objects only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import WORK, mb

STYLES = ("markers", "mcp", "openai", "pydantic", "langchain")
# Styles whose approval is expressible in the framework itself (MCP has no approval concept).
APPROVAL_STYLES = ("markers", "openai", "pydantic", "langchain")

AREAS = ["analytics", "billing", "catalog", "checkout", "crm", "data", "fulfilment", "identity", "inventory", "ledger", "logistics", "marketing", "notifications", "payments", "pricing", "reporting", "risk", "search", "support", "platform"]
SUBS = ["core", "io", "models", "services", "utils", "adapters", "jobs", "api"]
VERBS = ["load", "parse", "build", "compute", "normalize", "merge", "validate", "render", "index", "resolve", "fetch", "store", "filter", "group", "score", "format", "sync", "collect", "prune", "split"]
NOUNS = ["invoice", "order", "customer", "ledger", "record", "batch", "event", "report", "session", "token", "payload", "account", "ticket", "shipment", "policy", "quota", "metric", "profile", "catalog", "entry"]
KINDS = ["Record", "Service", "Repository", "Builder", "Client", "Index", "Cache", "Policy", "Report", "Job"]
PARAMS = (
    ("items", "list[dict[str, Any]]", None),
    ("key", "str", None),
    ("limit", "int", "DEFAULT_LIMIT"),
    ("strict", "bool", "False"),
    ("payload", "dict[str, Any] | None", "None"),
    ("tags", "Iterable[str]", "()"),
    ("timeout", "float", "30.0"),
    ("name", "str", '"default"'),
)
MODELS = ("gpt-4.1", "gpt-4.1-mini", "gpt-5", "claude-sonnet-4", "o4-mini")
# (verb, noun, dangerous, read_only): what a tool of that name plausibly does.
TOOL_KINDS = (
    ("get", "invoice", False, True),
    ("search", "orders", False, True),
    ("lookup", "customer", False, True),
    ("list", "tickets", False, True),
    ("summarize", "account", False, True),
    ("create", "ticket", False, False),
    ("update", "address", False, False),
    ("send", "email", False, False),
    ("refund", "payment", True, False),
    ("delete", "record", True, False),
    ("cancel", "subscription", True, False),
    ("transfer", "funds", True, False),
    ("close", "account", True, False),
    ("run", "shell_command", True, False),
)


# --------------------------------------------------------------------------------------------------
# Library code


@dataclass
class LibModule:
    path: str
    header: str
    blocks: list[str]
    exports: list[str]  # public functions and classes other modules may import

    def text(self) -> str:
        return self.header + "\n\n\n" + "\n\n\n".join(self.blocks) + "\n"


def _module_dotted(path: str) -> str:
    return path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def _params(rng: random.Random) -> tuple[str, list[str]]:
    chosen = sorted(rng.sample(range(len(PARAMS)), rng.randint(0, 3)))
    chosen.sort(key=lambda i: PARAMS[i][2] is not None)  # no default before default
    parts, names = [], []
    for i in chosen:
        name, typ, default = PARAMS[i]
        parts.append(f"{name}: {typ}" + (f" = {default}" if default is not None else ""))
        names.append(name)
    return ", ".join(parts), names


def _statements(rng: random.Random, indent: str, names: list[str], calls: list[str], budget: int) -> list[str]:
    """Plausible function-body statements, about `budget` lines."""
    out: list[str] = [f"{indent}result: dict[str, Any] = {{}}"]
    var = names[0] if names else "DEFAULT_LIMIT"
    while len(out) < budget:
        pick = rng.randrange(9)
        noun = rng.choice(NOUNS)
        if pick == 0:
            out += [
                f"{indent}for index, value in enumerate(range({rng.randint(2, 50)})):",
                f"{indent}    if index % {rng.randint(2, 9)} == 0:",
                f'{indent}        result[f"{noun}_{{index}}"] = value * {rng.randint(2, 99)}',
            ]
        elif pick == 1 and calls:
            out.append(f"{indent}result[{noun!r}] = {rng.choice(calls)}({var!s})")
        elif pick == 2:
            out += [
                f"{indent}if {var} is None:",
                f'{indent}    logger.debug("no {noun} given; using defaults")',
                f"{indent}    return result",
            ]
        elif pick == 3:
            out += [
                f"{indent}try:",
                f"{indent}    {noun}_count = len(str({var}))",
                f"{indent}except (TypeError, ValueError) as exc:",
                f'{indent}    logger.warning("bad {noun}: %s", exc)',
                f"{indent}    {noun}_count = 0",
                f"{indent}result[{noun + '_count'!r}] = {noun}_count",
            ]
        elif pick == 4:
            out.append(f"{indent}result.setdefault({noun!r}, []).append({rng.randint(0, 10_000)})")
        elif pick == 5:
            out += [
                f"{indent}with_{noun} = [",
                f"{indent}    item for item in result.values()",
                f"{indent}    if isinstance(item, (int, float)) and item > {rng.randint(0, 500)}",
                f"{indent}]",
                f"{indent}result['with_{noun}'] = len(with_{noun})",
            ]
        elif pick == 6:
            out.append(f"{indent}result[{noun!r}] = os.environ.get({('ACME_' + noun.upper())!r}, {rng.choice(VERBS)!r})")
        elif pick == 7:
            out += [
                f"{indent}while len(result) > RETRY_LIMIT:",
                f"{indent}    result.pop(next(iter(result)))",
            ]
        else:
            out.append(f"{indent}# {rng.choice(VERBS)} the {noun} before the {rng.choice(VERBS)} step downstream")
    out.append(f"{indent}return result")
    return out


def _function(rng: random.Random, name: str, calls: list[str], indent: str = "", method: bool = False) -> str:
    sig, names = _params(rng)
    if method:
        sig = "self" + (", " + sig if sig else "")
    doc = f"{name.replace('_', ' ').strip().capitalize()} for the {rng.choice(NOUNS)} pipeline."
    lines = [f"{indent}def {name}({sig}) -> dict[str, Any]:", f'{indent}    """{doc}"""']
    lines += _statements(rng, indent + "    ", names, calls, rng.randint(4, 22))
    return "\n".join(lines)


def _class(rng: random.Random, name: str, calls: list[str]) -> str:
    if rng.random() < 0.4:
        lines = [
            "@dataclass",
            f"class {name}:",
            f'    """A {rng.choice(NOUNS)} as stored by the {rng.choice(AREAS)} service."""',
            "",
            "    id: str",
            f"    amount: float = {rng.randint(0, 100)}.0",
            "    tags: list[str] = field(default_factory=list)",
            "",
            "    def validate(self) -> bool:",
            "        if not self.id:",
            '            raise ValueError("missing id")',
            "        return self.amount >= 0",
        ]
        return "\n".join(lines)
    lines = [
        f"class {name}:",
        f'    """{rng.choice(KINDS)} for {rng.choice(NOUNS)} data."""',
        "",
        "    def __init__(self, store: dict[str, Any] | None = None) -> None:",
        "        self.store = store or {}",
        f"        self.limit = {rng.randint(1, 500)}",
    ]
    for m in sorted(rng.sample(VERBS, rng.randint(2, 5))):
        lines += ["", _function(rng, f"{m}_{rng.choice(NOUNS)}", calls, indent="    ", method=True)]
    return "\n".join(lines)


def _block(rng: random.Random, index: int, calls: list[str]) -> tuple[str, str]:
    if rng.random() < 0.3:
        name = f"{rng.choice(NOUNS).capitalize()}{rng.choice(KINDS)}{index}"
        return name, _class(rng, name, calls)
    name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{index}"
    return name, _function(rng, name, calls)


def _header(rng: random.Random, path: str, imports: list[tuple[str, str]]) -> str:
    area = path.split("/")[2]
    lines = [
        f'"""{area.capitalize()}: {rng.choice(NOUNS)} {rng.choice(VERBS)} helpers."""',
        "",
        "from __future__ import annotations",
        "",
        "import logging",
        "import os",
        "from dataclasses import dataclass, field",
        "from typing import Any, Iterable",
        "",
    ]
    by_module: dict[str, list[str]] = {}
    for mod, sym in imports:
        by_module.setdefault(mod, []).append(sym)
    for mod in sorted(by_module):
        lines.append(f"from {mod} import {', '.join(sorted(set(by_module[mod])))}")
    lines += [
        "",
        "logger = logging.getLogger(__name__)",
        "",
        f"DEFAULT_LIMIT = {rng.randint(10, 1000)}",
        f"RETRY_LIMIT = {rng.randint(3, 64)}",
        f"RETRY_DELAYS = ({rng.randint(1, 3)}, {rng.randint(4, 8)}, {rng.randint(9, 30)})",
    ]
    return "\n".join(lines)


def make_library(rng: random.Random, path: str, earlier: list[LibModule], counter: list[int]) -> LibModule:
    imports: list[tuple[str, str]] = []
    if earlier:
        for other in rng.sample(earlier, min(len(earlier), rng.randint(1, 5))):
            if other.exports:
                imports.append((_module_dotted(other.path), rng.choice(other.exports)))
    calls = [sym for _, sym in imports if sym[:1].islower()]
    header = _header(rng, path, imports)
    target = rng.randint(100, 400)
    lines = header.count("\n") + 1
    blocks: list[str] = []
    exports: list[str] = []
    while lines < target:
        counter[0] += 1
        name, text = _block(rng, counter[0], calls)
        blocks.append(text)
        exports.append(name)
        lines += text.count("\n") + 3
    return LibModule(path, header, blocks, exports)


# --------------------------------------------------------------------------------------------------
# Agent files


@dataclass
class ToolSpec:
    name: str
    verb: str
    noun: str
    dangerous: bool
    read_only: bool
    approval: str  # never | always
    doc: str
    params: tuple[tuple[str, str], ...]


@dataclass
class AgentFile:
    path: str
    style: str
    ident: int
    model: str
    instructions: str
    tools: list[ToolSpec]
    helper_imports: list[tuple[str, str]]  # (module, function) from library code
    filler: list[str] = field(default_factory=list)  # plain helper functions, library-like
    next_tool: int = 0


def _tool(rng: random.Random, ident: int, serial: int) -> ToolSpec:
    verb, noun, dangerous, read_only = rng.choice(TOOL_KINDS)
    approval = "always" if dangerous and rng.random() < 0.8 else "never"
    params = (("customer_id", "str"),) if noun in ("customer", "account") else ((f"{noun[:-1] if noun.endswith('s') and not noun.endswith('ss') else noun}_id", "str"),)
    if rng.random() < 0.4:
        params += (("reason", "str"),)
    doc = f"{verb.capitalize()} the {noun.replace('_', ' ')} for a caller ({rng.choice(AREAS)} desk)."
    return ToolSpec(f"{verb}_{noun}_{ident}_{serial}", verb, noun, dangerous, read_only, approval, doc, params)


def make_agent_file(rng: random.Random, path: str, style: str, ident: int, library: list[LibModule], counter: list[int]) -> AgentFile:
    n_tools = rng.randint(3, 7)
    tools = [_tool(rng, ident, i) for i in range(n_tools)]
    helpers = []
    for other in rng.sample(library, 2):
        funcs = [e for e in other.exports if e[:1].islower()]
        if funcs:
            helpers.append((_module_dotted(other.path), rng.choice(funcs)))
    calls = [f for _, f in helpers]
    filler = []
    for _ in range(rng.randint(1, 4)):
        counter[0] += 1
        filler.append(_function(rng, f"_{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{counter[0]}", calls))
    instructions = f"You are the {rng.choice(AREAS)} assistant #{ident}. Be {rng.choice(['brief', 'precise', 'polite'])}."
    return AgentFile(path, style, ident, rng.choice(MODELS), instructions, tools, helpers, filler, n_tools)


def _def(t: ToolSpec, helper: str | None, ctx: str = "") -> list[str]:
    params = ", ".join(([ctx] if ctx else []) + [f"{n}: {ty}" for n, ty in t.params])
    first = t.params[0][0]
    body = f"    return str({helper}({first}))" if helper else f'    return f"{t.verb} {{{first}}}: ok"'
    return [f"def {t.name}({params}) -> str:", f'    """{t.doc}"""', body]


def _imports_block(af: AgentFile, framework: list[str], overlay: bool) -> list[str]:
    lines = ['"""Agent definitions (generated for benchmarks)."""', "", "from __future__ import annotations", "", "import logging", "import os", "from typing import Any", ""]
    lines += framework
    if overlay and any(t.dangerous for t in af.tools):
        lines.append("from receipt.markers import tool as receipt_tool")
    for mod, fn in sorted(set(af.helper_imports)):
        lines.append(f"from {mod} import {fn}")
    lines += ["", "logger = logging.getLogger(__name__)", "DEFAULT_LIMIT = 50", "RETRY_LIMIT = 8"]
    return lines


def render_agent_file(af: AgentFile) -> str:
    helper = af.helper_imports[0][1] if af.helper_imports else None
    t_names = [t.name for t in af.tools]
    agent = f"{af.style}_agent_{af.ident}"
    out: list[str]
    if af.style == "markers":
        out = _imports_block(af, ["from receipt.markers import agent, tool"], overlay=False)
        for t in af.tools:
            attrs = [f"dangerous={t.dangerous}", f'approval="{t.approval}"', f"read_only={t.read_only}"]
            out += ["", "", f"@tool({', '.join(attrs)})", *_def(t, helper)]
        out += ["", "", f'@agent(model="{af.model}")', f"def {agent}(query: str) -> str:", f'    """{af.instructions}"""']
        out += [f"    {n}(query)" for n in t_names]
        out += ["    return query"]
        out += ["", "", "@agent", f"def escalation_{af.ident}(query: str) -> str:", '    """Hands hard cases to the main agent."""', f"    return {agent}(query)"]
    elif af.style == "mcp":
        out = _imports_block(af, ["from mcp.server.fastmcp import FastMCP"], overlay=False)
        out += ["", f'mcp = FastMCP("{af.style}-server-{af.ident}")']
        for t in af.tools:
            ann = {"readOnlyHint": t.read_only, "destructiveHint": t.dangerous, "idempotentHint": t.read_only, "openWorldHint": False}
            out += ["", "", f"@mcp.tool(annotations={ann!r})", *_def(t, helper)]
        out += ["", "", 'if __name__ == "__main__":', "    mcp.run()"]
    elif af.style == "openai":
        out = _imports_block(af, ["from agents import Agent, RunContextWrapper, function_tool"], overlay=True)
        for t in af.tools:
            deco = ["@receipt_tool(dangerous=True)"] if t.dangerous else []
            deco.append("@function_tool(needs_approval=True)" if t.approval == "always" else "@function_tool")
            out += ["", "", *deco, *_def(t, helper, ctx="wrapper: RunContextWrapper[Any]")]
        out += [
            "",
            "",
            f"{agent} = Agent(",
            f'    name="{agent}",',
            f'    instructions="{af.instructions}",',
            f'    model="{af.model}",',
            f"    tools=[{', '.join(t_names)}],",
            ")",
            f'triage_{af.ident} = Agent(name="triage_{af.ident}", instructions="Route the request.", handoffs=[{agent}])',
        ]
    elif af.style == "pydantic":
        out = _imports_block(af, ["from pydantic_ai import Agent, RunContext"], overlay=True)
        out += ["", f'{agent} = Agent("openai:{af.model}", name="{agent}", instructions="{af.instructions}")']
        for t in af.tools:
            deco = ["@receipt_tool(dangerous=True)"] if t.dangerous else []
            deco.append(f"@{agent}.tool(requires_approval=True)" if t.approval == "always" else f"@{agent}.tool")
            out += ["", "", *deco, *_def(t, helper, ctx="ctx: RunContext[None]")]
    elif af.style == "langchain":
        out = _imports_block(
            af,
            ["from langchain.agents import create_agent", "from langchain.agents.middleware import HumanInTheLoopMiddleware", "from langchain_core.tools import tool"],
            overlay=True,
        )
        for t in af.tools:
            deco = ["@receipt_tool(dangerous=True)"] if t.dangerous else []
            out += ["", "", *deco, "@tool", *_def(t, helper)]
        interrupt = {t.name: True for t in af.tools if t.approval == "always"}
        out += [
            "",
            "",
            f"{agent} = create_agent(",
            f'    model="{af.model}",',
            f"    tools=[{', '.join(t_names)}],",
            f'    system_prompt="{af.instructions}",',
            f"    middleware=[HumanInTheLoopMiddleware(interrupt_on={interrupt!r})],",
            ")",
        ]
    else:  # pragma: no cover
        raise ValueError(af.style)
    for f in af.filler:
        out += ["", "", f]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------------
# Non-Python files


def make_other(rng: random.Random, i: int) -> tuple[str, str]:
    area = AREAS[i % len(AREAS)]
    kind = i % 4
    if kind == 0:
        body = "\n".join(f"- {rng.choice(VERBS)} the {rng.choice(NOUNS)} ({rng.randint(1, 999)})" for _ in range(rng.randint(10, 60)))
        return f"docs/{area}/note_{i}.md", f"# {area.capitalize()} note {i}\n\n{body}\n"
    if kind == 1:
        body = "\n".join(f"  {rng.choice(NOUNS)}_{j}: {rng.randint(0, 10_000)}" for j in range(rng.randint(5, 40)))
        return f"config/{area}/settings_{i}.yaml", f"{area}:\n{body}\n"
    if kind == 2:
        data = {f"{rng.choice(NOUNS)}_{j}": rng.randint(0, 10_000) for j in range(rng.randint(5, 80))}
        return f"data/{area}/fixture_{i}.json", json.dumps(data, indent=2, sort_keys=True) + "\n"
    return f"scripts/{area}_{i}.sh", f"#!/bin/sh\nset -eu\necho '{rng.choice(VERBS)} {area}'\n"


# --------------------------------------------------------------------------------------------------
# The repository as it evolves


@dataclass
class Params:
    files: int = 5000
    agents: int = 300
    commits: int = 50
    others: int = 200
    seed: int = 1

    def slug(self) -> str:
        return f"repo-f{self.files}-a{self.agents}-c{self.commits}-o{self.others}-s{self.seed}"


@dataclass
class Commit:
    message: str
    changed: dict[str, str]
    deleted: list[str]


class World:
    def __init__(self, p: Params):
        if p.agents + len(AREAS) * 2 + 2 > p.files:
            raise SystemExit("--files must exceed --agents by at least the package __init__ files (~45)")
        self.p = p
        self.rng = random.Random(p.seed)
        self.counter = [0]
        self.library: dict[str, LibModule] = {}
        self.agent_files: dict[str, AgentFile] = {}
        self.static: dict[str, str] = {}  # __init__.py files and non-Python files
        self.lib_serial = 0
        self.removed: list[str] = []  # paths deleted by the commit being built
        self.next_agent = 0  # agent file serial: names stay unique after removals

    @staticmethod
    def _subpackages(n_lib: int) -> list[tuple[str, str]]:
        return sorted({(AREAS[i % len(AREAS)], SUBS[(i // len(AREAS)) % len(SUBS)]) for i in range(min(n_lib, len(AREAS) * len(SUBS)))})

    def _lib_path(self, i: int) -> str:
        area, sub = AREAS[i % len(AREAS)], SUBS[(i // len(AREAS)) % len(SUBS)]
        return f"src/acme/{area}/{sub}/{self.rng.choice(NOUNS)}_{self.rng.choice(KINDS).lower()}_{i}.py"

    def initial(self) -> Commit:
        p = self.p
        inits = {"src/acme/__init__.py": '"""acme: generated benchmark code base."""\n'}
        for a in AREAS:
            inits[f"src/acme/{a}/__init__.py"] = ""
            inits[f"src/acme/{a}/bots/__init__.py"] = ""
        # Sub-package __init__ files count towards --files, so the number of library modules is
        # what remains once the sub-packages they need are known.
        n_lib = p.files - p.agents - len(inits)
        while n_lib > 0 and n_lib + len(self._subpackages(n_lib)) > p.files - p.agents - len(inits):
            n_lib -= 1
        for a, s in self._subpackages(n_lib):
            inits[f"src/acme/{a}/{s}/__init__.py"] = ""
        earlier: list[LibModule] = []
        for i in range(n_lib):
            path = self._lib_path(i)
            mod = make_library(self.rng, path, earlier[-400:], self.counter)
            self.library[path] = mod
            earlier.append(mod)
        self.lib_serial = n_lib
        lib = sorted(self.library.values(), key=lambda m: m.path)
        for j in range(p.agents):
            self._new_agent_file(j, lib)
        self.static.update(inits)
        for i in range(p.others):
            path, text = make_other(self.rng, i)
            self.static[path] = text
        self.static["README.md"] = "# acme\n\nSynthetic code base generated by behavior-receipt's benchmarks.\n"
        self.static["pyproject.toml"] = '[project]\nname = "acme"\nversion = "0.1.0"\nrequires-python = ">=3.10"\n'
        changed = dict(self.static)
        changed.update({m.path: m.text() for m in self.library.values()})
        changed.update({a.path: render_agent_file(a) for a in self.agent_files.values()})
        return Commit("Initial import of the acme code base", changed, [])

    def _new_agent_file(self, j: int, lib: list[LibModule]) -> AgentFile:
        self.next_agent = j + 1
        style = STYLES[j % len(STYLES)]
        area = AREAS[(j // len(STYLES)) % len(AREAS)]
        path = f"src/acme/{area}/bots/{style}_{self.rng.choice(NOUNS)}_{j}.py"
        af = make_agent_file(self.rng, path, style, j, lib, self.counter)
        self.agent_files[path] = af
        return af

    # -- mutations: each returns (message, changed path) or None when not applicable --------------

    def _pick_agent(self, styles: tuple[str, ...], cond) -> tuple[AgentFile, ToolSpec] | None:
        files = [self.agent_files[k] for k in sorted(self.agent_files) if self.agent_files[k].style in styles]
        self.rng.shuffle(files)
        for af in files:
            tools = [t for t in af.tools if cond(t)]
            if tools:
                return af, self.rng.choice(tools)
        return None

    def approval_removed(self) -> tuple[str, str] | None:
        hit = self._pick_agent(APPROVAL_STYLES, lambda t: t.approval == "always")
        if hit is None:
            return None
        af, t = hit
        af.tools[af.tools.index(t)] = replace(t, approval="never")
        return f"{t.name}: drop the approval step", af.path

    def dangerous_added(self) -> tuple[str, str] | None:
        hit = self._pick_agent(STYLES, lambda t: not t.dangerous)
        if hit is None:
            return None
        af, t = hit
        af.tools[af.tools.index(t)] = replace(t, dangerous=True, read_only=False, doc=t.doc + " Also writes back.")
        return f"{t.name}: now writes to the backend", af.path

    def read_only_lost(self) -> tuple[str, str] | None:
        hit = self._pick_agent(("mcp", "markers"), lambda t: t.read_only)
        if hit is None:
            return None
        af, t = hit
        af.tools[af.tools.index(t)] = replace(t, read_only=False)
        return f"{t.name}: no longer read-only", af.path

    def tool_added(self) -> tuple[str, str] | None:
        af = self.agent_files[self.rng.choice(sorted(self.agent_files))]
        t = _tool(self.rng, af.ident, af.next_tool)
        af.next_tool += 1
        af.tools.append(t)
        return f"{af.style} agent {af.ident}: add tool {t.name}", af.path

    def tool_removed(self) -> tuple[str, str] | None:
        hit = self._pick_agent(STYLES, lambda t: True)
        if hit is None or len(hit[0].tools) < 2:
            return None
        af, t = hit
        af.tools.remove(t)
        return f"{af.style} agent {af.ident}: retire {t.name}", af.path

    def description_changed(self) -> tuple[str, str] | None:
        hit = self._pick_agent(STYLES, lambda t: True)
        if hit is None:
            return None
        af, t = hit
        af.tools[af.tools.index(t)] = replace(t, doc=t.doc.replace("for a caller", "for the signed-in caller"))
        return f"{t.name}: clarify the description", af.path

    def model_changed(self) -> tuple[str, str] | None:
        files = [a for k, a in sorted(self.agent_files.items()) if a.style != "mcp"]
        af = self.rng.choice(files)
        af.model = self.rng.choice([m for m in MODELS if m != af.model])
        return f"{af.style} agent {af.ident}: switch model to {af.model}", af.path

    def agent_file_added(self) -> tuple[str, str] | None:
        lib = sorted(self.library.values(), key=lambda m: m.path)
        af = self._new_agent_file(self.next_agent, lib)
        return f"new {af.style} agent {af.ident}", af.path

    def agent_file_removed(self) -> tuple[str, str] | None:
        if len(self.agent_files) < 2:
            return None
        path = self.rng.choice(sorted(self.agent_files))
        af = self.agent_files.pop(path)
        self.removed.append(path)
        return f"retire {af.style} agent {af.ident}", path

    def library_edit(self) -> tuple[str, str]:
        path = self.rng.choice(sorted(self.library))
        mod = self.library[path]
        self.counter[0] += 1
        calls = [b for b in mod.exports if b[:1].islower()][:3]
        _, text = _block(self.rng, self.counter[0], calls)
        if self.rng.random() < 0.5 and mod.blocks:
            mod.blocks[self.rng.randrange(len(mod.blocks))] = text
            return f"{path.split('/')[2]}: rework a helper", path
        mod.blocks.append(text)
        return f"{path.split('/')[2]}: add a helper", path

    def library_added(self) -> tuple[str, str]:
        self.lib_serial += 1
        path = self._lib_path(self.lib_serial)
        earlier = sorted(self.library.values(), key=lambda m: m.path)
        self.library[path] = make_library(self.rng, path, self.rng.sample(earlier, min(50, len(earlier))), self.counter)
        return f"{path.split('/')[2]}: new module", path

    def docs_edit(self) -> tuple[str, str]:
        docs = sorted(p for p in self.static if p.endswith(".md"))
        path = self.rng.choice(docs)
        self.static[path] += f"- {self.rng.choice(VERBS)} the {self.rng.choice(NOUNS)} again\n"
        return "docs: update notes", path

    def content(self, path: str) -> str:
        if path in self.library:
            return self.library[path].text()
        if path in self.agent_files:
            return render_agent_file(self.agent_files[path])
        return self.static[path]

    def next_commit(self, last: bool) -> Commit:
        rng = self.rng
        edits: list[tuple[str, str]] = []
        surface_ops = (
            self.approval_removed,
            self.dangerous_added,
            self.tool_added,
            self.tool_removed,
            self.description_changed,
            self.model_changed,
            self.read_only_lost,
            self.agent_file_added,
            self.agent_file_removed,
        )
        if last:
            wanted = [self.approval_removed, self.dangerous_added, self.tool_added]
        elif rng.random() < 0.35:
            wanted = [rng.choice(surface_ops)]
        else:
            wanted = []
        for op in wanted:
            hit = op()
            if hit:
                edits.append(hit)
        for _ in range(rng.randint(2, 6)):
            r = rng.random()
            edits.append(self.library_edit() if r < 0.8 else self.library_added() if r < 0.9 else self.docs_edit())
        deleted, self.removed = sorted(self.removed), []
        paths = sorted({p for _, p in edits} - set(deleted))
        message = edits[0][0] + (f" (+{len(edits) - 1} more edits)" if len(edits) > 1 else "")
        return Commit(message, {p: self.content(p) for p in paths}, deleted)


# --------------------------------------------------------------------------------------------------
# Writing the repository


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def write_repo(p: Params, out: Path, checkout: bool = True) -> dict[str, object]:
    t0 = time.perf_counter()
    world = World(p)
    tmp = Path(tempfile.mkdtemp(prefix=out.name + ".tmp-", dir=out.parent))
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp)], check=True, env=env)
    subprocess.run(["git", "-C", str(tmp), "config", "gc.auto", "0"], check=True, env=env)
    proc = subprocess.Popen(["git", "-C", str(tmp), "fast-import", "--quiet", "--done"], stdin=subprocess.PIPE, env=env)
    assert proc.stdin is not None
    when = 1_700_000_000
    n_commits = 0
    tree: dict[str, int] = {}
    for i in range(p.commits):
        c = world.initial() if i == 0 else world.next_commit(last=i == p.commits - 1)
        ident = b"Bench Bot <bench@example.invalid> %d +0000" % (when + i * 3600)
        chunks = [b"commit refs/heads/main\n", b"mark :%d\n" % (i + 1), b"author " + ident + b"\n", b"committer " + ident + b"\n"]
        chunks.append(_data(c.message.encode()))
        if i:
            chunks.append(b"from :%d\n" % i)
        for path in sorted(c.changed):
            payload = c.changed[path].encode()
            mode = b"100755" if path.endswith(".sh") else b"100644"
            chunks.append(b"M " + mode + b" inline " + path.encode() + b"\n" + _data(payload))
            tree[path] = len(payload)
        for path in sorted(c.deleted):
            chunks.append(b"D " + path.encode() + b"\n")
            tree.pop(path, None)
        proc.stdin.write(b"".join(chunks) + b"\n")
        n_commits += 1
    proc.stdin.write(b"done\n")
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    if checkout:
        subprocess.run(["git", "-C", str(tmp), "reset", "-q", "--hard", "main"], check=True, env=env)
    if out.exists():  # callers only get here for a repository this script generated (see main)
        shutil.rmtree(out)
    tmp.rename(out)
    head = subprocess.run(["git", "-C", str(out), "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    py = {k: v for k, v in tree.items() if k.endswith(".py")}
    stats: dict[str, object] = {
        "params": p.__dict__,
        "path": str(out),
        "head": head,
        "commits": n_commits,
        "files": len(tree),
        "python_files": len(py),
        "agent_files": len(world.agent_files),
        "other_files": len(tree) - len(py),
        "bytes": sum(tree.values()),
        "python_bytes": sum(py.values()),
        "python_lines": sum(world.content(k).count("\n") for k in py),
        "seconds": round(time.perf_counter() - t0, 2),
    }
    (out / ".git" / "bench-stats.json").write_text(json.dumps(stats, indent=2, sort_keys=True) + "\n")
    return stats


def ensure_repo(p: Params, out: Path | None = None, quiet: bool = False) -> Path:
    """The generated repository for `p`, built on first use (reused afterwards: generation is deterministic).

    An existing `out` is used as it is, generated or not: the benchmarks also run on a real repository.
    """
    out = out or WORK / p.slug()
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        stats = write_repo(p, out, checkout=False)
        if not quiet:
            print_stats(stats)
    return out


def print_stats(stats: dict[str, object]) -> None:
    print(f"repository  {stats['path']}")
    print(f"HEAD        {stats['head']}")
    print(f"commits     {stats['commits']}")
    print(
        f"files       {stats['files']} at HEAD: {stats['python_files']} Python "
        f"({stats['agent_files']} agent files), {stats['other_files']} other"
    )
    print(f"size        {mb(stats['bytes']):.1f} MB ({mb(stats['python_bytes']):.1f} MB Python, {stats['python_lines']:,} lines)")  # type: ignore[arg-type]
    print(f"generated   in {stats['seconds']} s")


# What the benchmark scripts generate by default: sized so that a default run of both stays near
# five minutes on a 2-core machine. The generator's own default is the 5,000-file repository.
BENCH_DEFAULTS = Params(files=1000, agents=60, commits=50, others=40)


def add_params(ap: argparse.ArgumentParser, d: Params | None = None) -> None:
    d = d or Params()
    ap.add_argument("--files", type=int, default=d.files, help=f"Python files in the initial tree (default {d.files})")
    ap.add_argument("--agents", type=int, default=d.agents, help=f"agent files among them (default {d.agents})")
    ap.add_argument("--commits", type=int, default=d.commits, help=f"commits, the initial import included (default {d.commits})")
    ap.add_argument("--others", type=int, default=d.others, help=f"non-Python files (default {d.others})")
    ap.add_argument("--seed", type=int, default=d.seed, help=f"random seed (default {d.seed})")
    ap.add_argument("--repo", type=Path, default=None, help="where the repository is (generated there if missing); default benchmarks/.work/<params>")


def params_from(args: argparse.Namespace) -> Params:
    return Params(files=args.files, agents=args.agents, commits=args.commits, others=args.others, seed=args.seed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    add_params(ap)
    ap.add_argument("--force", action="store_true", help="regenerate even if it exists")
    ap.add_argument("--no-checkout", action="store_true", help="write git objects only (the receipt needs no worktree)")
    args = ap.parse_args(argv)
    p = params_from(args)
    if args.commits < 11:
        print("note: fewer than 11 commits: the HEAD~10 benchmark will not run on this repository", file=sys.stderr)
    out = (args.repo or WORK / p.slug()).resolve()
    stats_file = out / ".git" / "bench-stats.json"
    if out.exists() and not stats_file.exists():
        print(f"refusing to overwrite {out}: it exists and was not generated by this script", file=sys.stderr)
        return 2
    if out.exists() and not args.force:
        print(f"exists (use --force to regenerate): {out}")
        print_stats({**json.loads(stats_file.read_text()), "path": str(out)})
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    print_stats(write_repo(p, out, checkout=not args.no_checkout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

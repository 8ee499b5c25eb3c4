"""Per-file extraction, the linked program, and the facts cache."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from receipt.extract import extract_file
from receipt.extract.cache import FactsCache
from receipt.extract.facts import Call, Const, Dyn, Ref, Seq, facts_from_json, facts_to_json
from receipt.extract.program import Item, Program, describe
from receipt.models import Dynamic


def facts(path: str, src: str):
    return extract_file(path, textwrap.dedent(src).encode())


def program(files: dict[str, str]) -> Program:
    return Program([facts(p, s) for p, s in files.items()])


def test_names_are_qualified_through_imports_including_relative_ones() -> None:
    f = facts(
        "pkg/sub/mod.py",
        """
        import os.path
        import json as j
        from ..tools import refund as r
        from . import sibling
        x = r(os.path.join("a"), j.dumps(1), sibling.thing)
        """,
    )
    call = f.assigns[0].value
    assert isinstance(call, Call)
    assert call.func == Ref("pkg.tools.refund")
    assert call.args[0].func == Ref("os.path.join")  # type: ignore[union-attr]
    assert call.args[1].func == Ref("json.dumps")  # type: ignore[union-attr]
    assert call.args[2] == Ref("pkg.sub.sibling.thing")


def test_package_init_relative_import() -> None:
    f = facts("pkg/__init__.py", "from .tools import refund\n")
    assert f.module == "pkg" and f.is_package
    assert f.imports == {"pkg.refund": "pkg.tools.refund"}


def test_parameters_and_unknowables_are_dynamic_with_source() -> None:
    f = facts(
        "m.py",
        """
        import os
        def make(flag):
            a = flag
            b = os.environ["APPROVAL"]
            c = f"x{flag}"
        """,
    )
    values = {a.target: a.value for a in f.assigns}
    assert values["m.make.<locals>.a"] == Dyn("flag", "parameter")
    assert values["m.make.<locals>.b"] == Dyn("os.environ['APPROVAL']", "subscript", (Ref("os.environ"), Const("APPROVAL")))
    assert isinstance(values["m.make.<locals>.c"], Dyn)
    assert all(a.conditional for a in f.assigns)  # inside a factory


def test_syntax_error_is_a_fact_not_an_exception() -> None:
    f = facts("broken.py", "def f(:\n")
    assert f.error and f.error["reason"] == "syntax-error" and f.error["line"] == 1


def test_a_store_into_a_parameter_s_private_state_is_kept_as_the_call_it_amounts_to() -> None:
    f = facts("m.py", """
        def install(mcp, tools):
            mcp._tool_manager._tools = {}
            for t in tools:
                mcp._tool_manager._tools[t.name] = t
            mcp.settings.port = 8000
            mcp.public[0] = 1
        """)
    calls = [e.call.func.src for e in f.effects if isinstance(e.call.func, Dyn)]
    # The reset and the item store on private state; a public attribute or item is no such write.
    assert calls == ["mcp._tool_manager.__setattr__", "mcp._tool_manager._tools.__setitem__"]


def test_a_project_template_is_named_as_one() -> None:
    # cookiecutter / Jinja templates keep `.py` names: the error says what the file is, and what to do.
    template = "from google.adk.agents import Agent\n{%- if cookiecutter.use_key %}\nimport os\n{%- endif %}\nroot_agent = Agent(name='a')\n"
    f = facts("app/agent.py", template)
    assert f.error and f.error["reason"] == "syntax-error"
    assert "template" in f.error["message"] and "exclude it in the config" in f.error["message"]
    plain = facts("broken.py", "def f(:\n    return {'%': 1}\n")
    assert plain.error and "template" not in plain.error["message"]


def test_encodings_binary_and_non_utf8() -> None:
    latin = "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1")
    f = extract_file("latin.py", latin)
    assert f.error is None and f.assigns[0].value == Const("café")
    bad = extract_file("bad.py", b"x = '\xff\xfe'\n")
    assert bad.error and bad.error["reason"] == "non-utf8"
    binary = extract_file("bin.py", b"\x00\x01\x02")
    assert binary.error and binary.error["reason"] == "binary"
    bom = extract_file("bom.py", b"\xef\xbb\xbfx = 1\n")
    assert bom.error is None


def test_facts_round_trip_through_json() -> None:
    f = facts(
        "m.py",
        """
        from x import y
        @y.tool(name="n", flags=[1, *z], opts={"a": 1, **w})
        async def t(a: int, *args, b: str = "d", **kw) -> str:
            '''doc'''
            raise Boom()
            return helper(a) + "x"
        class C(Base):
            name = "c"
            def m(self): pass
        items = [1]
        items.append(2)
        """,
    )
    j = facts_to_json(f)
    assert facts_to_json(facts_from_json(json.loads(json.dumps(j)))) == j


def test_an_entry_made_in_the_run_reads_back_as_a_checked_one_and_a_forged_one_from_the_cache_is_a_miss(tmp_path: Path) -> None:
    """A worker's entry is decoded without its types checked again (`made=True`): the facts are
    those the checked read gives, every kind of expression and record included; an entry read
    from the cache directory is still checked."""
    from receipt.extract.cache import pack, unpack

    from receipt.extract.cache import decode_entry, dumps, encode_entry, loads

    f = facts(
        "app/m.py",
        """
        from x import y, Agent
        CFG = {"model": "m", **BASE}
        @y.tool(name="n", flags=[1, *z], opts={"a": 1.5, "b": -0.0, "c": 1e999, "d": None, "e": True})
        async def t(a: int, *args, b: str = "d", **kw) -> str:
            '''doc'''
            try:
                go(a, **kw)
            except (KeyError, OSError):
                raise Boom(f"bad {a!r:>4}")
            return helper(a)().attr + "x" + PROMPTS[a] + TOOLS[1:a]
        class C(Base, metaclass=M):
            limit: Annotated[int, Field(ge=1)] = 10
            def m(self, p): p["k"] = 1
        agent = Agent(**CFG, name="x", tools=[t, *extra])
        items = [1]
        items += [2]
        if agent: items.append(globals()["hel" + "per"]())
        """,
    )
    raw = encode_entry("b1", "app/m.py", f)
    made, checked = decode_entry(raw, "b1", "app/m.py", made=True), decode_entry(raw, "b1", "app/m.py")
    assert made == checked == f and repr(made) == repr(checked) == repr(f)
    assert facts_to_json(made) == facts_to_json(checked) == facts_to_json(f)

    cache = FactsCache(tmp_path)
    cache.put("b1", "app/m.py", f)
    [entry] = list((tmp_path / "facts").rglob("*.zjson"))
    data = loads(unpack(entry.read_bytes()))
    rows = data["facts"][-1]
    call = next(i for i, r in enumerate(rows) if isinstance(r, list) and r[0] == 0 and r[2])
    rows[call][2][0] = call  # a call that is its own argument: a cycle
    entry.write_bytes(pack(dumps(data)))
    assert FactsCache(tmp_path).get("b1", "app/m.py") is None

def test_a_calls_spread_is_kept_through_the_cache_and_read_by_value() -> None:
    """`Agent(**CFG)`: the spread expression survives the cache's round trip, and Program reads the
    keywords a literal dict gives (nested `**`, `dict(...)`, a later item assignment), leaving a
    spread it cannot read a spread."""
    p = program(
        {
            "cfg.py": "BASE = dict(model='m1')\nCFG = {**BASE, 'tools': [a, b]}\nCFG['model'] = 'm2'\n",
            "app.py": "from cfg import CFG\nagent = Agent(**CFG, name='x')\nother = Agent(**make(), name='y')\n",
        }
    )
    m = p.modules["app"]
    again = facts_from_json(json.loads(json.dumps(facts_to_json(m))))
    call = again.assigns[0].value
    assert isinstance(call, Call) and call.spread == (Ref("cfg.CFG"),) and call.star and call.kw("tools") is None
    read = p.spread_call(call)
    tools = read.kw("tools")
    assert isinstance(tools, Seq) and [i.name for i in tools.items] == ["cfg.a", "cfg.b"]  # type: ignore[union-attr]
    assert p.evaluate(read.kw("model")) == "m2" and p.evaluate(read.kw("name")) == "x"
    assert not read.star and read.spread == ()
    unread = p.spread_call(again.assigns[1].value)
    assert unread.star and len(unread.spread) == 1 and unread.kw("tools") is None


def test_a_spread_dict_is_read_with_the_changes_made_through_every_name_of_it_before_the_copy() -> None:
    """`CFG = BASE` names one dict: a change through either name is a change of what `**CFG`
    passes; a change after a module-level `Agent(**CFG)` in that module is not (the keys were
    copied); one the copy cannot be ordered against (another module, a function that may run
    first) leaves the spread unread, and a dict changed through two names is not guessed."""
    base = "BASE = {'tools': [a]}\nCFG = BASE\nCFG['model'] = 'm'\n"

    def read(files: dict[str, str], module: str = "app") -> Call:
        p = program(files)
        call = next(v for a in reversed(p.modules[module].assigns) if isinstance(v := a.value, Call) and v.spread)
        return p.spread_call(call)

    through_base = read({"app.py": base + "BASE['tools'] = [a, refund]\nagent = Agent(**CFG)\n"})
    assert [i.name for i in through_base.kw("tools").items] == ["app.a", "app.refund"]  # type: ignore[union-attr]
    assert not read({"app.py": base + "BASE.update(tools=[a, refund])\nagent = Agent(**CFG)\n"}).kw("tools")
    popped = read({"app.py": "BASE = dict(tools=[a])\nCFG = BASE\nCFG['model'] = 'm'\nBASE.pop('tools')\nagent = Agent(**CFG)\n"})
    assert popped.star and popped.kw("tools") is None
    through_alias = read({"app.py": base + "CFG['tools'] = [a, refund]\nagent = Agent(**BASE)\n"})
    assert [i.name for i in through_alias.kw("tools").items] == ["app.a", "app.refund"]  # type: ignore[union-attr]
    unordered = read({"conf.py": "BASE = {'tools': [a]}\n", "other.py": "from conf import BASE\nX = BASE\nX['tools'] = [refund]\n",
                      "app.py": "from conf import BASE\nagent = Agent(**BASE)\n"})
    assert unordered.star and unordered.kw("tools") is None
    after = read({"app.py": base + "agent = Agent(**CFG)\nBASE['tools'] = [a, refund]\n"})
    assert [i.name for i in after.kw("tools").items] == ["app.a"] and not after.star  # type: ignore[union-attr]
    nested = read({"app.py": "BASE = {'tools': [a]}\nCFG = {**BASE, 'model': 'm'}\nBASE['tools'] = [refund]\nagent = Agent(**CFG)\n"})
    assert [i.name for i in nested.kw("tools").items] == ["app.a"]  # type: ignore[union-attr]
    in_function = read({"app.py": "CFG = {'tools': [a]}\ndef make():\n    x = Agent(**CFG)\n    return x\nCFG['tools'] = [refund]\n"})
    assert in_function.star and in_function.kw("tools") is None
    elsewhere = read({"conf.py": "CFG = {'tools': [a]}\n", "other.py": "import conf\nconf.CFG['tools'] = [refund]\n",
                      "app.py": "from conf import CFG\nagent = Agent(**CFG)\n"})
    assert elsewhere.star and elsewhere.kw("tools") is None
    at_import = read({"conf.py": "CFG = {'tools': [a]}\nCFG['tools'] = [refund]\n", "app.py": "from conf import CFG\nagent = Agent(**CFG)\n"})
    assert [i.name for i in at_import.kw("tools").items] == ["conf.refund"]  # type: ignore[union-attr]
    appended = read({"app.py": "CFG = {'tools': [a]}\nCFG['tools'].append(refund)\nagent = Agent(**CFG)\n"})
    assert appended.star and appended.kw("tools") is None  # the list in the dict changed in place
    # evaluate: the object's content once the modules ran, changes through every name in the order they run
    p = program({"app.py": base + "BASE['tools'] = [a, refund]\n"})
    both = p.evaluate(Ref("app.CFG"))
    assert both["model"] == "m" and len(both["tools"]) == 2 and p.evaluate(Ref("app.BASE")) == both
    later = program({"app.py": "BASE = {'ro': True}\ncfg = BASE\ncfg['ro'] = False\n"})
    assert later.evaluate(Ref("app.BASE")) == {"ro": False}  # through a name bound after it
    ordered = program({"app.py": "D = {'ro': True}\nH = {}\nH.update(D)\nH['ro'] = False\nX = {}\nX['ro'] = False\nX.update(D)\n"})
    assert ordered.evaluate(Ref("app.H")) == {"ro": False} and ordered.evaluate(Ref("app.X")) == {"ro": True}
    two = program({"conf.py": "BASE = {'ro': True, 'ow': False}\n", "a.py": "from conf import BASE\nBASE['ro'] = False\n",
                   "b.py": "from conf import BASE\nBASE['ro'] = True\nBASE['title'] = 'T'\n"})
    both_ways = two.evaluate(Ref("conf.BASE"))  # which of a and b runs last is not known: what they change is dynamic
    assert isinstance(both_ways["ro"], Dynamic) and isinstance(both_ways["title"], Dynamic) and both_ways["ow"] is False
    unread = program({"conf.py": "BASE = {'ro': True}\n", "a.py": "from conf import BASE\nBASE['ro'] = False\n",
                      "b.py": "from conf import BASE, EXTRA\nBASE.update(EXTRA)\n"})
    assert isinstance(unread.evaluate(Ref("conf.BASE")), Dynamic)  # keys not read, not ordered: the whole dict
    helped = program({"app.py": "def allow(c):\n    c['ro'] = False\ndef setup(c):\n    allow(c)\nBASE = {'ro': True}\nsetup(BASE)\n"})
    assert isinstance(helped.evaluate(Ref("app.BASE")), Dynamic)  # changed in place by a helper (through another)
    read_only = program({"app.py": "def show(c):\n    print(c['ro'])\nBASE = {'ro': True}\nshow(BASE)\n"})
    assert read_only.evaluate(Ref("app.BASE")) == {"ro": True}  # a helper that only reads it changes nothing
    tried = program({"app.py": "BASE = {'ro': True}\ntry:\n    check()\n    BASE['ro'] = False\nexcept E:\n    pass\n"})
    assert isinstance(tried.evaluate(Ref("app.BASE"))["ro"], Dynamic)  # may not run: check() may raise


def test_a_helper_changes_its_parameter_through_a_shallow_copy_only_by_the_items_it_shares() -> None:
    """A shallow copy's own keys are the copy's, however they are reached (a closure, another local
    name of it); its items are the caller's, however they are reached (a local naming the parameter
    or the copy)."""
    src = """
    def shared(config):
        c = config
        c["tools"].append(x)
    def copy_alias_item(config):
        config = dict(config)
        c = config
        d = c
        d["tools"].append(x)
    def copy_alias_key(config):
        config = dict(config)
        c = config
        c["model"] = 1
        c.update(a=1)
        d = c
        del d["x"]
        d |= {"b": 2}
    def closure_key(config):
        config = dict(config)
        def inner():
            config["model"] = 1
            config.update(a=1)
        inner()
    def closure_item(config):
        config = dict(config)
        c = config
        def inner():
            c["tools"]["a"] = 1
        inner()
    def closure_through_item(config):
        tools = config["tools"]
        def inner():
            tools[0] = 1
        inner()
    def closure_own_param(config):
        config = dict(config)
        def inner(config):
            config["model"] = 1
        inner({})
    """
    mutates = {f.name: f.mutates for f in facts("app.py", src).functions if "<locals>" not in f.symbol}
    assert mutates == {"shared": ["config"], "copy_alias_item": ["config"], "copy_alias_key": [], "closure_key": [],
                       "closure_item": ["config"], "closure_through_item": ["config"], "closure_own_param": []}


def test_program_sees_through_typing_cast_everywhere() -> None:
    """`cast(T, value)` returns `value`: its value, items, rendering and what a name holding it holds are the value's."""
    p = program(
        {
            "m.py": "from typing import cast\nimport typing_extensions as te\nPROMPT = 'Be brief.'\n"
                    "import os\nA = cast(str, PROMPT)\nB = te.cast('list[str]', [x, y])\nC = cast(str, val=cast(str, os.getenv('M')))\nD = os.getenv('M')\n",
        }
    )
    assert p.evaluate(Ref("m.A")) == "Be brief." and p.value_of(Ref("m.A")) == Const("Be brief.")
    assert [i.expr for i in p.items(Ref("m.B"))] == [Ref("m.x"), Ref("m.y")]  # type: ignore[union-attr]
    assert p.render(Ref("m.C")) == p.render(Ref("m.D")) == "(= os.getenv('M'))"
    assert describe(p.value_of(Ref("m.C"))) == describe(p.value_of(Ref("m.D"))) == "os.getenv('M')"  # type: ignore[arg-type]


def test_program_follows_reexports_star_imports_and_aliases() -> None:
    p = program(
        {
            "pkg/__init__.py": "from .impl import *\n",
            "pkg/impl.py": "def refund(): pass\nalias = refund\n__all__ = ['refund']\n",
            "app/use.py": "import pkg\nfrom pkg import alias as a\nx = pkg.refund\n",
        }
    )
    assert p.canonical("pkg.refund") == "pkg.impl.refund"
    assert p.canonical("app.use.a") == "pkg.impl.refund"
    assert p.canonical("mcp.server.fastmcp.FastMCP") == "mcp.server.fastmcp.FastMCP"  # external


def test_src_layout_modules_resolve_by_suffix() -> None:
    p = program({"src/pkg/tools.py": "def refund(): pass\n", "src/pkg/agent.py": "from pkg.tools import refund\n"})
    assert p.canonical("src.pkg.agent.refund") == "src.pkg.tools.refund"


def test_evaluate_constants_helpers_enums_and_dynamic() -> None:
    p = program(
        {
            "m.py": """
            import os
            from enum import Enum
            READ_ONLY = True
            ANN = {"readOnlyHint": READ_ONLY, "title": "T" + "x"}
            class Names(str, Enum):
                REFUND = "refund_order"
            def approvals():
                return {"refund_order": True, **ANN}
            def takes(x):
                return {"a": x}
            ENV = os.environ.get("MODE")
            """
        }
    )
    assert p.evaluate(Ref("m.ANN")) == {"readOnlyHint": True, "title": "Tx"}
    assert p.evaluate(Ref("m.Names.REFUND")) == "refund_order"
    assert p.evaluate(Ref("m.Names.REFUND.value")) == "refund_order"
    assert p.evaluate(Call(Ref("m.approvals"))) == {"refund_order": True, "readOnlyHint": True, "title": "Tx"}
    assert isinstance(p.evaluate(Call(Ref("m.takes"), (Const(1),))), Dynamic)
    env = p.evaluate(Ref("m.ENV"))
    assert isinstance(env, Dynamic) and "os.environ.get" in env.dynamic


def test_items_follow_appends_extends_and_flags() -> None:
    p = program(
        {
            "m.py": """
            import os
            base = [a, b]
            tools = [*base, c]
            tools.extend([d])
            tools += [e]
            if os.environ.get("X"):
                tools.append(f)
            """
        }
    )
    items = p.items(Ref("m.tools"))
    assert [(i.expr.name.split(".")[-1], i.conditional) for i in items] == [  # type: ignore[union-attr]
        ("a", False), ("b", False), ("c", False), ("e", False), ("d", False), ("f", True),
    ]
    assert isinstance(p.items(Dyn("get_tools()")), Dynamic)
    assert Item(Ref("x")) == Item(Ref("x"), False)


def test_cache_hits_rebuilds_corrupt_entries_and_never_shares_paths(tmp_path: Path) -> None:
    cache = FactsCache(tmp_path)
    f = facts("m.py", "x = 1\n")
    cache.put("abc123", "m.py", f)
    assert facts_to_json(FactsCache(tmp_path).get("abc123", "m.py")) == facts_to_json(f)  # type: ignore[arg-type]
    assert FactsCache(tmp_path).get("abc123", "other.py") is None  # same blob at another path is another module
    entry = next((tmp_path / "facts").rglob("*.zjson"))
    entry.write_text("{not json")
    next_run = FactsCache(tmp_path)  # a later run reads the disk
    assert next_run.get("abc123", "m.py") is None
    next_run.put("abc123", "m.py", f)
    assert FactsCache(tmp_path).get("abc123", "m.py") is not None
    assert not list(tmp_path.rglob(".tmp-*"))  # atomic writes leave no temp files


def test_cache_entries_are_bound_to_blob_extractor_and_interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt.extract import cache as cache_mod

    f = facts("m.py", "x = 1\n")
    monkeypatch.setattr(cache_mod, "INTERPRETER", "cpython-3.99.0")  # filled by another Python
    FactsCache(tmp_path).put("abc123", "m.py", f)
    [other] = list((tmp_path / "facts").rglob("*.zjson"))
    monkeypatch.undo()
    assert FactsCache(tmp_path).get("abc123", "m.py") is None  # another interpreter's entry is never read
    FactsCache(tmp_path).put("abc123", "m.py", f)
    mine = next(p for p in (tmp_path / "facts").rglob("*.zjson") if p != other)
    mine.write_bytes(other.read_bytes())  # the other Python's content under this Python's name
    assert FactsCache(tmp_path).get("abc123", "m.py") is None  # checked on read, not only by name
    FactsCache(tmp_path).put("def456", "m.py", facts("m.py", "y = 2\n"))
    FactsCache(tmp_path).put("abc123", "m.py", f)
    entries = {p.read_bytes(): p for p in (tmp_path / "facts").rglob("*.zjson") if p != other}
    assert len(entries) == 2
    a, b = entries.values()
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)  # same path, other blob: a rotated cache
    assert FactsCache(tmp_path).get("abc123", "m.py") is None
    assert FactsCache(tmp_path).get("def456", "m.py") is None


def test_cache_is_bounded_least_recently_used_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from receipt.extract.cache import prune

    for i in range(10):
        c = FactsCache(tmp_path)
        c.put(f"blob{i}", "m.py", facts("m.py", f"x = {i}\n" * 50))
    files = sorted((tmp_path / "facts").rglob("*.zjson"))
    for age, p in enumerate(files):
        os.utime(p, (1_000_000 + age, 1_000_000 + age))  # files[-1] is the most recently used
    size = sum(p.stat().st_size for p in files)
    assert prune(tmp_path, size) == 0  # within the bound: nothing deleted
    assert prune(tmp_path, size // 2) > 0
    left = sorted((tmp_path / "facts").rglob("*.zjson"))
    assert left and set(left) < set(files)
    assert files[-1] in left and files[0] not in left
    assert sum(p.stat().st_size for p in left) <= size // 2


def test_cache_shares_facts_between_revisions_in_one_run_even_without_a_directory() -> None:
    cache = FactsCache(None)  # caching disabled on disk
    f = facts("m.py", "x = 1\n")
    cache.put("abc", "m.py", f)
    assert cache.get("abc", "m.py") is f  # the second revision reuses the first one's facts
    assert cache.get("abc", "n.py") is None


SHARED_CALLS = """
from agents import Agent, function_tool
import acme

@function_tool(needs_approval=acme.policy(acme.level("high")))
def refund(order: str) -> str:
    return acme.pay(acme.lookup(order), reason=acme.reason("refund"))

def build(name):
    tools = [refund, acme.wrap(acme.make(name))]
    tools.append(acme.make("audit"))
    return Agent(name=acme.label("support"), tools=tools, model=acme.model(name))

triage = Agent(name="triage", handoffs=[build("x")])
"""


def _distinct_calls(m) -> int:  # type: ignore[no-untyped-def]
    from receipt.extract.facts import nodes_in

    exprs = [*(a.value for a in m.assigns), *(e.call for e in m.effects)]
    for fn in m.functions:
        exprs += [*fn.decorators, *fn.calls, *fn.raises, *fn.returns_exprs, *(p.default_expr for p in fn.params if p.default_expr)]
    return len({id(c) for e in exprs for c in nodes_in(e, (Call,))})


def test_cached_facts_hold_each_call_once_and_link_to_the_same_surface(tmp_path: Path) -> None:
    """A call inside an expression is also in its function's `calls`: the cache keeps one object
    for both (as extraction does), so decoded facts cost no more memory and mean the same."""
    from receipt.pipeline import surface_from_facts

    fresh = facts("app/bots.py", SHARED_CALLS)
    FactsCache(tmp_path).put("b1", "app/bots.py", fresh)
    decoded = FactsCache(tmp_path).get("b1", "app/bots.py")  # a later run reads the disk
    assert decoded is not None and decoded is not fresh
    assert decoded == fresh
    assert _distinct_calls(decoded) == _distinct_calls(fresh)
    build = next(f for f in decoded.functions if f.name == "build")
    returned = build.returns_exprs[0]
    assert any(c is returned for c in build.calls)  # the returned Agent(...) call is one object
    assert sum(1 for c in build.calls if c.func == Ref("acme.make")) == 2  # equal-looking calls stay two
    s_fresh, _ = surface_from_facts([fresh], rev="r", sha="0" * 40)
    s_decoded, _ = surface_from_facts([decoded], rev="r", sha="0" * 40)
    assert s_fresh.tools and s_fresh.agents
    assert s_decoded.model_dump(mode="json") == s_fresh.model_dump(mode="json")


def test_cache_entries_of_an_older_facts_format_are_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt.extract import cache as cache_mod

    f = facts("app/bots.py", SHARED_CALLS)
    monkeypatch.setattr(cache_mod, "FORMAT", "facts-v4")  # written by the version before shared calls
    FactsCache(tmp_path).put("b1", "app/bots.py", f)
    [old] = list((tmp_path / "facts").rglob("*.zjson"))
    monkeypatch.undo()
    assert FactsCache(tmp_path).get("b1", "app/bots.py") is None
    FactsCache(tmp_path).put("b1", "app/bots.py", f)
    [new] = [p for p in (tmp_path / "facts").rglob("*.zjson") if p != old]
    new.write_bytes(old.read_bytes())  # the old entry under the new name: checked on read too
    assert FactsCache(tmp_path).get("b1", "app/bots.py") is None


def test_cache_entry_referring_outside_its_table_of_expressions_is_extracted_again(tmp_path: Path) -> None:
    """An entry's expressions are a table in which each row refers only to rows before it: an
    index past the table, a negative one, a row referring to itself (a cycle) or an unknown row
    makes the file extracted again, never a crash or other facts."""
    from receipt.extract.cache import pack, unpack

    from receipt.extract.cache import dumps, loads

    f = facts("app/bots.py", SHARED_CALLS)
    FactsCache(tmp_path).put("b1", "app/bots.py", f)
    [entry] = list((tmp_path / "facts").rglob("*.zjson"))
    good = loads(unpack(entry.read_bytes()))
    rows = good["facts"][-1]  # the table comes last
    effects = 12  # the column of the effects' calls (see facts_to_json)
    assert good["facts"][effects] and all(isinstance(i, int) for i in good["facts"][effects])
    last_call = max(i for i, r in enumerate(rows) if isinstance(r, list) and r[0] == 0)

    def spoilt(change) -> object:  # type: ignore[no-untyped-def]
        data = loads(dumps(good))
        change(data["facts"])
        entry.write_bytes(pack(dumps(data)))
        return FactsCache(tmp_path).get("b1", "app/bots.py")

    for bad in (len(rows), -1):
        assert spoilt(lambda j, bad=bad: j[effects].__setitem__(0, bad)) is None  # the append call, outside the table
    assert spoilt(lambda j: j[-1][last_call].__setitem__(1, last_call)) is None  # a call that is its own callee
    assert spoilt(lambda j: j[-1].__setitem__(last_call, [99, 0])) is None  # no such kind of expression
    assert spoilt(lambda j: j.pop()) is None  # a field missing
    # A keyword without its value (an odd key/value row) is a corrupt entry, not a dropped argument.
    assert spoilt(lambda j: j[-1][last_call].__setitem__(3, ["requires_approval"])) is None
    assert spoilt(lambda j: None) == f  # the same bytes read back: the same facts


def test_cached_facts_keep_values_json_cannot_spell(tmp_path: Path) -> None:
    """Python source spells values JSON has no text for (infinity, integers beyond 64 bits, lone
    surrogates): a cached entry reads back exactly what extraction made."""
    src = 'A = (1e999, 12345678901234567890123456789, "x")\nB = "\\ud800"\nC = 1e999\n'
    for text, fallback in ((src, True), (src.replace("12345678901234567890123456789", "7").replace('"\\ud800"', '"y"'), False)):
        fresh = facts("m.py", text)
        FactsCache(tmp_path).put("b" + str(fallback), "m.py", fresh)
        got = FactsCache(tmp_path).get("b" + str(fallback), "m.py")
        assert got is not None and got is not fresh
        assert repr(got) == repr(fresh)
        assert [a.value for a in got.assigns][2] == Const(float("inf"))
    assert repr(facts("m.py", src).assigns[1].value) == repr(Const("\ud800"))


def test_cached_constants_keep_their_type_and_sign_when_shared_between_files(tmp_path: Path) -> None:
    """Decoded constants are shared across the run's files; `True == 1` and `0.0 == -0.0` must
    still read back as what each file wrote."""
    a = facts("a.py", "X = (True, 1, 0.0, -0.0, '1', None, False, 0)\n")
    b = facts("b.py", "Y = (1, True, -0.0, 0.0, None, '1', 0, False)\n")
    writer = FactsCache(tmp_path)
    writer.put("ba", "a.py", a)
    writer.put("bb", "b.py", b)
    reader = FactsCache(tmp_path)
    got = [reader.get("ba", "a.py"), reader.get("bb", "b.py")]
    for fresh, decoded in zip([a, b], got):
        assert decoded is not None
        values = [c.value for c in decoded.assigns[0].value.items]  # type: ignore[union-attr]
        expected = [c.value for c in fresh.assigns[0].value.items]  # type: ignore[union-attr]
        assert [(type(v), repr(v)) for v in values] == [(type(v), repr(v)) for v in expected]


HOSTILE_APP = {
    "app/__init__.py": "",
    "app/tools.py": """
        from agents import function_tool

        @function_tool(needs_approval=True)
        def refund(order_id: str, amount: float = 0.0) -> str:
            '''Refund an order.'''
            return order_id

        class Ledger:
            rate: float = 1.5

            def total(self) -> float:
                return self.rate
        """,
    "app/main.py": """
        from agents import Agent
        from app.tools import refund

        agent = Agent(name="support", instructions="Help with orders.", tools=[refund], model="gpt-4o")
        """,
}


def _spoil_scalars(facts: list) -> None:  # type: ignore[type-arg]
    """Every line a string, every flag a non-bool, as a corrupted or hostile entry might hold."""
    facts[2] = "no"  # is_package
    facts[7] = [str(n) for n in facts[7]]  # assignment lines
    facts[8] = [1 for _ in facts[8]]  # assignment conditions
    for f in facts[10]:
        f[2], f[10] = str(f[2]), "yes"  # function line, conditional
        for p in f[3]:
            p[5] = "yes"  # required
    for c in facts[11]:
        c[2] = str(c[2])  # class line
    for row in facts[-1]:
        if isinstance(row, list) and row[0] == 0:  # a call: line, star
            row[4], row[5] = str(row[4]), "no"


def _spoil_indices(facts: list) -> None:  # type: ignore[type-arg]
    """Indices that find their row though they are not ints (`True == 1 == 1.0` as dict keys)."""
    facts[6] = [float(v) for v in facts[6]]  # assignment values
    for row in facts[-1]:
        if isinstance(row, list) and row[0] == 0:  # a call's arguments and function
            row[1], row[2] = float(row[1]), [True if a == 1 else float(a) for a in row[2]]


def test_a_cache_entry_whose_scalars_have_another_type_is_a_miss_never_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A facts entry bound to the right blob but holding a line as text or a flag that is not a
    bool is extracted again from the blob: the receipt is the one a clean cache gives."""
    import shutil
    from receipt.extract.cache import pack, unpack

    from receipt.extract.cache import dumps, loads
    from receipt.pipeline import build_receipt
    from tests.helpers import GitRepoBuilder

    repo = GitRepoBuilder(tmp_path / "repo")
    base = repo.commit(HOSTILE_APP)
    head = repo.commit({"app/tools.py": HOSTILE_APP["app/tools.py"].replace("needs_approval=True", "needs_approval=False")})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))

    def receipt() -> list:  # type: ignore[type-arg]
        r = build_receipt(str(repo.path), base, head, today=None)
        return [c.model_dump(mode="json") for c in r.changes]

    clean = receipt()
    assert clean, "the change must be seen"
    entries = sorted((tmp_path / "cache" / "facts").rglob("*.zjson"))
    good = {e: e.read_bytes() for e in entries}
    short_lines = lambda j: j.__setitem__(7, j[7][:-1])  # noqa: E731 - one assignment's line gone: no column is cut short
    for spoil in (_spoil_scalars, _spoil_indices, short_lines, lambda j: j.__setitem__(14, "{}"), lambda j: j.__setitem__(3, {"app.main.Agent": 1})):
        for e in entries:
            data = loads(unpack(good[e]))
            spoil(data["facts"])
            e.write_bytes(pack(dumps(data)))
        for linked in ("surfaces", "screens"):  # so the facts are read, not a surface linked from them
            shutil.rmtree(tmp_path / "cache" / linked, ignore_errors=True)
        assert receipt() == clean
        # Each spoilt entry was a miss: extracted again and written back as the extractor makes it.
        assert all(unpack(e.read_bytes()) == unpack(good[e]) for e in entries)


def test_a_name_resolved_at_the_depth_limit_does_not_poison_the_same_name_resolved_from_the_top() -> None:
    """`a0 = a1`, ..., `a29 = a30`, `a30 = real`: from `a0` the chain is cut at the depth limit, from
    `a10` it reaches `real`. Each name has one answer, whichever is asked first."""
    src = "def real():\n    pass\n" + "".join(f"a{i} = a{i + 1}\n" for i in range(30)) + "a30 = real\n"
    names = ("m.a0", "m.a10", "m.a20")
    answers = []
    for order in (names, names[::-1], ("m.a10", "m.a0", "m.a20")):
        p = program({"m.py": src})
        answers.append({n: p.canonical(n) for n in order})
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["m.a10"] == answers[0]["m.a20"] == "m.real"  # within the limit, resolved in full


def test_writes_to_the_module_namespace_bind_its_names() -> None:
    """globals().update(...), vars()[...] at module level and setattr(sys.modules[__name__], ...)
    bind the module's names as an assignment does; names computed at run time are noted."""
    src = (
        "import sys\n"
        "globals().update(TOOLS=[1], MODEL='a')\n"
        "globals().update({'LIMIT': 3})\n"
        "setattr(sys.modules[__name__], 'HOOKS', [])\n"
        "vars()['FLAG'] = True\n"
        "def later():\n"
        "    vars()['LOCAL'] = 1\n"
        "    globals().update(LATE=2)\n"
        "globals().update(load_overrides())\n"
    )
    m = extract_file("app.py", src.encode())
    bound = {(a.target, a.conditional) for a in m.assigns}
    assert {("app.TOOLS", False), ("app.MODEL", False), ("app.LIMIT", False), ("app.HOOKS", False), ("app.FLAG", False), ("app.LATE", True)} <= bound
    assert not any(a.target.endswith("LOCAL") and not a.target.startswith("app.later") for a in m.assigns)
    assert [(line, kind) for line, kind, _ in m.dynamic_code] == [(9, "dynamic-names")]


@pytest.mark.parametrize(
    ("default", "required"),
    [
        ("Field(..., description='the order')", True),
        ("Field(description='the order')", True),  # no default given: pydantic's PydanticUndefined
        ("Field(default=..., description='the order')", True),
        ("pydantic.Field(...)", True),
        ("PField(...)", True),  # imported as `from pydantic.fields import Field as PField`
        ("Field('A-1')", False),
        ("Field(None, description='the order')", False),
        ("Field(default='A-1')", False),
        ("Field(default_factory=list)", False),
        ("Field(**OPTIONS)", False),  # what the spread gives is not read: Python's default stands
        ("Mine(...)", False),  # not pydantic's Field
    ],
)
def test_a_pydantic_field_as_a_parameter_default_is_required_when_it_gives_no_default(default: str, required: bool) -> None:
    """FastMCP, LangChain, CrewAI, PydanticAI and OpenAI Agents build the schema with pydantic,
    which reads a `Field` default as the field: `Field(..., description=...)` is required."""
    f = facts(
        "tools.py",
        f"""
        import pydantic
        from pydantic import Field
        from pydantic.fields import Field as PField
        from mine import Field as Mine

        OPTIONS = {{}}

        def lookup(order_id: str = {default}) -> str:
            return order_id
        """,
    )
    (param,) = f.functions[0].params
    assert param.required is required
    assert param.default == default


def test_a_long_annotation_cut_for_keeping_still_tells_a_change_past_the_cut() -> None:
    words = "x" * 1200
    texts = []
    for limit in (20, 2000):
        f = facts("tools.py", f"""
            from typing import Annotated
            from pydantic import Field

            def lookup(order_id: Annotated[str, Field(description="{words}", max_length={limit})]) -> str:
                return order_id
            """)
        texts.append(f.functions[0].params[0].annotation)
    assert all(len(t) <= 1000 and "sha256:" in t for t in texts)
    assert texts[0] != texts[1]

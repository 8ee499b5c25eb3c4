"""Standalone `fastmcp` dialect: bare decorators, tags, dict annotations, enabled, mounts and imports."""

from __future__ import annotations

from typing import Any

import pytest

from receipt.models import Dynamic, Entry
from tests.helpers import exported, link_files, surface_of


def comparable(entries: dict[str, Entry]) -> dict[str, dict[str, Any]]:
    return {k: e.model_dump(exclude={"path", "line", "defaults", "home", "slot"}) for k, e in entries.items()}  # defaults: display only


def test_decorator_forms() -> None:
    src = """
        from fastmcp import FastMCP, Context

        mcp = FastMCP("shop")

        @mcp.tool
        def refund(order_id: str, ctx: Context) -> str:
            '''Refund an order.'''

        @mcp.tool("lookup_order")
        def lookup(order_id: str) -> str: ...

        @mcp.tool(name="cancel_order", description="Cancel.", tags={"orders", "admin"},
                  annotations={"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True})
        def cancel(order_id: str) -> str: ...

        @mcp.prompt
        def apology(customer: str) -> str: ...
    """
    entries = exported({"s.py": src})
    assert set(entries) == {"tool:shop/refund", "tool:shop/lookup_order", "tool:shop/cancel_order", "prompt:shop/apology"}
    refund = entries["tool:shop/refund"]
    assert refund.dialect == "fastmcp" and refund.root and refund.dangerous is True
    assert [p.name for p in refund.signature.params] == ["order_id"]  # fastmcp.Context is injected
    cancel = entries["tool:shop/cancel_order"]
    assert cancel.tags == ["admin", "orders"]  # sorted, whatever the set literal's order
    assert cancel.dangerous is False and cancel.idempotent is True and cancel.read_only is False


def test_call_forms_and_tool_objects() -> None:
    src = """
        from fastmcp import FastMCP
        from fastmcp.tools import Tool

        def refund(order_id: str) -> str: ...
        def lookup(order_id: str) -> str: ...
        def audit(order_id: str) -> str: ...
        def ping() -> str: ...

        mcp = FastMCP("shop", tools=[ping])
        mcp.tool(refund, name="refund_order")
        mcp.add_tool(Tool.from_function(lookup, name="lookup_order", annotations={"readOnlyHint": True}))
        audit_tool = Tool.from_function(audit, tags={"ops"})
        mcp.add_tool(audit_tool)
    """
    entries = exported({"s.py": src})
    assert set(entries) == {"tool:shop/refund_order", "tool:shop/lookup_order", "tool:shop/audit", "tool:shop/ping"}
    assert entries["tool:shop/lookup_order"].read_only is True
    assert entries["tool:shop/audit"].tags == ["ops"]


def test_disabled_tools_are_not_exported_and_dynamic_enabled_is_conditional() -> None:
    src = """
        import os
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool(enabled=False)
        def wipe() -> None: ...

        @mcp.tool(enabled=os.environ.get("BETA") == "1")
        def beta() -> None: ...
    """
    entries = surface_of({"s.py": src})
    assert not entries["tool:shop/wipe"].exported
    assert entries["tool:shop/beta"].exported and entries["tool:shop/beta"].conditional


def test_server_tag_filters() -> None:
    src = """
        from fastmcp import FastMCP
        mcp = FastMCP("shop", exclude_tags={"internal"})

        @mcp.tool(tags={"internal"})
        def debug() -> None: ...

        @mcp.tool(tags={"public"})
        def lookup() -> None: ...
    """
    entries = surface_of({"s.py": src})
    assert not entries["tool:shop/debug"].exported and entries["tool:shop/lookup"].exported


def test_visibility_rules_apply_in_order_the_later_winning() -> None:
    src = """
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool(tags={"internal"})
        def debug() -> None: ...

        @mcp.tool(enabled=False)
        def refund() -> None: ...

        @mcp.tool
        def lookup() -> None: ...

        @mcp.tool
        def wipe() -> None: ...

        @mcp.prompt
        def greet() -> str: ...

        mcp.disable(tags={"internal"})
        mcp.enable(keys={"tool:refund@"})
        mcp.disable(names={"wipe"}, components={"tool"})
        mcp.disable(names={"greet"}, components={"tool"})  # a prompt: untouched
        if DEBUG:
            mcp.enable(tags={"internal"})
    """
    entries = surface_of({"s.py": src})
    assert entries["tool:shop/refund"].exported and not entries["tool:shop/wipe"].exported
    assert entries["tool:shop/lookup"].exported and entries["prompt:shop/greet"].exported
    debug = entries["tool:shop/debug"]
    assert debug.exported and debug.conditional  # shown only when DEBUG is set


def test_an_allowlist_rule_hides_the_rest_and_an_unknown_rule_is_reported() -> None:
    allow = """
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool
        def refund() -> None: ...

        @mcp.tool
        def lookup() -> None: ...

        mcp.enable(names={"lookup"}, only=True)
    """
    entries = surface_of({"s.py": allow})
    assert entries["tool:shop/lookup"].exported and not entries["tool:shop/refund"].exported
    unknown = allow.replace('mcp.enable(names={"lookup"}, only=True)', "mcp.disable(tags=load_hidden_tags())")
    entries, issues = link_files({"s.py": unknown})
    assert all(e.exported and e.conditional for e in entries if e.kind == "tool")
    assert any("disables is not statically known" in i.message for i in issues)


def test_exclude_args_are_not_in_the_signature() -> None:
    src = """
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool(exclude_args=["user_id"])
        def refund(order_id: str, user_id: str = "") -> str: ...
    """
    assert [p.name for p in exported({"s.py": src})["tool:shop/refund"].signature.params] == ["order_id"]


def test_dict_annotations_match_tool_annotations() -> None:
    def entry(ann: str) -> Entry:
        src = f"""
            from fastmcp import FastMCP
            from mcp.types import ToolAnnotations
            mcp = FastMCP("shop")

            @mcp.tool(annotations={ann})
            def refund(order_id: str) -> str: ...
        """
        return exported({"s.py": src})["tool:shop/refund"]

    base = comparable({"x": entry('{"readOnlyHint": True}')})
    assert comparable({"x": entry("ToolAnnotations(readOnlyHint=True)")}) == base
    assert comparable({"x": entry('{"readOnlyHint": True, "destructiveHint": True}')}) == base
    assert comparable({"x": entry("None")}) == comparable({"x": entry('{"readOnlyHint": False}')})


@pytest.mark.parametrize(
    "mount",
    [
        'main.mount(weather, prefix="weather")',
        'main.mount(weather, namespace="weather")',
        'main.mount(weather, "weather")',
        'main.mount("weather", weather)',  # fastmcp < 2.9
    ],
)
def test_mount_prefixes_tool_names_on_the_parent(mount: str) -> None:
    src = f"""
        from fastmcp import FastMCP

        weather = FastMCP("Weather")

        @weather.tool
        def get_forecast(city: str) -> str: ...

        @weather.prompt
        def summary(city: str) -> str: ...

        main = FastMCP("Main")

        @main.tool
        def hello() -> str: ...

        {mount}
    """
    entries = exported({"s.py": src})
    # The mounted server is reached through its parent only: its own names are not exported.
    assert set(entries) == {"tool:Main/hello", "tool:Main/weather_get_forecast", "prompt:Main/weather_summary"}
    assert entries["tool:Main/weather_get_forecast"].name == "weather_get_forecast"
    assert entries["tool:Main/weather_get_forecast"].path == "s.py" and entries["tool:Main/weather_get_forecast"].line == 7


def test_mount_without_prefix_nested_mounts_and_import_server() -> None:
    src = """
        import asyncio
        from fastmcp import FastMCP

        leaf = FastMCP("Leaf")

        @leaf.tool
        def ping() -> str: ...

        mid = FastMCP("Mid")
        mid.mount(leaf, prefix="leaf")

        main = FastMCP("Main")
        main.mount(mid)

        other = FastMCP("Other")

        @other.tool
        def pong() -> str: ...

        async def setup() -> None:
            await main.import_server(other, prefix="o")

        asyncio.run(setup())
    """
    entries = exported({"s.py": src})
    assert set(entries) == {"tool:Main/leaf_ping", "tool:Main/o_pong"}
    assert not entries["tool:Main/leaf_ping"].conditional
    assert entries["tool:Main/o_pong"].conditional  # imported inside a function


def test_a_mounted_server_that_is_also_served_keeps_its_own_names() -> None:
    src = """
        from fastmcp import FastMCP
        sub = FastMCP("Sub")

        @sub.tool
        def ping() -> str: ...

        main = FastMCP("Main")
        main.mount(sub, prefix="s")

        if __name__ == "__main__":
            sub.run()
    """
    assert set(exported({"s.py": src})) == {"tool:Main/s_ping", "tool:Sub/ping"}


def test_mounting_a_server_from_another_module_and_a_factory() -> None:
    files = {
        "app/__init__.py": "",
        "app/weather.py": """
            from fastmcp import FastMCP
            weather = FastMCP("Weather")

            @weather.tool
            def forecast(city: str) -> str: ...
        """,
        "app/calendar.py": """
            from fastmcp import FastMCP

            def make_calendar() -> FastMCP:
                cal = FastMCP("Calendar")

                @cal.tool
                def events() -> list: ...

                return cal
        """,
        "app/main.py": """
            from fastmcp import FastMCP
            from app.weather import weather
            from app.calendar import make_calendar

            main = FastMCP("Main")
            main.mount(weather, prefix="w")
            main.mount(make_calendar(), prefix="c")
        """,
    }
    entries = exported(files)
    assert set(entries) == {"tool:Main/w_forecast", "tool:Main/c_events"}
    assert entries["tool:Main/c_events"].conditional and not entries["tool:Main/w_forecast"].conditional
    assert entries["tool:Main/w_forecast"].path == "app/weather.py"


def test_unknown_mounted_server_and_dynamic_prefix_are_reported() -> None:
    src = """
        import os
        from fastmcp import FastMCP
        from remote import proxy

        sub = FastMCP("Sub")

        @sub.tool
        def ping() -> str: ...

        main = FastMCP("Main")
        main.mount(proxy)
        main.mount(sub, prefix=os.environ["PREFIX"])
    """
    entries, issues = link_files({"s.py": src})
    keys = {e.key for e in entries if e.exported}
    assert keys == {"tool:Main/{os.environ['PREFIX']}_ping"}
    messages = " | ".join(i.message for i in issues)
    assert "not statically known: remote.proxy" in messages and "mount prefix" in messages


def test_fastmcp_is_discriminated_from_the_sdk_and_local_classes() -> None:
    sdk = """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool()
        def refund(order_id: str) -> str: ...
    """
    local = """
        from .fake import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool
        def refund(order_id: str) -> str: ...
    """
    assert exported({"s.py": sdk})["tool:shop/refund"].dialect == "mcp"
    assert surface_of({"pkg/__init__.py": "", "pkg/fake.py": "class FastMCP:\n    pass\n", "pkg/s.py": local}) == {}


def test_dynamic_tags_and_dynamic_hints_are_not_guessed() -> None:
    src = """
        import os
        from fastmcp import FastMCP
        from settings import TAGS
        mcp = FastMCP("shop")

        @mcp.tool(tags=TAGS, annotations={"openWorldHint": os.environ.get("OPEN") == "1"})
        def refund(order_id: str) -> str: ...
    """
    entries, issues = link_files({"s.py": src})
    entry = {e.key: e for e in entries}["tool:shop/refund"]
    assert isinstance(entry.open_world, Dynamic) and entry.dangerous is True and entry.tags == []
    assert any("tags" in i.message for i in issues)


def test_file_split_with_mounts_gives_the_same_surface() -> None:
    one = {
        "app/__init__.py": "",
        "app/server.py": """
            from fastmcp import FastMCP
            sub = FastMCP("Sub")
            main = FastMCP("Main")

            @sub.tool(tags={"x"})
            def ping() -> str:
                '''Ping.'''

            main.mount(sub, prefix="s")
        """,
    }
    split = {
        "app/__init__.py": "",
        "app/sub.py": """
            from fastmcp import FastMCP
            sub = FastMCP("Sub")
        """,
        "app/tools.py": """
            from app.sub import sub

            @sub.tool(tags={"x"})
            def ping() -> str:
                '''Ping.'''
        """,
        "app/server.py": """
            from fastmcp import FastMCP
            from app import sub as sub_module
            main = FastMCP("Main")
            main.mount(sub_module.sub, prefix="s")
        """,
    }
    assert comparable(exported(split)) == comparable(exported(one))
    assert set(exported(one)) == {"tool:Main/s_ping"}


def test_removed_tools_and_generated_servers() -> None:
    src = """
        import os
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool
        def wipe() -> None: ...

        @mcp.tool
        def debug() -> None: ...

        mcp.remove_tool("wipe")
        if os.environ.get("PROD"):
            mcp.remove_tool("debug")

        api = FastMCP.from_openapi(openapi_spec={}, client=None)
    """
    entries, issues = link_files({"s.py": src})
    by_key = {e.key: e for e in entries}
    assert not by_key["tool:shop/wipe"].exported
    assert by_key["tool:shop/debug"].exported and by_key["tool:shop/debug"].conditional
    assert any("from_openapi" in i.message and i.line == 16 for i in issues)


# A registry filled by a repository decorator, registered in a loop the analysis cannot follow.
_REGISTRY = {
    "studio/registry.py": """
        _tools = []

        def studio_tool(description=None, **settings):
            def collect(fn):
                _tools.append({"fn": fn, "description": description, "settings": dict(settings)})
                return fn
            return collect

        def collected():
            return list(_tools)
    """,
    "studio/server.py": """
        from fastmcp import FastMCP
        from studio.registry import collected

        mcp = FastMCP("studio")
        for spec in collected():
            mcp.tool(description=spec["description"], **spec["settings"])(spec["fn"])
    """,
    "studio/scenes.py": """
        from mcp.types import ToolAnnotations
        from studio.registry import studio_tool

        @studio_tool(description="Delete a scene.", annotations=ToolAnnotations(destructiveHint=True))
        def delete_scene(name: str) -> None: ...
    """,
}


def test_a_function_a_registry_decorator_collects_for_an_unfollowed_registration_is_noted_where_it_is_defined() -> None:
    entries, issues = link_files(_REGISTRY)
    assert not [e for e in entries if e.kind == "tool"]  # the loop over the registry is not followed
    [note] = [i for i in issues if i.path == "studio/scenes.py"]
    assert note.kind == "unresolved" and note.line == 6  # the def line
    assert "tool 'delete_scene': decorated with studio_tool" in note.message
    assert "MCP server 'studio' that cannot be followed (studio/server.py:7)" in note.message
    assert any(i.path == "studio/server.py" and "cannot be resolved statically" in i.message for i in issues)


def test_a_repository_decorator_that_feeds_no_unfollowed_registration_adds_no_note() -> None:
    files = {
        **_REGISTRY,
        # the same kind of decorator, but the server registers its tools itself: nothing to note
        "studio/server.py": """
            from fastmcp import FastMCP
            from studio.scenes import delete_scene

            mcp = FastMCP("studio")
            mcp.tool(delete_scene)
        """,
    }
    entries, issues = link_files(files)
    assert [e.name for e in entries if e.kind == "tool"] == ["delete_scene"]
    assert not [i for i in issues if "collects it" in i.message]


def test_a_pr_changing_a_tool_behind_a_registry_decorator_is_a_file_not_fully_analysed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import textwrap

    from tests.helpers import GitRepoBuilder, run_cli

    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({path: textwrap.dedent(text) for path, text in _REGISTRY.items()})
    repo.commit({"studio/scenes.py": textwrap.dedent(_REGISTRY["studio/scenes.py"]).replace("destructiveHint=True", "destructiveHint=False")})
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path))
    assert out.returncode == 0, out.stderr
    assert "1 file this PR touched could not be fully analysed" in out.stdout.splitlines()[3]  # the verdict line says it
    assert "studio/scenes\\.py\\:6 — unresolved: tool 'delete\\_scene'\\: decorated with studio\\_tool" in out.stdout


def test_a_bare_registry_decorator_feeding_a_loop_over_unknown_items_is_noted_too() -> None:
    files = {
        "kit/reg.py": """
            _fns = []

            def tool(fn):
                _fns.append(fn)
                return fn

            def every():
                return tuple(_fns)
        """,
        "kit/server.py": """
            from fastmcp import FastMCP
            from kit.reg import every

            mcp = FastMCP("kit")
            for fn in every():
                mcp.tool(fn)
        """,
        "kit/ops.py": """
            from kit.reg import tool

            @tool
            def wipe(disk: str) -> None: ...
        """,
    }
    _entries, issues = link_files(files)
    assert [(i.path, i.line) for i in issues if "collects it" in i.message] == [("kit/ops.py", 5)]


def test_a_function_two_unfollowed_registrations_collect_from_one_registry_is_noted_once() -> None:
    files = {
        **_REGISTRY,
        "studio/server.py": """
            from fastmcp import FastMCP
            from studio.registry import collected

            mcp = FastMCP("studio")
            for spec in collected():
                mcp.tool(description=spec["description"], **spec["settings"])(spec["fn"])
            for again in collected():
                mcp.add_tool(again["fn"])
        """,
    }
    _entries, issues = link_files(files)
    assert sum("unresolved" in i.kind and "cannot be resolved statically" in i.message for i in issues) == 2
    assert [i.path for i in issues if "collects it" in i.message] == ["studio/scenes.py"]



TWO_WAYS = """
    import os
    from fastmcp import FastMCP

    mcp = FastMCP("ledger")

    def run_sql(statement: str) -> str:
        return statement

    def serve() -> None:
        if os.environ.get("MODE") == "restricted":
            mcp.tool(run_sql, description="Read the ledger.", annotations={"readOnlyHint": True, "destructiveHint": False})
        else:
            mcp.tool(run_sql, description=DESCRIPTION, annotations={"readOnlyHint": READ_ONLY, "destructiveHint": DESTRUCTIVE})
"""


@pytest.mark.parametrize(
    ("description", "read_only", "destructive", "differs"),
    [
        ('"Read the ledger."', "True", "False", set()),  # registered alike twice: one entry, as written
        ('"Change the ledger."', "False", "True", {"dangerous", "read_only", "idempotent", "description_sha256"}),
    ],
)
def test_one_tool_registered_two_ways_has_dynamic_attributes_where_they_differ(description: str, read_only: str, destructive: str, differs: set[str]) -> None:
    src = TWO_WAYS.replace("DESCRIPTION", description).replace("READ_ONLY", read_only).replace("DESTRUCTIVE", destructive)
    [tool] = exported({"s.py": src}).values()
    dynamic = {a for a in ("dangerous", "read_only", "idempotent", "open_world") if isinstance(getattr(tool, a), Dynamic)}
    dynamic |= {"description_sha256"} if str(tool.description_sha256).startswith("dynamic:") else set()
    assert dynamic == differs
    assert tool.conditional
    if differs:  # named by the values, never by where: moving the registrations is no change
        assert tool.dangerous == Dynamic(dynamic="which of 2 registrations runs: false or true")
        assert tool.description_text == "Read the ledger.\n-- or --\nChange the ledger."
    else:
        assert tool.dangerous is False and tool.read_only is True and tool.description_text == "Read the ledger."

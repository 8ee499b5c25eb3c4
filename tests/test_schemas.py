"""Schemas defined elsewhere: a param typed by a TypedDict, pydantic model, dataclass, Enum or type
alias of the analysed tree carries that type's schema in its signature, so the diff says what changed
in it (field added, type, range, member, literal value) and a pure refactor is no change."""

from __future__ import annotations

import sys

import pytest

from receipt.diff import signature_differences
from receipt.extract.facts import facts_from_json, facts_to_json
from receipt.extract.python import extract_python
from receipt.models import Signature
from tests.helpers import GitRepoBuilder, link_files, receipt_of, run_cli, seen, surface_of

MODELS = '''
from typing import Annotated, ClassVar, Literal, Optional, TypedDict
from typing_extensions import NotRequired, Required
from enum import Enum
from dataclasses import dataclass, field
from pydantic import BaseModel, Field, PrivateAttr

Mode = Literal["fast", "slow"]


class Color(str, Enum):
    RED = "red"
    GREEN = "green"


class Filters(TypedDict, total=False):
    tag: str
    owner: Required[str]


@dataclass
class Window:
    start: int
    end: int = 0
    labels: list[str] = field(default_factory=list)
    cache: dict = field(default_factory=dict, init=False)


class Base(BaseModel):
    tenant: str


class Args(Base):
    limit: Annotated[int, Field(ge=1, le=100)] = 10
    mode: Mode = "fast"
    color: Optional[Color] = None
    filters: Filters
    window: "Window | None" = None
    version: ClassVar[int] = 2
    _secret: str = PrivateAttr(default="x")
'''

SERVER = '''
from mcp.server.fastmcp import FastMCP
from pkg import Args

mcp = FastMCP("s")


@mcp.tool()
def search(args: Args, extra: list[Args] | None = None) -> str:
    return ""
'''

TREE = {"pkg/__init__.py": "from pkg.models import Args\n", "pkg/models.py": MODELS, "pkg/server.py": SERVER}


def signature(files: dict[str, str], key: str = "tool:s/search") -> Signature:
    sig = surface_of(files)[key].signature
    assert sig is not None
    return sig


def changed(files: dict[str, str], path: str, old: str, new: str) -> list[str]:
    assert old in files[path], old
    return signature_differences(signature(files), signature({**files, path: files[path].replace(old, new)}))


# --- extraction ---------------------------------------------------------------------------------------


def test_class_fields_aliases_and_param_refs_are_per_file_facts_that_survive_the_cache() -> None:
    facts = extract_python("pkg/models.py", MODELS)
    args = next(c for c in facts.classes if c.name == "Args")
    limit = next(f for f in args.fields if f.name == "limit")
    assert limit.annotation == "int" and len(limit.meta) == 1  # Annotated metadata unwrapped
    window = next(f for f in args.fields if f.name == "window")
    assert window.annotation == "Window | None" and window.refs == ("pkg.models.Window",)  # quoted annotation read
    owner = next(f for c in facts.classes if c.name == "Filters" for f in c.fields if f.name == "owner")
    assert owner.qualifiers == ("Required",)
    assert facts.type_aliases["pkg.models.Mode"].annotation == "Literal['fast', 'slow']"
    server = extract_python("pkg/server.py", SERVER)
    assert server.functions[0].params[1].refs == ("pkg.Args",)
    assert facts_from_json(facts_to_json(facts)) == facts


def test_typealias_annotation_and_runtime_values_are_told_apart() -> None:
    facts = extract_python("m.py", "from typing import Literal, TypeAlias\nA: TypeAlias = 'Literal[1, 2]'\nB = Literal['x'] | None\nFLAGS = READ | WRITE\nN = len([1])\n")
    assert sorted(facts.type_aliases) == ["m.A", "m.B"]
    assert facts.type_aliases["m.B"].annotation == "Literal['x'] | None"


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the `type` statement parses on Python 3.12+")
def test_type_statement_is_an_alias() -> None:
    facts = extract_python("m.py", "from typing import Literal\ntype Mode = Literal['a', 'b']\n")
    assert facts.type_aliases["m.Mode"].annotation == "Literal['a', 'b']"


# --- resolution ---------------------------------------------------------------------------------------


def test_a_param_typed_by_a_model_of_the_tree_carries_its_schema_and_the_nested_ones() -> None:
    sig = signature(TREE)
    assert sorted(sig.schemas) == ["Args", "Color", "Filters", "Mode", "Window"]
    args = {f.name: f for f in sig.schemas["Args"].fields}
    # inherited field first; ClassVar and private attributes are not fields
    assert list(args) == ["tenant", "limit", "mode", "color", "filters", "window"]
    assert args["limit"].constraints == {"ge": "1", "le": "100"} and args["limit"].default == "10"
    assert args["tenant"].required and not args["color"].required
    assert sig.schemas["Color"].members == ["GREEN = 'green'", "RED = 'red'"]
    filters = {f.name: f.required for f in sig.schemas["Filters"].fields}
    assert filters == {"tag": False, "owner": True}  # total=False, Required[...] wins
    window = {f.name: (f.required, f.default) for f in sig.schemas["Window"].fields}
    assert window == {"start": (True, None), "end": (False, "0"), "labels": (False, "factory: list")}  # init=False left out
    assert sig.schemas["Mode"].type == "Literal['fast', 'slow']"


def test_external_classes_stay_name_only_and_run_time_models_are_dynamic() -> None:
    files = {
        "app.py": '''
from datetime import datetime
from pydantic import create_model
from mcp.server.fastmcp import FastMCP
from thirdparty.models import Query

Dyn = create_model("Dyn", q=(str, ...))
mcp = FastMCP("s")

@mcp.tool()
def search(q: Query, when: datetime, d: Dyn) -> str:
    return ""
''',
    }
    sig = signature(files)
    assert list(sig.schemas) == ["Dyn"]
    assert sig.schemas["Dyn"].kind == "dynamic" and "create_model" in (sig.schemas["Dyn"].unknown or "")


def test_a_self_referencing_model_resolves_once() -> None:
    files = {
        "tree.py": '''
from pydantic import BaseModel
from mcp.server.fastmcp import FastMCP

class Node(BaseModel):
    name: str
    children: list["Node"] = []

mcp = FastMCP("s")

@mcp.tool()
def search(root: Node) -> str:
    return ""
''',
    }
    assert [f.name for f in signature(files).schemas["Node"].fields] == ["name", "children"]


# --- differences in words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "phrase"),
    [
        ("le=100", "le=1000", "Args field 'limit' range changed (ge=1, le=100 -> ge=1, le=1000)"),
        ('    GREEN = "green"\n', '    GREEN = "green"\n    BLUE = "blue"\n', "Color member BLUE = 'blue' added"),
        ('"slow"]', '"slow", "turbo"]', "Mode value 'turbo' added"),
        ("    owner: Required[str]\n", "    owner: Required[str]\n    team: Required[str]\n", "Filters field 'team' added (required)"),
        ("    start: int\n", "    start: float\n", "Window field 'start' type changed (int -> float)"),
        ("    end: int = 0\n", "    end: int = 5\n", "Window field 'end' default changed (0 -> 5)"),
        ("    tenant: str\n", "    tenant: str = 'acme'\n", "Args field 'tenant' now optional"),
        ("    tag: str\n", "", "Filters field 'tag' removed"),
    ],
)
def test_a_schema_change_is_said_in_words(old: str, new: str, phrase: str) -> None:
    assert changed(TREE, "pkg/models.py", old, new) == [phrase]


def test_moving_the_schema_and_respelling_annotations_is_no_change() -> None:
    moved = {
        "pkg/__init__.py": "from pkg.schemas.args import Args\n",
        "pkg/models.py": "",
        "pkg/schemas/__init__.py": "",
        "pkg/schemas/args.py": MODELS.replace("Optional[Color]", "Color | None").replace("from typing import", "from typing import List,")
        .replace("    labels: list[str]", "    labels: List[str]").replace("Field(ge=1, le=100)", "Field(le=100, ge=1)"),
        "pkg/server.py": SERVER,
    }
    assert signature_differences(signature(TREE), signature(moved)) == []


# --- low-level MCP inputSchema -------------------------------------------------------------------------

LOWLEVEL = '''
import mcp.types as types
from mcp.server.lowlevel import Server
from pydantic import TypeAdapter
from pkg.models import Args, Window

server = Server("low")
WINDOW = TypeAdapter(Window)


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="by_model", inputSchema=Args.model_json_schema()),
        types.Tool(name="by_v1_method", inputSchema=Args.schema()),
        types.Tool(name="by_adapter", inputSchema=WINDOW.json_schema()),
        types.Tool(name="by_helper", inputSchema=make_schema()),
    ]
'''


def test_input_schema_from_a_model_is_the_models_fields_and_an_unknown_one_is_reported() -> None:
    entries, issues = link_files({**TREE, "pkg/low.py": LOWLEVEL})
    tools = {e.name: e for e in entries if e.scope == "low"}
    by_model = tools["by_model"].signature
    assert by_model is not None and [p.name for p in by_model.params] == ["tenant", "limit", "mode", "color", "filters", "window"]
    assert [p.required for p in by_model.params][:2] == [True, False] and "Args" in by_model.schemas
    assert tools["by_v1_method"].signature == by_model
    assert [p.name for p in tools["by_adapter"].signature.params] == ["start", "end", "labels"]  # type: ignore[union-attr]
    assert tools["by_helper"].signature is None
    assert [i.message for i in issues if i.kind == "unresolved"] == [
        "the input schema of tool 'by_helper' on MCP server 'low' is not statically known: pkg.low.make_schema()"
    ]


LITERAL_SCHEMA = '''
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("low")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="by_model", inputSchema={"type": "object", "required": ["tenant", "filters"], "properties": {
        "tenant": {"type": "string"}, "limit": {"type": "integer", "default": 10, "minimum": 1},
        "mode": {"type": "string", "default": "fast"}, "color": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}], "default": None},
        "filters": {"$ref": "#/$defs/Filters"}, "window": {"anyOf": [{"$ref": "#/$defs/Window"}, {"type": "null"}], "default": None}}})]
'''


def test_a_hand_written_input_schema_and_the_models_json_schema_are_the_same_signature() -> None:
    def by_model(low: str) -> Signature:
        sig = {e.name: e for e in link_files({**TREE, "pkg/low.py": low})[0]}["by_model"].signature
        assert sig is not None
        return sig

    assert signature_differences(by_model(LITERAL_SCHEMA), by_model(LOWLEVEL)) == []
    assert signature_differences(by_model(LITERAL_SCHEMA), by_model(LOWLEVEL.replace("Args.model_json_schema()", "Window.model_json_schema()")))


def test_an_input_models_field_changed_is_said_once_not_as_param_and_as_field_again() -> None:
    def by_model(models: str) -> Signature:
        sig = {e.name: e for e in link_files({**TREE, "pkg/models.py": models, "pkg/low.py": LOWLEVEL})[0]}["by_model"].signature
        assert sig is not None
        return sig

    added = MODELS.replace("    version: ClassVar", "    page: int = 1\n    version: ClassVar")
    assert signature_differences(by_model(MODELS), by_model(added)) == ["param 'page' added (optional)"]
    # what only the model carries (a range) is still said of the model
    assert signature_differences(by_model(MODELS), by_model(MODELS.replace("le=100", "le=10"))) == [
        "Args field 'limit' range changed (ge=1, le=100 -> ge=1, le=10)"
    ]


def test_a_default_given_inside_annotated_field_is_the_fields_default() -> None:
    plain = signature({**TREE, "pkg/models.py": MODELS.replace("    mode: Mode = \"fast\"", "    mode: Mode = Field(default=\"fast\", description=\"How.\")")})
    annotated = signature({**TREE, "pkg/models.py": MODELS.replace("    mode: Mode = \"fast\"", "    mode: Annotated[Mode, Field(default=\"fast\", description=\"How.\")]")})
    field = next(f for f in annotated.schemas["Args"].fields if f.name == "mode")
    assert (field.required, field.default, "default" in field.constraints) == (False, "'fast'", False)
    assert signature_differences(plain, annotated) == []


# --- end to end -----------------------------------------------------------------------------------------


def test_receipt_row_says_what_changed_in_a_model_defined_in_another_module(git_repo: GitRepoBuilder) -> None:
    git_repo.commit(TREE)
    git_repo.commit({"pkg/models.py": MODELS.replace("le=100", "le=1000")})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("tool.signature_changed", "search", "warning")]
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    row = next(line for line in out.stdout.splitlines() if "**search**" in line)
    assert "Args field 'limit' range changed" in row and row.count(" | ") == 2  # three columns


def test_a_field_description_reworded_alone_is_a_description_change_not_a_signature_warning(git_repo: GitRepoBuilder) -> None:
    described = MODELS.replace("Field(ge=1, le=100)", "Field(ge=1, le=100, description=\"How many results if wanted.\")")
    git_repo.commit(TREE | {"pkg/models.py": described})
    git_repo.commit({"pkg/models.py": described.replace("results if wanted", "results, if wanted")})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("tool.description_changed", "search", "info")]
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    row = next(line for line in out.stdout.splitlines() if "**search**" in line)
    assert "parameter description changed" in row and "Args field 'limit' description changed" in row
    # with a real change beside it, one signature warning names both
    git_repo.commit({"pkg/models.py": described.replace("results if wanted", "hits").replace("le=100", "le=50")})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("tool.signature_changed", "search", "warning")]
    message = next(c["message"] for c in receipt["changes"] if c["id"] == "tool.signature_changed")
    assert "range changed" in message and "description changed" in message


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        ("Field(ge=1, le=100)", "Field(ge=1, le=100, examples=[10, 50])", "Args field 'limit' examples added"),
        ("Field(ge=1, le=100, title='Limit')", "Field(ge=1, le=100, title='Result limit')", "Args field 'limit' title changed"),
    ],
)
def test_a_field_title_or_examples_changed_alone_are_words_too(git_repo: GitRepoBuilder, before: str, after: str, words: str) -> None:
    """JSON Schema's annotations (description, title, examples): the model reads them, nothing validates against them."""
    git_repo.commit(TREE | {"pkg/models.py": MODELS.replace("Field(ge=1, le=100)", before)})
    git_repo.commit({"pkg/models.py": MODELS.replace("Field(ge=1, le=100)", after)})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("tool.description_changed", "search", "info")]
    assert words in receipt["changes"][0]["message"]


def test_moving_a_model_between_modules_gives_no_changes(git_repo: GitRepoBuilder) -> None:
    git_repo.commit(TREE)
    git_repo.commit({"pkg/models.py": None, "pkg/shapes.py": MODELS, "pkg/__init__.py": "from pkg.shapes import Args\n"})
    code, receipt = receipt_of(git_repo)
    assert (code, receipt["changes"]) == (0, [])


def test_an_input_schema_the_analyser_cannot_read_is_reported_not_silent(git_repo: GitRepoBuilder) -> None:
    git_repo.commit(TREE)
    git_repo.commit({"pkg/low.py": LOWLEVEL})
    code, receipt = receipt_of(git_repo)
    unresolved = [c for c in receipt["changes"] if c["id"] == "surface.unresolved"]
    assert len(unresolved) == 1 and "input schema of tool 'by_helper'" in unresolved[0]["message"]
    # the tools whose schema is known say what they take
    added = {c["subject"]["name"]: c["after"]["signature"] for c in receipt["changes"] if c["id"] == "tool.added"}
    assert [p["name"] for p in added["by_adapter"]["params"]] == ["start", "end", "labels"]
    assert added["by_helper"] is None


# --- args_schema (LangChain, CrewAI) ---------------------------------------------------------------

ARGS_SCHEMA_TOOLS = '''
from typing import Optional
from crewai.tools import BaseTool as CrewTool
from langchain_core.tools import BaseTool, tool
from pkg.models import Args


@tool(args_schema=Args)
def lc_search(**kwargs) -> str:
    """Search."""
    return ""


class LcSearch(BaseTool):
    name: str = "lc_class_search"
    description: str = "Search."
    args_schema: type = Args

    def _run(self, tenant: str, run_manager: Optional[object] = None) -> str:
        return tenant


class CrewSearch(CrewTool):
    name: str = "crew_search"
    description: str = "Search."
    args_schema: type = Args

    def _run(self, tenant: str) -> str:
        return tenant
'''


@pytest.mark.parametrize("tool", ["lc_search", "lc_class_search", "crew_search"])
def test_an_args_schema_model_joins_the_signature_and_its_field_changes_are_said(tool: str) -> None:
    files = {**TREE, "pkg/tools.py": ARGS_SCHEMA_TOOLS}
    key = f"tool:{tool}"
    before = signature(files, key)
    assert "Args" in before.schemas
    after = signature({**files, "pkg/models.py": MODELS.replace("le=100", "le=10")}, key)
    assert signature_differences(before, after) == ["Args field 'limit' range changed (ge=1, le=100 -> ge=1, le=10)"]

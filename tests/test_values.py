"""Texts are compared by value, not by spelling: instructions, descriptions and prompts built from
constants, `.format()`, f-strings, `textwrap.dedent` and joins are evaluated; a prompt function is
its body and returned values, never its name or module; what cannot be known stays `dynamic`, and
its digest still moves whenever the meaning can."""

from __future__ import annotations

import textwrap

from receipt.dialects.base import digest
from receipt.extract.facts import Const, Ref
from receipt.extract.python import extract_python
from receipt.extract.program import Program
from receipt.models import Dynamic
from tests.helpers import GitRepoBuilder, receipt_of, run_cli, seen, surface_of


def _program(files: dict[str, str]) -> Program:
    return Program([extract_python(path, textwrap.dedent(text)) for path, text in sorted(files.items())])


def _value(files: dict[str, str], symbol: str) -> object:
    p = _program(files)
    return p.text(p.lookup(symbol).value)  # type: ignore[union-attr]


CONSTANTS = '''
import textwrap
from textwrap import dedent

NAME = "Acme"
TEMPLATE = "Help {name} customers; at most {n} items."
FORMATTED = TEMPLATE.format(name=NAME, n=3)
POSITIONAL = "{} and {}".format(NAME, "friends")
FSTRING = f"{NAME}: {FORMATTED!r} ({2.5:.1f})"
DEDENTED = dedent("""
    line one
      line two
""")
QUALIFIED = textwrap.dedent("""
    a
    b""").strip()
JOINED = "\\n".join([NAME, "rules", FSTRING])
STRIPPED = "  Be brief.  ".strip().upper()
'''


def test_literal_string_building_evaluates_to_its_text() -> None:
    files = {"app/consts.py": CONSTANTS}
    assert _value(files, "app.consts.FORMATTED") == "Help Acme customers; at most 3 items."
    assert _value(files, "app.consts.POSITIONAL") == "Acme and friends"
    assert _value(files, "app.consts.FSTRING") == "Acme: 'Help Acme customers; at most 3 items.' (2.5)"
    assert _value(files, "app.consts.DEDENTED") == "\nline one\n  line two\n"
    assert _value(files, "app.consts.QUALIFIED") == "a\nb"
    assert _value(files, "app.consts.JOINED") == "Acme\nrules\n" + _value(files, "app.consts.FSTRING")  # type: ignore[operator]
    assert _value(files, "app.consts.STRIPPED") == "BE BRIEF."


def test_constants_resolve_through_imports() -> None:
    files = {
        "app/texts.py": 'COMPANY = "Acme"\nTEMPLATE = "You work for {company}."\n',
        "app/agent.py": "from app.texts import COMPANY as C, TEMPLATE\nPROMPT = TEMPLATE.format(company=C)\nF = f'{C}!'\n",
    }
    assert _value(files, "app.agent.PROMPT") == "You work for Acme."
    assert _value(files, "app.agent.F") == "Acme!"


def test_format_bombs_and_unknown_arguments_stay_dynamic() -> None:
    files = {
        "app/m.py": '''
        import os
        WIDE = "{:>999999999}".format(1)
        NESTED = "{:{w}}".format("x", w=999999999)
        FWIDE = f"{1:>999999999}"
        ENV = "Hello {}".format(os.environ["USER"])
        FENV = f"Hello {os.environ['USER']}"
        ''',
    }
    for name in ("WIDE", "NESTED", "FWIDE", "ENV", "FENV"):
        assert isinstance(_value(files, f"app.m.{name}"), Dynamic), name


def test_dynamic_text_digest_follows_values_not_names() -> None:
    """`PERSONA + user` is not knowable, but renaming or moving PERSONA changes nothing, and
    changing its value changes the digest (it was hidden when the digest covered the spelling)."""
    def dyn(texts: str, expr: str) -> str | None:
        files = {"app/texts.py": texts, "app/agent.py": f"import os\nfrom app.texts import *\nX = {expr}\n"}
        value = _value(files, "app.agent.X")
        assert isinstance(value, Dynamic)
        return digest(value)

    base = dyn('PERSONA = "Be kind."\n', 'PERSONA + os.environ["EXTRA"]')
    assert dyn('ASSISTANT_PERSONA = "Be kind."\n', 'ASSISTANT_PERSONA + os.environ["EXTRA"]') == base
    assert dyn('PERSONA = "Be rude."\n', 'PERSONA + os.environ["EXTRA"]') != base
    assert dyn('PERSONA = "Be kind."\n', 'PERSONA + os.environ["OTHER"]') != base


FUNCTION = '''
from app.policy import POLICY

def {name}(ctx):
    who = ctx.user or "there"
    if ctx.vip:
        return f"{{POLICY}} Hello VIP {{who}}."
    return f"{{POLICY}} Hello {{who}}."
'''


def _function_value(module: str, name: str, body: str = FUNCTION, policy: str = "Be kind.") -> object:
    p = _program({"app/policy.py": f"POLICY = {policy!r}\n", f"app/{module}.py": body.format(name=name)})
    return p.function_value(p.functions[f"app.{module}.{name}"])


def test_prompt_function_is_its_body_not_its_name_or_module() -> None:
    base = _function_value("agent", "instructions")
    assert isinstance(base, Dynamic)
    assert _function_value("prompts", "dynamic_instructions") == base  # moved verbatim and renamed
    assert _function_value("agent", "instructions", FUNCTION.replace("ctx.vip", "ctx.admin")) != base  # a condition edited
    assert _function_value("agent", "instructions", policy="Be rude.") != base  # a returned constant edited


def test_prompt_function_returning_one_literal_is_that_literal() -> None:
    body = 'from app.policy import POLICY\n\ndef {name}(ctx):\n    """Doc."""\n    return POLICY + " Answer in English."\n'
    assert _function_value("agent", "a", body) == "Be kind. Answer in English."
    assert _function_value("prompts", "b", body) == "Be kind. Answer in English."


def test_helper_called_by_prompt_function_is_part_of_its_value() -> None:
    body = '''
    def _suffix(ctx):
        return "Answer in " + ctx.lang
    def {name}(ctx):
        return "Hi. " + _suffix(ctx)
    '''
    first = _function_value("agent", "i", body)
    assert _function_value("agent", "i", body.replace('"Answer in "', '"Reply in "')) != first


AGENT = '''
from pydantic_ai import Agent
from shop.texts import {company}, TEMPLATE

agent = Agent("openai:gpt-4o", name="shop", instructions=TEMPLATE.format(company={company}))
'''
TEXTS = 'TEMPLATE = "You are the assistant of {{company}}. Never share card numbers."\n{company} = {value!r}\n'


def test_instructions_digest_is_the_formatted_value() -> None:
    s = surface_of({"shop/texts.py": TEXTS.format(company="COMPANY", value="Acme"), "shop/agent.py": AGENT.format(company="COMPANY")})
    entry = s["agent:shop"]
    assert entry.instructions_sha256 == digest("You are the assistant of Acme. Never share card numbers.")
    assert entry.instructions_text == "You are the assistant of Acme. Never share card numbers."


def test_cli_format_constant_renamed_is_quiet_and_value_change_shows_the_text(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"shop/__init__.py": "", "shop/texts.py": TEXTS.format(company="COMPANY", value="Acme"),
                     "shop/agent.py": AGENT.format(company="COMPANY")})
    git_repo.commit({"shop/texts.py": TEXTS.format(company="COMPANY_NAME", value="Acme"),
                     "shop/agent.py": AGENT.format(company="COMPANY_NAME")})
    code, receipt = receipt_of(git_repo)
    assert (code, seen(receipt)) == (0, [])

    git_repo.commit({"shop/texts.py": TEXTS.format(company="COMPANY_NAME", value="Acme Pay")})
    code, receipt = receipt_of(git_repo)
    assert seen(receipt) == [("agent.instructions_changed", "shop", "info")]
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "markdown")
    assert "+You are the assistant of Acme Pay. Never share card numbers." in out.stdout
    assert "-You are the assistant of Acme. Never share card numbers." in out.stdout


def test_cached_facts_keep_fstring_pieces_and_body_digests() -> None:
    """The facts cache round-trips what value comparison needs (a stale cache must not read as a change)."""
    import json

    from receipt.extract.facts import facts_from_json, facts_to_json

    m = extract_python("app/m.py", 'X = "a"\n@deco\ndef f(ctx):\n    return f"{X} {ctx.y!r:>3}"\n')
    again = facts_from_json(json.loads(json.dumps(facts_to_json(m))))
    assert again == m
    fn = again.functions[0]
    assert fn.body and fn.returns_exprs[0].parts  # type: ignore[union-attr]
    renamed = extract_python("lib/other.py", 'X = "a"\ndef g(ctx):\n    return f"{X} {ctx.y!r:>3}"\n').functions[0]
    assert renamed.body == fn.body


TABLE = '''
PROMPTS = {{{items}}}
STEPS = ["Greet.", "Answer.", "Say goodbye."]
'''


def _subscript(table: str, expr: str) -> object:
    files = {"app/texts.py": table, "app/agent.py": f"import os\nfrom app import texts\nfrom app.texts import *\nX = {expr}\n"}
    return _value(files, "app.agent.X")


def test_item_of_a_constant_table_is_its_value() -> None:
    """A prompt picked from a dict or list of constants by a known key is that text, wherever the table lives."""
    table = TABLE.format(items='"en": "Be kind.", "fr": "Sois gentil."')
    assert _subscript(table, 'PROMPTS["fr"]') == "Sois gentil."
    assert _subscript(table, 'texts.PROMPTS["en"]') == "Be kind."
    assert _subscript(table, "STEPS[-1]") == "Say goodbye."
    assert isinstance(_subscript(table, 'PROMPTS["de"]'), Dynamic)  # a KeyError at run time is no text


def test_item_chosen_at_run_time_is_one_of_the_table_values() -> None:
    """`PROMPTS[lang]` may be any of the table's texts: renaming the table or reordering its keys
    changes nothing, editing one text changes the digest."""
    def dyn(items: str, expr: str = 'PROMPTS[os.environ["LANG"]]') -> str | None:
        value = _subscript(TABLE.format(items=items), expr)
        assert isinstance(value, Dynamic)
        return digest(value)

    base = dyn('"en": "Be kind.", "fr": "Sois gentil."')
    assert dyn('"fr": "Sois gentil.", "en": "Be kind."') == base
    assert dyn('"en": "Be kind.", "fr": "Sois gentil."', 'texts.PROMPTS[os.environ["LOCALE"]]') == base
    assert dyn('"en": "Be kind.", "fr": "Sois poli."') != base


def test_cached_facts_keep_subscript_pieces() -> None:
    import json

    from receipt.extract.facts import facts_from_json, facts_to_json

    m = extract_python("app/m.py", 'from app.texts import PROMPTS\nX = PROMPTS[lang]\nY = PROMPTS["en"]\n')
    again = facts_from_json(json.loads(json.dumps(facts_to_json(m))))
    assert again == m
    assert [a.value.parts for a in again.assigns] == [(Ref("app.texts.PROMPTS"), Ref("app.m.lang")), (Ref("app.texts.PROMPTS"), Const("en"))]  # type: ignore[union-attr]


def test_unknown_repository_name_is_spelt_as_its_module_spells_it() -> None:
    """`configs.agent_settings.model` on a settings object: the dynamic value names it as the code
    does, not by the project folder and module it sits in (a moved project is no new value)."""
    for root in ("support_app", "apps/support_app"):
        p = _program({f"{root}/agent.py": "from pydantic_settings import BaseSettings\nconfigs = BaseSettings()\nX = configs.agent_settings.model\n"})
        (x,) = p.assigns[f"{root.replace('/', '.')}.agent.X"]
        assert p.evaluate(x.value) == Dynamic(dynamic="configs.agent_settings.model")



OPERATORS = '''
import os
from app.flags import STRICT

APPROVE = True
TIER = "express"
FLAGS = {
    "NOT_TRUE": not True,
    "NOT_NAME": not APPROVE,
    "BOTH": APPROVE and TIER == "manual",
    "EITHER": TIER == "manual" or 0,
    "FIRST_TRUE": APPROVE or os.environ["X"],
    "FIRST_FALSE": not APPROVE and os.environ["X"],
    "UNKNOWN_FIRST": os.environ["X"] or True,
    "IMPORTED": not STRICT,
    "ORDERED": 2 >= 3,
    "MIXED": 1 < "a",
    "NONE_IS": None is None,
    "IS_NOT": TIER is not None,
    "SAME_TEXT": TIER is "express",
    "CHAINED": 1 < 2 < 3,
    "PICKED": APPROVE if TIER == "manual" else False,
    "UNKNOWN_TEST": True if os.environ["X"] else False,
    "MEMBER": TIER in ("manual", "express"),
    "NOT_MEMBER": TIER not in ["manual"],
    "IN_TEXT": "press" in TIER,
    "UNKNOWN_MEMBER": TIER in (os.environ["X"], "manual"),
}
'''


def test_operators_over_known_values_evaluate_as_python_does() -> None:
    """A flag spelt as an operator over constants is a value (`needs_approval=not True` is False,
    never "set at run time"); Python's own semantics: `and`/`or` give the deciding operand and stop
    there, an ordering Python refuses or an operand not known stays dynamic."""
    p = _program({"app/m.py": OPERATORS, "app/flags.py": "STRICT = True\n"})
    flags = p.evaluate(p.lookup("app.m.FLAGS").value)  # type: ignore[union-attr]
    assert isinstance(flags, dict)
    assert flags["NOT_TRUE"] is False and flags["NOT_NAME"] is False
    assert flags["BOTH"] is False
    assert flags["EITHER"] == 0 and flags["EITHER"] is not False  # `or` gives its last operand
    assert flags["FIRST_TRUE"] is True and flags["FIRST_FALSE"] is False
    assert flags["IMPORTED"] is False
    assert flags["ORDERED"] is False
    assert flags["NONE_IS"] is True and flags["IS_NOT"] is True
    assert flags["PICKED"] is False  # the branch its known test picks
    assert flags["MEMBER"] is True and flags["NOT_MEMBER"] is True and flags["IN_TEXT"] is True
    for unknown in ("UNKNOWN_FIRST", "MIXED", "SAME_TEXT", "CHAINED", "UNKNOWN_TEST", "UNKNOWN_MEMBER"):
        assert isinstance(flags[unknown], Dynamic), unknown


def test_augmented_assignments_below_a_binding_change_its_value() -> None:
    """`PROMPT += "..."` below `PROMPT = "..."` is the longer text (and a list the longer list);
    `&=`, `|=`, `^=` of known flags are evaluated; anything else, or one that may not run (in a
    function, under a condition), leaves the value unknown: never the value as first bound."""
    p = _program({"app/m.py": '''
import os
PROMPT = "Help."
PROMPT += " Be brief."
TOOLS = ["a"]
TOOLS += ["b"]
APPROVE = True
APPROVE &= False
SHARED = False
SHARED ^= os.environ["S"]
LIMIT = "x"
if os.environ.get("Y"):
    LIMIT += "y"
MIXED = "a"
MIXED += os.environ["Z"]
KEPT = True


def widen():
    global KEPT
    KEPT |= False
'''})

    def value(name: str) -> object:
        return p.evaluate(Ref(f"app.m.{name}"))

    assert value("PROMPT") == "Help. Be brief."
    assert value("TOOLS") == ["a", "b"]
    assert value("APPROVE") is False  # True & False
    for unknown in ("SHARED", "LIMIT", "MIXED", "KEPT"):
        assert isinstance(value(unknown), Dynamic), unknown
    assert "SHARED ^= os.environ" in value("SHARED").dynamic  # type: ignore[union-attr]


def test_getattr_with_a_literal_name_is_the_attribute() -> None:
    p = _program({"app/m.py": '''
import os


class Policy:
    APPROVE = False
    TIER = "manual"


FLAG = getattr(Policy, "APPROVE")
TIER = getattr(Policy, "T" + "IER")
UNKNOWN = getattr(Policy, os.environ["K"])
DEFAULTED = getattr(Policy, "MISSING", True)
'''})
    assert p.evaluate(Ref("app.m.FLAG")) is False
    assert p.evaluate(Ref("app.m.TIER")) == "manual"
    assert isinstance(p.evaluate(Ref("app.m.UNKNOWN")), Dynamic)
    assert isinstance(p.evaluate(Ref("app.m.DEFAULTED")), Dynamic)  # a default: not evaluated

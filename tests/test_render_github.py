"""GitHub annotations: one workflow command per line, capped per level, nothing injectable.

Lines are parsed back the way the Actions runner parses them (command at the start of a line,
properties up to the first "::", values unescaped), so the tests check what GitHub would see.
"""

from __future__ import annotations

import pytest

from receipt.models import Accepted
from receipt.render import render_annotations
from receipt.render.escape import visible
from receipt.render.github import escape_data, escape_property
from tests.render_factories import EVIL, change, mixed_receipt, receipt


def _unescape(value: str, prop: bool) -> str:
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if prop else []) + [("%25", "%")]
    for enc, dec in pairs:
        value = value.replace(enc, dec)
    return value


def parse(line: str) -> tuple[str, dict[str, str], str]:
    """The runner's ActionCommand.TryParseV2, in short."""
    assert line.startswith("::")
    end = line.index("::", 2)
    info, message = line[2:end], line[end + 2 :]
    command, _, props = info.partition(" ")
    properties = {}
    for pair in props.split(","):
        if pair:
            key, _, value = pair.partition("=")
            properties[key] = _unescape(value, prop=True)
    return command, properties, _unescape(message, prop=False)


def lines_of(text: str) -> list[str]:
    assert text == "" or text.endswith("\n")
    return text.splitlines()


def test_levels_titles_and_locations() -> None:
    out = lines_of(render_annotations(mixed_receipt()))
    parsed = [parse(line) for line in out]
    assert [p[0] for p in parsed] == ["error", "error", "warning", "warning", "notice", "notice", "notice"]
    command, props, message = parsed[0]
    assert props == {"file": "src/tools.py", "line": "12", "title": "tool.dangerous_gained: tool run_shell"}
    assert message.startswith("tool 'run_shell' dangerous gained [regression, fingerprint ")
    # The accepted regression is downgraded to a notice and says why.
    accepted = [p for p in parsed if "accepted" in p[2]]
    assert len(accepted) == 1 and accepted[0][0] == "notice"
    assert accepted[0][2].endswith("accepted: ticket OPS-12: supervised elsewhere (until 2030-01-01)")
    assert parsed[3][1]["title"] == "tool.signature_changed: tool files/search"


def test_no_changes_no_output() -> None:
    assert render_annotations(receipt([])) == ""


def test_at_most_max_per_level_with_one_summary_notice() -> None:
    changes = [change("tool.x", "regression", name=f"r{i}") for i in range(25)]
    changes += [change("tool.y", "warning", name=f"w{i}") for i in range(3)]
    changes += [change("tool.z", "info", name=f"i{i}") for i in range(12)]
    out = [parse(line) for line in lines_of(render_annotations(receipt(changes)))]
    counts = {lvl: sum(1 for p in out if p[0] == lvl) for lvl in ("error", "warning", "notice")}
    assert counts == {"error": 10, "warning": 3, "notice": 10}  # the summary is one of the 10 notices
    summary = out[-1]
    assert summary[0] == "notice" and summary[1] == {"title": "behavior-receipt"}
    assert summary[2] == "18 more changes not annotated (15 errors, 3 notices); the receipt lists them all"
    # The first ones in receipt order are kept.
    assert [p[1]["title"] for p in out[:2]] == ["tool.x: tool r0", "tool.x: tool r1"]


def test_cap_is_configurable_and_validated() -> None:
    changes = [change("tool.x", "warning", name=f"w{i}") for i in range(5)]
    out = [parse(line) for line in lines_of(render_annotations(receipt(changes), max_per_level=2))]
    assert [p[0] for p in out] == ["warning", "warning", "notice"]
    assert out[-1][2].startswith("3 more changes not annotated (3 warnings)")
    with pytest.raises(ValueError):
        render_annotations(receipt(changes), max_per_level=0)


def test_escaping_rules() -> None:
    assert escape_data("50%\r\n::x") == "50%25%0D%0A::x"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


@pytest.mark.parametrize(
    "name",
    [
        "x\n::set-output name=a::b",
        "x\r\n::add-mask::secret",
        "::add-mask::secret",
        "a,line=999,title=fake::forged message",
        "%0A::error::decoded twice?",
        EVIL,
        "\x1b[32mPASS\x1b[0m \u202e",
    ],
)
def test_analysed_strings_cannot_inject_commands_or_properties(name: str) -> None:
    r = receipt([change(name=name, path=name + ".py", message=name, accepted=Accepted(reason=name, expires="2030-01-01"))])
    out = lines_of(render_annotations(r))
    assert len(out) == 1  # exactly one command, whatever the name holds
    command, props, message = parse(out[0])
    assert command == "notice"
    assert set(props) == {"file", "line", "title"} and props["line"] == "12"
    assert props["file"] == visible(name + ".py")
    assert props["title"] == f"tool.approval_lowered: tool {visible(name)}"
    assert message.startswith(visible(name) + " [regression, fingerprint ")
    assert "\x1b" not in out[0] and "\n" not in out[0] and "\r" not in out[0]


def test_no_file_property_without_a_path() -> None:
    r = receipt([change("config.changed", "warning", kind="config", name="pyproject.toml", path=None, line=None)])
    command, props, _ = parse(lines_of(render_annotations(r))[0])
    assert command == "warning" and set(props) == {"title"}

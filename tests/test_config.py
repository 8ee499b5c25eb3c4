"""Configuration parsing: strict (typos are errors), one-line messages, gitignore-like excludes."""

from __future__ import annotations

import datetime

import pytest

from receipt.config import CONFIG_FILES, Config, config_digest, parse_config, select_config
from receipt.errors import ConfigError

FULL = """\
[project]
name = "demo"

[tool.receipt]
paths = ["./src/", "agents"]
exclude = ["tests/**", "*.pyc"]
exports = ["support_agent", "app.agents:triage"]
fail_on = "warning"
keyring = ".github/keys.json"
max_file_bytes = 2_000_000
template = "ci/receipt.md.j2"

[tool.receipt.severity]
"tool.description_changed" = "warning"
"agent.model_changed" = "info"

[[tool.receipt.accept]]
fingerprint = "0123456789AB"
reason = "refunds are capped at 10 EUR, see #123"
expires = 2026-12-31

[[tool.receipt.accept]]
fingerprint = "abcdefabcdef"
reason = "tracked in #7"
expires = "2027-01-15"

[[tool.receipt.accept]]
fingerprint = "ffffffffffff"
reason = "permanent"

[tool.receipt.comment]
mode = "hide-and-new"
key = "nightly.v2"
"""


def error_of(text: str, filename: str = "pyproject.toml") -> str:
    with pytest.raises(ConfigError) as e:
        parse_config(text, filename)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"invalid configuration in {filename}: ")
    assert e.value.exit_code == 2
    return message.removeprefix(f"invalid configuration in {filename}: ")


def test_config_files_lookup_order():
    assert CONFIG_FILES == (".receipt.toml", "pyproject.toml")


def test_defaults():
    c = parse_config("", ".receipt.toml")
    assert c == Config()
    assert c.model_dump() == {
        "paths": [],
        "exclude": [],
        "include_tests": False,
        "exports": [],
        "fail_on": "regression",
        "severity": {},
        "accept": [],
        "comment": {"mode": "update", "key": "default"},
        "keyring": ".github/receipt-keys.json",
        "max_file_bytes": 1_000_000,
        "template": None,
        "traces": {"escalate_above": None},
    }


def test_pyproject_without_section_is_none():
    assert parse_config('[project]\nname = "x"\n', "pyproject.toml") is None
    assert parse_config("", "pyproject.toml") is None
    assert parse_config("[tool.black]\nline-length = 100\n", "sub/dir/pyproject.toml") is None


def test_full_pyproject():
    c = parse_config(FULL, "pyproject.toml")
    assert c is not None
    assert c.paths == ["agents", "src"]
    assert c.exclude == ["tests/**", "*.pyc"]
    assert c.exports == ["app.agents:triage", "support_agent"]
    assert c.fail_on == "warning"
    assert c.severity == {"agent.model_changed": "info", "tool.description_changed": "warning"}
    assert [(a.fingerprint, a.expires) for a in c.accept] == [
        ("0123456789ab", datetime.date(2026, 12, 31)),
        ("abcdefabcdef", datetime.date(2027, 1, 15)),
        ("ffffffffffff", None),
    ]
    assert c.accept[0].reason == "refunds are capped at 10 EUR, see #123"
    assert (c.comment.mode, c.comment.key) == ("hide-and-new", "nightly.v2")
    assert (c.keyring, c.max_file_bytes, c.template) == (".github/keys.json", 2_000_000, "ci/receipt.md.j2")
    assert c.acceptance("abcdefabcdef") is c.accept[1] and c.acceptance("000000000000") is None


def test_receipt_toml_top_level_or_wrapped():
    top = parse_config('fail_on = "never"\n[comment]\nmode = "off"\n', ".receipt.toml")
    wrapped = parse_config('[tool.receipt]\nfail_on = "never"\n[tool.receipt.comment]\nmode = "off"\n', ".receipt.toml")
    assert top == wrapped and top is not None and top.fail_on == "never" and top.comment.mode == "off"
    # Any other file name (e.g. --config ci/receipt.toml) reads like .receipt.toml.
    assert parse_config('fail_on = "never"\n', "ci/receipt.toml") == top.model_copy(update={"comment": Config().comment})


def test_receipt_toml_mixing_both_styles_is_an_error():
    msg = error_of('fail_on = "never"\n[tool.receipt]\nfail_on = "warning"\n', ".receipt.toml")
    assert "either top-level keys or a [tool.receipt] table" in msg and "fail_on" in msg


def test_toml_syntax_error():
    msg = error_of('[tool.receipt]\nfail_on = "never\n')
    assert msg.startswith("TOML syntax error: ") and "line 2" in msg


@pytest.mark.parametrize(
    "body,expected",
    [
        ('fail-on = "warning"', "unknown key 'tool.receipt.fail-on' (did you mean 'fail_on'?)"),
        ('severty = {}', "unknown key 'tool.receipt.severty' (did you mean 'severity'?)"),
        ('zzz = 1', "unknown key 'tool.receipt.zzz'"),
        ('comment = {mdoe = "off"}', "unknown key 'tool.receipt.comment.mdoe' (did you mean 'mode'?)"),
        ('accept = [{fingerprint = "0123456789ab", reason = "r", expiry = 2026-01-01}]',
         "unknown key 'tool.receipt.accept[0].expiry' (did you mean 'expires'?)"),
    ],
)
def test_unknown_keys_are_errors(body, expected):
    assert error_of(f"[tool.receipt]\n{body}\n") == expected


@pytest.mark.parametrize(
    "body,expected",
    [
        ('fail_on = "sometimes"', "tool.receipt.fail_on: Input should be 'regression', 'warning' or 'never'"),
        ('severity = {"tool.aproval_lowered" = "info"}',
         "tool.receipt.severity: unknown change id 'tool.aproval_lowered' (did you mean 'tool.approval_lowered'?)"),
        ('severity = {"no.such" = "info"}', "tool.receipt.severity: unknown change id 'no.such' (see `receipt explain`)"),
        ('severity = {"tool.added" = "fatal"}',
         "tool.receipt.severity.tool.added: Input should be 'regression', 'warning' or 'info'"),
        ('accept = [{fingerprint = "0123456789ab"}]', "tool.receipt.accept[0].reason: Field required"),
        ('accept = [{fingerprint = "0123456789ab", reason = "  "}]', "tool.receipt.accept[0].reason: a reason is required"),
        ('accept = [{fingerprint = "xyz", reason = "r"}]',
         "tool.receipt.accept[0].fingerprint: 'xyz' is not a fingerprint (12 hex digits, as shown in the receipt)"),
        ('accept = [{fingerprint = "0123456789ab", reason = "r", expires = "next week"}]',
         "tool.receipt.accept[0].expires: 'next week' is not a date like 2026-12-31"),
        ('accept = [{fingerprint = "0123456789ab", reason = "r", expires = 2026-01-01T10:00:00Z}]',
         "tool.receipt.accept[0].expires: must be a date like 2026-12-31"),
        ('accept = [{fingerprint = "0123456789ab", reason = "a"}, {fingerprint = "0123456789AB", reason = "b"}]',
         "tool.receipt.accept: fingerprint '0123456789ab' is accepted twice"),
        ("max_file_bytes = 0", "tool.receipt.max_file_bytes: Input should be greater than 0"),
        ("max_file_bytes = true", "tool.receipt.max_file_bytes: Input should be a valid integer"),
        ('max_file_bytes = "1MB"', "tool.receipt.max_file_bytes: Input should be a valid integer"),
        ('comment = {mode = "always"}',
         "tool.receipt.comment.mode: Input should be 'update', 'new', 'hide-and-new' or 'off'"),
        ('comment = {key = "x --> <b>"}',
         "tool.receipt.comment.key: must be 1-64 characters of letters, digits, '.', '_' or '-'"),
        ('paths = ["/etc"]', "tool.receipt.paths: path '/etc' must be relative to the repository root"),
        ('paths = ["src/../../x"]', "tool.receipt.paths: path 'src/../../x' points outside the repository"),
        ('paths = "src"', "tool.receipt.paths: Input should be a valid list"),
        ('exclude = [""]', "tool.receipt.exclude: exclude patterns must not be empty"),
        ('exports = [" "]', "tool.receipt.exports: export names must not be empty"),
        ('keyring = "/root/keys.json"', "tool.receipt.keyring: file '/root/keys.json' must be relative to the repository root"),
        ("exports = [1]", "tool.receipt.exports[0]: Input should be a valid string"),
    ],
)
def test_invalid_values(body, expected):
    assert error_of(f"[tool.receipt]\n{body}\n") == expected


def test_receipt_table_must_be_a_table():
    assert error_of('[tool]\nreceipt = "yes"\n') == "tool.receipt must be a table"


def test_several_errors_in_one_line():
    msg = error_of('[tool.receipt]\nfail_on = 1\nmax_file_bytes = -1\nzzz = 2\nyyy = 3\n')
    assert msg.count(";") == 3 and msg.endswith("and 1 more")


def test_top_level_errors_have_no_prefix():
    assert error_of("nope = 1\n", ".receipt.toml") == "unknown key 'nope'"


def test_paths_are_normalised():
    c = parse_config('paths = ["./src/", "src", "a//b/", "."]\n', ".receipt.toml")
    assert c is not None and c.paths == ["a/b", "src"]


@pytest.mark.parametrize(
    "patterns,path,excluded",
    [
        (["*.pyc"], "a/b/c.pyc", True),
        (["*.pyc"], "c.pyc", True),
        (["*.pyc"], "c.py", False),
        (["vendor"], "vendor/lib/x.py", True),
        (["vendor"], "src/vendor/x.py", True),
        (["vendor"], "src/vendored.py", False),
        (["/vendor"], "src/vendor/x.py", False),
        (["/vendor"], "vendor/x.py", True),
        (["tests/**"], "tests/unit/test_a.py", True),
        (["tests/**"], "src/tests/test_a.py", False),
        (["**/migrations/*.py"], "app/db/migrations/0001.py", True),
        (["**/migrations/*.py"], "migrations/0001.py", True),
        (["**/migrations/*.py"], "app/migrations/sub/0001.py", False),
        (["src/**/gen_*.py"], "src/gen_a.py", True),
        (["src/**/gen_*.py"], "src/a/b/gen_a.py", True),
        (["src/**/gen_*.py"], "src/a/b/agen_a.py", False),
        (["docs/"], "docs/x.py", True),
        (["docs/"], "docs", False),  # trailing slash: directories only
        (["file?.py"], "file1.py", True),
        (["file?.py"], "file10.py", False),
        (["[!a]*.py"], "b.py", True),
        (["[!a]*.py"], "a.py", False),
        (["a*"], "a/b.py", True),
        (["*.py"], "./x/./y.py", True),
        (["examples/**", "*.md"], "README.md", True),
        ([], "anything.py", False),
        (["**"], "x.py", True),
    ],
)
def test_is_excluded(patterns, path, excluded):
    assert Config(exclude=patterns).is_excluded(path) is excluded


def test_select_config():
    assert select_config({}) == (None, Config())
    assert select_config({".receipt.toml": None, "pyproject.toml": "[project]\nname='x'\n"}) == (None, Config())
    name, c = select_config({".receipt.toml": 'fail_on = "never"\n', "pyproject.toml": "[project]\nname='x'\n"})
    assert name == ".receipt.toml" and c.fail_on == "never"
    name, c = select_config({"pyproject.toml": FULL})
    assert name == "pyproject.toml" and c.fail_on == "warning"
    with pytest.raises(ConfigError, match="both .receipt.toml and pyproject.toml configure behavior-receipt"):
        select_config({".receipt.toml": "", "pyproject.toml": FULL})


def test_config_digest():
    assert config_digest(None, "pyproject.toml") is None
    assert config_digest("[project]\n", "pyproject.toml") is None
    a = config_digest(FULL, "pyproject.toml")
    assert a is not None and len(a) == 12
    reformatted = FULL.replace("[project]\nname = \"demo\"\n", "[project]\nname = \"other\"  # renamed\n")
    assert config_digest(reformatted, "pyproject.toml") == a
    assert config_digest(FULL.replace("2026-12-31", "2027-12-31"), "pyproject.toml") != a
    assert config_digest("", ".receipt.toml") is not None
    assert config_digest("x = [", ".receipt.toml") != config_digest("x = [[", ".receipt.toml")
    assert config_digest("x = nan\n", ".receipt.toml") is not None

"""Receipt -> SARIF 2.1.0 (`--format sarif`), for GitHub code scanning and other SARIF consumers.

One result per change: ruleId = the change id (rules come from the catalogue, with its title and
explanation), level from the severity (regression -> error, warning -> warning, info -> note),
the location where the subject lives, and the change's fingerprint as a partial fingerprint so that
code scanning tracks one alert across pushes. Accepted changes carry an external suppression with
the acceptance reason.

Messages are plain text; control, bidi and invisible characters are made visible (`visible`), as in
every other renderer. Deterministic: sorted keys, fixed order of results (the receipt's).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from receipt import catalogue
from receipt.models import Change, Receipt
from receipt.render.escape import clip, visible

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://pypi.org/project/behavior-receipt/"
FINGERPRINT_KEY = "behaviorReceipt/v1"
_LEVEL = {"regression": "error", "warning": "warning", "info": "note"}
_MESSAGE_CHARS = 2000


def _text(value: str, limit: int = _MESSAGE_CHARS) -> str:
    return clip(visible(value), limit)


def _rule(change_id: str) -> dict[str, Any]:
    kind = catalogue.CATALOGUE.get(change_id)
    if kind is None:  # a receipt from a newer tool version: still a valid rule
        return {"id": change_id, "shortDescription": {"text": change_id}}
    return {
        "id": kind.id,
        "name": "".join(part.capitalize() for part in kind.id.replace(".", "_").split("_")),
        "shortDescription": {"text": kind.title},
        "fullDescription": {"text": kind.explanation},
        "help": {"text": kind.explanation},
        "defaultConfiguration": {"level": _LEVEL[kind.default_severity]},
        "properties": {"tags": ["behavior-receipt", kind.default_severity]},
    }


def _result(change: Change, rule_index: int) -> dict[str, Any]:
    s = change.subject
    result: dict[str, Any] = {
        "ruleId": change.id,
        "ruleIndex": rule_index,
        "level": _LEVEL[change.severity],
        "message": {"text": _text(change.message)},
        "partialFingerprints": {FINGERPRINT_KEY: change.fingerprint},
        "properties": {"severity": change.severity, "subject": {"kind": s.kind, "name": _text(s.name, 200)}},
    }
    if s.scope:
        result["properties"]["subject"]["scope"] = _text(s.scope, 200)
    if s.path:
        location: dict[str, Any] = {"artifactLocation": {"uri": quote(s.path, safe="/"), "uriBaseId": "%SRCROOT%"}}
        if s.line is not None and s.line >= 1:
            location["region"] = {"startLine": int(s.line)}
        result["locations"] = [{"physicalLocation": location}]
    if change.accepted is not None:
        justification = change.accepted.reason + (f" (until {change.accepted.expires})" if change.accepted.expires else "")
        result["suppressions"] = [{"kind": "external", "justification": _text(justification, 500)}]
    return result


def render_sarif(receipt: Receipt) -> str:
    """A SARIF 2.1.0 log with one run; pretty, sorted JSON ending with one newline."""
    rule_ids = sorted({c.id for c in receipt.changes})
    index = {rid: i for i, rid in enumerate(rule_ids)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": receipt.tool.name,
                "version": receipt.tool.version,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rid) for rid in rule_ids],
            }
        },
        "results": [_result(c, index[c.id]) for c in receipt.changes],
        "automationDetails": {"id": "behavior-receipt/"},
        "properties": {
            "base": receipt.base.sha,
            "head": receipt.head.sha,
            "compared": _text(receipt.compared, 300),
            "verdict": "pass" if receipt.verdict.ok else "fail",
        },
    }
    log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(log, sort_keys=True, indent=2, ensure_ascii=False) + "\n"

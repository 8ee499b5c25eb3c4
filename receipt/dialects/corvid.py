"""Corvid ABI descriptors (`*.corvid-abi.json`): agents, prompts and tools of a Corvid program.

The descriptor is the compiler's own statement of a program's exported surface (schema
`corvid_abi_version` 1: agents with effects, attributes, approval_contract, provenance, budget;
tools with effects, dangerous and a contract of domain effects). Everything in it is exported.
Corvid-only attributes ride in `Entry.extra` under `corvid.*` keys and have their own catalogue
entries (approval label tier/reversibility, grounded provenance, domain effects, ownership, budget).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from receipt.dialects.base import Candidate, DialectResult, digest, issue
from receipt.extract.facts import ModuleFacts
from receipt.extract.program import Program
from receipt.strictjson import StrictJSONError as DescriptorError
from receipt.strictjson import strict_json
from receipt.models import TRUST_FROM_APPROVAL, TRUST_ORDER, Dynamic, Entry, Param, Signature

NAME = "corvid"
SUPPORTED_ABI_VERSIONS = (1,)
_SUFFIX = ".corvid-abi.json"
def _flag(obj: dict[str, Any], key: str, where: str) -> bool:
    """A boolean attribute; anything but true/false is refused rather than read by truthiness."""
    value = obj.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise DescriptorError(f"{where}.{key} must be true or false, not {json.dumps(value)[:40]}")
    return value


def _line(value: Any) -> int:
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DescriptorError(f"source_line must be a positive integer, not {json.dumps(value)[:40]}")
    return value


def _module(path: str) -> str:
    return "corvid:" + path


def _error(path: str, reason: str, message: str) -> ModuleFacts:
    return ModuleFacts(path=path, module=_module(path), error={"line": None, "reason": reason, "message": message})


def type_text(t: Any) -> str:
    """TypeDescription -> compact text: `List<String>`, `Result<Int, String>`, `Grounded<Order>`."""
    if not isinstance(t, dict) or len(t) != 1:
        return "?"
    (kind, value), = t.items()
    if kind == "scalar":
        return str(value)
    if kind == "struct":
        return str(value)
    if kind == "result" and isinstance(value, dict):
        return f"Result<{type_text(value.get('ok'))}, {type_text(value.get('err'))}>"
    if kind == "list" and isinstance(value, dict):
        return f"List<{type_text(value.get('element'))}>"
    if isinstance(value, dict) and "inner" in value:
        name = "".join(p.capitalize() for p in kind.split("_"))
        return f"{name}<{type_text(value['inner'])}>"
    return kind


def _signature(params: Any, returns: Any) -> Signature:
    out = []
    for p in params or []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            out.append(Param(name=p["name"], type=type_text(p.get("type")), required=True))
    return Signature(params=out, returns=type_text(returns) if returns is not None else None)


def _ownership(item: dict[str, Any]) -> dict[str, str]:
    """Ownership mode per parameter and of the return value, for the ownership_loosened check."""
    out: dict[str, str] = {}
    for p in item.get("params") or []:
        mode = (p.get("ownership") or {}).get("mode") if isinstance(p, dict) else None
        if isinstance(mode, str):
            out[f"param:{p.get('name')}"] = mode
    ret = (item.get("return_ownership") or {}).get("mode")
    if isinstance(ret, str):
        out["return"] = ret
    return dict(sorted(out.items()))


# Corvid spellings onto the surface model's tiers; anything else is reported as dynamic, not guessed.
_TIER_SYNONYMS = {"supervisor_required": "human_supervised", "supervised": "human_supervised", "human": "human_required"}


def _trust(effects: dict[str, Any]) -> tuple[Any, bool]:
    tier = effects.get("trust_tier")
    if tier is None:
        return None, False
    if isinstance(tier, str) and (tier in TRUST_ORDER or tier in _TIER_SYNONYMS):
        return _TIER_SYNONYMS.get(tier, tier), True
    return Dynamic(dynamic=f"corvid trust_tier {tier!r} (not a known tier)"), True


def _agent(path: str, a: dict[str, Any]) -> dict[str, Any]:
    attrs = a.get("attributes") or {}
    where = f"agent {a['name']!r} attributes"
    effects = a.get("effects") or {}
    contract = a.get("approval_contract") or {}
    labels = {
        str(label.get("label")): {k: label.get(k) for k in ("required_tier", "reversibility") if label.get(k) is not None}
        for label in contract.get("labels") or []
        if isinstance(label, dict) and label.get("label")
    }
    approval = "always" if _flag(contract, "required", "approval_contract") else ("conditional" if labels else "never")
    tier, declared = _trust(effects)
    dispatch = a.get("dispatch") or {}
    arms = [arm.get("model") for arm in dispatch.get("route_arms", []) if isinstance(arm, dict) and arm.get("model")]
    # In the descriptor's order: Entry gives `models` its one normal form; the joined `model` is sorted here.
    models = [str(m) for m in [*arms, *(dispatch.get("models", []) or [])]]
    budget = (a.get("budget") or {}).get("usd_per_call")
    entry = Entry(
        kind="agent",
        name=str(a["name"]),
        path=path,
        line=_line(a.get("source_line")),
        dialect=NAME,
        root=True,
        dangerous=_flag(attrs, "dangerous", where),
        approval=approval,  # type: ignore[arg-type]
        trust_tier=tier or {"never": "autonomous", "conditional": "human_supervised", "always": "human_required"}[approval],  # type: ignore[arg-type]
        trust_declared=declared,
        replayable=_flag(attrs, "replayable", where),
        deterministic=_flag(attrs, "deterministic", where),
        model=", ".join(sorted(set(models))) if models else None,
        models=models,  # compared one by one (diff._models_rule)
        signature=_signature(a.get("params"), a.get("return_type")),
        extra={
            "corvid.approval_labels": dict(sorted(labels.items())),
            "corvid.returns_grounded": _flag(a.get("provenance") or {}, "returns_grounded", "provenance"),
            "corvid.budget_usd_per_call": budget if isinstance(budget, (int, float)) and not isinstance(budget, bool) else None,
            "corvid.ownership": _ownership(a),
            "corvid.reversibility": effects.get("reversibility"),
            "corvid.required_capability": a.get("required_capability"),
        },
    )
    return entry.model_dump(mode="json")


def _tool(path: str, t: dict[str, Any], line: int, gated: bool = False) -> dict[str, Any]:
    """`gated`: an approval site guards calls to it, so it is not unguarded even without a contract label."""
    effects = t.get("effects") or {}
    contract = t.get("contract") or {}
    domain = sorted(
        {
            f"{d.get('kind')}" + (f":{d['target']}" if d.get("target") else "")
            for d in contract.get("domain_effects") or []
            if isinstance(d, dict) and d.get("kind")
        }
    )
    approval = "always" if contract.get("requires_approval") else ("conditional" if gated else "never")
    tier, declared = _trust(effects)
    irreversible = effects.get("reversibility") == "irreversible"
    entry = Entry(
        kind="tool",
        name=str(t["name"]),
        path=path,
        line=line,
        dialect=NAME,
        root=True,
        dangerous=_flag(t, "dangerous", f"tool {t['name']!r}"),
        approval=approval,  # type: ignore[arg-type]
        trust_tier=tier or TRUST_FROM_APPROVAL[approval],  # type: ignore[arg-type]
        trust_declared=declared,
        read_only=effects.get("data") == "read" if isinstance(effects.get("data"), str) else False,
        idempotent=False,
        open_world=True,
        signature=_signature(t.get("params"), t.get("return_type")),
        extra={
            "corvid.domain_effects": domain,
            "corvid.reversibility": effects.get("reversibility"),
            "corvid.irreversible": irreversible,
            "corvid.ownership": _ownership(t),
        },
    )
    return entry.model_dump(mode="json")


def _prompt(path: str, p: dict[str, Any], line: int) -> dict[str, Any]:
    entry = Entry(
        kind="prompt",
        name=str(p["name"]),
        path=path,
        line=line,
        dialect=NAME,
        root=True,
        signature=_signature(p.get("params"), p.get("return_type")),
        description_sha256=digest(json.dumps(p.get("cited_params", []), sort_keys=True) + json.dumps(p.get("effects", {}), sort_keys=True)),
    )
    return entry.model_dump(mode="json")


def parse_descriptor(path: str, data: bytes) -> ModuleFacts:
    """File-level and pure: descriptor bytes -> facts carrying entry dicts (or an error)."""
    try:
        doc = strict_json(data)
    except UnicodeDecodeError:
        return _error(path, "non-utf8", "Corvid descriptor is not UTF-8")
    except DescriptorError as e:
        return _error(path, "invalid-json", f"Corvid descriptor is not strict JSON: {e}")
    except (json.JSONDecodeError, RecursionError) as e:
        return _error(path, "invalid-json", f"Corvid descriptor is not valid JSON: {getattr(e, 'msg', type(e).__name__)}")
    if not isinstance(doc, dict):
        return _error(path, "invalid-descriptor", "Corvid descriptor must be a JSON object")
    version = doc.get("corvid_abi_version")
    if isinstance(version, bool) or version not in SUPPORTED_ABI_VERSIONS:  # `true == 1` in Python
        return _error(path, "unsupported-version", f"unsupported corvid_abi_version {json.dumps(version)[:40]} (supported: 1)")
    entries: list[dict[str, Any]] = []
    gated: dict[str, set[str]] = {}
    try:
        for site in doc.get("approval_sites") or []:
            if isinstance(site, dict) and isinstance(site.get("agent_context"), str):
                gated.setdefault(site["agent_context"], set()).update(t for t in site.get("dangerous_targets") or [] if isinstance(t, str))
        gated_tools = set().union(*gated.values()) if gated else set()
        for a in doc.get("agents") or []:
            agent = _agent(path, a)
            agent["reaches"] = sorted(f"tool:{t}" for t in gated.get(agent["name"], ()))
            entries.append(agent)
        for t in doc.get("tools") or []:
            entries.append(_tool(path, t, 1, gated=str(t["name"]) in gated_tools))
        for p in doc.get("prompts") or []:
            entries.append(_prompt(path, p, 1))
    except DescriptorError as e:
        return _error(path, "invalid-descriptor", f"Corvid descriptor entry is malformed: {_one_line(str(e))}")
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as e:  # pydantic's ValidationError is a ValueError
        return _error(path, "invalid-descriptor", f"Corvid descriptor entry is malformed: {_why(e)}")
    return ModuleFacts(path=path, module=_module(path), entries=entries)


def _one_line(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _why(e: BaseException) -> str:
    """One line: a model's validation error by its first field and reason (its own text spans lines)."""
    if isinstance(e, ValidationError) and e.errors():
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "entry"
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        return _one_line(f"{where}: {first.get('msg', 'invalid')}{more}")
    return _one_line(f"{type(e).__name__}: {e}")


def extract(program: Program) -> DialectResult:
    result = DialectResult()
    for module in program.modules.values():
        if not module.path.endswith(_SUFFIX):
            continue
        for raw in module.entries:
            # Entries are what the file's parse wrote, read back from the facts cache: one that is not
            # an entry (a damaged or forged cache file) is reported, never a traceback or a guess.
            try:
                entry = Entry.model_validate(raw)
            except (ValidationError, TypeError, ValueError) as e:
                result.issues.append(issue(module.path, None, f"Corvid descriptor entry is malformed: {_why(e)}", site=("corvid entry",)))
                continue
            # Approval sites name the dangerous tools an agent reaches (through its approval gate).
            reach = [f"key:{k}" for k in entry.reaches]
            entry.reaches = []
            result.candidates.append(Candidate(entry, {f"{_module(module.path)}.{entry.kind}.{entry.name}"}, reach))
    return result

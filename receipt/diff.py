"""Surface x Surface -> [Change]: the typed differences a reviewer must see. Pure and deterministic.

Only the exported surface is compared: an entry that is internal on both sides is invisible, so
internal refactors produce no noise. Attributes are compared as *effective* values (dialects have
already applied defaults), so spelling out a default is never a change.

Dynamic values (not knowable statically) are never guessed:

- literal -> dynamic, or dynamic -> a different dynamic source: `attribute.dynamic` (warning).
- dynamic -> literal: the literal is *informative* when it sits at one end of the attribute's risk
  order. At the safe end (dangerous=false, approval=always, ...) it is reported as the
  improvement (e.g. `tool.approval_raised`): whatever the runtime value was, it is now at least as
  safe. At the risky end (approval=never, ...) it is reported as the worsening at its default
  severity (e.g. `tool.approval_lowered`): the code removed the possibility of the safe value, which
  is the worst case a reviewer must assume. A middle value (approval=conditional,
  trust=human_supervised) could be either direction, so it is `attribute.dynamic` again.

To add a change kind: add its `ChangeKind` to `receipt.catalogue` and, if it compares something
new, a rule to `ENTRY_RULES` (a function of base entry, head entry and the diff context).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

from receipt.canonical import canonical_json, fingerprint
from receipt.catalogue import CATALOGUE
from receipt.identity import Doubt, Pairing, move_path, pair_with_doubts, respell
from receipt.schemas import WORDS, json_type, schema_differences
from receipt.models import (
    SEVERITY_ORDER,
    Change,
    Dynamic,
    Entry,
    Schema,
    Severity,
    Signature,
    Subject,
    Summary,
    Surface,
    entry_key,
    normal_models,
)

_MAX_EXPR = 80  # dynamic source expressions are cut in messages (before/after keep them whole)

# The attributes an added/removed entry is described by, per kind; attributes that mean nothing
# for a kind (open_world on an agent) are left out so the receipt does not show misleading defaults.
_DESCRIBED: dict[str, tuple[str, ...]] = {
    "tool": (
        "dangerous",
        "approval",
        "trust_tier",
        "read_only",
        "idempotent",
        "open_world",
        "replayable",
        "deterministic",
        "conditional",
    ),
    "agent": ("dangerous", "approval", "trust_tier", "replayable", "deterministic", "model", "conditional"),
    "prompt": ("conditional",),
}
_HAS_SIGNATURE = ("tool", "prompt")


# --------------------------------------------------------------------------------------------------
# values


def json_value(value: Any) -> Any:
    """An attribute value as it appears in Change.before/after (Dynamic -> {"dynamic": src})."""
    if isinstance(value, Dynamic):
        return {"dynamic": value.dynamic}
    if isinstance(value, Signature):
        return value.model_dump(mode="json")
    return value


def _fmt(value: Any) -> str:
    """A value as plain text inside a message."""
    if isinstance(value, Dynamic):
        expr = " ".join(value.dynamic.split())
        if len(expr) > _MAX_EXPR:
            expr = expr[: _MAX_EXPR - 3] + "..."
        return f"dynamic: {expr}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _source(value: Dynamic, skip: int = 0) -> str:
    """The expression a value is computed from at run time, cut for a message; `skip` leading
    characters are left out (shown as "...")."""
    expr = " ".join(value.dynamic.split())
    if skip:
        expr = "..." + expr[skip:]
    return expr if len(expr) <= _MAX_EXPR else expr[: _MAX_EXPR - 3] + "..."


def _by(value: Dynamic, verb: str = "is") -> str:
    """`is set at run time by EXPR` (`verb` "is now", "was"); a source that says when it is known
    already is not told twice: `depends on tools of MCP server x (listed at run time)`."""
    if "run time" in value.dynamic or "runtime" in value.dynamic:
        return {"is": "depends on", "is now": "now depends on", "was": "depended on"}[verb] + " " + _source(value)
    return f"{verb} set at run time by {_source(value)}"


def _was(value: Any) -> str:
    """What an attribute was, for the end of a message: `(was never)`, `(was set at run time by X)`."""
    return f"({_by(value, 'was')})" if isinstance(value, Dynamic) else f"(was {_fmt(value)})"


def _common_start(a: Dynamic, b: Dynamic) -> int:
    """How much of two long source expressions to leave out so that both show where they differ."""
    x, y = " ".join(a.dynamic.split()), " ".join(b.dynamic.split())
    same = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return same - 20 if same > _MAX_EXPR // 2 else 0


# Attribute names as words in messages.
_WORDS = {
    "dangerous": "dangerous flag",
    "replayable": "replayable flag",
    "deterministic": "deterministic flag",
    "conditional": "registration condition",
    "read_only": "read-only hint",
    "open_world": "open-world hint",
    "idempotent": "idempotent hint",
    "trust_tier": "trust tier",
}


def _word(attr: str) -> str:
    return _WORDS.get(attr, attr.replace("_", " "))


def _digest12(value: str | None) -> str | None:
    return value[:12] if value else None


def describe(entry: Entry) -> dict[str, Any]:
    """The attributes shown for an added (after) or removed (before) entry."""
    out: dict[str, Any] = {a: json_value(getattr(entry, a)) for a in _DESCRIBED[entry.kind]}
    if entry.kind in _HAS_SIGNATURE:
        out["signature"] = json_value(entry.signature) if entry.signature is not None else None
    if entry.reaches:
        out["reaches"] = sorted(set(entry.reaches))
    if entry.extra:
        out["extra"] = entry.extra
    return out


def unguarded_danger(entry: Entry) -> bool | None:
    """Is the entry dangerous with no approval? None when dynamic values leave it undecidable."""
    dangerous, approval = entry.dangerous, entry.approval
    if dangerous is False:
        return False
    if isinstance(approval, str) and approval != "never":
        return False
    if dangerous is True and approval == "never":
        return True
    return None


_DANGER_NOTE = {"regression": " (dangerous, no approval required)", "warning": " (dangerous or approval is dynamic)"}


def _danger_severity(entry: Entry | None, default: Severity) -> Severity:
    danger = unguarded_danger(entry) if entry is not None else False
    if danger is True:
        return "regression"
    if danger is None:
        return "warning" if SEVERITY_ORDER[default] < SEVERITY_ORDER["warning"] else default
    return default


# --------------------------------------------------------------------------------------------------
# building changes


def _clean(message: str) -> str:
    return " ".join(message.split())


def _key(entry: Entry) -> str:
    # Entry sets its key on construction; model_copy(update=...) elsewhere can leave it empty.
    return entry.key or entry_key(entry.kind, entry.scope, entry.name)


def entry_subject(entry: Entry) -> Subject:
    return Subject(
        kind=entry.kind, name=entry.name, scope=entry.scope or None, path=entry.path, line=entry.line, key=_key(entry)
    )


def make_change(
    id: str, subject: Subject, before: Any, after: Any, message: str, severity: Severity | None = None
) -> Change:
    """A Change with the catalogue's default severity (unless given) and its fingerprint.

    The fingerprint covers id, subject key, subject path, before and after, never the line: moving
    code around within a file keeps acceptances valid.
    """
    kind = CATALOGUE[id]  # an unknown id is a programming error, not a user error
    key = subject.key or f"{subject.kind}:{subject.path}"
    return Change(
        id=id,
        severity=severity or kind.default_severity,
        subject=subject,
        before=before,
        after=after,
        message=_clean(message),
        fingerprint=fingerprint(id, key, before, after, subject.path),
    )


def entry_change(
    id: str, entry: Entry, before: Any, after: Any, message: str, severity: Severity | None = None
) -> Change:
    return make_change(id, entry_subject(entry), before, after, message, severity)


def _who(entry: Entry) -> str:
    return f"{entry.kind} '{entry.name}'"


def _one_description_row(changes: list[Change], head: Entry) -> list[Change]:
    """One entry's re-wordings as one row: its description and its parameters' words both changed
    (`tool.description_changed` from two rules) are one row saying both, its before and after each
    rule's, in rule order (what its fingerprint covers). Other ids may rightly come several times
    (a model or a reach per row)."""
    rows = [c for c in changes if c.id.endswith(".description_changed")]
    if len(rows) < 2:
        return changes
    who = _clean(_who(head) + " ")
    said = "; ".join([rows[0].message, *(c.message.removeprefix(who) for c in rows[1:])])
    merged = make_change(rows[0].id, rows[0].subject, [c.before for c in rows], [c.after for c in rows], said, rows[0].severity)
    folded = {id(c) for c in rows[1:]}
    return [merged if c is rows[0] else c for c in changes if id(c) not in folded]


# --------------------------------------------------------------------------------------------------
# rules comparing one entry exported on both sides


@dataclass(frozen=True)
class DiffContext:
    """What a rule may look at besides the two versions of its entry."""

    base: Mapping[str, Entry]  # every base entry by key (exported or not)
    head: Mapping[str, Entry]  # every head entry by key
    # head key -> key of the same entry at base (`receipt.identity.pair_entries`); keys differ when
    # an entry moved or a same-named entry elsewhere made its short key ambiguous.
    base_key_of: Mapping[str, str] = field(default_factory=dict)


EntryRule = Callable[[Entry, Entry, DiffContext], Iterable[Change]]


def _dynamic_change(entry: Entry, attr: str, before: Any, after: Any) -> Change:
    word = _word(attr)
    if isinstance(after, Dynamic) and isinstance(before, Dynamic):
        skip = _common_start(before, after)
        what = f"{word} is still set at run time, now by {_source(after, skip)} (was {_source(before, skip)})"
    elif isinstance(after, Dynamic):
        what = f"{word} {_by(after, 'is now')} {_was(before)}"
    else:
        what = f"{word} is now {_fmt(after)} {_was(before)}: safer or riskier cannot be told"
    return entry_change("attribute.dynamic", entry, {attr: json_value(before)}, {attr: json_value(after)}, f"{_who(entry)} {what}")


@dataclass(frozen=True)
class Ordered:
    """An attribute with a risk order: rising risk is `worse`, falling risk is `better`."""

    attr: str
    kinds: tuple[str, ...]
    risk: Mapping[Any, int]  # value -> rank, higher is riskier
    worse: str  # id suffix, e.g. "approval_lowered"
    better: str
    worse_text: Callable[[Any], str]  # phrase given the new value
    better_text: Callable[[Any], str]
    # Extra condition; used to avoid double-reporting an attribute derived from another.
    when: Callable[[Entry, Entry], bool] | None = None

    def __call__(self, base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
        if head.kind not in self.kinds or (self.when is not None and not self.when(base, head)):
            return []
        before, after = getattr(base, self.attr), getattr(head, self.attr)
        if before == after:
            return []
        if isinstance(after, Dynamic):
            return [_dynamic_change(head, self.attr, before, after)]
        rank = self.risk[after]
        if isinstance(before, Dynamic):
            if rank == max(self.risk.values()):
                worse = True
            elif rank == min(self.risk.values()):
                worse = False
            else:
                return [_dynamic_change(head, self.attr, before, after)]
        else:
            worse = rank > self.risk[before]
        suffix, text = (self.worse, self.worse_text) if worse else (self.better, self.better_text)
        # A flag's words say both values already; other values say what they were.
        was = "" if isinstance(before, bool) and isinstance(after, bool) else " " + _was(before)
        message = f"{_who(head)} {text(after)}{was}"
        return [entry_change(f"{head.kind}.{suffix}", head, json_value(before), json_value(after), message)]


def _const(text: str) -> Callable[[Any], str]:
    return lambda _value: text


_BOOL_UNSAFE_TRUE = {False: 0, True: 1}
_BOOL_UNSAFE_FALSE = {True: 0, False: 1}

ORDERED_RULES: tuple[Ordered, ...] = (
    Ordered(
        "dangerous",
        ("tool", "agent"),
        _BOOL_UNSAFE_TRUE,
        "dangerous_gained",
        "dangerous_lost",
        _const("is now marked dangerous"),
        _const("is no longer marked dangerous"),
    ),
    # approval is primary for tools; for agents trust is, and approval is reported only when the
    # trust tier stayed put (otherwise the trust change already says it).
    Ordered(
        "approval",
        ("tool", "agent"),
        {"always": 0, "conditional": 1, "never": 2},
        "approval_lowered",
        "approval_raised",
        lambda v: "no longer requires approval" if v == "never" else "requires approval only in some cases",
        lambda v: "now always requires approval" if v == "always" else "now requires approval in some cases",
        when=lambda b, h: h.kind == "tool" or b.trust_tier == h.trust_tier,
    ),
    # A tool's derived trust tier only mirrors approval: report it when declared and approval
    # did not change, else it would double-report.
    Ordered(
        "trust_tier",
        ("agent", "tool"),
        {"human_required": 0, "human_supervised": 1, "autonomous": 2},
        "trust_tier_lowered",
        "trust_tier_raised",
        lambda v: f"trust tier lowered to {v}",
        lambda v: f"trust tier raised to {v}",
        when=lambda b, h: h.kind == "agent" or ((b.trust_declared or h.trust_declared) and b.approval == h.approval),
    ),
    Ordered(
        "read_only",
        ("tool",),
        _BOOL_UNSAFE_FALSE,
        "read_only_lost",
        "read_only_gained",
        _const("is no longer read-only"),
        _const("is now read-only"),
    ),
    Ordered(
        "open_world",
        ("tool",),
        _BOOL_UNSAFE_TRUE,
        "open_world_gained",
        "open_world_lost",
        _const("now interacts with the open world"),
        _const("no longer interacts with the open world"),
    ),
    Ordered(
        "idempotent",
        ("tool",),
        _BOOL_UNSAFE_FALSE,
        "idempotent_lost",
        "idempotent_gained",
        _const("is no longer idempotent"),
        _const("is now idempotent"),
    ),
    Ordered(
        "replayable",
        ("agent", "tool"),
        _BOOL_UNSAFE_FALSE,
        "replayable_lost",
        "replayable_gained",
        _const("is no longer replayable"),
        _const("is now replayable"),
    ),
    Ordered(
        "deterministic",
        ("agent", "tool"),
        _BOOL_UNSAFE_FALSE,
        "deterministic_lost",
        "deterministic_gained",
        _const("is no longer deterministic"),
        _const("is now deterministic"),
    ),
    # Unconditional registration exposes the entry in deployments where a condition kept it off.
    Ordered(
        "conditional",
        ("agent", "tool"),
        _BOOL_UNSAFE_FALSE,
        "became_unconditional",
        "became_conditional",
        _const("is now registered unconditionally"),
        _const("is now registered only under a condition"),
    ),
)


def _models(entry: Entry) -> list[str | Dynamic]:
    """The models an agent runs on, each by value: `models` when it has several, else its one model."""
    return list(entry.models) if entry.models else ([] if entry.model is None else [entry.model])


def _a_model(value: str | Dynamic) -> str:
    if isinstance(value, Dynamic):
        said = "run time" in value.dynamic or "runtime" in value.dynamic  # the source says when already
        return f"a model that {'depends on' if said else 'is set at run time by'} {_source(value)}"
    return f"model {_fmt(value)}"


def _models_rule(base: Entry, head: Entry) -> list[Change]:
    """An agent running on several models (at base or head) compared as a set: each model it now
    also uses or no longer uses, or the one it uses instead of another; their order is no change."""
    before, after = _models(base), _models(head)
    gone, new = [m for m in before if m not in after], [m for m in after if m not in before]
    if not gone and not new:
        return []
    kept = [m for m in after if m in before]
    still = f" (it still uses {', '.join(_a_model(m) for m in kept)})" if kept else ""
    if len(gone) == 1 and len(new) == 1:
        message = f"{_who(head)} now uses {_a_model(new[0])} instead of {_a_model(gone[0])}{still}"
        return [entry_change("agent.model_changed", head, json_value(gone[0]), json_value(new[0]), message)]
    changes = [
        entry_change("agent.model_added", head, None, json_value(m), f"{_who(head)} now {'also ' if before else ''}uses {_a_model(m)}")
        for m in new
    ]
    changes += [
        entry_change("agent.model_removed", head, json_value(m), None, f"{_who(head)} no longer uses {_a_model(m)}" + ("" if after else " (now the framework's default)"))
        for m in gone
    ]
    return changes


def _model_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    if head.kind != "agent" or (base.model == head.model and base.models == head.models):
        return []
    if base.models or head.models:
        return _models_rule(base, head)  # a set: the same models in another order is no change
    if isinstance(head.model, Dynamic):
        return [_dynamic_change(head, "model", base.model, head.model)]
    if isinstance(base.model, Dynamic):
        message = f"{_who(head)} model is now {_fmt(head.model)} {_was(base.model)}"
    elif base.model is None:
        message = f"{_who(head)} model is now {_fmt(head.model)} (was the framework's default)"
    elif head.model is None:
        message = f"{_who(head)} model is now the framework's default (was {_fmt(base.model)})"
    else:
        message = f"{_who(head)} model changed ({_fmt(base.model)} -> {_fmt(head.model)})"
    return [entry_change("agent.model_changed", head, json_value(base.model), json_value(head.model), message)]


# Framework settings dialects keep in `Entry.extra` that change what an entry may do, each compared by
# value, and how a change reads. Delegation is not among them: the agents it lets one reach are its
# reach (`agent.reach_added`). Code execution that turns dangerous is `dangerous_gained`; only a
# change that leaves the flag as it was (a sandboxed executor turned on) is a setting change. A
# setting whose value names code (ADK's before-tool callback) is compared by presence only: the
# callback moving or being renamed is no change.
_SETTINGS = {
    "code_execution": "code execution",
    "human_input": "human input",
    "add_base_tools": "the framework's base tools",
    "long_running": "long-running calls",
}
_SETTINGS_BY_PRESENCE = {"before_tool_callback": "a before-tool callback"}


def _setting_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    out: list[Change] = []
    b, h = base.extra, head.extra
    for key, word in _SETTINGS.items():
        if key == "code_execution" and base.dangerous != head.dangerous:
            continue
        if b.get(key) != h.get(key):
            message = f"{_who(head)} {word}: {_setting_text(h.get(key))} (was {_setting_text(b.get(key))})"
            out.append(entry_change(f"{head.kind}.setting_changed", head, {key: b.get(key)}, {key: h.get(key)}, message))
    for key, word in _SETTINGS_BY_PRESENCE.items():
        had, has = key in b, key in h
        if had != has:
            message = f"{_who(head)} {'now has' if has else 'no longer has'} {word}"
            out.append(entry_change(f"{head.kind}.setting_changed", head, {key: had}, {key: has}, message))
    return out


def _setting_text(value: Any) -> str:
    if value is None or value is False:
        return "off"
    if value is True:
        return "on"
    if isinstance(value, dict) and set(value) == {"dynamic"}:
        return f"set at run time by {value['dynamic']}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_setting_text(v) if isinstance(v, (bool, dict)) or v is None else v}" for k, v in sorted(value.items()))
    return str(value)


def _text_change(word: str, before: str | None, after: str | None) -> str:
    """A description or instructions change in words, with the digests last (renderers that show
    the texts themselves leave the digests out)."""
    def run_time(value: str | None) -> bool:
        return bool(value) and value.startswith("dynamic:")  # type: ignore[union-attr]

    def short(value: str | None) -> str:
        return (value or "").removeprefix("dynamic:")[:12]

    if before is None:
        return f"{word} added (sha256 {short(after)})"
    if after is None:
        return f"{word} removed (sha256 {short(before)})"
    if run_time(before) and run_time(after):
        what = f"{word} built at run time changed"
    elif run_time(after):
        what = f"{word} changed, now built at run time"
    elif run_time(before):
        what = f"{word} changed, now a fixed text"
    else:
        what = f"{word} changed"
    return f"{what} (sha256 {short(before)} -> {short(after)})"


def _digest_rule(attr: str, word: str, kinds: tuple[str, ...]) -> EntryRule:
    def rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
        full_before, full_after = getattr(base, attr), getattr(head, attr)
        before, after = _digest12(full_before), _digest12(full_after)
        if head.kind not in kinds or before == after:
            return []
        message = f"{_who(head)} {_text_change(word, full_before, full_after)}"
        return [entry_change(f"{head.kind}.{word}_changed", head, before, after, message)]

    return rule


def signature_differences(
    before: Signature | None, after: Signature | None, wording: list[str] | None = None, returns: list[str] | None = None,
) -> list[str]:
    """Plain-text phrases for what changed between two signatures; [] when equivalent.

    Parameter order is ignored: models and MCP clients pass arguments by name. `wording`: where
    changes of the words a field is described by go instead (`schema_differences`); `returns`:
    where a change of the return type goes instead (a framework that shows the model no return type).
    """
    if before is None and after is None:
        return []
    if before is None:
        return ["signature can now be read (it could not be before)"]
    if after is None:
        return ["signature can no longer be read statically"]
    old = {p.name: p for p in before.params}
    new = {p.name: p for p in after.params}
    out: list[str] = []
    for p in after.params:
        if p.name not in old:
            out.append(f"param '{p.name}' added ({'required' if p.required else 'optional'})")
            continue
        q = old[p.name]
        if p.required != q.required:
            # The default comes and goes with required-ness: say it once, here.
            if p.required:
                note = f" (default {q.default} removed)" if q.default is not None else ""
                out.append(f"param '{p.name}' now required{note}")
            else:
                note = f" (default {p.default})" if p.default is not None else ""
                out.append(f"param '{p.name}' now optional{note}")
        old_type, new_type = _aliased(q.type, before.schemas), _aliased(p.type, after.schemas)
        if p.type != q.type and old_type == new_type:
            pass  # a type alias of the tree renamed, the type it names the same (`ValidatedAge` -> `Age`)
        elif p.type != q.type and _same_json_type(q.type, p.type):
            pass  # a literal JSON schema's `string` is the `str` an annotation gives (a low-level tool moved to FastMCP)
        elif p.type != q.type:
            if wording is not None and _only_described_differently(old_type, new_type):
                wording.append(f"param '{p.name}' description changed")
            else:
                out.append(f"param '{p.name}' type changed ({q.type or 'untyped'} -> {p.type or 'untyped'})")
        if p.default != q.default and p.required == q.required:
            if wording is not None and _default_described_differently(q.default, p.default):
                wording.append(f"param '{p.name}' description changed")
            else:
                out.append(f"param '{p.name}' default changed ({_fmt(q.default)} -> {_fmt(p.default)})")
    for q in before.params:
        if q.name not in new:
            out.append(f"param '{q.name}' removed")
    if before.returns != after.returns:
        (out if returns is None else returns).append(f"return type changed ({before.returns or 'untyped'} -> {after.returns or 'untyped'})")
    # A schema whose fields are the parameters on both sides (`inputSchema=Model.model_json_schema()`)
    # echoes what the parameters' phrases said: one phrase per field changed, not two.
    echoes = frozenset(
        name for name in set(before.schemas) & set(after.schemas)
        if old and {f.name for f in before.schemas[name].fields} == set(old) and {f.name for f in after.schemas[name].fields} == set(new)
    )
    out.extend(schema_differences(before.schemas, after.schemas, wording, echoes))
    return out


def _same_json_type(a: str | None, b: str | None) -> bool:
    """Whether one type is a JSON schema type name (a low-level tool's literal `inputSchema`) and
    the other an annotation pydantic writes as that very type (`str` is "string", `list[str]`
    "array": what the client reads of either)."""
    for json_name, annotation in ((a, b), (b, a)):
        if json_name in _JSON_TYPE_NAMES and annotation and annotation not in _JSON_TYPE_NAMES:
            return json_type(annotation, {}) == json_name
    return False


_JSON_TYPE_NAMES = frozenset({"string", "integer", "number", "boolean", "null", "array", "object"})


def _aliased(text: str | None, schemas: Mapping[str, Schema]) -> str | None:
    """The type an annotation names when it is a type alias of the analysed tree, else the annotation."""
    found = schemas.get(text) if text else None
    return found.type if found is not None and found.kind == "alias" and found.type else text


def _only_described_differently(a: str | None, b: str | None) -> bool:
    """Whether two annotation texts are one `Annotated[T, ...]` whose metadata differ only in the
    `description=` of their calls (`Field(description=...)`): a change of words, not of type."""
    if not a or not b:
        return False
    left = _undescribed(a, annotated=True)
    return left is not None and left == _undescribed(b, annotated=True)


def _default_described_differently(a: str | None, b: str | None) -> bool:
    """Whether two default texts differ only in the `description=` of a `Field(...)` call, no
    default and no `Field(..., description=...)` of a required parameter being the same value
    (pydantic's Field as a default is the parameter's field: python.py `_field_gives_no_default`)."""
    left, right = ("" if t is None else _undescribed(t, annotated=False) for t in (a, b))
    return left is not None and left == right and a != b


def _undescribed(text: str, *, annotated: bool) -> str | None:
    """`text`'s syntax tree without the `description=` (and the other words, `schemas.WORDS`) of its calls (`annotated`: of an
    `Annotated[T, ...]`'s metadata, else of a `Field(...)` default), dumped; None when `text` is
    no such thing. A `Field(...)` left with nothing but `...` (or nothing) gives no default: ""."""
    import ast

    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if annotated:
        if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple) or _leaf_name(node.value) != "Annotated":
            return ast.dump(node)  # `str` is `Annotated[str, Field(description=...)]` without its words
        metadata: list[ast.expr] = node.slice.elts[1:]
    else:
        if not isinstance(node, ast.Call) or _leaf_name(node.func) != "Field":
            return None
        metadata = [node]
    for meta in metadata:
        for call in ast.walk(meta):
            if isinstance(call, ast.Call):
                call.keywords = [k for k in call.keywords if k.arg not in WORDS]
    if not annotated and not node.keywords and all(isinstance(a, ast.Constant) and a.value is ... for a in node.args):  # type: ignore[attr-defined]
        return ""
    if annotated:  # a `Field()` left with nothing says nothing: `Annotated[T]` of no metadata is `T`
        kept = [m for m in metadata if not (isinstance(m, ast.Call) and _leaf_name(m.func) == "Field" and not m.args and not m.keywords)]
        if not kept:
            return ast.dump(node.slice.elts[0])  # type: ignore[attr-defined]
        node.slice.elts[1:] = kept  # type: ignore[attr-defined]
    return ast.dump(node)


def _leaf_name(node: object) -> str | None:
    import ast

    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _signature_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    if head.kind not in _HAS_SIGNATURE:
        return []
    wording: list[str] = []
    returns: list[str] | None = [] if head.kind == "tool" and head.dialect in _RESULT_AS_TEXT and base.dialect == head.dialect else None
    diffs = signature_differences(base.signature, head.signature, wording, returns)
    if not diffs and not wording and not returns:
        return []
    before = json_value(base.signature) if base.signature is not None else None
    after = json_value(head.signature) if head.signature is not None else None
    if not diffs:
        out: list[Change] = []
        if wording:
            # Only the words fields are described by changed: what the tool accepts did not. Those words
            # reach the model as its description does, and weigh the same (a typo fixed is no warning).
            message = f"{_who(head)} parameter description changed: {'; '.join(wording)}"
            out.append(entry_change(f"{head.kind}.description_changed", head, before, after, message))
        if returns:
            out.append(entry_change("tool.return_type_changed", head, before, after, f"{_who(head)} {returns[0]}"))
        return out
    if base.signature is None or head.signature is None:  # the one phrase says it all
        message = f"{_who(head)} {diffs[0]}"
    else:
        message = f"{_who(head)} signature changed: {'; '.join(diffs + (returns or []) + wording)}"
    return [entry_change(f"{head.kind}.signature_changed", head, before, after, message)]


# Dialects whose framework hands the model a tool's result as text (or JSON of it) and shows it no
# return type: a return annotation changed alone is `tool.return_type_changed` (info), not a
# signature warning. MCP (the output schema), smolagents (`output_type`, in the tool's description
# the model reads) and ADK (a response schema in the declaration) show it, and are not here.
_RESULT_AS_TEXT = frozenset({"langchain", "crewai", "openai-agents", "pydantic-ai"})


def _target_name(key: str, side: Mapping[str, Entry]) -> str:
    target = side.get(key)
    return f"{target.kind} '{target.name}'" if target is not None else f"'{key}'"


def _reach_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    if head.kind not in ("agent", "tool"):
        return []
    old = set(base.reaches)
    # A target is compared as the base entry it is, not by its key at head.
    as_base = {ctx.base_key_of.get(k, k): k for k in head.reaches}
    new = set(as_base)
    out: list[Change] = []
    for key in sorted(as_base[k] for k in new - old):
        target = ctx.head.get(key)
        severity = _danger_severity(target, CATALOGUE[f"{head.kind}.reach_added"].default_severity)
        message = f"{_who(head)} can now reach {_target_name(key, ctx.head)}{_DANGER_NOTE.get(severity, '')}"
        out.append(entry_change(f"{head.kind}.reach_added", head, None, key, message, severity))
    for key in sorted(old - new):
        message = f"{_who(head)} can no longer reach {_target_name(key, ctx.base)}"
        out.append(entry_change(f"{head.kind}.reach_removed", head, key, None, message))
    return out


# --- Corvid descriptor attributes (Entry.extra["corvid.*"]) ----------------------------------------

_TIER_RISK = {"human_required": 0, "human_supervised": 1, "autonomous": 2}
_OWNERSHIP_LOOSENESS = {"owned": 0, "borrowed": 1, "shared": 2, "static": 3}
_SEVERE_DOMAIN_EFFECTS = ("money", "irreversible")


def _usd(budget: Any) -> str:
    return "unbounded" if budget is None else f"{budget} USD"


def _corvid_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    if head.dialect != "corvid" and base.dialect != "corvid":
        return []
    b, h = base.extra, head.extra
    out: list[Change] = []
    who = _who(head)
    b_labels, h_labels = b.get("corvid.approval_labels") or {}, h.get("corvid.approval_labels") or {}
    for label in sorted(b_labels):
        if label not in h_labels:
            out.append(entry_change("corvid.approval_label_removed", head, {label: b_labels[label]}, None, f"{who} lost approval label '{label}'"))
            continue
        bt, ht = b_labels[label].get("required_tier"), h_labels[label].get("required_tier")
        if bt != ht and bt in _TIER_RISK and ht in _TIER_RISK:
            worse = _TIER_RISK[ht] > _TIER_RISK[bt]
            out.append(
                entry_change(
                    "corvid.approval_label_tier_lowered" if worse else "corvid.approval_label_tier_raised",
                    head, {label: bt}, {label: ht},
                    f"{who} approval label '{label}' now requires {ht} (was {bt})",
                )
            )
        br, hr = b_labels[label].get("reversibility"), h_labels[label].get("reversibility")
        if br != hr and "irreversible" in (br, hr):
            gained = hr == "irreversible"
            out.append(
                entry_change(
                    "corvid.irreversible_gained" if gained else "corvid.irreversible_lost",
                    head, {label: br}, {label: hr},
                    f"{who} approval label '{label}' is now {hr} (was {br})",
                )
            )
    br, hr = b.get("corvid.reversibility"), h.get("corvid.reversibility")
    if br != hr and "irreversible" in (br, hr):
        gained = hr == "irreversible"
        out.append(entry_change("corvid.irreversible_gained" if gained else "corvid.irreversible_lost", head, br, hr, f"{who} effects are now {hr} (were {br})"))
    bg, hg = b.get("corvid.returns_grounded"), h.get("corvid.returns_grounded")
    if bg is not None and hg is not None and bg != hg:
        out.append(
            entry_change(
                "corvid.grounded_provenance_lost" if bg else "corvid.grounded_provenance_gained",
                head, bg, hg, f"{who} {'no longer returns' if bg else 'now returns'} grounded values",
            )
        )
    b_fx, h_fx = set(b.get("corvid.domain_effects") or []), set(h.get("corvid.domain_effects") or [])
    for fx in sorted(h_fx - b_fx):
        severe = fx.split(":", 1)[0] in _SEVERE_DOMAIN_EFFECTS
        out.append(
            entry_change("corvid.domain_effect_added", head, None, fx, f"{who} gained domain effect '{fx}'", "regression" if severe else None)
        )
    for fx in sorted(b_fx - h_fx):
        out.append(entry_change("corvid.domain_effect_removed", head, fx, None, f"{who} lost domain effect '{fx}'"))
    b_own, h_own = b.get("corvid.ownership") or {}, h.get("corvid.ownership") or {}
    for slot in sorted(set(b_own) & set(h_own)):
        bo, ho = b_own[slot], h_own[slot]
        if bo != ho and bo in _OWNERSHIP_LOOSENESS and ho in _OWNERSHIP_LOOSENESS:
            looser = _OWNERSHIP_LOOSENESS[ho] > _OWNERSHIP_LOOSENESS[bo]
            out.append(
                entry_change(
                    "corvid.ownership_loosened" if looser else "corvid.ownership_tightened",
                    head, {slot: bo}, {slot: ho}, f"{who} {slot} ownership is now {ho} (was {bo})",
                )
            )
    bb, hb = b.get("corvid.budget_usd_per_call"), h.get("corvid.budget_usd_per_call")
    if bb != hb and (bb is not None or hb is not None):
        raised = hb is None or (bb is not None and hb > bb)
        out.append(
            entry_change(
                "corvid.budget_raised" if raised else "corvid.budget_lowered",
                head, bb, hb, f"{who} budget per call is now {_usd(hb)} (was {_usd(bb)})",
            )
        )
    return out


_TEXTS = (("description_text", "description"), ("instructions_text", "instructions"))


def injection_changes(base: Entry | None, head: Entry) -> list[Change]:
    """`text.injection_pattern` per injection rule that the head's words match and the base's did not."""
    if base is not None and all(getattr(base, attr) == getattr(head, attr) for attr, _ in _TEXTS):
        return []  # the same words match the same rules; and the rules (compiled on import) wait for new words
    from receipt.injection import added_hits

    out = []
    for attr, word in _TEXTS:
        for hit in added_hits(getattr(base, attr, None) if base is not None else None, getattr(head, attr, None), word):
            message = f"{_who(head)} {word} matches injection rule {hit.rule.id} ({hit.rule.title}): \"{_clean(hit.match)[:80]}\""
            out.append(entry_change("text.injection_pattern", head, None, {"rule": hit.rule.id, "text": word}, message))
    return out


def _injection_rule(base: Entry, head: Entry, ctx: DiffContext) -> Iterable[Change]:
    return injection_changes(base, head)


ENTRY_RULES: list[EntryRule] = [
    *ORDERED_RULES,
    _model_rule,
    _digest_rule("instructions_sha256", "instructions", ("agent",)),
    _digest_rule("description_sha256", "description", ("agent", "tool", "prompt")),
    _signature_rule,
    _reach_rule,
    _setting_rule,
    _corvid_rule,
    _injection_rule,
]


# --------------------------------------------------------------------------------------------------
# added / removed


def _added(entry: Entry) -> list[Change]:
    id = f"{entry.kind}.added"
    severity = _danger_severity(entry, CATALOGUE[id].default_severity)
    message = f"{_who(entry)} added to the exported surface{_DANGER_NOTE.get(severity, '')}"
    out = [entry_change(id, entry, None, describe(entry), message, severity), *injection_changes(None, entry)]
    for attr in _DESCRIBED[entry.kind]:
        value = getattr(entry, attr)
        if isinstance(value, Dynamic):
            out.append(
                entry_change(
                    "attribute.dynamic",
                    entry,
                    None,
                    {attr: json_value(value)},
                    f"{_who(entry)} {_word(attr)} {_by(value)}",
                )
            )
    return out


def _removed(entry: Entry) -> Change:
    return entry_change(
        f"{entry.kind}.removed", entry, describe(entry), None, f"{_who(entry)} removed from the exported surface"
    )


# --------------------------------------------------------------------------------------------------
# the stage


def _tiebreak(entry: Entry) -> tuple[str, int, bytes]:
    return (entry.path, entry.line, canonical_json(entry.model_dump(mode="json")))


def _index(entries: Iterable[Entry]) -> dict[str, Entry]:
    """Entries by key; when two share a key, the first by (path, line, content) wins, whatever the input order."""
    by_key: dict[str, list[Entry]] = {}
    for e in entries:
        by_key.setdefault(_key(e), []).append(e)
    # Content is serialised only to break a tie between entries sharing a key (rare, and costly).
    return {k: group[0] if len(group) == 1 else min(group, key=_tiebreak) for k, group in sorted(by_key.items())}


def exported(surface: Surface) -> dict[str, Entry]:
    return _index(e for e in surface.entries() if e.exported)


def sort_key(change: Change) -> tuple[Any, ...]:
    return (
        -SEVERITY_ORDER[change.severity],
        change.subject.kind,
        change.subject.key or "",
        change.id,
        change.fingerprint,
        canonical_json(change.model_dump(mode="json")),
    )


def sort_changes(changes: Iterable[Change]) -> list[Change]:
    """Regressions first, then warnings, then info; within a severity by subject, id, fingerprint."""
    return sorted(changes, key=sort_key)


def diff_surfaces(
    base: Surface, head: Surface, rules: Sequence[EntryRule] | None = None, pairing: Pairing | None = None
) -> list[Change]:
    """Every change to the exported surface from base to head, sorted (see `sort_changes`).

    `pairing`: `pair_with_doubts` of the two surfaces' entries, when the caller has it already (a
    receipt pairs once for this and `unresolved_changes`); read, never changed."""
    old, new = exported(base), exported(head)
    if pairing is None:
        pairing = pair_with_doubts(base.entries(), head.entries())
    pairs = dict(pairing.pairs)
    ctx = DiffContext(base=_index(base.entries()), head=_index(head.entries()), base_key_of=pairs)
    notes: dict[str, str] = {}
    for doubt in pairing.doubts:
        if doubt.unread:  # too many look-alikes to score every pairing: read without scoring, and say so
            pairs.update(doubt.default if doubt.pair_all else ())
            note = _doubt_note(doubt, ctx)
            notes.update((k, note) for k in (*doubt.base, *doubt.head))
            continue
        chosen, revealing = _resolve(doubt, old, new, ctx, ENTRY_RULES if rules is None else rules)
        pairs.update(chosen)
        if revealing:
            note = _doubt_note(doubt, ctx)
            notes.update((k, note) for k in (*doubt.base, *doubt.head))
    if pairing.modules:
        # A dynamic value of a moved entry spelt with the moved modules' old import names is the
        # same value: compare it as spelt after the move.
        for h, b in pairs.items():
            if b in old and h in new and old[b].home != new[h].home:
                old[b] = _respelt(old[b], new[h], pairing.modules)
    changes: list[Change] = []
    matched: set[str] = set()
    for key in sorted(new):
        before = old.get(pairs.get(key, ""))
        if before is None:
            changes.extend(_added(new[key]))
            continue
        matched.add(before.key)
        if rules is None and _unchanged(before, new[key], ctx):
            continue
        changes.extend(_one_description_row([c for rule in (ENTRY_RULES if rules is None else rules) for c in rule(before, new[key], ctx)], new[key]))
    for key in sorted(old.keys() - matched):
        changes.append(_removed(old[key]))
    changes.extend(collision_changes(base, head, pairs))
    if notes:
        changes = [
            c.model_copy(update={"message": f"{c.message} ({notes[c.subject.key]})", "note": notes[c.subject.key]})
            if c.subject.key in notes
            else c
            for c in changes
        ]
    return sort_changes(changes)


def _unchanged(base: Entry, head: Entry, ctx: DiffContext) -> bool:
    """No rule of ENTRY_RULES finds a change: every value the same, and each entry it reaches the
    same entry at base (the one rule that looks past the pair). Most of a large surface is such
    pairs; skipping their rules is a fifth of an identical rerun's diff."""
    return base == head and all(ctx.base_key_of.get(k, k) == k for k in head.reaches)


def _respelt(base: Entry, head: Entry, modules: Mapping[str, str]) -> Entry:
    """`base` with each dynamic value that reads as `head`'s once spelt after the move taking that
    spelling (only then: a spelling the move does not explain is compared as it was)."""
    update: dict[str, Any] = {}
    for name in type(base).model_fields:
        value, after = getattr(base, name), getattr(head, name)
        if isinstance(value, Dynamic) and isinstance(after, Dynamic) and value != after:
            if _same_after_move(value.dynamic, after.dynamic, modules):
                update[name] = after
    if base.models and head.models:  # an agent on several models: each run-time one respelt alike
        theirs = [m for m in head.models if isinstance(m, Dynamic)]
        models = [next((t for t in theirs if _same_after_move(m.dynamic, t.dynamic, modules)), m) if isinstance(m, Dynamic) else m for m in base.models]
        if models != base.models:
            update["models"] = normal_models(models)
    return base.model_copy(update=update) if update else base


def _same_after_move(before: str, after: str, modules: Mapping[str, str]) -> bool:
    """Is `after` the spelling `before` gets once the moved modules are named as after the move? Long
    spellings are cut with "..." (extract.program), and the move can lengthen one past the cut: then
    the part both keep is compared."""
    # A cut spelling ends in "..." and a digest of the whole (facts.clipped), which the respelling
    # changes: only the part before the cut is compared.
    before, cut_before = _uncut(before)
    after, cut_after = _uncut(after)
    moved = respell(before, modules)
    if not cut_after:
        return not cut_before and moved == after
    return moved.startswith(after) or (cut_before and after.startswith(moved))


_CUT = re.compile(r"\.\.\.(?: sha256:[0-9a-f]{12})?$")


def _uncut(text: str) -> tuple[str, bool]:
    """`text` without the mark of a cut ("...", with or without a digest), and whether it was cut."""
    found = _CUT.search(text)
    return (text[: found.start()], True) if found else (text, False)


def _pair_score(base: Entry | None, head: Entry | None, ctx: DiffContext, rules: Sequence[EntryRule]) -> tuple[int, int]:
    """What reading `head` as `base` changed reveals: (regressions, warnings); (-1, 0) when one is not exported."""
    if base is None or head is None:
        return (-1, 0)
    sev = [c.severity for rule in rules for c in rule(base, head, ctx)]
    return (sev.count("regression"), sev.count("warning"))


def _resolve(doubt: Doubt, old: Mapping[str, Entry], new: Mapping[str, Entry], ctx: DiffContext,
             rules: Sequence[EntryRule]) -> tuple[dict[str, str], bool]:
    """head key -> base key for a group identity could not pair, and whether a regression reading was
    taken (the changes then say the pairing was ambiguous) (`receipt.identity.Doubt`). A reading
    that reveals a regression is taken first, the most regressions first: a look-alike added next to
    an entry cannot hide what happened to the entry. Otherwise identity's own preference decides, so
    an ambiguity that hides nothing changes nothing."""
    preferred = {pair: i for i, pair in enumerate(doubt.default)}
    order = {k: i for i, k in enumerate((*doubt.base, *doubt.head))}
    scores = {(h, b): _pair_score(old.get(b), new.get(h), ctx, rules) for b in doubt.base for h in doubt.head}
    candidates = sorted(
        scores,
        key=lambda hb: (
            (-scores[hb][0], -scores[hb][1]) if scores[hb][0] > 0 else (1, 0),
            preferred.get(hb, len(preferred)),
            order[hb[1]],
            order[hb[0]],
        ),
    )
    out: dict[str, str] = {}
    limit = min(len(doubt.base), len(doubt.head))
    for h, b in candidates:
        if len(out) == limit or (not doubt.pair_all and scores[(h, b)][0] <= 0):
            break  # sorted: without pair_all, only readings that reveal a regression pair
        if h in out or b in out.values():
            continue
        out[h] = b
    return out, any(scores[(h, b)][0] > 0 for h, b in out.items())


_NOTE_PLACES = 3  # places listed per side in an ambiguity note (every change of the group carries it)


def _doubt_note(doubt: Doubt, ctx: DiffContext) -> str:
    """Said on every change of a doubtful group: which entries could be which, and how it was read."""
    bases = [e for e in (ctx.base.get(k) for k in doubt.base) if e is not None]
    heads = [e for e in (ctx.head.get(k) for k in doubt.head) if e is not None]
    first = (bases or heads or [None])[0]
    what = f"{first.kind}s named '{first.name}'" if first is not None else "entries"

    def where(es: list[Entry]) -> str:
        places = sorted({f"{e.path}:{e.line}" for e in es})
        more = len(places) - _NOTE_PLACES
        return ", ".join(places[:_NOTE_PLACES]) + (f" and {more:,} more" if more > 0 else "")

    if doubt.unread:
        read = "by place and source order, the rest as" if doubt.pair_all and doubt.default else "as"
        how = (f"too many of them ({len(doubt.base):,} x {len(doubt.head):,}) to weigh every pairing: "
               f"read {read} removed and added")
    else:
        how = "read as the most severe pairing"
    return (f"ambiguous pairing: {what} at {where(bases)} (base) and {where(heads)} (head) "
            f"could be the same ones; {how}")


def _collisions(surface: Surface) -> dict[tuple[str, ...], list[Entry]]:
    """Exported entries a client would see under one name: two tools of one name on one server
    (same namespace and home), or two tools / agents of one name reachable from one agent."""
    entries = exported(surface)
    out: dict[tuple[str, ...], list[Entry]] = {}
    groups: dict[tuple[str, ...], list[Entry]] = {}
    for e in entries.values():
        if e.scope:
            groups.setdefault(("server", e.kind, e.scope, e.home, e.name), []).append(e)
    for agent in entries.values():
        if agent.kind != "agent":
            continue
        for k in agent.reaches:
            target = entries.get(k)
            if target is not None:
                groups.setdefault(("agent", agent.key, target.kind, target.name), []).append(target)
    for k, group in groups.items():
        if len({e.key for e in group}) > 1:
            out[k] = sorted({e.key: e for e in group}.values(), key=lambda e: e.key)
    return out


def collision_changes(base: Surface, head: Surface, pairs: Mapping[str, str]) -> list[Change]:
    """`<kind>.name_collision` for each name clients see twice at head and did not at base."""
    known = {frozenset(e.key for e in group) for group in _collisions(base).values()}
    out: list[Change] = []
    for where, group in sorted(_collisions(head).items()):
        as_base = frozenset(pairs.get(e.key, "\0" + e.key) for e in group)
        if as_base in known:
            continue
        first = group[0]
        if where[0] == "server":
            place = f"on server '{first.scope}'"
        else:
            owner = head.exported().get(where[1])
            place = f"reachable from agent '{owner.name if owner else where[1]}'"
        sites = ", ".join(f"{e.path}:{e.line}" for e in group)
        message = (f"{len(group)} {first.kind}s named '{first.name}' {place} ({sites}): a client sees one name, "
                   "and which definition answers is decided at run time")
        out.append(entry_change(f"{first.kind}.name_collision", first, None, sorted(e.key for e in group), message))
    return out


def extraction_error_changes(head: Surface, base: Surface | None = None, touched: Collection[str] | None = None) -> list[Change]:
    """One change per head file that could not be analysed, at most one per (path, reason).

    With `touched` (the files the change adds or modifies), a file the change does not touch is
    broken identically at both revisions: listed in the receipt, not reported again. A touched
    file that imports an agent framework or held exported entries at base fails closed
    (`surface.unanalysed_agent_code`, a regression): whatever it now defines is invisible. Any
    other touched file is a `surface.extraction_error`, unless it fails exactly as it did at base.
    The fingerprint covers path and reason, not the message or line, which shift as the file is edited.
    """
    held = {e.path for e in exported(base).values()} if base is not None else set()
    same_at_base = {(i.path, i.reason, i.message) for i in base.errors} if base is not None else set()
    seen: dict[tuple[str, str], Change] = {}
    for issue in sorted(head.errors, key=lambda i: (i.path, i.reason, i.line or 0, i.message)):
        if (issue.path, issue.reason) in seen or (touched is not None and issue.path not in touched):
            continue
        subject = Subject(kind="file", name=issue.path, path=issue.path, line=issue.line, key=f"file:{issue.path}")
        if issue.frameworks or issue.path in held:
            why = f"imports {', '.join(issue.frameworks)}" if issue.frameworks else "held exported agents or tools at base"
            message = f"file '{issue.path}' could not be analysed ({issue.reason}) and {why}: {issue.message}"
            seen[(issue.path, issue.reason)] = make_change(
                "surface.unanalysed_agent_code", subject, None, {"reason": issue.reason}, message
            )
            continue
        if (issue.path, issue.reason, issue.message) in same_at_base:
            continue
        message = f"file '{issue.path}' could not be analysed ({issue.reason}): {issue.message}"
        seen[(issue.path, issue.reason)] = make_change(
            "surface.extraction_error", subject, None, {"reason": issue.reason}, message
        )
    return sort_changes(seen.values())


# Issues about code the analyser cannot see at all have their own catalogue entries (and severity).
_UNSEEN_CODE = {"dynamic-code": "surface.dynamic_code", "compiled-code": "surface.compiled_code"}


def unresolved_changes(
    base: Surface, head: Surface, touched: Collection[str] | None = None, pairing: Pairing | None = None
) -> list[Change]:
    """One `surface.unresolved` per registration at head that cannot be resolved statically and
    was not already unresolved at base (a standing limitation is not news on every PR).

    A note is identified by its file, its reason and its site (`ExtractionIssue.site`: the
    registration it concerns and the shape of what cannot be followed, never a name the change may
    rename), not by its wording: a renamed function does not make a standing note new. Notes of one
    identity in one file pair in source order. With `touched`, notes in files the change does not
    touch are news only at a new place (see below). `pairing` as for `diff_surfaces`: the moves it found.
    """
    def notes(surface: Surface) -> dict[tuple[str, str, str], list[Any]]:
        out: dict[tuple[str, str, str], list[Any]] = {}
        for i in sorted(surface.skipped, key=lambda i: (i.path, i.line or 0, i.message)):
            if i.kind == "unresolved":
                out.setdefault((i.path, i.reason, i.site or i.message), []).append(i)
        return out

    old = notes(base)
    new = notes(head)
    if any(k not in old for k in new):
        # A note on a moved file (alone or with its folder) is the same note on the file's new path,
        # its spelling of the moved modules' names as after the move.
        if pairing is None:
            pairing = pair_with_doubts(base.entries(), head.entries())
        moved_notes: dict[tuple[str, str], list[tuple[str, list[Any]]]] = {}
        for (path, reason, site), issues in old.items():
            moved = pairing.files.get(path) or move_path(path, pairing.folders)
            if moved != path:
                moved_notes.setdefault((moved, reason), []).append((site, issues))
        for key in [k for k in new if k not in old]:
            for site, issues in moved_notes.get(key[:2], []):
                if site == key[2] or _same_after_move(site, key[2], pairing.modules):
                    old[key] = issues
                    break
    # A file the change does not touch reads the same at both revisions, so its lines are its
    # notes' places: a note at a line where base had one of the same reason and kind is the same
    # standing limitation, whatever a change elsewhere made of its wording (a server renamed in
    # another file renames the note's site). A note at a new place there is news: the change
    # elsewhere made a registration of this file unreadable (`TOOLS, N = helper()` in the module
    # an untouched agent takes TOOLS from).
    standing = {(i.path, i.reason, _site_kind(i), i.line) for issues in old.values() for i in issues}
    out = []
    for identity, issues in sorted(new.items()):
        path = identity[0]
        known = old.get(identity, [])
        exact = {i.message for i in known}
        fresh = [i for i in issues if i.message not in exact]
        fresh = fresh[max(0, len(known) - (len(issues) - len(fresh))):]
        # Committed bytecode is listed without a blob: whether it is new is what base says.
        if touched is not None and path not in touched and not any(i.reason in _UNSEEN_CODE for i in issues):
            fresh = [i for i in fresh if (i.path, i.reason, _site_kind(i), i.line) not in standing]
        for issue in fresh:
            subject = Subject(kind="file", name=path, path=path, line=issue.line, key=f"file:{path}")
            change_id = _UNSEEN_CODE.get(issue.reason, "surface.unresolved")
            out.append(make_change(change_id, subject, None, {"unresolved": issue.message}, f"file '{path}': {issue.message}"))
    return sort_changes(out)


def _site_kind(issue: Any) -> str:
    """What kind of registration a note concerns: the first part of its site (`dialects.base.issue`)."""
    return (issue.site or issue.message).split("\x1f", 1)[0]


def config_change(path: str, base_text: str | None, head_text: str | None) -> Change | None:
    """`config.changed` when the receipt's own configuration differs between base and head.

    Compared on the receipt's part of the file only (`[tool.receipt]` of a pyproject.toml, parsed,
    so comments, formatting and unrelated pyproject edits are not a change); before/after are the
    first 12 hex of its digest, or null when absent.
    """
    from receipt.config import config_digest  # config imports the catalogue, not diff: no cycle, but keep it lazy

    before, after = config_digest(base_text, path), config_digest(head_text, path)
    if before == after:
        return None
    subject = Subject(kind="config", name=path, path=path, line=None, key=f"config:{path}")
    message = f"receipt configuration '{path}' changed ({_fmt(before)} -> {_fmt(after)})"
    return make_change("config.changed", subject, before, after, message)


def summarize(head: Surface, changes: Sequence[Change]) -> Summary:
    entries = exported(head).values()
    open_ = [c for c in changes if c.accepted is None]
    return Summary(
        agents=sum(1 for e in entries if e.kind == "agent"),
        tools=sum(1 for e in entries if e.kind == "tool"),
        changes=len(changes),
        regressions=sum(1 for c in open_ if c.severity == "regression"),
        warnings=sum(1 for c in open_ if c.severity == "warning"),
    )


__all__ = [
    "DiffContext",
    "ENTRY_RULES",
    "EntryRule",
    "ORDERED_RULES",
    "Ordered",
    "config_change",
    "describe",
    "diff_surfaces",
    "entry_change",
    "entry_subject",
    "exported",
    "extraction_error_changes",
    "json_value",
    "make_change",
    "signature_differences",
    "sort_changes",
    "summarize",
    "unguarded_danger",
]

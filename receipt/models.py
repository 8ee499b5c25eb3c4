"""The typed models every stage exchanges: surface entries, surfaces, changes, receipts.

Data flows one way through these: extract/link produce a `Surface`, diff produces `Change`s,
policy produces a `Verdict`, and `Receipt` is the canonical record that render and sign consume.
Every model serialises to JSON with sorted, deterministic content (lists are sorted by the stage
that builds them), so that identical inputs give byte-identical receipts.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

Kind = Literal["agent", "tool", "prompt"]
Approval = Literal["never", "conditional", "always"]
TrustTier = Literal["autonomous", "human_supervised", "human_required"]
Severity = Literal["regression", "warning", "info"]
FailOn = Literal["regression", "warning", "never"]

APPROVAL_ORDER: dict[str, int] = {"never": 0, "conditional": 1, "always": 2}
TRUST_ORDER: dict[str, int] = {"autonomous": 0, "human_supervised": 1, "human_required": 2}
SEVERITY_ORDER: dict[str, int] = {"info": 0, "warning": 1, "regression": 2}
TRUST_FROM_APPROVAL: dict[str, str] = {
    "never": "autonomous",
    "conditional": "human_supervised",
    "always": "human_required",
}

SURFACE_SCHEMA = "behavior-receipt-surface/v1"
RECEIPT_SCHEMA = "behavior-receipt/v1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class Dynamic(_Model):
    """A value that cannot be known without running the code (env, flag, parameter...).

    Recorded with its source expression, never guessed.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    dynamic: str


# An attribute value as extracted: a literal, or Dynamic when not statically knowable.
BoolAttr = Union[bool, Dynamic]
StrAttr = Union[str, Dynamic, None]


class Param(_Model):
    name: str
    type: str | None = None  # annotation source text, normalised by ast.unparse
    required: bool = True
    default: str | None = None  # default's source text
    # Qualified names the annotation mentions, for link time to resolve schemas (receipt.schemas);
    # never serialised or compared: the resolved schemas are.
    refs: tuple[str, ...] = Field(default=(), exclude=True)


class SchemaField(_Model):
    """One field of a TypedDict, pydantic model or dataclass a parameter is typed by."""

    name: str
    type: str | None = None  # canonical annotation text (names by their last part)
    required: bool = True
    default: str | None = None  # a literal default as Python text, `factory: f` for default_factory
    # Literal keyword arguments of `Field(...)` / `field(...)` / `Annotated` metadata that shape the
    # schema clients see (ge, le, max_length, pattern, description, ...), name -> Python text.
    constraints: dict[str, str] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any) -> Any:
        return _without_empty(handler(self), ("constraints",))


class Schema(_Model):
    """What a type named in a signature means, when it is defined in the analysed tree."""

    kind: Literal["model", "typeddict", "dataclass", "enum", "alias", "dynamic"]
    fields: list[SchemaField] = Field(default_factory=list)  # model / typeddict / dataclass
    members: list[str] = Field(default_factory=list)  # enum: "NAME = value", sorted
    type: str | None = None  # alias: the aliased type's canonical text
    # What is not statically known about it (dynamic: `create_model(...)`; else e.g. an external
    # base class whose fields cannot be read), None when fully known.
    unknown: str | None = None

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any) -> Any:
        return _without_empty(handler(self), ("fields", "members", "type", "unknown"))


def _without_empty(data: Any, keys: tuple[str, ...]) -> Any:
    """JSON without the optional keys that hold nothing (the model reads them back as defaults)."""
    if isinstance(data, dict):
        for k in keys:
            if data.get(k) in (None, [], {}):
                data.pop(k, None)
    return data


class Signature(_Model):
    params: list[Param] = Field(default_factory=list)
    returns: str | None = None
    # Schemas of the types the params name, by the name the type text uses (nested ones too).
    # Empty for signatures that name none, and then left out of the JSON (unchanged surfaces).
    schemas: dict[str, Schema] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _without_empty_schemas(self, handler: Any) -> Any:
        return _without_empty(handler(self), ("schemas",))


class Entry(_Model):
    """One agent, tool or prompt of the surface, with its *effective* attributes.

    Defaults are the effective values when nothing is declared (design, "Surface model"), so
    that spelling a default explicitly is never a change.
    """

    kind: Kind
    name: str  # the name a caller sees (after mount/namespace prefixes)
    scope: str = ""  # MCP server name or other namespace; "" when global
    key: str = ""  # unique within one surface (reaches, fingerprints); set by `entry_key` when empty
    # Identity across revisions (see `receipt.identity`): where the entry lives (the server it is
    # registered on, else its defining module) and its slot (the name bound to it, plus its rank in
    # source order where that name does not tell two same-named entries of one home apart). Never a line.
    home: str = ""
    slot: str = ""
    # The registered name's expression when it is not statically known (`name` is then a fallback,
    # e.g. the function name): identity follows the expression, so renaming the function is no change.
    name_expr: str | None = None
    # `scope` is the name of the variable the server is bound to (its own name is computed or left to
    # the framework): clients never see it, so renaming that variable is no change (identity stage 3).
    # Written to JSON only when true.
    scope_by_variable: bool = False
    path: str
    line: int
    dialect: str  # markers | mcp | fastmcp | openai-agents | pydantic-ai | langchain | ... | corvid
    exported: bool = False
    root: bool = False  # an export root (server tool, exported agent, config export)
    conditional: bool = False  # registered under `if`, in a loop or inside a factory

    dangerous: BoolAttr = False
    approval: Union[Approval, Dynamic] = "never"
    trust_tier: Union[TrustTier, Dynamic] = "autonomous"
    trust_declared: bool = False  # trust_tier given explicitly rather than derived from approval
    read_only: BoolAttr = False
    idempotent: BoolAttr = False
    # Only MCP has an open-world notion (openWorldHint, default true: the MCP dialect sets it). Other
    # frameworks declare nothing, and claiming "open world" for every calculator would make tools
    # gain it when they move between frameworks.
    open_world: BoolAttr = False
    replayable: BoolAttr = False
    deterministic: BoolAttr = False
    model: StrAttr = None
    # An agent that runs on several models (a hand-built graph whose nodes build different chat
    # models, a Corvid dispatch): each one by value, so adding or removing one reads as such and
    # reordering is none. `model` keeps them joined, the one string the surface contract shows;
    # empty (and left out of the JSON) when the agent has one model or none. Normalised here, on
    # construction and on assignment (`normal_models`), so every dialect gets the same form.
    models: list[Union[str, Dynamic]] = Field(default_factory=list)
    instructions_sha256: str | None = None  # agents: sha256 of instructions / system prompt
    description_sha256: str | None = None  # tools and prompts: sha256 of the description
    # The (bounded) words behind those digests, for the receipt to show and scan; never compared:
    # the digest stays the compared value. Filled from a digest that carries its text (dialects.base.digest).
    instructions_text: str | None = None
    description_text: str | None = None
    signature: Signature | None = None
    reaches: list[str] = Field(default_factory=list)  # keys of entries this one can call / hand off to
    tags: list[str] = Field(default_factory=list)
    # Dialect-specific attributes with their own catalogue entries (e.g. Corvid effects), sorted keys.
    extra: dict[str, Any] = Field(default_factory=dict)
    # Why an attribute has a value the code did not declare: attribute -> reason code, e.g.
    # {"dangerous": "mcp:no-annotations"} (MCP protocol default: destructiveHint true when a tool has no
    # annotations) or "mcp:not-declared" (annotations given, this hint absent). Declared and dynamic
    # values are not listed. For display only: never compared by the diff.
    defaults: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _texts_from_digests(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for digest_field, text_field in TEXT_OF_DIGEST.items():
                text = getattr(data.get(digest_field), "text", None)
                if text is not None and data.get(text_field) is None:
                    data = {**data, text_field: text}
        return data

    @field_validator("models")
    @classmethod
    def _normal_models(cls, value: list[Union[str, Dynamic]]) -> list[Union[str, Dynamic]]:
        return normal_models(value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "models":  # assignment is not validated: the one normal form applies here too
            value = normal_models(value)
        super().__setattr__(name, value)
        if name in TEXT_OF_DIGEST:  # a digest assigned after construction brings its text (or none)
            super().__setattr__(TEXT_OF_DIGEST[name], getattr(value, "text", None))

    @model_serializer(mode="wrap")
    def _without_empty_models(self, handler: Any) -> Any:
        data = _without_empty(handler(self), ("models",))
        if isinstance(data, dict) and data.get("scope_by_variable") is False:
            del data["scope_by_variable"]
        return data

    def model_post_init(self, __context: Any) -> None:
        if not self.key:
            self.key = entry_key(self.kind, self.scope, self.name)


def normal_models(models: Any) -> list[Union[str, Dynamic]]:
    """An agent's models in the one form every dialect gives: each value once, literals sorted, then
    run-time ones by their source; [] for one model or none (then `model` holds it). The order a
    source lists them in (graph nodes, dispatch arms) says nothing about what the agent runs on, so
    it must not change the surface (nor its digest)."""
    unique = {(isinstance(m, Dynamic), m.dynamic if isinstance(m, Dynamic) else m): m for m in models}
    return [unique[k] for k in sorted(unique)] if len(unique) > 1 else []


TEXT_OF_DIGEST = {"description_sha256": "description_text", "instructions_sha256": "instructions_text"}
TEXT_LIMIT = 4000  # characters of description/instructions kept on an entry


def entry_key(kind: str, scope: str, name: str) -> str:
    return f"{kind}:{scope}/{name}" if scope else f"{kind}:{name}"


class ExtractionIssue(_Model):
    """A file that could not be analysed (error) or was deliberately not read (skipped)."""

    path: str
    line: int | None = None
    kind: Literal["error", "skipped", "unresolved"]
    reason: str  # short machine-friendly reason: syntax-error, non-utf8, binary, too-large, symlink, submodule, ...
    message: str
    frameworks: list[str] = Field(default_factory=list)  # agent frameworks an unreadable file imports
    # Whether the compared change adds or modifies this file (None: not computed). Issues in files the
    # change does not touch are context, listed but not reported again; a note there is reported only
    # at a line where base had none of its reason and kind (`receipt.diff.unresolved_changes`).
    touched: bool | None = None
    # What a note is about, independent of its wording: the registration it concerns and the shape of
    # the expression it cannot follow, never a name the change may rename (a function, a variable).
    # A note with the same (path, reason, site) at base is not new (see `receipt.diff.unresolved_changes`);
    # "" means the message itself is the identity.
    site: str = ""


class Surface(_Model):
    schema_: Literal["behavior-receipt-surface/v1"] = Field(SURFACE_SCHEMA, alias="schema")
    rev: str
    sha: str
    agents: list[Entry] = Field(default_factory=list)
    tools: list[Entry] = Field(default_factory=list)
    prompts: list[Entry] = Field(default_factory=list)
    errors: list[ExtractionIssue] = Field(default_factory=list)
    skipped: list[ExtractionIssue] = Field(default_factory=list)

    def entries(self) -> list[Entry]:
        return [*self.agents, *self.tools, *self.prompts]

    def exported(self) -> dict[str, Entry]:
        return {e.key: e for e in self.entries() if e.exported}


class Subject(_Model):
    kind: str  # agent | tool | prompt | file | config
    name: str
    scope: str | None = None  # MCP server / namespace, when the entry has one
    path: str | None = None
    line: int | None = None
    key: str | None = None


class Accepted(_Model):
    reason: str
    expires: str | None = None  # ISO date


class Change(_Model):
    id: str  # catalogue id, e.g. tool.approval_lowered
    severity: Severity
    subject: Subject
    before: Any = None
    after: Any = None
    message: str
    fingerprint: str
    accepted: Accepted | None = None
    # Set by the diff when the change was read through an ambiguous pairing (look-alikes elsewhere):
    # which entries could be which, and how they were read. The message ends with it too, in
    # parentheses, as it always has; renderers read this field and never look for it in the message,
    # where an analysed value (a model id, a name) could imitate it. Left out of the JSON when empty
    # (an addition the receipt contract allows), so unambiguous changes serialise as before.
    note: str = ""

    @model_serializer(mode="wrap")
    def _without_empty_note(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict) and not data.get("note"):
            data.pop("note", None)
        return data


class RevInfo(_Model):
    rev: str
    sha: str
    surface_sha256: str


class Summary(_Model):
    agents: int  # exported agents at head
    tools: int  # exported tools at head
    changes: int
    regressions: int
    warnings: int


class Verdict(_Model):
    ok: bool
    fail_on: FailOn
    flags: list[str] = Field(default_factory=list)


class ToolInfo(_Model):
    name: str = "behavior-receipt"
    version: str


class Binding(BaseModel):
    """What a receipt is about, beyond its content: which repository, PR and commits.

    Signed with the receipt, so a valid signature block cannot be moved onto another PR's comment,
    and shown in the visible body so a reader can tell. Empty (or None) means unknown, e.g. a local
    run; `resolved` fills the shas from the receipt.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    repository: str = ""  # owner/name
    pr: Optional[int] = Field(default=None, ge=1)
    base_sha: str = ""
    head_sha: str = ""

    @field_validator("repository", "base_sha", "head_sha")
    @classmethod
    def _strip(cls, v: str) -> str:
        return v.strip()

    def resolved(self, receipt: "Receipt") -> "Binding":
        return self.model_copy(
            update={"base_sha": self.base_sha or receipt.base.sha, "head_sha": self.head_sha or receipt.head.sha}
        )

    def as_payload(self) -> dict[str, Any]:
        return {"repository": self.repository, "pr": self.pr, "base_sha": self.base_sha, "head_sha": self.head_sha}


class TraceProblem(_Model):
    file: str  # relative to the --traces argument, never absolute
    line: int  # 0: the file as a whole
    reason: str


class TraceEvidence(_Model):
    """What the recorded traces given with --traces were (signed, so a verifier knows what the
    traffic numbers rest on): how many traces and files, and a digest over the files' digests."""

    traces: int
    errored_traces: int
    files: int
    files_sha256: str  # sha256 over the sorted sha256 hex digests of the files, each followed by "\n"
    records: int  # spans and events read
    first_seen: str | None = None  # UTC, second resolution
    last_seen: str | None = None
    malformed: int = 0  # lines skipped as malformed (listed, up to a bound, in `problems`)
    problems: list[TraceProblem] = Field(default_factory=list)
    problem_count: int = 0
    unknown_events: int = 0  # events of kinds this version does not read, skipped (forward compatible)
    unknown_kinds: dict[str, int] = Field(default_factory=dict)  # their counts by kind (the first 50 names)
    match_rule: str = "client-visible-name/v1"
    escalate_above: float | None = None  # the base config's policy, when set


class ChangeTraffic(_Model):
    """How much recorded traffic exercises the subject of one change (joined to it by fingerprint)."""

    fingerprint: str
    id: str
    subject: str  # the subject's key
    traces: int
    share: float  # traces / all traces, rounded to 6 decimals
    errored: int  # of those traces, how many saw this subject fail
    trace_ids: list[str] = Field(default_factory=list)  # the first few, sorted
    first_seen: str | None = None
    last_seen: str | None = None
    ambiguous: bool = False  # the recorded name fits several entries: counts are an upper bound
    escalated: bool = False  # severity raised one level by `traces.escalate_above`


class Receipt(_Model):
    """The canonical receipt. Renderers and the signer consume only this."""

    schema_: Literal["behavior-receipt/v1"] = Field(RECEIPT_SCHEMA, alias="schema")
    tool: ToolInfo
    base: RevInfo
    head: RevInfo
    compared: str = "base -> head"  # what was compared, e.g. "merge-base(main, feature) -> feature"
    paths: list[str] = Field(default_factory=list)  # scan limits; [] = whole tree
    summary: Summary
    verdict: Verdict
    changes: list[Change] = Field(default_factory=list)
    errors: list[ExtractionIssue] = Field(default_factory=list)  # head-side extraction errors
    skipped: list[ExtractionIssue] = Field(default_factory=list)  # head-side skipped files
    surfaces: dict[str, Surface] | None = None  # {"base": ..., "head": ...}; JSON only on request
    # Set at render time when the receipt is for a PR (CI) or signed: the body shows it. Not part of
    # the JSON receipt (the signed payload carries it once, under "binding").
    binding: Binding | None = None
    # No agent, tool or prompt of any supported framework was recognised at head under `paths`: an
    # empty surface is said out loud, never shown as a quiet "no changes".
    nothing_recognised: bool = False
    # Recorded traces given with --traces (absent otherwise, so receipts without traces are unchanged).
    traces: TraceEvidence | None = None
    traffic: list[ChangeTraffic] | None = None  # per change whose subject is an agent, tool or prompt

    def to_json_dict(self, include_surfaces: bool = False) -> dict[str, Any]:
        exclude = {"binding"} if include_surfaces else {"surfaces", "binding"}
        if self.traces is None:
            exclude |= {"traces", "traffic"}
        return self.model_dump(mode="json", by_alias=True, exclude=exclude)

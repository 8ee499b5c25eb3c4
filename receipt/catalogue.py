"""The change catalogue: every kind of change the diff can report, with its default severity.

One `ChangeKind` per id, in the spirit of cargo-semver-checks lints: the id is stable (users
override its severity and accept its fingerprints in config), the explanation is what
`receipt explain ID` prints. Adding a kind is one `_kind(...)` entry below (plus the diff rule
that emits it); nothing else enumerates the ids.
"""

from __future__ import annotations

import difflib
import textwrap

from pydantic import BaseModel, ConfigDict

from receipt.errors import UsageError
from receipt.models import Severity


class ChangeKind(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    default_severity: Severity
    title: str
    # One paragraph: what it means, why a reviewer should care, how to respond or accept it.
    explanation: str


_ACCEPT = (
    "If the change is intended, keep it and, to stop it from failing the check, accept its "
    "fingerprint under [tool.receipt] accept with a reason (and optionally an expiry date)."
)


def _kind(id: str, severity: Severity, title: str, explanation: str) -> ChangeKind:
    return ChangeKind(id=id, default_severity=severity, title=title, explanation=" ".join(explanation.split()))


_KINDS: tuple[ChangeKind, ...] = (
    # --- surface membership -------------------------------------------------------------------
    _kind(
        "agent.added",
        "info",
        "Agent added to the exported surface",
        "A new agent is now reachable by callers (an export root, or reached from one). The change "
        "lists its initial attributes: trust tier, approval, model, what it can reach. It is a "
        "regression when the agent itself is marked dangerous and requires no approval, and a "
        "warning when that cannot be decided statically. Review the attributes as you would a new "
        "public endpoint; if they are what you intend, nothing else is needed.",
    ),
    _kind(
        "tool.added",
        "info",
        "Tool added to the exported surface",
        "A new tool can now be called by an exported agent or an MCP client. The change lists its "
        "initial safety attributes and signature. It is a regression when the tool is dangerous "
        "(destructive) and needs no approval, because a model can then invoke it with no human in "
        "the loop; a warning when dangerous or approval is dynamic. Otherwise, require approval "
        "for it (or mark it read-only if it really only reads). " + _ACCEPT,
    ),
    _kind(
        "prompt.added",
        "info",
        "Prompt added to the exported surface",
        "A new prompt template is exposed (for example an MCP prompt). Prompts shape what a model "
        "is told to do, so a reviewer should read it once; no action is needed if it is intended.",
    ),
    _kind(
        "agent.removed",
        "warning",
        "Agent removed from the exported surface",
        "An agent that callers could reach is gone, or is no longer exported. Callers and handoffs "
        "that relied on it will break, and if it was renamed it appears as removed plus added. "
        "Check that nothing depends on it, or keep a compatible alias. " + _ACCEPT,
    ),
    _kind(
        "tool.removed",
        "warning",
        "Tool removed from the exported surface",
        "A tool that clients or agents could call is gone or no longer exported. Clients with the "
        "old tool list (MCP clients cache them) will fail when they call it, and a rename shows up "
        "as removed plus added. Confirm no caller relies on it. " + _ACCEPT,
    ),
    _kind(
        "prompt.removed",
        "warning",
        "Prompt removed from the exported surface",
        "A prompt that clients could fetch is gone or no longer exported; clients that request it "
        "by name will get an error. Confirm no client relies on it. " + _ACCEPT,
    ),
    # --- dangerous / approval / trust ------------------------------------------------------------
    _kind(
        "tool.dangerous_gained",
        "regression",
        "Tool became dangerous",
        "The tool is now marked dangerous (destructive: it changes or deletes state that matters). "
        "Every agent that reaches it can now cause that damage, so check that approval is required "
        "where it should be and that the agents reaching it deserve that power. " + _ACCEPT,
    ),
    _kind(
        "tool.dangerous_lost",
        "info",
        "Tool is no longer dangerous",
        "The tool is no longer marked dangerous. That relaxes what reviewers and approval gates "
        "will assume about it; confirm the tool really cannot destroy or change important state "
        "any more, rather than the marker having been dropped.",
    ),
    _kind(
        "agent.dangerous_gained",
        "regression",
        "Agent became dangerous",
        "The agent itself is now marked dangerous (its dialect declares it can take destructive "
        "actions). Check its trust tier and approval requirements before merging. " + _ACCEPT,
    ),
    _kind(
        "agent.dangerous_lost",
        "info",
        "Agent is no longer dangerous",
        "The agent is no longer marked dangerous. Confirm its actions really became harmless "
        "rather than the marker having been dropped.",
    ),
    _kind(
        "tool.approval_lowered",
        "regression",
        "Tool approval lowered",
        "The tool now needs less human approval than before (always > conditional > never). A "
        "model can now run it with less or no human review, which is the kind of change a receipt "
        "exists to surface. Restore the approval requirement unless the tool really became safe "
        "to run unattended. " + _ACCEPT,
    ),
    _kind(
        "tool.approval_raised",
        "info",
        "Tool approval raised",
        "The tool now needs more human approval than before (always > conditional > never). This "
        "tightens safety; expect more approval prompts in the agent's runs.",
    ),
    _kind(
        "agent.approval_lowered",
        "regression",
        "Agent approval lowered",
        "The agent's approval requirement went down while its declared trust tier stayed the same, "
        "so the declaration and the enforcement now disagree, or human review was removed. Check "
        "which one is right. " + _ACCEPT,
    ),
    _kind(
        "agent.approval_raised",
        "info",
        "Agent approval raised",
        "The agent's approval requirement went up while its declared trust tier stayed the same. "
        "This tightens safety; consider updating the declared trust tier to match.",
    ),
    _kind(
        "agent.trust_tier_lowered",
        "regression",
        "Agent trust tier lowered",
        "The agent now runs with less human oversight (human_required > human_supervised > "
        "autonomous). Everything it can reach is now driven with less supervision. Restore the "
        "tier unless the agent really can be trusted with more autonomy. " + _ACCEPT,
    ),
    _kind(
        "agent.trust_tier_raised",
        "info",
        "Agent trust tier raised",
        "The agent now runs with more human oversight (human_required > human_supervised > "
        "autonomous). This tightens safety; no action needed.",
    ),
    _kind(
        "tool.trust_tier_lowered",
        "regression",
        "Tool trust tier lowered",
        "The tool's declared trust tier went down (human_required > human_supervised > autonomous) "
        "while its approval setting stayed the same. Reported only for declared tiers, since a "
        "derived tier merely mirrors approval. Restore the tier unless the lower one is "
        "deliberate. " + _ACCEPT,
    ),
    _kind(
        "tool.trust_tier_raised",
        "info",
        "Tool trust tier raised",
        "The tool's declared trust tier went up while its approval setting stayed the same. This "
        "tightens safety; consider whether approval should follow.",
    ),
    # --- behavioural hints -------------------------------------------------------------------------
    _kind(
        "tool.read_only_lost",
        "warning",
        "Tool is no longer read-only",
        "The tool used to promise it only reads; now it may write. Clients and approval policies "
        "often auto-approve read-only tools, so this can silently widen what runs without review. "
        "Check whether it should now be dangerous or need approval. " + _ACCEPT,
    ),
    _kind(
        "tool.read_only_gained",
        "info",
        "Tool became read-only",
        "The tool now promises it only reads. Clients may start auto-approving it; make sure the "
        "promise holds for every code path.",
    ),
    _kind(
        "tool.open_world_gained",
        "warning",
        "Tool now reaches the open world",
        "The tool now interacts with external, open-ended systems (the web, arbitrary hosts, other "
        "people's data) instead of a closed domain. That widens what untrusted input can reach the "
        "model and what data can leave. Check the new reach is intended. " + _ACCEPT,
    ),
    _kind(
        "tool.open_world_lost",
        "info",
        "Tool no longer reaches the open world",
        "The tool now declares it only touches a closed domain rather than external, open-ended "
        "systems. This narrows what untrusted input can reach the model; confirm the declaration "
        "is accurate, since clients may start trusting its output more.",
    ),
    _kind(
        "tool.idempotent_lost",
        "warning",
        "Tool is no longer idempotent",
        "Calling the tool twice with the same arguments may now have additional effects. Agents "
        "retry tool calls, so retries may now duplicate side effects (two refunds, two emails). "
        "Check retry behaviour or add an idempotency key. " + _ACCEPT,
    ),
    _kind(
        "tool.idempotent_gained",
        "info",
        "Tool became idempotent",
        "The tool now declares that repeated calls with the same arguments have no additional "
        "effect. Retries become safe if the declaration holds.",
    ),
    _kind(
        "agent.replayable_lost",
        "warning",
        "Agent is no longer replayable",
        "Runs of the agent can no longer be replayed from their recorded inputs, which weakens "
        "debugging, audits and incident review. Check whether this was intended. " + _ACCEPT,
    ),
    _kind(
        "agent.replayable_gained",
        "info",
        "Agent became replayable",
        "Runs of the agent can now be replayed from their recorded inputs, which helps debugging, "
        "audits and incident review. No action is needed beyond checking that recordings are "
        "actually kept.",
    ),
    _kind(
        "agent.deterministic_lost",
        "warning",
        "Agent is no longer deterministic",
        "The agent no longer promises the same output for the same input (for example temperature "
        "or tool ordering changed). Tests and audits that relied on that will become flaky. "
        + _ACCEPT,
    ),
    _kind(
        "agent.deterministic_gained",
        "info",
        "Agent became deterministic",
        "The agent now promises the same output for the same input, which makes its runs testable "
        "and auditable. No action is needed beyond checking that the promise holds (fixed seed, "
        "temperature zero, stable tool order).",
    ),
    _kind(
        "tool.replayable_lost",
        "warning",
        "Tool is no longer replayable",
        "Calls to the tool can no longer be replayed from recorded inputs, which weakens "
        "debugging and audits of agent runs that use it. " + _ACCEPT,
    ),
    _kind(
        "tool.replayable_gained",
        "info",
        "Tool became replayable",
        "Calls to the tool can now be replayed from recorded inputs, which helps debugging and "
        "audits of agent runs that use it. No action is needed beyond checking that recordings "
        "are actually kept.",
    ),
    _kind(
        "tool.deterministic_lost",
        "warning",
        "Tool is no longer deterministic",
        "The tool no longer promises the same result for the same arguments; agent runs using it "
        "become harder to reproduce and test. " + _ACCEPT,
    ),
    _kind(
        "tool.deterministic_gained",
        "info",
        "Tool became deterministic",
        "The tool now promises the same result for the same arguments, which makes agent runs "
        "that use it easier to reproduce and test. No action is needed beyond checking that the "
        "promise holds.",
    ),
    _kind(
        "tool.became_conditional",
        "info",
        "Tool is now registered conditionally",
        "The tool is now registered under a condition, in a loop or inside a factory, so whether it "
        "exists at runtime depends on configuration the receipt cannot see. The receipt keeps "
        "reporting it as exported; check in which deployments the condition holds.",
    ),
    _kind(
        "tool.became_unconditional",
        "warning",
        "Tool is now registered unconditionally",
        "The tool used to be registered only under a condition (a feature flag, an environment "
        "check, a factory argument) and is now always registered. If that condition kept it off "
        "in some deployments, it is now exposed there too. " + _ACCEPT,
    ),
    _kind(
        "agent.became_conditional",
        "info",
        "Agent is now created conditionally",
        "The agent is now created under a condition or inside a factory, so whether it exists at "
        "runtime depends on configuration the receipt cannot see. The receipt keeps reporting it "
        "as exported; check in which deployments the condition holds.",
    ),
    _kind(
        "agent.became_unconditional",
        "warning",
        "Agent is now created unconditionally",
        "The agent used to be created only under a condition and is now always created. If that "
        "condition kept it off in some deployments, it is now exposed there too. " + _ACCEPT,
    ),
    # --- reach ---------------------------------------------------------------------------------------
    _kind(
        "agent.reach_added",
        "info",
        "Agent can reach a new tool or agent",
        "The agent can now call a tool or hand off to an agent it could not reach before. Its "
        "blast radius grew by whatever the target can do. It is a regression when the target is "
        "dangerous and needs no approval (the agent can now trigger it with no human in the "
        "loop), and a warning when that is dynamic. " + _ACCEPT,
    ),
    _kind(
        "agent.reach_removed",
        "info",
        "Agent can no longer reach a tool or agent",
        "The agent lost access to a tool or handoff target. This narrows what it can do; check "
        "that the behaviour that relied on it is gone too.",
    ),
    _kind(
        "tool.reach_added",
        "info",
        "Tool can reach a new tool or agent",
        "The tool (for example an agent exposed as a tool) can now call a tool or agent it could "
        "not reach before. It is a regression when the target is dangerous and needs no approval, "
        "a warning when that is dynamic. " + _ACCEPT,
    ),
    _kind(
        "tool.reach_removed",
        "info",
        "Tool can no longer reach a tool or agent",
        "The tool (for example an agent exposed as a tool) lost access to a tool or agent it could "
        "call before. This narrows what it can do; check that the behaviour that relied on it is "
        "gone too.",
    ),
    # --- model, text, signature --------------------------------------------------------------------
    _kind(
        "agent.model_changed",
        "warning",
        "Agent model changed",
        "The agent now runs on a different model. Models differ in how they follow instructions, "
        "call tools and refuse; evaluations that passed on the old model say little about the new "
        "one. Re-run the agent's evaluations before merging. " + _ACCEPT,
    ),
    _kind(
        "agent.model_added",
        "warning",
        "Agent now also uses another model",
        "The agent runs on several models (a graph whose nodes build their own chat models, a "
        "dispatch between models) and now also uses this one: some of its steps run on a model "
        "they did not run on before, and evaluations of the old setup say little about them. "
        "Re-run the agent's evaluations before merging. " + _ACCEPT,
    ),
    _kind(
        "agent.model_removed",
        "warning",
        "Agent no longer uses a model",
        "The agent ran on several models and no longer uses this one: the steps that ran on it now "
        "run on one of its other models, or are gone. Evaluations of the old setup say little about "
        "them; re-run the agent's evaluations before merging. " + _ACCEPT,
    ),
    _kind(
        "agent.setting_changed",
        "warning",
        "Agent framework setting changed",
        "A setting of the agent's framework that widens or narrows what it may do changed: CrewAI's "
        "code execution (turned on in a sandbox, or its sandbox changed: one that turns the agent "
        "dangerous is `agent.dangerous_gained`) and human input, "
        "smolagents' base tools (a Python interpreter among them), ADK's before-tool callback (one "
        "added or removed). These are not approval or danger flags, but they change what a run can "
        "reach or who is asked; read the change before merging. " + _ACCEPT,
    ),
    _kind(
        "tool.setting_changed",
        "warning",
        "Tool framework setting changed",
        "A setting of the tool's framework changed that changes how it runs (ADK's long-running "
        "tools, whose calls return before the work is done). Read the change before merging. " + _ACCEPT,
    ),
    _kind(
        "agent.instructions_changed",
        "info",
        "Agent instructions changed",
        "The agent's instructions (system prompt) changed; the receipt shows digests, the diff "
        "shows the text. Instructions steer which tools the model calls and when, so read the "
        "change with that in mind.",
    ),
    _kind(
        "agent.description_changed",
        "info",
        "Agent description changed",
        "The agent's description changed. Other agents read it to decide when to hand off, so it "
        "can change routing; read the text change with that in mind.",
    ),
    _kind(
        "tool.description_changed",
        "info",
        "Tool description changed",
        "The tool's description changed, or only the words its parameters are described by (the "
        "schema fields' `description`, `title` or `examples`, a `Field(...)` default's "
        "description, with nothing the tool accepts changed); both at once are one change "
        "saying both (its before and after then list each). Models decide whether and "
        "how to call a tool from these words, so this can change behaviour without any code "
        "change; read the new text the way a model would.",
    ),
    _kind(
        "tool.return_type_changed",
        "info",
        "Tool return type changed",
        "Only the annotated return type of the tool changed, in a framework that hands the model "
        "the result as text (LangChain, CrewAI, OpenAI Agents SDK, PydanticAI): nothing the model "
        "fills in changed, and the type is not in the schema it sees; what it reads back may be "
        "shaped differently (PydanticAI's `include_return_schema` shows the model the return "
        "schema as words of the description: info, as a description change is). Where the return "
        "type is part of what clients see (an MCP tool's "
        "output schema, a smolagents tool's output type, ADK) it is a `tool.signature_changed`, "
        "as it is here when parameters change too.",
    ),
    _kind(
        "prompt.description_changed",
        "info",
        "Prompt description changed",
        "The prompt's description changed (or only its arguments' descriptions). Clients show it "
        "to users and models choose prompts by "
        "it, so the wording can change which prompt gets used; the receipt shows digests, the "
        "diff shows the text. Read the new text; no other action is needed.",
    ),
    _kind(
        "tool.signature_changed",
        "warning",
        "Tool signature changed",
        "Parameters of the tool were added, removed, made required or optional, or changed type "
        "or default. The model sees the parameter schema; callers and prompts written for the old "
        "schema may fail or, worse, pass values into different meanings. Check the callers and "
        "the tool's description. " + _ACCEPT,
    ),
    _kind(
        "prompt.signature_changed",
        "warning",
        "Prompt arguments changed",
        "Arguments of the prompt were added, removed, made required or changed type. Clients that "
        "fill in the old arguments may fail. " + _ACCEPT,
    ),
    # --- meta ----------------------------------------------------------------------------------------
    _kind(
        "attribute.dynamic",
        "warning",
        "Attribute is not statically known",
        "A safety attribute is now computed at runtime (read from the environment, a flag, a "
        "function parameter) or its runtime source changed, so the receipt cannot tell what it "
        "will be and does not guess. Whoever controls that source controls the attribute. Prefer "
        "a literal value; otherwise check the source expression shown in the change. " + _ACCEPT,
    ),
    _kind(
        "surface.extraction_error",
        "warning",
        "File could not be analysed",
        "A file at the head revision could not be read or parsed (syntax error, undecodable bytes, "
        "too large), so any agents or tools it defines are missing from the surface and the "
        "receipt may be incomplete. Fix the file, or exclude it in config if it holds no agent "
        "code. " + _ACCEPT,
    ),
    _kind(
        "surface.unresolved",
        "warning",
        "Registration that cannot be resolved statically",
        "This change adds something that looks like an agent or tool registration which cannot be "
        "resolved without running the code (a tool list returned by a function from another "
        "package, a server built at run time, a name computed at run time, a listed tool's name bound "
        "again after its definition to what a wrapper returns). What it registers is "
        "not in the surface, so the receipt cannot vouch for it: review it by hand, or declare it "
        "with a native marker. Only registrations new in this change are reported. " + _ACCEPT,
    ),
    _kind(
        "config.changed",
        "warning",
        "Receipt configuration changed",
        "The receipt's own configuration changed in this revision range. Gating uses the "
        "configuration of the base revision, so the new settings (severity overrides, accepted "
        "fingerprints, exclusions) only take effect after merge; review them like code, since "
        "they can hide future findings. " + _ACCEPT,
    ),
)

# Corvid ABI descriptors carry attributes no Python framework has; each has its own kind.
_CORVID_KINDS: tuple[ChangeKind, ...] = (
    _kind(
        "corvid.approval_label_removed",
        "regression",
        "Approval label removed from an agent's approval contract",
        "The Corvid compiler no longer lists this approval label in the agent's approval contract, so "
        "the action it guarded can now run without the human sign-off it used to need. Confirm the "
        "action itself was removed, or restore the `approve` site. " + _ACCEPT,
    ),
    _kind(
        "corvid.approval_label_tier_lowered",
        "regression",
        "Approval label requires a lower trust tier",
        "An approval label now requires a lower trust tier (human_required > human_supervised > "
        "autonomous): fewer people, or nobody, must approve the guarded action. " + _ACCEPT,
    ),
    _kind(
        "corvid.approval_label_tier_raised",
        "info",
        "Approval label requires a higher trust tier",
        "An approval label now requires a higher trust tier: the guarded action needs more human "
        "oversight than before. Nothing to do unless the stricter gate was unintended.",
    ),
    _kind(
        "corvid.irreversible_gained",
        "regression",
        "Effect became irreversible",
        "The descriptor now declares the agent's or tool's effect (or an approval label) as "
        "irreversible: a mistake can no longer be undone. Make sure an approval gate covers it. "
        + _ACCEPT,
    ),
    _kind(
        "corvid.irreversible_lost",
        "info",
        "Effect is no longer irreversible",
        "The descriptor no longer declares the effect irreversible: a mistake can be undone again. "
        "Informational; nothing to do unless the reversibility claim is wrong.",
    ),
    _kind(
        "corvid.grounded_provenance_lost",
        "regression",
        "Agent no longer returns grounded values",
        "The agent's return value was `Grounded<...>` (its provenance traced to cited inputs) and no "
        "longer is: callers lose the guarantee that answers are backed by sources. " + _ACCEPT,
    ),
    _kind(
        "corvid.grounded_provenance_gained",
        "info",
        "Agent now returns grounded values",
        "The agent's return value now carries provenance (`Grounded<...>`), so callers can trace "
        "answers back to cited inputs. Informational; no action needed.",
    ),
    _kind(
        "corvid.domain_effect_added",
        "warning",
        "Tool gained a domain effect",
        "The tool's contract declares a new domain effect (what it does in the world). Effects on "
        "money or irreversible effects are regressions; others are warnings. Check that approval "
        "and trust tier match the new effect. " + _ACCEPT,
    ),
    _kind(
        "corvid.domain_effect_removed",
        "info",
        "Tool lost a domain effect",
        "The tool's contract no longer declares this domain effect, so it claims to do less in the "
        "world than before. Informational; check the claim if the code still has the effect.",
    ),
    _kind(
        "corvid.ownership_loosened",
        "warning",
        "Ownership across the ABI loosened",
        "A parameter or return value moved to a looser ownership mode (owned < borrowed < shared < "
        "static): values can now be aliased or outlive the call, which host code must handle. "
        + _ACCEPT,
    ),
    _kind(
        "corvid.ownership_tightened",
        "info",
        "Ownership across the ABI tightened",
        "A parameter or return value moved to a stricter ownership mode, so host code may no "
        "longer alias or keep the value. Host bindings may need regenerating; informational.",
    ),
    _kind(
        "corvid.budget_raised",
        "warning",
        "Per-call budget raised or removed",
        "The agent's declared budget per call went up, or was removed (unbounded): one call can now "
        "spend more. " + _ACCEPT,
    ),
    _kind(
        "corvid.budget_lowered",
        "info",
        "Per-call budget lowered",
        "The agent's declared budget per call went down, or a budget was added where there was "
        "none: one call can spend less than before. Informational; no action needed.",
    ),
)
# Code outside what a static reading can see: each occurrence new in the change is reported.
_UNSEEN_KINDS: tuple[ChangeKind, ...] = (
    _kind(
        "surface.dynamic_code",
        "regression",
        "Code computed at run time",
        "This change adds `exec`, `eval` or `compile` of a value computed at run time, `exec` or `eval` of "
        "code written in a string, a write to the module's namespace under names computed at run time "
        "(`globals().update(overrides)`), or an import of a module whose name is computed at run time "
        "(`importlib.import_module(name)`, `__import__(name)`). "
        "Whatever that code defines or registers (tools, agents, approvals) is invisible to the receipt, "
        "so it fails closed: a regression by default. Replace it with ordinary imports and literal "
        "module names, or, if it cannot reach agent code, lower the severity in config or accept the "
        "fingerprint. " + _ACCEPT,
    ),
    _kind(
        "surface.compiled_code",
        "regression",
        "Compiled code or .pth file committed",
        "This change commits a `.pyc`/`.pyo` bytecode file, a native extension (`.so`/`.pyd`) or a `.pth` "
        "file in a scanned path. Python can import or run it, but it has no source the receipt can "
        "read, so anything it registers is invisible: a regression by default. Commit the source "
        "instead (and ignore build output), or exclude the path in config if it is vendored data. "
        + _ACCEPT,
    ),
)
_KINDS = (*_KINDS, *_CORVID_KINDS, *_UNSEEN_KINDS)

# The receipt's own trust roots (keyring, template) and the configuration's hygiene.
_TRUST_KINDS: tuple[ChangeKind, ...] = (
    _kind(
        "keyring.key_added",
        "warning",
        "Trusted signing key added",
        "The keyring the configuration names (read by `receipt verify --keyring-from-rev`) lists a "
        "key it did not list before. Once merged, receipts signed by that key verify as genuine, so "
        "whoever holds its private key can vouch for any pull request. Check who owns the key (its "
        "keyid is the subject) and that it was generated for this repository. " + _ACCEPT,
    ),
    _kind(
        "keyring.key_removed",
        "info",
        "Trusted signing key removed",
        "The keyring no longer lists this key: receipts signed by it stop verifying once this is "
        "merged (the usual end of a key rotation). Informational; nothing to do unless the key is "
        "still in use.",
    ),
    _kind(
        "keyring.invalid",
        "warning",
        "Keyring cannot be read",
        "The keyring file changed and can no longer be parsed (not JSON, a malformed entry, a keyid "
        "that does not match its key), so the receipt cannot list which keys it would trust. Fix "
        "the file; verification against this revision's keyring fails until then. " + _ACCEPT,
    ),
    _kind(
        "template.changed",
        "warning",
        "Receipt template changed",
        "The markdown template the configuration names for receipts changed. Receipts are rendered "
        "with the base revision's template, so the edit takes effect after merge; a template "
        "decides what reviewers see, so review it for anything it could hide (changes, counts, the "
        "verdict). " + _ACCEPT,
    ),
    _kind(
        "config.unmatched",
        "warning",
        "Configured path or exclude pattern matches nothing",
        "An entry of the configuration's `paths` or `exclude` matches no file at either revision, "
        "usually a typo (`agentz` for `agents`). A `paths` entry that matches nothing scans nothing, "
        "so the receipt would otherwise pass with no changes; an unused `exclude` pattern may be "
        "meant to exclude something else. Fix the entry or remove it.",
    ),
    _kind(
        "config.acceptance_without_expiry",
        "warning",
        "Acceptance without an expiry date",
        "A change in this receipt is accepted by an entry of `accept` that has no `expires` date, "
        "so it would accept this exact change for ever. Add `expires = YYYY-MM-DD` so the "
        "acceptance is reviewed again.",
    ),
    _kind(
        "config.acceptance_outdated",
        "warning",
        "Acceptance written for an older fingerprint",
        "An entry of `accept` matches no change, but it is the fingerprint an older version of "
        "behavior-receipt gave a change in this receipt. Fingerprints now include the subject's "
        "path, so that accepting a change to a tool in one file does not accept the same change "
        "anywhere else. The change is not accepted: replace the old fingerprint with the new one "
        "this row names (after checking it is still the change you meant to accept).",
    ),
)
_KINDS = (*_KINDS, *_TRUST_KINDS)
# Identity and fail-closed kinds (see receipt/identity.py and the fail-closed rule in receipt/diff.py).
_IDENTITY_KINDS: tuple[ChangeKind, ...] = (
    _kind(
        "tool.name_collision",
        "regression",
        "Two tools a client sees under one name",
        "Two different tools are now exposed under the same name on one MCP server, or are both "
        "reachable under one name from one agent. A client calls the name, not the definition: "
        "which one answers (and with which approval, hints and signature) is decided at run time "
        "by registration order, so the receipt cannot vouch for either. Rename one of them or "
        "remove the duplicate. " + _ACCEPT,
    ),
    _kind(
        "agent.name_collision",
        "regression",
        "Two agents an agent sees under one name",
        "One agent can now reach two different agents of the same name (as handoffs or as tools). "
        "A model picks them by name, so which one receives the conversation is decided at run "
        "time. Rename one of them. " + _ACCEPT,
    ),
    _kind(
        "surface.unanalysed_agent_code",
        "regression",
        "Agent code that could not be analysed",
        "A file this change adds or modifies could not be analysed (syntax the analyser cannot "
        "parse, nesting or size beyond its limits, undecodable bytes), and it imports an agent "
        "framework or held exported agents or tools at the base revision. Whatever it defines is "
        "missing from the surface, so the gate fails closed rather than pass a change it could not "
        "see. Make the file parseable (the message names the problem, and the Python version "
        "needed when the syntax is newer than the analyser's), or lower this id's severity in the "
        "base revision's configuration if the file holds no agent code. " + _ACCEPT,
    ),
)
_KINDS = (*_KINDS, *_IDENTITY_KINDS)

_KINDS = (
    *_KINDS,
    _kind(
        "text.injection_pattern",
        "regression",
        "Words the model reads gained an injection pattern",
        "Text added to a tool description, an agent's instructions or a prompt matches one of the "
        "injection rules (receipt/injection.py): hidden directives to the model, secrecy towards the "
        "user, credential or key paths, exfiltration URLs, invisible or bidirectional Unicode, encoded "
        "blobs, or redirection of other tools (that one and hidden-directive tags are read in "
        "descriptions only: an agent's instructions are its author's own words to the model, which "
        "prompt guides tell authors to structure with tags and to steer between tools). The model "
        "obeys this text, so it can make an agent leak "
        "data or act against its user with no code change at all (tool poisoning, OWASP MCP03). Read the "
        "text diff in the receipt; remove the text, or, if it is legitimate, accept the fingerprint. " + _ACCEPT,
    ),
)

CATALOGUE: dict[str, ChangeKind] = {k.id: k for k in sorted(_KINDS, key=lambda k: k.id)}
assert len(CATALOGUE) == len(_KINDS), "duplicate change id in the catalogue"


def ids() -> list[str]:
    return sorted(CATALOGUE)


def suggest(id: str) -> str | None:
    """The closest known id, for "did you mean" hints on typos."""
    close = difflib.get_close_matches(id, ids(), n=1, cutoff=0.6)
    return close[0] if close else None


def get(id: str) -> ChangeKind:
    try:
        return CATALOGUE[id]
    except KeyError:
        close = difflib.get_close_matches(id, ids(), n=3, cutoff=0.6)
        mean = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise UsageError(f"unknown change id {id!r}{mean} (`receipt explain` lists all {len(CATALOGUE)})") from None


def explain(id: str) -> str:
    """The text of `receipt explain ID`: id, default severity, title, then the wrapped explanation.

    No trailing newline: the CLI's echo adds it.
    """
    kind = get(id)
    body = textwrap.fill(kind.explanation, width=88, break_on_hyphens=False)
    return f"{kind.id}\ndefault severity: {kind.default_severity}\n{kind.title}\n\n{body}"

"""The accuracy corpus: load cases, run each through the real pipeline, score against expectations.

A case is a directory `corpus/<framework>/<case>/` holding `before/` and `after/` (two complete
project trees) and `expected.json`. It is run the way a user runs the tool: a real git repository
with one commit per tree, then `build_receipt(repo, "HEAD~1", "HEAD")`.

A change is compared as the tuple (id, subject kind, subject name, severity), as a multiset: the
same finding twice where one was expected is a false positive. Shared by the pytest runner
(tests/accuracy/test_accuracy.py) and the report (benchmarks/accuracy_report.py).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple

from receipt.pipeline import build_receipt
from tests.helpers import GitRepoBuilder

CORPUS = Path(__file__).resolve().parent / "corpus"
_SEVERITIES = ("regression", "warning", "info")


class Finding(NamedTuple):
    id: str
    kind: str
    name: str
    severity: str

    def __str__(self) -> str:
        return f"{self.id} {self.kind} '{self.name}' [{self.severity}]"


@dataclass(frozen=True)
class Case:
    framework: str
    name: str
    path: Path
    description: str
    expected: tuple[Finding, ...]
    xfail: str | None = None  # a known defect, named exactly; the runner expects this case to fail

    @property
    def id(self) -> str:
        return f"{self.framework}/{self.name}"


@dataclass
class Outcome:
    case: Case
    produced: tuple[Finding, ...]
    messages: tuple[str, ...] = ()  # the produced changes' messages, for the report
    tp: Counter[Finding] = field(default_factory=Counter)
    fp: Counter[Finding] = field(default_factory=Counter)  # produced, not expected
    fn: Counter[Finding] = field(default_factory=Counter)  # expected, not produced

    @property
    def exact(self) -> bool:
        return not self.fp and not self.fn

    def mismatch(self) -> str:
        lines = [f"{self.case.id}: {self.case.description}"]
        lines += [f"  missing:    {f}" for f in sorted(self.fn.elements())]
        lines += [f"  unexpected: {f}" for f in sorted(self.fp.elements())]
        return "\n".join(lines)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _finding(raw: dict[str, str], where: Path) -> Finding:
    missing = {"id", "kind", "name", "severity"} - raw.keys()
    if missing or raw["severity"] not in _SEVERITIES:
        raise ValueError(f"{where}: bad expected change {raw!r} (needs id, kind, name, severity)")
    return Finding(raw["id"], raw["kind"], raw["name"], raw["severity"])


def load_case(path: Path) -> Case:
    spec = json.loads((path / "expected.json").read_text(encoding="utf-8"))
    for side in ("before", "after"):
        if not (path / side).is_dir():
            raise ValueError(f"{path}: missing {side}/")
    where = path / "expected.json"
    return Case(
        framework=path.parent.name,
        name=path.name,
        path=path,
        description=spec["description"],
        expected=tuple(sorted(_finding(c, where) for c in spec["changes"])),
        xfail=spec.get("xfail"),
    )


def load_cases(root: Path = CORPUS) -> list[Case]:
    return [load_case(p.parent) for p in sorted(root.glob("*/*/expected.json"))]


def produce(case: Case, workdir: Path) -> tuple[list[Finding], list[str]]:
    """Commit before/ then after/ into a fresh repository under `workdir`; the receipt's findings."""
    before, after = _tree(case.path / "before"), _tree(case.path / "after")
    repo = GitRepoBuilder(workdir)
    repo.commit(before, f"{case.name}: before")
    repo.commit({**{p: None for p in before.keys() - after.keys()}, **after}, f"{case.name}: after")
    receipt = build_receipt(repo.path, "HEAD~1", "HEAD")
    findings = [Finding(c.id, c.subject.kind, c.subject.name, c.severity) for c in receipt.changes]
    return findings, [c.message for c in receipt.changes]


def score(case: Case, produced: Iterable[Finding], messages: Iterable[str] = ()) -> Outcome:
    got, want = Counter(produced), Counter(case.expected)
    return Outcome(
        case=case,
        produced=tuple(sorted(got.elements())),
        messages=tuple(messages),
        tp=got & want,
        fp=got - want,
        fn=want - got,
    )


def run_case(case: Case, workdir: Path) -> Outcome:
    produced, messages = produce(case, workdir)
    return score(case, produced, messages)


@dataclass
class Totals:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, o: Outcome) -> None:
        self.tp += sum(o.tp.values())
        self.fp += sum(o.fp.values())
        self.fn += sum(o.fn.values())

    @property
    def precision(self) -> float:
        # No findings at all on a corpus of no-change cases is perfectly precise.
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def totals(outcomes: Iterable[Outcome]) -> Totals:
    t = Totals()
    for o in outcomes:
        t.add(o)
    return t

"""Accuracy of the whole pipeline on a corpus of realistic before/after projects.

Each case in tests/accuracy/corpus is a small project in one framework's idiom, changed in one way
a real pull request would change it, with the exact change list a reviewer should see. The corpus
test scores every case (precision and recall over all findings) and fails below 100%, listing every
mismatch; one parametrised test per case names the case that broke. See README.md to add a case.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest

from tests.accuracy.harness import Case, Finding, Outcome, load_cases, run_case, score, totals

CASES = load_cases()


class _Outcomes(dict):  # type: ignore[type-arg]
    """case id -> Outcome, each case run on first use so per-case tests and the total share runs."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def __missing__(self, case_id: str) -> Outcome:
        case = next(c for c in CASES if c.id == case_id)
        outcome = self[case_id] = run_case(case, self.root / case.framework / case.name)
        return outcome

    def run_all(self, cases: list[Case]) -> list[Outcome]:
        """Run the cases not run yet, a few at a time: most of a case's time is spent waiting on git."""
        todo = [c for c in cases if c.id not in self]
        with ThreadPoolExecutor(max_workers=4) as pool:
            for case, outcome in zip(todo, pool.map(lambda c: run_case(c, self.root / c.framework / c.name), todo)):
                self[case.id] = outcome
        return [self[c.id] for c in cases]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Outcomes]:
    root = tmp_path_factory.mktemp("accuracy")
    saved = os.environ.get("RECEIPT_CACHE_DIR")
    os.environ["RECEIPT_CACHE_DIR"] = str(root / "cache")  # one facts cache for the whole run
    try:
        yield _Outcomes(root)
    finally:
        if saved is None:
            os.environ.pop("RECEIPT_CACHE_DIR", None)
        else:
            os.environ["RECEIPT_CACHE_DIR"] = saved


def test_corpus_is_big_enough_and_covers_every_framework() -> None:
    frameworks = {c.framework for c in CASES}
    assert len(CASES) >= 60, len(CASES)
    assert {"markers", "mcp", "fastmcp", "openai_agents", "pydantic_ai", "langchain", "crewai", "google_adk", "smolagents", "corvid"} <= frameworks
    # Quiet refactors are half the point: the receipt must not cry wolf on them.
    for fw in sorted(frameworks):
        assert any(not c.expected for c in CASES if c.framework == fw), f"{fw}: no no-change case"


def test_scoring_is_a_multiset_comparison() -> None:
    case = next(c for c in CASES if len(c.expected) >= 2)
    first, *rest = case.expected
    extra = Finding("tool.added", "tool", "not-expected", "info")
    o = score(case, [first, first, extra])  # one expected finding twice, the others missing, one extra
    assert sum(o.tp.values()) == 1 and sum(o.fn.values()) == len(rest)
    assert o.fp == {first: 1, extra: 1} and not o.exact
    t = totals([o])
    assert t.precision == 1 / 3 and t.recall == 1 / len(case.expected)


def test_precision_and_recall_are_total(outcomes: _Outcomes) -> None:
    scored = outcomes.run_all([c for c in CASES if c.xfail is None])
    t = totals(scored)
    report = "\n".join(o.mismatch() for o in scored if not o.exact)
    summary = f"precision {t.precision:.3f} recall {t.recall:.3f} (tp={t.tp} fp={t.fp} fn={t.fn})"
    print(f"accuracy over {len(scored)} cases: {summary}")
    assert t.precision == 1.0 and t.recall == 1.0, f"{summary}\n{report}"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [])
        for c in CASES
    ],
)
def test_case(case: Case, outcomes: _Outcomes) -> None:
    outcome = outcomes[case.id]
    assert outcome.exact, outcome.mismatch()

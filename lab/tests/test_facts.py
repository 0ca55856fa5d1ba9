"""The invented fact sheets (rt4chart_lab.contrastive.facts): fast, no model."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from rt4chart_lab.contrastive.facts import TEMPLATES, World, fact_examples

PAIRS = Path(__file__).resolve().parents[1] / "rt4chart_lab" / "data" / "pairs.jsonl"


@pytest.fixture(scope="module")
def sheets():
    return fact_examples(320, seed=3)


def test_every_template_gives_a_faithful_statement_and_a_twin() -> None:
    for name, template in TEMPLATES.items():
        for k in range(20):
            rng = random.Random(f"{name}{k}")
            deciding, statements = template(rng, World(rng))
            labels = [label for _, label in statements]
            assert deciding and all(s.endswith(".") for s in deciding), name
            assert "ENT" in labels and set(labels) - {"ENT"}, name
            claims = [claim for claim, _ in statements]
            assert len(set(claims)) == len(claims), (name, claims)  # no claim under two labels


def test_sheets_are_reproducible_and_grouped(sheets) -> None:
    assert fact_examples(320, seed=3) == sheets
    assert fact_examples(320, seed=4) != sheets
    by_group = defaultdict(set)
    for ex in sheets:
        by_group[ex.group].add(ex.context)
    assert len(by_group) == 320
    assert all(len(contexts) == 1 for contexts in by_group.values())  # twins share one context
    assert Counter(ex.source for ex in sheets).keys() == {f"facts/{n}" for n in TEMPLATES}


def test_no_unfaithful_statement_stands_in_its_context(sheets) -> None:
    for ex in sheets:
        if ex.label != "ENT":
            assert ex.claim not in ex.context  # an unfaithful statement never appears verbatim


def test_contexts_hold_distractors(sheets) -> None:
    assert min(ex.context.count(". ") for ex in sheets) >= 2


def test_no_statement_is_taken_from_the_minimal_pairs_dev_set(sheets) -> None:
    dev = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    answers = {d["answer"].strip().lower() for d in dev}
    contexts = {d["context"].strip().lower() for d in dev}
    for ex in sheets:
        assert ex.claim.strip().lower() not in answers
        assert ex.context.strip().lower() not in contexts

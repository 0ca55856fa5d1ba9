"""Cost that grows with the input, not with a product of its parts: counted, not timed.

Each test counts work that a quadratic reading would repeat (characters a regular expression
scans, Python calls made, passes over the input rows) at two sizes, so that it holds on any
machine and under any load. The times themselves are the scale benchmark's
(``rt4chart bench-scale``, docs/reliability.md).
"""

from __future__ import annotations

import json
import random
import sys

from rt4chart_plugins.rules import quantities as quantities_module
from rt4chart_plugins.rules.contrast import Contrasts
from rt4chart_plugins.rules.facts import KnownFacts, unsupported_facts
from rt4chart_plugins.judges.trained.premise import Premises


class _Scanned:
    """A compiled pattern that counts the characters its calls may scan."""

    def __init__(self, pattern):
        self.pattern, self.chars = pattern, 0

    def _count(self, string: str, pos: int = 0, endpos: int | None = None) -> tuple[int, int]:
        end = len(string) if endpos is None else min(endpos, len(string))
        self.chars += max(end - pos, 0)
        return pos, end

    def findall(self, string, pos=0, endpos=None):
        return self.pattern.findall(string, *self._count(string, pos, endpos))

    def finditer(self, string, pos=0, endpos=None):
        return self.pattern.finditer(string, *self._count(string, pos, endpos))

    def match(self, string, pos=0, endpos=None):
        return self.pattern.match(string, *self._count(string, pos, endpos))


def _scanned_for(numbers: int, monkeypatch) -> int:
    scanned = _Scanned(quantities_module._WORD)
    monkeypatch.setattr(quantities_module, "_WORD", scanned)
    assert unsupported_facts("It is 12 km long.", json.dumps({"a": [1] * numbers})) == ["12"]
    return scanned.chars


def test_the_fact_check_reads_a_context_of_many_numbers_once(monkeypatch):
    """16,000 numbers took 18 s: each number read the whole text before it for the word it counts."""
    assert _scanned_for(8000, monkeypatch) < 2.5 * _scanned_for(4000, monkeypatch)  # the quadratic reading: 4 times


def _calls(work) -> int:
    """Python and C calls made by ``work()`` in this thread."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def _text(sentences: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{i}x" for i in range(40 * sentences)]
    return [" ".join(rng.sample(vocab, 8)).capitalize() + f" is {rng.randint(2, 999)}." for _ in range(sentences)]


def _per_claim_calls(sentences: int, claims: int = 20) -> int:
    """The calls that the trained judge and the pipeline's rules make for each claim of an answer
    against one context, once the context has been read: its premise, its contrast, its facts."""
    context = _text(sentences, 0)
    answer = [s.replace(" is ", " is 1") for s in context[:claims]]
    premises = Premises(context, [12] * len(context), 120)
    contrasts, known = Contrasts(context), KnownFacts("\n".join(context))
    contrasts.amounts(), known.amounts()  # what a context's first claim reads once

    def work():
        for claim in answer:
            premises.pick(claim)
            contrasts.find(claim)
            known.missing(claim)
    return _calls(work)


def test_a_claim_costs_the_sentences_that_share_its_words_not_every_sentence():
    """Every claim was compared with every context sentence: a 1 MB context with a 500-sentence
    answer did not finish in 20 minutes. A claim's work must not grow with context sentences that
    share none of its words."""
    small, large = _per_claim_calls(300), _per_claim_calls(3000)
    assert large < 2 * small, (small, large)  # comparing with every sentence: 10 times


def _record_finds(n: int, monkeypatch) -> int:
    from rt4chart_plugins.pipeline.segment import segment_context
    from rt4chart_plugins.rules.records import fields
    from rt4chart_plugins.rules.records.checks import RecordChecks

    calls = 0
    find = fields._find

    def counted(words, tokens):
        nonlocal calls
        calls += 1
        return find(words, tokens)

    monkeypatch.setattr(fields, "_find", counted)
    words = ["".join(chr(97 + (i // 26 ** k) % 26) for k in range(3)) + "x" for i in range(n)]  # aaax, baax…
    record = {f"Has{w.capitalize()}": str(i % 2 == 1) for i, w in enumerate(words)}
    record |= {f"note{i}": f"a {w} here" for i, w in enumerate(words)}  # each name in one short field
    checks = RecordChecks([s.text for s in segment_context(json.dumps(record))])
    for claim in (f"It has {words[1]} and no {words[2]}.", "It does not offer delivery."):
        checks.read(claim)
    return calls


def test_a_records_yes_no_fields_cost_the_fields_naming_them_not_every_field(monkeypatch):
    """Each "no" field was looked for in every other short field, and each claim in every field:
    a record of 2,000 yes/no fields among 2,000 short ones took 11 s."""
    assert _record_finds(800, monkeypatch) < 6 * _record_finds(200, monkeypatch)  # every pair: 16 times

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
    contrasts.amounts(), known.amounts(), premises.restated(answer[0])  # what a context's first claim reads once

    def work():
        for claim in answer:
            premises.restated(claim)
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


def _pair_pieces(words: int) -> int:
    """Encodings the trained judge's tokenizer makes for one pair of unpunctuated sentences, the
    premise twice as long as the claim."""
    from rt4chart_plugins.judges.trained import encoder

    tok = encoder.load_tokenizer(encoder.ARTIFACT_DIR / encoder.TOKENIZER_FILE, 160)
    claim, premise = " ".join(f"w{i}" for i in range(words)), " ".join(f"w{i}" for i in range(2 * words))
    (pair,) = encoder._encoded(tok, [claim], [premise])
    assert len(pair.ids) == 160
    return 1 + len(pair.overflowing)


def test_a_long_unpunctuated_sentence_costs_what_the_encoder_reads_of_it():
    """A pair is read at 160 tokens, but the tokenizer paired every cut-off piece of the claim with
    every piece of the premise: 3,000 words against 6,000 took 3.9 GB. Past 160 tokens a pair's
    cost must stay flat (the memory it takes: docs/reliability.md)."""
    assert _pair_pieces(1000) == _pair_pieces(300)  # the pieces' product: 3,198 against 242


def test_cutting_a_long_side_keeps_the_tokens_a_pair_reads():
    """The cut that bounds a pair's cost must not change one token of what the encoder reads: the
    same ids as encoding the whole texts, on text whose characters become several tokens each,
    one token each, or none (accents, Hangul, CJK, controls, words too long for a word piece)."""
    from rt4chart_plugins.judges.trained import encoder

    tok = encoder.load_tokenizer(encoder.ARTIFACT_DIR / encoder.TOKENIZER_FILE, 160)
    rng = random.Random(7)
    parts = ["café", "naïve", "한국어", "中文字", "x" * 120, "re-run", "3.14", "\u0301e", "\t", "…", "ﬁne",
             "Straße", "word", "unbelievably", "😀", "\u200b", "--", "İstanbul"]
    texts = ["".join(rng.choice(parts) + rng.choice(["", " ", ", "]) for _ in range(n)) for n in (5, 40, 150, 400, 900)]
    texts += ["한국" * 300, "w " * 700, "w " * 701]  # few characters but many tokens; sides as long as each other
    pairs = [(a, b) for a in texts for b in texts]
    whole = tok.encode_batch(pairs)
    cut = encoder._encoded(tok, [a for a, _ in pairs], [b for _, b in pairs])
    assert sum(a != b for a, b in zip(pairs, encoder._within_reach(tok, pairs))) >= 9  # the long ones were cut
    for pair, w, c in zip(pairs, whole, cut):
        assert (c.ids, c.type_ids, c.offsets) == (w.ids, w.type_ids, w.offsets), pair

"""Property-based tests of the public API and the CLI batch with the trained judge, over hostile
input: arbitrary unicode (lone surrogates, raw or escaped in JSON, NUL, RTL marks, emoji, line
separators), empty and large strings, lists with empty or non-string passages, non-string types,
valid, invalid and deeply nested JSON, records with text around them, thousands of numbers, bare
numbers as questions, repeated sentences; batch files with integer, repeated and odd ids and a
byte-order mark; and any value of the options.

Invariants: only :class:`InvalidInput` is ever raised; every report serializes and reads back
equal; no NaN or inf; every answer span lies in the answer and every evidence offset in its
passage; every ENT cites a context sentence that exists; the same input gives the same report.
Time is recorded per character (scripts/fuzz.sh prints it), never asserted.
"""

from __future__ import annotations

import json
import math
import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rt4chart_plugins import InvalidInput, Report, Verifier
from rt4chart_plugins.batch import run_batch

SPECIAL = ["\x00", "\ud800", "\udfff", "\u200f", "\u202e", "\u2028", "\u2029", "\x85", "\ufeff", "😀", "👩‍👩‍👧",
           "\r\n", "\t", "...", "!?", ";", "e400", "1e400", "9" * 320, "Dr.", "U.S.", "$3.50", "5 PM", "14 days"]
WORDS = ["The", "trial", "lasts", "14", "days", "Only", "verified", "users", "are", "eligible", "not", "café",
         "Monday", "Paris", "price", "is", "5", "1,000", "twice", "and", "."]

chars = st.characters(exclude_categories=())  # surrogates included
noise = st.text(chars, max_size=60)
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(lambda ws: " ".join(ws) + ".")
prose = st.lists(st.one_of(sentence, noise, st.sampled_from(SPECIAL)), max_size=12).map(" ".join)
repeated = st.tuples(sentence, st.integers(2, 40)).map(lambda t: " ".join([t[0]] * t[1]))
json_value = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | noise | sentence,
                          lambda kids: st.lists(kids, max_size=4) | st.dictionaries(noise, kids, max_size=4),
                          max_leaves=12)
record = st.dictionaries(st.one_of(noise, st.sampled_from(["name", "HasTV", "hours", "Monday", "price"])),
                         json_value, min_size=1, max_size=5)
json_text = st.one_of(
    json_value.map(lambda v: json.dumps(v, ensure_ascii=False)),
    json_value.map(json.dumps),  # lone surrogates escaped ("\\ud800"): decoded, they are lone again
    json_value.map(lambda v: json.dumps(v)[:-1]),  # cut short: invalid
    st.tuples(prose, record.map(json.dumps), prose).map(" ".join),  # a record with text around it
    st.integers(0, 4000).map(lambda n: json.dumps({"a": [1] * n})),  # many numbers
    st.lists(st.integers(0, 10**6), max_size=400).map(lambda ns: " ".join(f"{n} km, {n % 24}:30 or {n}." for n in ns)),
    st.integers(1, 3000).map(lambda d: '{"a": ' * d + '"The trial lasts 14 days."' + "}" * d),
    st.integers(1, 3000).map(lambda d: "[" * d + "]" * d),
)
text = st.one_of(prose, repeated, json_text, noise, st.just(""), st.text(chars, min_size=2000, max_size=6000))
context = st.one_of(text, st.lists(st.one_of(text, st.just("")), max_size=5),
                    st.lists(st.one_of(text, st.integers(), st.none()), min_size=1, max_size=3),
                    st.integers(), st.none(), st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2))
answer = st.one_of(text, prose, st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=2))
question = st.one_of(st.none(), text, st.integers(), st.integers(-5, 30).map(str))  # a bare number: no time of day

VERIFIER = Verifier("trained")
VERIFIER.prepare()  # the model's load is no example's time


def _size(value) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return sum(_size(v) for v in value)
    return 1


def check_report(report: Report, ctx, ans: str) -> None:
    """Every invariant a report must hold (see the module docstring)."""
    back = Report.model_validate_json(report.model_dump_json())
    assert back == report
    if report.state == "failed":  # no score and no verdict: never averaged in as a hallucination
        assert report.score is None and report.hallucinated is None
    else:
        assert report.score is not None and math.isfinite(report.score) and 0.0 <= report.score <= 1.0
    assert report.risk is None or math.isfinite(report.risk)
    assert len(report.answer) == len(ans)
    passages = [ctx] if isinstance(ctx, str) else list(ctx)
    ids = {s.id for s in report.context_sentences}
    for s in report.answer_sentences:
        assert report.answer[s.start:s.end] == s.text
    for s in report.context_sentences:
        assert 0 <= s.start <= s.end <= len(passages[s.passage])
    for c in report.claims:
        for p in (c.probs or {}).values():
            assert math.isfinite(p)
        for span in (c.answer_span, c.phrase_span):
            if span is not None:
                assert report.answer[span.start:span.end] == span.text
        for e in c.evidence:
            assert e.sentence_id in ids
            assert 0 <= e.start <= e.end <= len(passages[e.passage])
        if c.label is not None and c.label.value == "ENT":
            assert c.evidence, f"ENT claim {c.text!r} cites nothing"
    for span in report.unfaithful_spans + report.phrase_spans:
        assert report.answer[span.start:span.end] == span.text


def comparable(report: Report) -> dict:
    return report.model_dump(exclude={"cost": True})


@given(ctx=context, ans=answer, q=question)
def test_the_api_raises_only_invalid_input_and_every_report_holds(ctx, ans, q, fuzz_stats):
    fuzz_stats["examples"] += 1
    started = time.perf_counter()
    try:
        report = VERIFIER.verify(context=ctx, answer=ans, question=q)
    except InvalidInput:
        fuzz_stats["outcomes"]["InvalidInput"] += 1
        return
    seconds = time.perf_counter() - started
    fuzz_stats["seconds"] += seconds
    if seconds > fuzz_stats["max_seconds"]:
        fuzz_stats["max_seconds"] = seconds
        fuzz_stats["slowest"] = repr((ctx, ans, q))[:400]
    chars_in = _size(ctx) + _size(ans) + _size(q)
    fuzz_stats["max_ms_per_char"] = max(fuzz_stats["max_ms_per_char"], 1000 * seconds / max(chars_in, 1))
    fuzz_stats["outcomes"][report.state] += 1
    check_report(report, ctx, ans)
    assert comparable(VERIFIER.verify(context=ctx, answer=ans, question=q)) == comparable(report)


@given(ctx=context, ans=answer)
def test_verify_many_reports_every_row_and_never_raises(ctx, ans, fuzz_stats):
    fuzz_stats["examples"] += 1
    rows = [{"context": ctx, "answer": ans}, {"context": "The trial lasts 14 days.", "answer": "The trial lasts 14 days."}]
    reports = VERIFIER.verify_many(rows)
    assert len(reports) == 2 and reports[1].label.value == "ENT"
    fuzz_stats["outcomes"][reports[0].state] += 1
    Report.model_validate_json(reports[0].model_dump_json())
    if reports[0].state == "failed":
        assert reports[0].error and "\n" not in reports[0].error


row_id = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["1", "2", "line-1", "a"]), st.booleans(),
                   st.floats(allow_nan=False), st.text(chars, max_size=4))  # small pools: repeated ids
line = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda i, a: json.dumps({"id": i, "context": "The trial lasts 14 days.", "answer": a}), row_id, prose)
      .map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.builds(lambda c, a: json.dumps({"context": c, "answer": a}), st.one_of(text, st.integers()), answer).map(str.encode),
    st.builds(lambda c, a: json.dumps({"context": c, "answer": a}, ensure_ascii=False), prose, prose)
      .map(lambda s: s.encode("utf-8", "surrogatepass")),
)


@given(lines=st.lists(line, min_size=1, max_size=6), bom=st.booleans())
def test_the_cli_batch_writes_one_row_per_input_line(lines, bom, tmp_path_factory, fuzz_stats):
    fuzz_stats["examples"] += 1
    folder = tmp_path_factory.mktemp("batch")
    inp, out = folder / "in.jsonl", folder / "out.jsonl"
    inp.write_bytes(b"\xef\xbb\xbf" * bom + b"\n".join(lines) + b"\n")
    # a byte-order mark at the start of any line is dropped (docs/output.md, "Ids")
    stripped = [re.sub(b"^(\xef\xbb\xbf)+", b"", raw) for raw in inp.read_bytes().split(b"\n")]
    expected = sum(1 for raw in stripped if raw.strip())
    summary = run_batch(VERIFIER, inp, out, progress=False)
    assert summary.total == expected and summary.ok + summary.failed == expected
    written = [json.loads(x) for x in out.read_bytes().decode("utf-8").split("\n") if x]
    assert len(written) == expected and len({r["id"] for r in written}) == expected
    again = run_batch(VERIFIER, inp, out, progress=False)  # the re-run redoes only the failed rows
    assert again.skipped == summary.ok
    for number, raw in enumerate(stripped, start=1):
        try:
            given_id = json.loads(raw)["id"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(given_id, int) and not isinstance(given_id, bool):  # an integer id is its string
            assert str(given_id) in {r["id"] for r in written} or f"{given_id}@line-{number}" in {r["id"] for r in written}
    fuzz_stats["outcomes"]["rows"] += expected


option = st.one_of(st.integers(-3, 8), st.floats(), st.booleans(), st.none(), st.text(max_size=3))


@given(concurrency=option, max_chars=option, deadline=option, threshold=option)
def test_an_option_is_taken_or_refused_as_invalid_input(concurrency, max_chars, deadline, threshold, fuzz_stats):
    """Whatever an option's value, the API takes it or raises InvalidInput naming it: never another
    error, and never a value taken that a row then trips on."""
    fuzz_stats["examples"] += 1
    try:
        verifier = Verifier("trained", concurrency=concurrency if concurrency is not None else 1,
                            max_context_chars=max_chars if max_chars is not None else 100, deadline=deadline,
                            judge_kwargs={"threshold": threshold})
        reports = verifier.verify_many([{"context": "The trial lasts 14 days.", "answer": "It lasts 14 days."}],
                                       concurrency=concurrency)
    except InvalidInput:
        fuzz_stats["outcomes"]["InvalidInput"] += 1
        return
    fuzz_stats["outcomes"][reports[0].state] += 1
    assert reports[0].state in ("verified", "failed")
    if reports[0].state == "failed":  # only a context over the limit, or a deadline that passed
        assert "characters, over the limit" in reports[0].error or "deadline" in reports[0].error


@pytest.mark.parametrize("ctx,ans", [
    ("The sky is blue.", "The sky \ud800 is blue."),
    ('{"a": ' * 1000 + '"x"' + "}" * 1000, "x is so."),
    ("The price is 5.", "The price is 1e400."),
    ("The price is 5.", "The price is 10000000000000000000000000000."),  # 29 digits: found by the long fuzz run
    (["", "The trial lasts 14 days.", ""], "The trial lasts 14 days. " * 30),
])
def test_known_hostile_inputs_hold_every_invariant(ctx, ans):
    check_report(VERIFIER.verify(context=ctx, answer=ans), ctx, ans)

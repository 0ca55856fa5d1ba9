"""The guard on a streamed answer, framework-free (rt4chart_plugins.guard.stream), on the shipped
default judge: each sentence shown once judged, the same text as ``guard()`` under every policy
(trailers at the end, the answer's whitespace kept), a cut stream, an empty one, a chunk that is
no text."""

from __future__ import annotations

import asyncio
import re

import pytest

from rt4chart_plugins import InvalidInput, Verifier
from rt4chart_plugins.guard.stream import CUT_OFF_MARK, StreamGuard, aguard_stream, guard_stream

CONTEXT = [
    "The free trial lasts 14 days.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Eligible users may request one extension of the trial by 7 days.",
]
#: a plain contradiction between two supported sentences, line breaks and a trailing newline
ANSWER = (
    "The free trial lasts 14 days.\nThe trial lasts 30 days.\n"
    "Verified new users may request one extension of the trial by 7 days.\n"
)


@pytest.fixture(scope="module")
def verifier():
    return Verifier()


def tokens(text: str) -> list[str]:
    """The answer as a model streams it: a word and the whitespace after it."""
    return re.findall(r"\S+\s*", text)


def streamed(verifier, chunks, **options) -> list[str]:
    guard = StreamGuard(passages=CONTEXT, **options)
    return list(guard_stream(chunks, lambda piece: verifier.verify(CONTEXT, piece), guard))


@pytest.mark.parametrize(
    "options",
    [{}, {"cite": True}, {"policy": "flag"}, {"policy": "flag", "quote": False}, {"policy": "refuse"}],
)
def test_the_stream_gives_the_text_guard_gives_under_every_policy(verifier, options):
    assert "".join(tokens(ANSWER)) == ANSWER
    whole = verifier.guard(CONTEXT, ANSWER, **options)
    assert whole.report.label == "CON"  # the 30 days
    out = streamed(verifier, tokens(ANSWER), **options)
    assert "".join(out) == whole.text
    if options.get("policy", "drop") != "refuse":
        assert len(out) >= 2  # it streamed: not one piece at the end


def test_drop_keeps_the_line_breaks_and_the_trailing_newline(verifier):
    out = "".join(streamed(verifier, tokens(ANSWER)))
    assert out == (
        "The free trial lasts 14 days.\nVerified new users may request one extension of the trial by 7 days.\n"
    )


def test_flag_puts_its_quote_after_the_answer_not_after_each_piece(verifier):
    out = streamed(verifier, tokens(ANSWER), policy="flag")
    quote = "[contradicted] The context says:"
    assert quote in out[-1] and not any(quote in piece for piece in out[:-1])
    assert "".join(out).index("by 7 days.") < "".join(out).index(quote)


def test_each_sentence_is_shown_once_judged_before_the_next_is_written(verifier):
    events: list[tuple[str, str]] = []

    def model():
        for token in tokens(ANSWER):
            events.append(("model", token))
            yield token

    guard = StreamGuard(passages=CONTEXT)
    for piece in guard_stream(model(), lambda piece: verifier.verify(CONTEXT, piece), guard):
        events.append(("guard", piece))
    first = next(i for i, e in enumerate(events) if e[0] == "guard")
    assert events[first][1] == "The free trial lasts 14 days."
    # shown as soon as the second sentence began: its first word was the last thing the model wrote
    assert events[first - 1] == ("model", "The ")
    assert [e for e in events[:first] if e[0] == "model"][-2] == ("model", "days.\n")


def test_a_cut_stream_shows_only_what_was_judged_then_the_mark_then_the_error(verifier):
    def model():
        yield from tokens("The free trial lasts 14 days. The trial policy applies to all users, a")
        raise ConnectionError("stream lost")

    guard = StreamGuard(passages=CONTEXT)
    out: list[str] = []
    with pytest.raises(ConnectionError, match="stream lost"):
        for piece in guard_stream(model(), lambda piece: verifier.verify(CONTEXT, piece), guard):
            out.append(piece)
    assert "".join(out) == f"The free trial lasts 14 days. {CUT_OFF_MARK}"
    assert out[-1] == f" {CUT_OFF_MARK}"
    assert guard.result is not None and guard.result.cut_off and "stopped before it ended" in guard.result.notes[-1]

    def ended_then_lost():  # a last sentence that ended is judged, not thrown away
        yield from ["The trial lasts 30 days. ", "The free trial lasts 14 days."]
        raise ConnectionError("stream lost")

    with pytest.raises(ConnectionError):
        out = []
        for piece in guard_stream(
            ended_then_lost(), lambda piece: verifier.verify(CONTEXT, piece), StreamGuard(passages=CONTEXT)
        ):
            out.append(piece)
    assert "".join(out) == f"The free trial lasts 14 days. {CUT_OFF_MARK}"


def test_a_stream_cut_before_any_sentence_ended_shows_the_mark_alone(verifier):
    def model():
        yield "The free trial"
        raise TimeoutError("no more tokens")

    out: list[str] = []
    with pytest.raises(TimeoutError):
        for piece in guard_stream(model(), lambda piece: verifier.verify(CONTEXT, piece), StreamGuard()):
            out.append(piece)
    assert out == [CUT_OFF_MARK]


def test_an_empty_stream_gives_the_refusal_message(verifier):
    for chunks in ([], ["", "  "]):
        out = streamed(verifier, chunks)
        assert out == [StreamGuard().options.message]
    guard = StreamGuard(message="Nothing to say.")
    assert list(guard_stream(iter(()), lambda piece: verifier.verify(CONTEXT, piece), guard)) == ["Nothing to say."]
    assert guard.result is not None and guard.result.status == "refused"


def test_a_chunk_that_is_no_text_is_refused_in_one_line(verifier):
    with pytest.raises(InvalidInput, match="got a chunk of type int") as info:
        streamed(verifier, ["The free trial lasts 14 days. ", 3])
    assert "\n" not in str(info.value)
    with pytest.raises(InvalidInput, match="policy"):
        StreamGuard(policy="block")  # type: ignore[arg-type]


def test_the_async_driver_streams_the_same(verifier):
    async def model():
        for token in tokens(ANSWER):
            await asyncio.sleep(0)
            yield token

    async def run():
        guard = StreamGuard(passages=CONTEXT, policy="flag")
        return [p async for p in aguard_stream(model(), lambda piece: verifier.averify(CONTEXT, piece), guard)]

    out = asyncio.run(run())
    assert len(out) >= 2 and "".join(out) == verifier.guard(CONTEXT, ANSWER, policy="flag").text


def test_a_piece_that_cannot_be_verified_raises_or_passes_the_rest_marked(verifier):
    from rt4chart_plugins import JudgeError
    from rt4chart_plugins.detector import failed_report

    def verify(piece):  # the judge's endpoint goes down after the first sentence
        if piece.startswith("The free trial"):
            return verifier.verify(CONTEXT, piece)
        return failed_report({"answer": piece}, ConnectionError("the judge's endpoint is down"))

    out: list[str] = []
    with pytest.raises(JudgeError, match="endpoint is down"):
        for piece in guard_stream(tokens(ANSWER), verify, StreamGuard(passages=CONTEXT)):
            out.append(piece)
    assert out == ["The free trial lasts 14 days."]  # what was judged stays shown

    guard = StreamGuard(passages=CONTEXT, on_error="pass")
    text = "".join(guard_stream(tokens(ANSWER), verify, guard))
    assert text == ANSWER + "[unverified]"  # nothing unjudged is shown as if it were judged
    assert guard.result is not None and guard.result.status == "unverified"

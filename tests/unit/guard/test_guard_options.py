"""The guard's options are one checked value, with their defaults written once."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard.options import DEFAULT_MESSAGE, GuardOptions


def test_the_defaults_are_the_documented_ones():
    options = GuardOptions()
    assert (options.policy, options.cite, options.on_error) == ("drop", False, "report")
    assert (options.message, options.min_support, options.quote) == (DEFAULT_MESSAGE, 0.5, True)


def test_an_unknown_option_is_refused_naming_the_nearest():
    with pytest.raises(InvalidInput, match=r"'polcy' \(did you mean 'policy'\?\)"):
        GuardOptions.of(polcy="flag")
    with pytest.raises(ValidationError):
        GuardOptions(polcy="flag")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"policy": "hide"}, "unknown guard policy 'hide'"),
        ({"on_error": "ignore"}, "unknown on_error 'ignore'"),
        ({"min_support": 1.5}, "min_support must be a number from 0 to 1"),
        ({"min_support": True}, "min_support must be a number from 0 to 1"),
        ({"message": "  "}, "message .* must be a non-empty string"),
        ({"cite": "yes"}, "cite"),
    ],
)
def test_a_bad_value_is_one_line_in_the_checks_words(options, words):
    with pytest.raises(InvalidInput, match=words) as exc:
        GuardOptions.of(**options)
    assert "\n" not in str(exc.value)


def test_the_options_are_a_value_that_cannot_change():
    options = GuardOptions.of(policy="flag")
    with pytest.raises(ValidationError):
        options.policy = "drop"  # type: ignore[misc]
    assert options.but(quote=False) == GuardOptions(policy="flag", quote=False)
    assert options == GuardOptions.of(policy="flag")


# ---- the options travel whole -------------------------------------------------------------------

CONTEXT = ["The free trial lasts 14 days.", "Eligible users may request one extension of the trial by 7 days."]
ANSWER = "The free trial lasts 14 days. The trial lasts 30 days."


class _Seen:
    """guard_report as it was, recording the options object each call was handed."""

    def __init__(self, monkeypatch, *modules):
        from rt4chart_plugins.guard import policies

        self.options: list[GuardOptions] = []
        real = policies.guard_report

        def spy(report, options=None, **kwargs):
            self.options.append(options)
            return real(report, options, **kwargs)

        for module in modules:
            monkeypatch.setattr(module, "guard_report", spy)


def test_options_given_whole_and_as_keywords_are_not_both_taken():
    from rt4chart_plugins.guard import StreamGuard

    with pytest.raises(InvalidInput, match="not both"):
        StreamGuard(GuardOptions(), policy="flag")
    with pytest.raises(InvalidInput, match="must be a GuardOptions"):
        StreamGuard({"policy": "flag"})  # type: ignore[arg-type]


def test_the_same_options_object_reaches_the_answer_guard_and_the_stream_guard(monkeypatch):
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.guard import run, stream
    from rt4chart_plugins.guard.stream import StreamGuard, guard_stream

    options = GuardOptions(policy="flag", quote=False, on_error="raise")
    seen = _Seen(monkeypatch, run, stream)
    verifier = Verifier()
    whole = verifier.guard(CONTEXT, ANSWER, options=options)
    assert seen.options == [options] and seen.options[0] is options
    assert verifier.guard(CONTEXT, ANSWER, policy="flag", quote=False, on_error="raise").text == whole.text

    seen.options.clear()
    guard = StreamGuard(options, passages=CONTEXT)
    assert guard.options is options
    text = "".join(guard_stream([ANSWER], lambda piece: verifier.verify(CONTEXT, piece), guard))
    assert text == whole.text
    assert seen.options and all(o is options for o in seen.options)


def test_the_langchain_guard_hands_one_options_object_to_each_row_and_stream(monkeypatch):
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartGuard
    from rt4chart_plugins.adapters.langchain import guard as module

    options = GuardOptions(policy="flag", on_error="raise")
    seen = _Seen(monkeypatch, module)
    guard = RT4ChartGuard(guard_options=options)
    assert guard.guard_options is options and guard._stream_guard().options is options
    guard.invoke({"context": CONTEXT, "answer": ANSWER})
    assert seen.options == [options] and seen.options[0] is options
    # the keywords build the same value, with the adapter's own default (raise)
    assert RT4ChartGuard(policy="flag").guard_options == options
    assert RT4ChartGuard(policy="flag").policy == "flag"


def test_the_langchain_guard_reads_each_option_from_the_one_value():
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartGuard

    options = GuardOptions(policy="refuse", cite=True, message="Ask us.", min_support=0.8, quote=False, on_error="pass")
    guard = RT4ChartGuard(guard_options=options)
    read = (guard.policy, guard.cite, guard.message, guard.min_support, guard.quote, guard.on_error)
    assert read == ("refuse", True, "Ask us.", 0.8, False, "pass")
    with pytest.raises(AttributeError):
        guard.policy = "drop"  # read-only: the options are one value, changed whole


def test_an_attribute_forwarded_to_no_option_is_refused_where_it_is_declared():
    from rt4chart_plugins.guard.options import forwarded

    with pytest.raises(AttributeError, match="'polcy'"):
        forwarded("polcy")


def test_the_llama_index_guard_hands_one_options_object_to_each_answer_and_stream(monkeypatch):
    pytest.importorskip("llama_index.core")
    from llama_index.core.base.response.schema import Response
    from llama_index.core.query_engine import CustomQueryEngine
    from llama_index.core.schema import NodeWithScore, TextNode
    from rt4chart_plugins.adapters.llama_index import RT4ChartGuardQueryEngine
    from rt4chart_plugins.adapters.llama_index import guard as module

    nodes = [NodeWithScore(node=TextNode(text=p, id_=f"n{i}"), score=1.0) for i, p in enumerate(CONTEXT)]

    class Fixed(CustomQueryEngine):
        def custom_query(self, query_str: str) -> Response:
            return Response(response=ANSWER, source_nodes=nodes)

    options = GuardOptions(policy="flag", on_error="raise")
    seen = _Seen(monkeypatch, module)
    engine = RT4ChartGuardQueryEngine(Fixed(), guard_options=options)
    assert engine.guard_options is options and engine._stream_guard(nodes).options is options
    engine.query("How long is the trial?")
    assert seen.options == [options] and seen.options[0] is options
    assert RT4ChartGuardQueryEngine(Fixed(), policy="flag").guard_options == options

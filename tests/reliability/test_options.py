"""Bad options, in the API and in the CLI: an :class:`InvalidInput` naming the option, or one line
and exit status 2; never a ``ValueError`` from asyncio, a traceback, or an option taken as given."""

from __future__ import annotations

import json
import math

import pytest
from extras import needs_local

import rt4chart_plugins.cli as cli
from rt4chart_plugins import InvalidInput, Verifier
from rt4chart_plugins.errors import MissingExtra, ModelNotAvailable
from rt4chart_plugins.batch import run_batch

ROWS = [{"context": "The trial lasts 14 days.", "answer": "The trial lasts 14 days."}]


@pytest.mark.parametrize("concurrency", [-1, 0, True, 2.5, "2"])
def test_a_bad_concurrency_is_invalid_input(concurrency, tmp_path):
    with pytest.raises(InvalidInput, match="concurrency"):
        Verifier().verify_many(ROWS, concurrency=concurrency)  # -1 raised ValueError from asyncio
    with pytest.raises(InvalidInput, match="concurrency"):
        Verifier(concurrency=concurrency)
    (tmp_path / "in.jsonl").write_text(json.dumps(ROWS[0]) + "\n")
    with pytest.raises(InvalidInput, match="concurrency"):
        run_batch(Verifier(), tmp_path / "in.jsonl", tmp_path / "out.jsonl", concurrency=concurrency, progress=False)


@pytest.mark.parametrize("options", [{"max_context_chars": -1}, {"max_context_chars": 0}])
def test_a_bad_pipeline_option_is_invalid_input(options):
    with pytest.raises(InvalidInput, match="max_context_chars"):
        Verifier(**options)  # -1 was accepted, and every context then refused


@pytest.mark.parametrize("judge,options", [
    ("openai", {"timeout": -1}), ("openai", {"timeout": 0}), ("openai", {"timeout": math.inf}),
    ("openai", {"max_retries": -1}), ("openai", {"concurrency": 0}), ("openai", {"breaker_after": 0}),
    ("trained", {"threshold": math.nan}), ("trained", {"threads": 0}),
])
def test_a_bad_judge_option_is_one_invalid_input_for_the_call(judge, options):
    if judge == "openai":
        pytest.importorskip("openai")
        options = {**options, "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}
    name = next(k for k in options if k not in ("base_url", "api_key"))
    with pytest.raises(InvalidInput, match=name):
        Verifier(judge, judge_kwargs=options).verify_many(ROWS)
    with pytest.raises(InvalidInput, match=name):
        Verifier(judge, judge_kwargs=options).verify(**ROWS[0])


@pytest.fixture
def files(tmp_path):
    (tmp_path / "in.jsonl").write_text(json.dumps(ROWS[0]) + "\n")
    (tmp_path / "ctx.txt").write_text(ROWS[0]["context"])
    return tmp_path


@pytest.mark.parametrize("args,says", [
    (["verify", "{d}/in.jsonl", "-o", "{d}/out.jsonl", "--concurrency", "-1"], "concurrency"),  # printed a traceback
    (["verify", "{d}/in.jsonl", "-o", "{d}/out.jsonl", "--concurrency", "0"], "concurrency"),  # ran with 4 instead
    (["verify", "{d}/in.jsonl", "-o", "{d}", "-q"], "Is a directory"),  # the output is a folder
    (["verify", "{d}", "-o", "{d}/out.jsonl", "-q"], "Is a directory"),  # the input is a folder
    (["verify", "--context", "{d}/ctx.txt", "--answer", "x", "--threshold", "nan"], "threshold"),
    (["verify", "--context", "{d}/ctx.txt", "--answer", "x", "--judge", "openai", "--timeout", "-1",
      "--base-url", "http://127.0.0.1:9/v1"], "timeout must be"),
    (["verify", "--context", "{d}/ctx.txt", "--answer", "x", "--judge", "openai", "--max-retries", "-1",
      "--base-url", "http://127.0.0.1:9/v1"], "max_retries"),
])
def test_a_bad_option_in_the_cli_is_one_line_and_exit_2(files, args, says, capsys):
    if "openai" in args:
        pytest.importorskip("openai")
    assert cli.main([a.format(d=files) for a in args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rt4chart: ") and err.count("\n") == 1 and says in err


# ---- checked when built means ready to run ----------------------------------------------------


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, text
    return text


def _built(**spec):
    """The same judge built the three ways a detector is: the façade, the factory, the Ray driver."""
    from rt4chart_plugins.runs.spec import DetectorSpec
    from rt4chart_plugins.factory import make_detector

    judge, judge_kwargs, options = spec.get("judge"), spec.get("judge_kwargs"), spec.get("options", {})
    yield lambda: Verifier(judge, judge_kwargs=judge_kwargs, **options)
    yield lambda: make_detector("rt4chart", judge, judge_kwargs=judge_kwargs, **options)
    yield lambda: DetectorSpec.create(judge=judge, judge_kwargs=judge_kwargs or {}, options=options)


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ({"judge": "hf"}, InvalidInput, r"the 'hf' judge needs a model: judge='hf:<model>'"),
        ({"judge": "hf:nobody/none"}, ModelNotAvailable, r"'nobody/none' is not on this machine"),
        ({"judge": "trained", "options": {"decomposition": "llm"}}, InvalidInput, "ignores decomposition='llm'"),
        pytest.param({"judge": "auto", "options": {"decomposition": "llm"}}, InvalidInput,
                     "ignores decomposition='llm'", marks=needs_local),
        pytest.param({"judge": "local", "options": {"decomposition": "llm"}}, InvalidInput,
                     "ignores decomposition='llm'", marks=needs_local),
        (
            {"judge": "openai", "judge_kwargs": {"base_url": "http://127.0.0.1:9/v1", "read": "premise"},
             "options": {"decomposition": "llm"}},
            InvalidInput,
            "ignores decomposition='llm'",
        ),
        ({"judge": "trained", "judge_kwargs": {"artifact_dir": "/no/such"}}, ModelNotAvailable, "does not exist"),
        ({"judge": "local", "judge_kwargs": {"model_path": "/no/such.gguf"}}, ModelNotAvailable, "does not exist"),
        (
            {"judge": "auto", "judge_kwargs": {"trained": {"artifact_dir": "/no/such"}}},
            ModelNotAvailable,
            "'trained' judge's artifact_dir /no/such does not exist",
        ),
    ],
)
def test_a_judge_that_could_not_run_fails_when_built_in_one_line_everywhere(spec, error, words, tmp_path, monkeypatch):
    """``Verifier("hf")``, ``Verifier("hf:nobody/none")`` and ``DetectorSpec.create(judge="hf")``
    built before and failed at the first row (every Ray actor); ``Verifier("trained",
    decomposition="llm")`` built and recorded ``llm`` while it judged clauses."""
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    for build in _built(**spec):
        with pytest.raises(error, match=words) as exc:
            build()
        _one_line(exc.value)


def test_an_artifact_folder_without_its_files_is_refused_naming_them(tmp_path):
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(ModelNotAvailable, match=r"holds no model.onnx, tokenizer.json") as exc:
        Verifier("trained", judge_kwargs={"artifact_dir": str(tmp_path)})
    _one_line(exc.value)


def test_a_missing_extra_fails_when_built_naming_the_extra(monkeypatch):
    import importlib.util

    from rt4chart_plugins.judges import ready

    real = importlib.util.find_spec
    monkeypatch.setattr(ready.importlib.util, "find_spec", lambda name, *a: None if name == "openai" else real(name, *a))
    for build in _built(judge="openai", judge_kwargs={"base_url": "http://127.0.0.1:9/v1"}):
        with pytest.raises(MissingExtra, match=r'rt4chart-plugins\[openai\]') as exc:
            build()
        _one_line(exc.value)


@needs_local
def test_what_a_judge_honours_is_still_taken():
    assert Verifier("local", judge_kwargs={"read": "window"}, decomposition="llm").config.decomposition == "llm"
    served = {"base_url": "http://127.0.0.1:9/v1"}
    assert Verifier("openai", judge_kwargs=served, decomposition="llm").config.decomposition == "llm"
    assert Verifier("trained", decomposition="sentence").config.decomposition == "sentence"
    assert Verifier().config.decomposition == "clauses"


def test_a_judge_given_as_is_that_reads_only_clauses_refuses_llm_and_defaults_to_clauses():
    from rt4chart_plugins.judges.trained import TrainedJudge

    assert Verifier(TrainedJudge()).config.decomposition == "clauses"
    with pytest.raises(InvalidInput, match="ignores decomposition='llm'"):
        Verifier(TrainedJudge(), decomposition="llm")


def test_the_checked_choice_is_kept_and_the_registry_entered_once(monkeypatch):
    """The choice was thrown away at construction and rebuilt at the first row: checked twice
    (three times through the Ray driver), and a model folder read again."""
    from rt4chart_plugins.judges import registry

    calls: list[str] = []
    real = registry.check_ready
    monkeypatch.setattr(registry, "check_ready", lambda found, options: (calls.append(found.name), real(found, options)))
    verifier = Verifier("trained")
    assert calls == ["trained"]
    verifier.verify(context="The trial lasts 14 days.", answer="The trial lasts 14 days.")
    assert calls == ["trained"] and verifier.judge is verifier.judge


@pytest.mark.parametrize(
    ("judge", "judge_kwargs"),
    [
        ("trained", {}),
        pytest.param("auto", {}, marks=needs_local),
        pytest.param("local", {}, marks=needs_local),
        pytest.param("local", {"read": "window"}, marks=needs_local),
        ("openai", {"base_url": "http://127.0.0.1:9/v1"}),
        ("openai", {"base_url": "http://127.0.0.1:9/v1", "read": "premise"}),
    ],
)
def test_the_registry_refuses_llm_exactly_for_the_judges_that_would_read_clauses_instead(judge, judge_kwargs):
    """The entry's ``ignores`` is read before the judge is built; the built judge's
    ``clause_claims`` is what the pipeline then does. They must say the same."""
    from rt4chart_plugins.judges.registry import choose

    choice = choose(judge, judge_kwargs)
    try:
        choose(judge, judge_kwargs, pipeline={"decomposition": "llm"})
        refused = False
    except InvalidInput:
        refused = True
    assert refused == choice.build().clause_claims

"""Bad options, in the API and in the CLI: an :class:`InvalidInput` naming the option, or one line
and exit status 2; never a ``ValueError`` from asyncio, a traceback, or an option taken as given."""

from __future__ import annotations

import json
import math

import pytest

import rt4chart_plugins.cli as cli
from rt4chart_plugins import InvalidInput, Verifier
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

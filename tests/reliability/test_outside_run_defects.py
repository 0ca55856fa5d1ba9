"""Defects of the outside fuzz and fault run that are not the chat judge's: a threshold out of its
range, a batch resume that took a broken line as done, a cache file of another layout, the openai
judge with no key, and hf judges that failed only at their first row. Each reproducer is the run's."""

from __future__ import annotations

import json
import math
import sqlite3
import time
import warnings

import pytest

from rt4chart_plugins import InvalidInput, Verifier
from rt4chart_plugins.batch import run_batch
from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.registry import choose

ROWS = [{"id": "r1", "context": "The trial lasts 14 days.", "answer": "The trial lasts 14 days."},
        {"id": "r2", "context": "The trial lasts 14 days.", "answer": "The trial lasts 30 days."}]


# --- defect 2: a threshold outside [0, 1] ---------------------------------------------------------


@pytest.mark.parametrize("threshold", [-1, -0.01, 1.5, 2, math.inf, math.nan])
@pytest.mark.parametrize("judge,option", [("trained", "threshold"), ("auto", "gate_threshold"),
                                          ("local", "support_threshold"), ("local", "conflict_threshold")])
def test_a_threshold_outside_0_1_is_refused_when_the_verifier_is_built_naming_the_range(judge, option, threshold):
    """-1 made every claim ENT, even at P(ENT) = 0; 1.5 made every claim NIC."""
    with pytest.raises(InvalidInput, match=rf"{option}.*\[0, 1\]"):
        Verifier(judge, judge_kwargs={option: threshold})


@pytest.mark.parametrize("threshold", [-1, 1.5, math.nan])
def test_the_trained_judge_itself_refuses_a_threshold_outside_0_1(threshold):
    from rt4chart_plugins.judges.trained import TrainedJudge

    with pytest.raises(InvalidInput, match=r"threshold must be a number in \[0, 1\]"):
        TrainedJudge(threshold=threshold)
    assert TrainedJudge(threshold=0).threshold == 0 and TrainedJudge(threshold=1).threshold == 1


# --- defect 3: a batch resume counted a broken line as done --------------------------------------


def test_a_resumed_batch_scores_again_a_line_marked_ok_that_holds_no_report(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    first = run_batch(Verifier(), inp, out, progress=False)
    assert first.ok == 2
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    broken = {k: v for k, v in lines[1].items() if k != "report"}  # "ok": true, its fingerprint, no report
    assert broken["ok"] is True
    out.write_text(json.dumps(lines[0]) + "\n" + json.dumps(broken) + "\n")
    again = run_batch(Verifier(), inp, out, progress=False)
    assert (again.skipped, again.ok) == (1, 1)
    final = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in final] == ["r1", "r2"]
    assert all(r["ok"] and r["report"] and r["report"]["claims"] for r in final)


# --- defect 10: a cache file of another layout, or a view, turned the cache off silently --------


@pytest.mark.parametrize("layout", [
    "CREATE TABLE cache (k TEXT, v TEXT)",
    "CREATE TABLE other (key TEXT PRIMARY KEY, value TEXT); CREATE VIEW cache AS SELECT * FROM other",
    "CREATE TABLE cache (key TEXT, value TEXT, extra TEXT)",
], ids=["other columns", "a view", "an extra column"])
def test_a_cache_file_of_another_layout_is_moved_aside_with_a_warning_and_the_cache_works(tmp_path, layout):
    path = tmp_path / "judge-cache.sqlite"
    db = sqlite3.connect(path)
    db.executescript(layout)
    db.commit()
    db.close()
    with pytest.warns(RuntimeWarning, match="is not a judge cache.*moved to judge-cache.sqlite.corrupt-"):
        cache = JudgeCache(path)
    cache.put("k", {"verdicts": []})
    assert cache.get("k") == {"verdicts": []}
    cache.close()
    assert any(p.name.startswith("judge-cache.sqlite.corrupt-") for p in tmp_path.iterdir())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new file is this cache's own: opened without a word
        assert JudgeCache(path).get("k") == {"verdicts": []}


# --- issue 59: the openai judge with no key -------------------------------------------------------


def test_the_openai_judge_without_a_key_fails_at_once_naming_the_key_and_the_flag(monkeypatch):
    pytest.importorskip("openai")
    from rt4chart_plugins.judges.openai_compat import OpenAIJudge

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    started = time.monotonic()
    with pytest.raises(InvalidInput, match="OPENAI_API_KEY.*--api-key"):
        Verifier("openai")
    with pytest.raises(InvalidInput, match="OPENAI_API_KEY.*--api-key"):
        OpenAIJudge("gpt-4o-mini")
    assert time.monotonic() - started < 5
    # a key, or a server of one's own, is enough
    assert choose("openai", {"api_key": "k"}) and choose("openai", {"base_url": "http://127.0.0.1:9/v1"})
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert choose("openai")


def test_the_cli_without_a_key_says_it_in_one_line(monkeypatch, tmp_path, capsys):
    pytest.importorskip("openai")
    import rt4chart_plugins.cli as cli

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    (tmp_path / "ctx.txt").write_text("The trial lasts 14 days.")
    assert cli.main(["verify", "--context", str(tmp_path / "ctx.txt"), "--answer", "a", "--judge", "openai"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "OPENAI_API_KEY" in err and "--api-key" in err


# --- defects 4 and 5: hf misconfigurations, when the verifier is built, in one line --------------


@pytest.fixture(scope="module")
def nli(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from rt4chart_lab.hf_toy import build_model

    path = tmp_path_factory.mktemp("hf") / "bert"
    build_model(path, "bert", texts=["The trial lasts 14 days."],
                id2label={0: "entailment", 1: "neutral", 2: "contradiction"})
    return path


def _copy(src, dst, drop=()):
    import shutil

    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(*drop))
    return dst


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and "Traceback" not in text, text
    return text


def test_hf_without_a_model_or_with_a_bad_folder_fails_when_built(tmp_path, monkeypatch):
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    with pytest.raises(InvalidInput, match="needs a model") as nameless:
        Verifier("hf")
    _one_line(nameless.value)
    with pytest.raises(ModelNotAvailable, match="does not exist") as bad:
        Verifier("hf:/bad/dir")
    _one_line(bad.value)


def test_hf_with_a_runtime_that_does_not_exist_fails_when_built(nli):
    with pytest.raises(InvalidInput, match="runtime.*'tpu'") as exc:
        Verifier(f"hf:{nli}", judge_kwargs={"runtime": "tpu"})
    _one_line(exc.value)


@pytest.mark.parametrize("damage", ["cut", "garbage"])
def test_hf_with_corrupt_weights_fails_when_built_in_one_line(nli, tmp_path, damage):
    """A raw SafetensorError at the first row before."""
    folder = _copy(nli, tmp_path / "m")
    weights = folder / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2] if damage == "cut" else b"\x00garbage" * 100)
    with pytest.raises(ModelNotAvailable, match="model.safetensors is damaged") as exc:
        Verifier(f"hf:{folder}")
    _one_line(exc.value)


def test_hf_with_no_tokenizer_fails_when_built_in_one_line(nli, tmp_path):
    """``TypeError: stat: path should be string…`` at the first row before."""
    folder = _copy(nli, tmp_path / "m", drop=("tokenizer*", "vocab*", "special_tokens_map.json"))
    with pytest.raises(ModelNotAvailable, match="holds no tokenizer") as exc:
        Verifier(f"hf:{folder}")
    _one_line(exc.value)


def test_a_seq2seq_verifier_whose_tokenizer_names_token_type_ids_is_read(tmp_path):
    """``TypeError: forward() got an unexpected keyword argument 'token_type_ids'`` before: only
    the inputs the model's forward takes are passed."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from rt4chart_lab.hf_toy import build_model

    folder = tmp_path / "t5"
    build_model(folder, "t5", texts=["The trial lasts 14 days."])
    config = json.loads((folder / "tokenizer_config.json").read_text())
    config["model_input_names"] = ["input_ids", "token_type_ids", "attention_mask"]
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    report = Verifier(f"hf:{folder}").verify(context="The trial lasts 14 days.", answer="The trial lasts 14 days.")
    assert report.state == "verified", report.error

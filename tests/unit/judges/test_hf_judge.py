"""The Hugging Face judge (``judge="hf:…"``) on real transformers models of real architectures
(a 2-layer BERT, DeBERTa-v2 and ModernBERT, a tiny T5) with random weights and a word-level tokenizer,
built here with ``save_pretrained`` (lab/rt4chart_lab/hf_toy.py): nothing is downloaded.

A classifier's verdict is made readable by raising one class's output bias (``favour``), so that
what the judge says shows which class it read as what. Skipped where torch and transformers are
not installed (the ``[hf]`` extra); the ONNX judge itself needs neither.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from rt4chart_plugins import InvalidInput, ModelNotAvailable, Verifier, make_judge  # noqa: E402
from rt4chart_plugins.cli import main  # noqa: E402
from rt4chart_plugins.judges.hf import HFJudge  # noqa: E402
from rt4chart_plugins.models import hf as hub  # noqa: E402
from rt4chart_plugins.model_export import FP32_TOLERANCE, export  # noqa: E402
from rt4chart_plugins.judges.hf.labels import label_map  # noqa: E402
from rt4chart_lab.hf_toy import build_model  # noqa: E402
from rt4chart_plugins.judges.registry import judge_options  # noqa: E402
from rt4chart_plugins.types import Label  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
CONTEXT = (ROOT / "examples" / "policy" / "context.txt").read_text(encoding="utf-8")
ANSWER = (ROOT / "examples" / "policy" / "answer.txt").read_text(encoding="utf-8")
SIMPLE_CONTEXT = "The free trial lasts 14 days. Only verified new users are eligible."
SIMPLE_ANSWER = "The free trial lasts 14 days."
NLI = {0: "entailment", 1: "neutral", 2: "contradiction"}
#: a pair's logits may differ by float rounding between a batch and a run of its own (padding
#: changes the order of the sums), never by more than this
BATCH_TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hf-models")


def _model(root: Path, name: str, arch: str = "bert", **kwargs) -> Path:
    path = root / name
    if not path.exists():
        build_model(path, arch, texts=[CONTEXT, ANSWER, SIMPLE_CONTEXT], **kwargs)
    return path


def _only_label(judge: str, **kwargs) -> tuple[Label, object]:
    report = Verifier(judge, judge_kwargs=kwargs).verify(context=SIMPLE_CONTEXT, answer=SIMPLE_ANSWER)
    assert report.state == "verified", report.error
    (claim,) = report.claims
    return claim.label, claim


# ---- labels ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "id2label",
    [
        {0: "entailment", 1: "neutral", 2: "contradiction"},
        {0: "contradiction", 1: "entailment", 2: "neutral"},  # cross-encoder/nli-deberta-v3-base's order
        {0: "NEUTRAL", 1: "CONTRADICTION", 2: "ENTAILMENT"},
    ],
)
@pytest.mark.parametrize("favour,expected", [("entailment", Label.ENT), ("contradiction", Label.CON)])
def test_three_way_classes_are_read_from_the_config_in_any_order(models, id2label, favour, expected):
    name = f"bert-{'-'.join(v.lower()[:3] for v in id2label.values())}-{favour}"
    path = _model(models, name, id2label=id2label, favour=next(v for v in id2label.values() if v.lower() == favour))
    label, claim = _only_label(f"hf:{path}")
    assert label == expected
    assert claim.probs[expected] > 0.9  # the model's own softmax, read from the class it named


def test_neutral_is_not_in_the_context(models):
    path = _model(models, "bert-neutral", id2label={0: "contradiction", 1: "neutral", 2: "entailment"}, favour="neutral")
    label, claim = _only_label(f"hf:{path}")
    assert label == Label.NIC and claim.evidence == []


def test_label_names_and_the_labels_option():
    assert label_map({0: "Not-Entailment", 1: "ENTAILMENT"}, 2).meaning == ("NOT", "ENT")
    assert label_map({0: "supported", 1: "unsupported"}, 2).meaning == ("ENT", "NOT")
    assert label_map({0: "LABEL_0", 1: "LABEL_1"}, 2, {"LABEL_0": "NOT", "LABEL_1": "ENT"}).meaning == ("NOT", "ENT")
    assert label_map({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, 3, ["con", "ent", "nic"]).meaning == ("CON", "ENT", "NIC")
    assert label_map({}, 1).meaning == ("ENT",)  # one output: a support score


@pytest.mark.parametrize(
    "id2label,option,message",
    [
        ({0: "LABEL_0", 1: "LABEL_1"}, None, "pass the labels option"),
        ({0: "LABEL_0", 1: "LABEL_1"}, ["ENT", "MAYBE"], "not meanings"),
        ({0: "LABEL_0", 1: "LABEL_1"}, ["ENT"], "2 classes"),
        ({0: "LABEL_0", 1: "LABEL_1"}, ["ENT", "ENT"], "make no verdict"),
        ({0: "LABEL_0", 1: "LABEL_1"}, {"LABEL_7": "ENT", "LABEL_1": "NOT"}, "no class 'LABEL_7'"),
        ({0: "a", 1: "b", 2: "c"}, {"a": "ENT", "b": "CON", "c": "CON"}, "make no verdict"),
        ({0: "LABEL_0", 1: "LABEL_1"}, "ENT,NOT", "a list of meanings"),
    ],
)
def test_a_bad_label_map_is_refused_with_what_to_pass(id2label, option, message):
    with pytest.raises(InvalidInput, match=message):
        label_map(id2label, len(id2label), option)


# ---- 2-way models ------------------------------------------------------------------------------


def test_a_two_way_model_decides_support_and_the_trained_verifier_con_against_nic(models):
    path = _model(models, "deberta-unsupported", "deberta", id2label={0: "LABEL_0", 1: "LABEL_1"}, favour="LABEL_0")
    with pytest.raises(InvalidInput, match="labels option"):
        HFJudge(str(path))
    report = Verifier("hf", judge_kwargs={"model": str(path), "labels": ["NOT", "ENT"]}).verify(
        context=CONTEXT, answer=ANSWER
    )
    assert report.state == "verified" and report.judge == f"hf:{path}"
    judged = [c for c in report.claims if c.rule is None]  # the rules decide the first two claims
    assert judged and all(c.label in (Label.CON, Label.NIC) for c in judged)
    for claim in judged:
        assert "a 2-way model" in claim.reason and "the trained verifier read it as" in claim.reason
        p = claim.probs
        assert abs(p[Label.ENT] + p[Label.CON] + p[Label.NIC] - 1) < 1e-6 and p[Label.ENT] < 0.01
    # the baseless last claim ("priority email support"): the trained verifier calls it NIC
    assert report.claims[-1].label == Label.NIC and "not stated in the context" in report.claims[-1].reason


def test_a_two_way_model_that_finds_support_says_ent(models):
    path = _model(models, "deberta-supported", "deberta", id2label={0: "not_entailment", 1: "entailment"}, favour="entailment")
    label, claim = _only_label(f"hf:{path}")
    assert label == Label.ENT and claim.evidence and "2-way" not in (claim.reason or "")


def test_a_seq2seq_verifier_reads_its_verdict_off_a_token(models):
    path = _model(models, "t5", "t5")
    judge = HFJudge(str(path))
    assert judge.card.kind == "seq2seq" and judge.two_way
    report = Verifier(judge).verify(context=CONTEXT, answer=ANSWER)
    assert report.state == "verified" and all(c.label is not None and c.probs for c in report.claims)
    with pytest.raises(InvalidInput, match="verdict_tokens"):
        HFJudge(str(path), verdict_tokens=["zzzunknownzzz", "zzzunknownzzz"])._load()


# ---- length and batching -----------------------------------------------------------------------


def test_premises_longer_than_the_max_length_are_picked_to_fit(models):
    path = _model(models, "bert-short", id2label=NLI, favour="entailment", max_length=48)
    judge = HFJudge(str(path))
    context = " ".join(f"Rule {i} says the trial is free for new users on day {i}." for i in range(300)) + " " + SIMPLE_CONTEXT
    run_on = "The free trial lasts 14 days " + "and it is free " * 80 + "."
    report = Verifier(judge).verify(context=context, answer=f"{SIMPLE_ANSWER} {run_on}")
    assert report.state == "verified", report.error
    loaded = judge._load()
    assert loaded.manifest.max_length == 48 and loaded.manifest.premise_budget < 48
    assert all(c.label is not None for c in report.claims)
    assert report.claims[0].evidence[0].text == "The free trial lasts 14 days."  # picked out of 302 sentences


def test_batched_scores_equal_one_by_one(models):
    path = _model(models, "deberta-3way", "deberta", id2label=NLI)
    one = Verifier(HFJudge(str(path), batch_size=1)).verify(context=CONTEXT, answer=ANSWER)
    batched = Verifier(HFJudge(str(path), batch_size=16)).verify(context=CONTEXT, answer=ANSWER)
    assert [c.label for c in one.claims] == [c.label for c in batched.claims]
    for a, b in zip(one.claims, batched.claims):
        assert all(abs(a.probs[k] - b.probs[k]) < BATCH_TOLERANCE for k in a.probs)


# ---- ONNX --------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["bert", "deberta", "modernbert", "t5"])
def test_the_onnx_export_gives_torch_s_verdicts(models, tmp_path, arch):
    path = _model(models, f"{arch}-export", arch, **({} if arch == "t5" else {"id2label": NLI}))
    folder, meta = export(str(path), tmp_path / "onnx", int8=True)
    assert meta["check"]["onnx"] < FP32_TOLERANCE and set(meta["graphs"]) == {"onnx", "onnx-int8"}
    torch_report = Verifier(HFJudge(str(path), runtime="torch")).verify(context=CONTEXT, answer=ANSWER)
    onnx_judge = HFJudge(str(folder))  # the export folder alone: no torch needed to run it
    assert onnx_judge.runtime == "onnx-int8"
    fp32 = Verifier(HFJudge(str(folder), runtime="onnx")).verify(context=CONTEXT, answer=ANSWER)
    assert [c.label for c in fp32.claims] == [c.label for c in torch_report.claims]
    for a, b in zip(torch_report.claims, fp32.claims):
        assert all(abs(a.probs[k] - b.probs[k]) < FP32_TOLERANCE for k in a.probs)
    int8 = Verifier(onnx_judge).verify(context=CONTEXT, answer=ANSWER)
    assert int8.state == "verified" and onnx_judge.runtime_used == "onnx-int8"


def test_export_from_the_command_line_and_a_graph_that_does_not_match_is_refused(models, capsys):
    path = _model(models, "bert-cli", id2label=NLI)
    assert main(["model", "export", f"hf:{path}"]) == 0
    assert "onnx" in capsys.readouterr().out and (path / "onnx" / "model.onnx").is_file()
    assert HFJudge(str(path)).runtime == "onnx"  # found beside the model
    with pytest.raises(ModelNotAvailable, match="--int8"):
        HFJudge(str(path), runtime="onnx-int8")
    (path / "onnx" / "model.onnx").write_bytes(b"not a graph")
    with pytest.raises(ModelNotAvailable, match="does not match"):
        Verifier(HFJudge(str(path), runtime="onnx")).verify(context=SIMPLE_CONTEXT, answer=SIMPLE_ANSWER)


# ---- models on this machine ------------------------------------------------------------------


def _offline_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "RT4CHART_MODELS_DIR": str(tmp_path / "models"), "HF_HOME": str(tmp_path / "hf")}


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "--judge", "hf:nobody/no-such-verifier", "--context", "{ctx}", "--answer", "It lasts 14 days."],
        ["model", "pull", "hf:nobody/no-such-verifier"],
        ["model", "path", "hf:nobody/no-such-verifier"],
    ],
)
def test_a_model_that_is_not_here_fails_in_seconds_with_one_line(tmp_path, args):
    ctx = tmp_path / "context.txt"
    ctx.write_text(SIMPLE_CONTEXT)
    cli = Path(sys.executable).parent / "rt4chart"
    started = time.monotonic()
    done = subprocess.run(
        [str(cli), *[a.replace("{ctx}", str(ctx)) for a in args]],
        capture_output=True, text=True, env=_offline_env(tmp_path), timeout=60,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 2 and elapsed < 15, (done.returncode, elapsed)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "rt4chart model pull hf:nobody/no-such-verifier" in lines[0] and "local directory" in lines[0]


def test_the_python_api_fails_at_once_too(tmp_path, monkeypatch):
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    started = time.monotonic()
    with pytest.raises(ModelNotAvailable, match="not on this machine.*model pull hf:org/none"):
        Verifier("hf:org/none").verify(context=SIMPLE_CONTEXT, answer=SIMPLE_ANSWER)
    with pytest.raises(ModelNotAvailable, match="does not exist"):
        make_judge("hf:/no/such/folder")
    assert time.monotonic() - started < 5


def test_a_pinned_model_is_found_by_its_name_offline_and_checked(models, tmp_path, monkeypatch):
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    folder = hub.pinned_dir("org/verifier")
    shutil.copytree(_model(models, "bert-pin", id2label=NLI, favour="entailment"), folder)
    pin = hub.write_pin(folder, "org/verifier", "0123456789abcdef")
    assert pin["revision"] == "0123456789abcdef" and "config.json" in pin["files"]
    assert len(pin["files"]["model.safetensors"]) == 64
    label, _ = _only_label("hf:org/verifier")
    assert label == Label.ENT
    listed = {p["repo"]: p for p in hub.pinned()}
    assert listed["org/verifier"]["revision"] == "0123456789abcdef"
    with open(folder / "model.safetensors", "r+b") as fh:  # one byte flipped
        fh.seek(100)
        byte = fh.read(1)
        fh.seek(100)
        fh.write(bytes([byte[0] ^ 1]))
    with pytest.raises(ModelNotAvailable, match="sha256.*pull hf:org/verifier"):
        HFJudge("org/verifier")


def test_pull_pins_the_commit_and_every_file(models, tmp_path, monkeypatch):
    """The download itself needs the Hub, which no test reaches: a stand-in answers the two calls
    the pull makes (the commit of the revision, then the files), from a model built here."""
    import huggingface_hub

    source = _model(models, "bert-hub", id2label=NLI)
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    fetched = []

    class Info:
        sha = "feedfacecafe0000"
        siblings = [type("S", (), {"rfilename": p.name})() for p in source.iterdir()]

    def download(repo, *, revision, local_dir, allow_patterns, **_):
        fetched.append((repo, revision, tuple(allow_patterns)))
        shutil.copytree(source, local_dir, dirs_exist_ok=True)
        return str(local_dir)

    monkeypatch.setattr(huggingface_hub.HfApi, "model_info", lambda self, repo, **kw: Info())
    monkeypatch.setattr(huggingface_hub, "snapshot_download", download)
    folder = hub.pull("org/hub-model", progress=False)
    assert fetched == [("org/hub-model", "feedfacecafe0000", tuple(hub.TOKENIZER_FILES + ["*.safetensors", "*.safetensors.index.json"]))]
    pin = hub._read_pin(folder)
    assert pin["revision"] == "feedfacecafe0000" and pin["files"]["model.safetensors"] == hub.sha256_file(source / "model.safetensors")
    assert hub.pull("org/hub-model", progress=False) == folder and len(fetched) == 1  # pinned already: not fetched again
    assert main(["model", "list"]) == 0


# ---- the registry's refusals and the command line ---------------------------------------------


def test_unknown_options_and_misplaced_ones_are_refused(models):
    path = _model(models, "bert-options", id2label=NLI)
    assert {"model", "labels", "threshold", "runtime", "batch_size"} <= set(judge_options(f"hf:{path}"))
    with pytest.raises(InvalidInput, match="takes no option 'treshold' \\(did you mean 'threshold'"):
        Verifier(f"hf:{path}", judge_kwargs={"treshold": 0.4})
    for nameless in ("hf", "hf:"):
        with pytest.raises(InvalidInput, match="needs a model|names no model"):
            make_judge(nameless)
    with pytest.raises(InvalidInput, match="model is given twice"):
        make_judge(f"hf:{path}", model=str(path))
    with pytest.raises(InvalidInput, match="seq2seq"):
        HFJudge(str(path), prompt="{premise} {claim}")
    with pytest.raises(InvalidInput, match="runtime"):
        HFJudge(str(path), runtime="tensorrt")
    with pytest.raises(InvalidInput, match="batch_size"):
        HFJudge(str(path), batch_size=0)
    with pytest.raises(ModelNotAvailable, match="no onnx graph.*rt4chart model export"):
        HFJudge(str(path), runtime="onnx")
    assert HFJudge(str(path)).name == f"hf:{path}" == make_judge(f"hf:{path}").name


def test_the_command_line_takes_an_hf_judge(models, capsys):
    path = _model(models, "bert-verify", id2label=NLI, favour="entailment")
    code = main(["verify", "--judge", f"hf:{path}", "--context", str(ROOT / "examples/policy/context.txt"),
                 "--answer", SIMPLE_ANSWER, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0 and f'"judge": "hf:{path}"' in out and '"label": "ENT"' in out


def test_the_hf_judge_holds_the_trained_verifiers_reading_rather_than_subclassing_it(models):
    from rt4chart_plugins.judges.hf.judge import model_read
    from rt4chart_plugins.judges.trained import TrainedJudge
    from rt4chart_plugins.judges.trained.reading import Reading

    assert not issubclass(HFJudge, TrainedJudge)
    three = HFJudge(str(_model(models, "bert-reading", id2label=NLI)))
    reading = three.reading()
    assert isinstance(reading, Reading) and reading.read is model_read and reading.threshold == 0.5
    assert reading.explain is None  # only a 2-way model explains itself
    two = HFJudge(str(_model(models, "deberta-reading", "deberta", id2label={0: "LABEL_0", 1: "LABEL_1"})),
                  labels=["NOT", "ENT"], threshold=0.7)
    assert two.reading().explain is not None and two.reading().threshold == 0.7

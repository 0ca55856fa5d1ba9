"""One smoke check per extra, for the release check (scripts/release_check.sh).

Each runs in a fresh venv that holds the built wheel with that one extra, from a folder outside
the checkout, so what is imported is the installed package and nothing the checkout provides.
It checks what the extra is for, through its real entry point, and exits non-zero (an assertion
or an exception) when that does not work:

    python scripts/release_smoke.py core|local|openai|ragas|deepeval|langchain|llama-index|export|ray|hf
    python scripts/release_smoke.py serve -- CMD...   (from .venv: runs CMD with a llama.cpp server up)

``serve`` is the one mode that runs in the development venv: it starts the embedded model behind
llama.cpp's OpenAI-compatible server and runs the ``openai`` check against it
(``RT4CHART_SMOKE_BASE_URL``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from rt4chart_plugins import examples

#: the policy example, as the installed package ships it (`rt4chart examples` writes it as files)
EXAMPLES = Path("examples")
CONTEXT = examples.read("policy/context.txt")
ANSWER = examples.read("policy/answer.txt")
QUESTION = "Who can get the free trial?"
#: the policy example's verdicts on the default judge (README)
POLICY = ["CON", "CON", "ENT", "ENT", "NIC"]  # one claim per clause
POLICY_SCORE = round(POLICY.count("ENT") / len(POLICY), 2)  # the share of claims entailed
ROWS = [
    {"id": "q1", "context": ["The free trial lasts 14 days.", "Only verified new users are eligible."],
     "question": "How long is the trial?", "answer": "The free trial lasts 14 days."},
    {"id": "q2", "context": ["The free trial lasts 14 days.", "Only verified new users are eligible."],
     "question": "How long is the trial?", "answer": "The free trial lasts 30 days."},
]


def installed() -> None:
    """The package is the installed wheel, not a checkout on the path."""
    import rt4chart_plugins

    where = Path(rt4chart_plugins.__file__).resolve()
    assert where.is_relative_to(Path(sysconfig.get_paths()["purelib"]).resolve()), where


def run(*cmd: str) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def rt4chart(*args: str) -> str:
    return run(str(Path(sys.executable).parent / "rt4chart"), *args)


def core() -> None:
    """The README's main job: the CLI and ``Verifier`` on the policy example, the trained judge
    shipped in the wheel; each adapter without its framework names the extra it needs."""
    from rt4chart_plugins import MissingExtra, Verifier

    rt4chart("examples", "-q", str(EXAMPLES))
    out = rt4chart("verify", "--context", str(EXAMPLES / "policy" / "context.txt"),
                   "--answer-file", str(EXAMPLES / "policy" / "answer.txt"))
    assert "Verdict: CON" in out, out
    report = Verifier().verify(context=CONTEXT, answer=ANSWER)
    assert [c.label.value for c in report.claims] == POLICY, report.claims
    assert report.claims[0].evidence[0].text.startswith("Only new users whose identity has been verified")
    for module, extra in (("ragas", "ragas"), ("deepeval", "deepeval"), ("langchain", "langchain"),
                          ("llama_index", "llama-index")):
        try:
            __import__(f"rt4chart_plugins.adapters.{module}")
        except MissingExtra as exc:
            assert f"rt4chart-plugins[{extra}]" in str(exc), exc
        else:
            raise AssertionError(f"rt4chart_plugins.adapters.{module} imported without its framework")


def local() -> None:
    """The embedded LLM judge (llama.cpp in-process) on a short sample."""
    from rt4chart_plugins import Verifier

    verifier = Verifier("local", decomposition="sentence", global_verification=False)
    report = verifier.verify(context=ROWS[1]["context"], answer=ROWS[1]["answer"], question=ROWS[1]["question"])
    assert report.state == "verified", (report.state, report.error, [c.error for c in report.claims])
    assert report.judge.startswith("llama.cpp:") and report.claims and report.claims[0].label is not None
    print(report.judge, [c.label.value for c in report.claims])


def openai() -> None:
    """The ``openai`` judge against a real OpenAI-compatible server (llama.cpp's, the embedded
    model), with whichever openai release the extra resolved to: every request is sent and
    answered (the server's token counts come back) and no claim fails in the client. Whether the
    1.5B model's reply parses into a verdict is the judge's quality, not the install's: the
    integration tests check that."""
    import openai as client

    from rt4chart_plugins import Verifier

    verifier = Verifier("openai", judge_kwargs={"base_url": os.environ["RT4CHART_SMOKE_BASE_URL"],
                                                "model": "qwen-judge", "api_key": "x", "cache": False, "timeout": 900,
                                                "max_retries": 0},
                        decomposition="sentence", global_verification=False)
    report = verifier.verify(context=ROWS[1]["context"], answer=ROWS[1]["answer"], question=ROWS[1]["question"])
    errors = [c.error for c in report.claims if c.error]
    assert report.cost.judge_calls >= 1 and report.cost.prompt_tokens > 0 and report.cost.completion_tokens > 0, (
        report.cost, errors, report.error)
    # a claim is judged, or the model's reply held no verdict for it; never a client failure
    assert report.claims and all(e.startswith("the judge returned no valid verdict") for e in errors), errors
    print(f"openai {client.__version__}:", report.judge, report.state, [c.label for c in report.claims])


def ragas() -> None:
    """``ragas.evaluate()`` with the metric on the default judge."""
    from ragas import EvaluationDataset, SingleTurnSample, evaluate

    from rt4chart_plugins.adapters.ragas import RT4ChartFaithfulness

    metric = RT4ChartFaithfulness()
    dataset = EvaluationDataset(samples=[
        SingleTurnSample(user_input=QUESTION, response=ANSWER, retrieved_contexts=[CONTEXT]),
        SingleTurnSample(user_input="How long is the trial?", response="The free trial lasts 14 days.",
                         retrieved_contexts=[CONTEXT]),
    ])
    result = evaluate(dataset, metrics=[metric], show_progress=False)
    assert [round(s, 2) for s in result.to_pandas()["rt4chart_faithfulness"]] == [POLICY_SCORE, 1.0]
    assert [c.label.value for c in metric.reports_for(result)[0].claims] == POLICY


def deepeval() -> None:
    """``deepeval.evaluate()`` with the metric on the default judge."""
    from deepeval import evaluate
    from deepeval.evaluate.configs import DisplayConfig
    from deepeval.test_case import LLMTestCase

    from rt4chart_plugins.adapters.deepeval import RT4ChartMetric, report_from_metric_data

    case = LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=[CONTEXT])
    result = evaluate(test_cases=[case], metrics=[RT4ChartMetric(threshold=0.8)],
                      display_config=DisplayConfig(print_results=False))
    data = result.test_results[0].metrics_data[0]
    assert (round(data.score, 2), data.success, data.evaluation_cost) == (POLICY_SCORE, False, 0.0), data
    assert [c["label"] for c in report_from_metric_data(data)["claims"]] == POLICY


def langchain() -> None:
    """The verifier as the last step of an LCEL chain, its context LangChain ``Document`` s."""
    from langchain_core.documents import Document
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough

    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    def rag(question: str) -> dict:
        return {"context": [Document(page_content=CONTEXT, metadata={"source": "policy.txt"})],
                "question": question, "answer": ANSWER}

    chain = RunnableLambda(rag) | RunnablePassthrough.assign(verification=RT4ChartVerifier())
    report = chain.invoke(QUESTION)["verification"]
    assert [c.label.value for c in report.claims] == POLICY, report.claims
    assert report.claims[0].evidence[0].metadata == {"source": "policy.txt"}  # the cited document's


def llama_index() -> None:
    """``BatchEvalRunner`` over a query engine's ``Response`` with its source nodes."""
    from llama_index.core.base.response.schema import Response
    from llama_index.core.evaluation import BatchEvalRunner
    from llama_index.core.schema import NodeWithScore, TextNode

    from rt4chart_plugins.adapters.llama_index import RT4ChartEvaluator

    response = Response(response=ANSWER, source_nodes=[NodeWithScore(node=TextNode(text=CONTEXT), score=1.0)])
    runner = BatchEvalRunner({"rt4chart": RT4ChartEvaluator()}, workers=1)
    (result,) = runner.evaluate_responses(queries=[QUESTION], responses=[response])["rt4chart"]
    assert not result.invalid_result and result.passing is False, result
    assert [c.label.value for c in result.claims] == POLICY


def export() -> None:
    """A batch's results exported as one row per claim, to parquet and CSV."""
    import pandas as pd

    Path("rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    rt4chart("verify", "rows.jsonl", "-o", "results.jsonl", "-q")
    rt4chart("export", "results.jsonl", "-o", "claims.parquet")
    rt4chart("export", "results.jsonl", "-o", "claims.csv")
    table = pd.read_parquet("claims.parquet")
    assert list(table["label"]) == ["ENT", "CON"], table
    assert len(pd.read_csv("claims.csv")) == 2


def ray() -> None:
    """A two-row job on a Ray cluster started for the run (``rt4chart verify --engine ray``)."""
    Path("rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    rt4chart("verify", "rows.jsonl", "-o", "out", "--engine", "ray", "--workers", "1", "-q")
    lines = [json.loads(line) for part in sorted(Path("out").glob("*.jsonl")) for line in part.open()]
    assert sorted((r["id"], r["ok"], r["report"]["label"]) for r in lines) == [("q1", True, "ENT"), ("q2", True, "CON")]


def hf() -> None:
    """The README's main job on a Hugging Face verifier: a tiny random BERT NLI model built here
    (nothing is downloaded), through the CLI and ``Verifier("hf:FOLDER")``; then exported to ONNX
    (int8) and run from the export, as on a machine without torch."""
    from rt4chart_plugins import Verifier

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lab"))  # the toy builder: the lab's, not the wheel's
    from rt4chart_lab.hf_toy import build_model

    model = build_model(Path("nli-model").resolve(), "bert", texts=[CONTEXT, ANSWER], favour="entailment")
    examples.copy(EXAMPLES)
    out = rt4chart("verify", "--judge", f"hf:{model}", "--context", str(EXAMPLES / "policy" / "context.txt"),
                   "--answer-file", str(EXAMPLES / "policy" / "answer.txt"), "--format", "json")
    report = json.loads(out)
    assert report["judge"] == f"hf:{model}" and report["state"] == "verified", report
    assert len(report["claims"]) == len(POLICY) and report["claims"][0]["label"] == "CON"  # the contrast rule's
    assert report["claims"][0]["evidence"][0]["text"].startswith("Only new users whose identity has been verified")
    rt4chart("model", "export", f"hf:{model}", "--int8")
    onnx = Verifier("hf", judge_kwargs={"model": str(model / "onnx"), "runtime": "onnx-int8"})
    claims = onnx.verify(context=CONTEXT, answer=ANSWER).claims
    assert [c.label.value for c in claims] == [c["label"] for c in report["claims"]], claims
    print("hf:", [c.label.value for c in claims], onnx.judge.runtime_used)


def serve(cmd: list[str]) -> int:
    """Run ``cmd`` with the embedded model served on loopback (this venv's llama-cpp-python)."""
    from rt4chart_plugins import models
    from rt4chart_lab.serving import llama_server

    with llama_server(models.locate(models.DEFAULT_MODEL), n_ctx=4096, alias="qwen-judge") as endpoint:
        return subprocess.run(cmd, env={**os.environ, "RT4CHART_SMOKE_BASE_URL": endpoint.base_url}).returncode


CHECKS = {"core": core, "local": local, "openai": openai, "ragas": ragas, "deepeval": deepeval,
          "langchain": langchain, "llama-index": llama_index, "export": export, "ray": ray, "hf": hf}

if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        sys.exit(serve(sys.argv[sys.argv.index("--") + 1:]))
    installed()
    CHECKS[sys.argv[1]]()
    print(f"{sys.argv[1]}: ok")

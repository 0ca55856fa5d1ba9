"""RT4CHART as a Ragas metric: ragas.evaluate() with claim details in the traces, and the
collections-style metric for @experiment.

Run (offline, on the default judge, the trained verifier; no model download):
    pip install "rt4chart-plugins[ragas]"
    python examples/ragas_example.py
"""

import asyncio
import os

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

from ragas import Dataset, EvaluationDataset, SingleTurnSample, evaluate, experiment  # noqa: E402
from ragas.run_config import RunConfig  # noqa: E402
from rt4chart_plugins.adapters.ragas import (  # noqa: E402
    RT4ChartFaithfulness,
    RT4ChartFaithfulnessV2,
    reports_from_result,
)

CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Trial accounts can export up to 5 reports per month.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
ANSWER = (
    "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
    "and verified new users can extend it once by 7 days. The trial also includes priority email support."
)

# The judge: None is the trained verifier (offline, shipped); "local" the embedded LLM. A ragas LLM works too
# (judge=llm_factory("gpt-4o-mini", client=OpenAI()) or a LangchainLLMWrapper), and so does an
# OpenAI-compatible server: judge="openai", judge_kwargs={"base_url": ..., "model": ...}.
# decomposition="sentence" (one claim per answer sentence) keeps the offline judge fast.
metric = RT4ChartFaithfulness(options={"decomposition": "sentence"})


def legacy_evaluate() -> None:
    dataset = EvaluationDataset(samples=[
        SingleTurnSample(user_input="Who can get the free trial?", response=ANSWER, retrieved_contexts=CONTEXT),
        SingleTurnSample(user_input="How long is the trial?", response="The free trial lasts 14 days.",
                         retrieved_contexts=CONTEXT),
    ])
    # the offline judge is slow on a laptop CPU: give rows more than ragas' default 180 s
    result = evaluate(dataset, metrics=[metric], run_config=RunConfig(timeout=900, max_workers=2))
    print(result.to_pandas()[["user_input", "rt4chart_faithfulness"]])
    for row, payload in enumerate(reports_from_result(result)):  # claim details from ragas' traces
        print(f"row {row}: {payload['label']} ({payload['state']})")
        for claim in payload["claims"]:
            print("  ", claim["label"], claim["answer_span"]["text"], "<-", [e["text"] for e in claim["evidence"]])
    typed = metric.reports_for(result)  # the typed Reports, in row order
    print("typed:", [r.label for r in typed])


scorer = RT4ChartFaithfulnessV2(decomposition="sentence")  # collections style: ascore -> MetricResult


@experiment()
async def faithfulness_experiment(row):
    result = await scorer.ascore(user_input=row["question"], response=row["answer"], retrieved_contexts=row["contexts"])
    return {**row, "faithfulness": result.value, "reason": result.reason}


def collections_experiment() -> None:
    rows = Dataset(name="rag-answers", backend="inmemory")
    rows.append({"question": "Who can get the free trial?", "answer": ANSWER, "contexts": CONTEXT})
    exp = asyncio.run(faithfulness_experiment.arun(rows, name="rt4chart-example"))
    for row in exp:
        print("experiment:", row["faithfulness"], "\n" + row["reason"])


if __name__ == "__main__":
    legacy_evaluate()
    collections_experiment()

"""The premise read through an endpoint (``judge="openai", read="premise"``) on the embedded model
served by llama.cpp's server reads what the local judge reads in-process from the same weights.

Served, the 1.5B model asked for JSON verdicts labelled every minimal pair CON; asked the premise
read's two Yes/No questions and read off the returned log probabilities, it must give the local
judge's readings (within the last bits a server's batching moves) and so its labels.
"""

from __future__ import annotations

import pytest

from rt4chart_plugins import Verifier

pytestmark = [pytest.mark.model, pytest.mark.server]

CONTEXT = (
    "The free trial lasts 14 days. During the trial, users get priority email support. "
    "Refunds are issued within 30 days of purchase."
)
ANSWERS = [
    "The free trial lasts 14 days.",  # stated
    "The free trial lasts 60 days.",  # contradicted
    "Refunds are issued within 30 days of purchase.",  # stated
    "Users get a free laptop during the trial.",  # invented
]


def _reads(report) -> list[tuple[str, dict]]:
    return [(c.label.value, {k.value: round(v, 2) for k, v in c.probs.items()}) for c in report.claims]


def test_the_served_premise_read_gives_the_local_judges_readings(embedded_model_path):
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from rt4chart_lab.serving import llama_server

    local = Verifier("local", judge_kwargs={"cache": False})
    expected = [local.verify(CONTEXT, a) for a in ANSWERS]
    with llama_server(embedded_model_path, n_ctx=2048, alias="served", fresh_prompts=True) as ep:
        served = Verifier(
            "openai",
            judge_kwargs={"base_url": ep.base_url, "model": ep.model, "api_key": ep.api_key, "read": "premise",
                          "cache": False, "concurrency": 1},
        )
        got = [served.verify(CONTEXT, a) for a in ANSWERS]
    for answer, want, have in zip(ANSWERS, expected, got):
        assert have.state == "verified", (answer, have.notes)
        assert [c.label for c in have.claims] == [c.label for c in want.claims], (answer, _reads(want), _reads(have))
        for a, b in zip(want.claims, have.claims):
            assert all(abs(a.probs[k] - b.probs[k]) < 0.05 for k in a.probs), (answer, _reads(want), _reads(have))
            assert a.evidence == b.evidence, answer
    labels = [c.label.value for r in got for c in r.claims]
    assert labels[0] == "ENT" and labels[1] != "ENT", labels  # it tells a stated fact from a changed one

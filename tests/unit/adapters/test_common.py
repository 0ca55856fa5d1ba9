"""What the adapters share: judge resolution, reason texts, and MissingExtra when a framework is absent."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from adapter_helpers import ANSWER, CONTEXT, QUESTION, SENTENCES, ScriptedJudge
from rt4chart_plugins.adapters.common.payload import claims_payload
from rt4chart_plugins.adapters.common.reason import reason_text
from rt4chart_plugins.adapters.common.verifier import build_verifier

from rt4chart_plugins import MissingExtra, Verifier
from rt4chart_plugins.detector import run_sync

FRAMEWORKS = {
    "langchain": ("langchain_core", "langchain"),
    "llama_index": ("llama_index", "llama-index"),
    "deepeval": ("deepeval", "deepeval"),
    "ragas": ("ragas", "ragas"),
}
#: the shared modules, each of which must import without any framework
COMMON_MODULES = sorted(
    p.stem for p in (Path(__file__).resolve().parents[3] / "adapters" / "common").glob("*.py") if p.stem != "__init__"
)


@pytest.mark.parametrize("adapter", sorted(FRAMEWORKS))
def test_missing_framework_raises_missing_extra(adapter, monkeypatch):
    package, extra = FRAMEWORKS[adapter]
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")] + [package]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (a pytest plugin may have imported it)
    monkeypatch.delitem(sys.modules, f"rt4chart_plugins.adapters.{adapter}", raising=False)
    with pytest.raises(MissingExtra) as info:
        importlib.import_module(f"rt4chart_plugins.adapters.{adapter}")
    assert info.value.extra == extra and f"rt4chart-plugins[{extra}]" in str(info.value)
    monkeypatch.delitem(sys.modules, f"rt4chart_plugins.adapters.{adapter}", raising=False)


def test_package_does_not_import_frameworks():
    import rt4chart_plugins.adapters  # noqa: F401

    common = ", ".join(f"rt4chart_plugins.adapters.common.{m}" for m in COMMON_MODULES)
    code = (f"import sys, rt4chart_plugins, rt4chart_plugins.adapters, {common};"
            "bad = [m for m in ('ragas', 'deepeval', 'langchain_core', 'llama_index') if m in sys.modules];"
            "assert not bad, bad")
    import subprocess

    subprocess.run([sys.executable, "-c", code], check=True)


def test_build_verifier_choices():
    judge = ScriptedJudge()
    v = build_verifier(judge, None, decomposition="sentence")
    assert isinstance(v, Verifier) and v.judge is judge and v.config.decomposition == "sentence"
    assert build_verifier(v, None) is v
    assert build_verifier("openai", None, judge_kwargs={"base_url": "http://127.0.0.1:9/v1"})._judge_spec == "openai"
    with pytest.raises(ValueError, match="unknown judge"):
        build_verifier("claude", None)
    with pytest.raises(ValueError, match="cannot use"):
        build_verifier(object(), lambda j: None)
    with pytest.raises(ValueError):
        build_verifier(None, None, window_size=2, window_overlap=5)  # validated up front


def test_reason_names_failing_claims_with_spans_and_evidence():
    report = Verifier(ScriptedJudge(), decomposition="sentence").verify(CONTEXT, ANSWER, QUESTION)
    text = reason_text(report)
    first, *rest = text.splitlines()
    assert first.startswith("CON: 1 of 3 judged claims entailed")
    assert rest[0].startswith("CON claim 0 [0:69]") and CONTEXT[1] in rest[0]
    assert rest[1].startswith("NIC claim 2 [153:200]") and "no evidence" in rest[1]
    assert SENTENCES[1] not in text  # entailed claims are counted, not listed
    payload = claims_payload(report)
    assert payload[0]["evidence"][0] == {"sentence_id": 1, "passage": 1, "start": 0, "end": len(CONTEXT[1]),
                                         "text": CONTEXT[1], "field": None, "metadata": None}
    failed = Verifier(ScriptedJudge(fail=True), decomposition="sentence").verify(CONTEXT, ANSWER)
    assert reason_text(failed).startswith("verification failed: ")


async def test_run_sync_inside_a_running_loop():
    async def seven():
        return 7

    assert run_sync(seven()) == 7


def test_extract_json_text_from_chatty_replies():
    from rt4chart_plugins.adapters.common.llm import as_json_text

    from rt4chart_plugins.judges.chat import extract_json_text

    assert extract_json_text('Here are the verdicts [as asked]:\n```json\n[{"claim": 0}]\n```') == '[{"claim": 0}]'
    assert extract_json_text('Sure. {"verdicts": []}') == '{"verdicts": []}'
    assert extract_json_text('```json\n{"verdicts": [{"claim": 0') == '{"verdicts": [{"claim": 0'  # cut short
    assert as_json_text({"a": 1}) == '{"a": 1}' and as_json_text(None) == ""


def test_judge_kwargs_reach_a_wrapped_framework_llm():
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    verifier = RT4ChartVerifier(judge=FakeListChatModel(responses=["{}"]),
                                judge_kwargs={"cache": False, "name": "my-judge", "max_retries": 1})
    judge = verifier.verifier.judge
    assert judge.name == "my-judge" and judge.cache is None and judge.max_retries == 1

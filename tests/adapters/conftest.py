"""Fixtures for the framework adapter tests.

Every framework's telemetry is off, deepeval reads no ``.env`` file, and the judge cache lives in a
fresh directory for the session (set before any judge is built), so no test passes from a cache
written by an earlier run. The real-model tests use the embedded judge (``@pytest.mark.model``).
"""

from __future__ import annotations

import os
import tempfile

import pytest

# Set at import, before any framework or judge is imported: deepeval reads its settings at import.
os.environ.setdefault("RT4CHART_CACHE_DIR", tempfile.mkdtemp(prefix="rt4chart-adapter-cache-"))
os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] = "YES"
os.environ["DEEPEVAL_DISABLE_DOTENV"] = "1"
os.environ["DEEPEVAL_UPDATE_WARNING_OPT_IN"] = "NO"
os.environ["DEEPEVAL_GRPC_LOGGING"] = "NO"
os.environ["RAGAS_DO_NOT_TRACK"] = "true"
os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ["LANGSMITH_TRACING"] = "false"

from adapter_helpers import ScriptedJudge  # noqa: E402


@pytest.fixture
def scripted() -> ScriptedJudge:
    return ScriptedJudge()


@pytest.fixture(scope="session")
def _embedded_model():
    pytest.importorskip("llama_cpp", reason="needs the [local] extra")
    from rt4chart_plugins import models

    try:
        return models.locate(models.DEFAULT_MODEL, pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"embedded judge model not available ({exc}); run `rt4chart model pull` first")


@pytest.fixture(scope="module")
def embedded_judge(_embedded_model, tmp_path_factory):
    """The embedded judge (Qwen2.5-Coder-1.5B via llama.cpp) with an empty cache for each test
    module, so that no module passes from verdicts another one cached; the loaded model itself is
    shared by every judge instance."""
    from rt4chart_plugins.judges.cache import JudgeCache
    from rt4chart_plugins.judges.llama_cpp import LlamaCppJudge

    return LlamaCppJudge(cache=JudgeCache(tmp_path_factory.mktemp("judge-cache") / "cache.sqlite"))



@pytest.fixture(scope="session")
def llama_server(openai_server):
    """llama-cpp-python's OpenAI-compatible server on loopback serving the embedded model (model
    alias ``qwen-judge``): a real model behind each framework's own LLM client. It is the one the
    core tests use (``tests/conftest.py``), started once per session."""
    return openai_server

"""Shared fixtures: an isolated judge cache, the embedded model, and a real OpenAI-compatible server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Each test session gets its own, empty judge cache: no test passes from a stale one.
    Session-scoped so that it is in place before any module-scoped fixture builds a judge."""
    os.environ["RT4CHART_CACHE_DIR"] = str(tmp_path_factory.mktemp("judge-cache"))
    yield
    os.environ.pop("RT4CHART_CACHE_DIR", None)


@pytest.fixture(scope="session")
def embedded_model_path() -> Path:
    """The pinned embedded model; the test command pulls it beforehand (.ci/run does)."""
    from rt4chart_plugins import models

    try:
        return models.locate(models.DEFAULT_MODEL, pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"embedded judge model not available ({exc}); run `rt4chart model pull` first")


@pytest.fixture(scope="session")
def smollm2() -> Path:
    """A 98 MB ChatML model (SmolLM2-135M-Instruct) for the tests of code that drives llama.cpp
    directly (GASP's scorer, the hidden-state reader); the test command pulls it beforehand."""
    pytest.importorskip("llama_cpp", reason="needs the [local] extra")
    from rt4chart_plugins import models

    try:
        return models.locate("smollm2-135m", pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"test model not available ({exc}); run `rt4chart model pull smollm2-135m` first")


@pytest.fixture(scope="session")
def openai_server(embedded_model_path):
    """llama-cpp-python's OpenAI-compatible server on loopback, serving the embedded model as
    ``qwen-judge`` (the same helper the benchmark uses for the frameworks' metrics)."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from rt4chart_plugins.bench.external import llama_server

    with llama_server(embedded_model_path, n_ctx=4096, alias="qwen-judge") as endpoint:
        yield endpoint.base_url

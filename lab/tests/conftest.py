"""The lab's fixtures: an isolated judge cache, and the pulled llama.cpp models (the test command
pulls them beforehand). A test that uses a model is marked ``model`` so that a fast run skips it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# the product's scripted judge (tests/scripted_judge.py): the lab sits in the same checkout
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))


def pytest_collection_modifyitems(items):
    for item in items:
        if {"embedded_model_path", "smollm2", "openai_server"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    os.environ["RT4CHART_CACHE_DIR"] = str(tmp_path_factory.mktemp("judge-cache"))
    yield
    os.environ.pop("RT4CHART_CACHE_DIR", None)


def _pulled(name: str | None = None) -> Path:
    pytest.importorskip("llama_cpp", reason="needs the [local] extra")
    from rt4chart_plugins import models

    try:
        return models.locate(name or models.DEFAULT_MODEL, pull_if_missing=False)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"model not available ({exc}); run `rt4chart model pull {name or ''}` first")


@pytest.fixture(scope="session")
def embedded_model_path() -> Path:
    return _pulled()


@pytest.fixture(scope="session")
def smollm2() -> Path:
    return _pulled("smollm2-135m")


@pytest.fixture(scope="session")
def openai_server(embedded_model_path):
    """llama-cpp-python's OpenAI-compatible server on loopback, serving the embedded model."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from rt4chart_lab.serving import llama_server

    with llama_server(embedded_model_path, n_ctx=4096, alias="qwen-judge") as endpoint:
        yield endpoint.base_url

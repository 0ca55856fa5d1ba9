"""Shared fixtures: an isolated judge cache, the embedded model, and a real OpenAI-compatible server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def openai_server(embedded_model_path, tmp_path_factory):
    """llama-cpp-python's OpenAI-compatible server on loopback, serving the embedded model."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(embedded_model_path),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--chat_format", "chatml",
             "--model_alias", "qwen-judge", "--n_threads", str(os.cpu_count() or 2)],
            stdout=fh, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"llama.cpp server exited: {log.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(base + "/models", timeout=2).read()
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        pytest.fail("llama.cpp server did not start within 120 s")
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()

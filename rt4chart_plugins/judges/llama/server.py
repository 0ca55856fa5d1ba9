"""The embedded model served as an OpenAI-compatible endpoint on loopback.

Any client that speaks the OpenAI API (the ``"openai"`` judge, a framework's own LLM wrapper, the
frameworks' own metrics in the benchmark) can then read the same weights as the embedded judge.
Needs ``llama-cpp-python[server]``; the server runs in a child process for the duration of a block.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel

from rt4chart_plugins.errors import JudgeError


class Endpoint(BaseModel):
    base_url: str
    model: str
    api_key: str = "sk-local"
    max_tokens: int = 1024


@contextmanager
def llama_server(model_path: Path, *, n_ctx: int = 8192, alias: str = "embedded-judge") -> Iterator[Endpoint]:
    """llama-cpp-python's OpenAI-compatible server on loopback, for the duration of the block."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = Path(tempfile.mkstemp(prefix="rt4chart-server-", suffix=".log")[1])
    with open(log, "w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", str(n_ctx), "--chat_format", "chatml", "--model_alias", alias,
             "--n_threads", str(os.cpu_count() or 2)],
            stdout=fh, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.time() + 180
        while True:
            if proc.poll() is not None:
                raise JudgeError(f"the llama.cpp server exited: {log.read_text()[-1500:]}")
            try:
                urllib.request.urlopen(base + "/models", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline:
                    raise JudgeError("the llama.cpp server did not start within 180 s") from None
                time.sleep(0.5)
        yield Endpoint(base_url=base, model=alias)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()

"""The embedded model served as an OpenAI-compatible endpoint on loopback.

Any client that speaks the OpenAI API (the ``"openai"`` judge, a framework's own LLM wrapper, the
frameworks' own metrics in the benchmark) can then read the same weights as the embedded judge.
Needs ``llama-cpp-python[server]``; the server runs in a child process for the duration of a block.

``python -m rt4chart_lab.serving ARGS`` is llama-cpp-python's server (the same
ARGS) with every request's prompt read from an empty KV cache (``fresh_prompts=True``). A fixture of
the tests and the lab, so not in the wheel.
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
def llama_server(
    model_path: Path, *, n_ctx: int = 8192, alias: str = "embedded-judge", fresh_prompts: bool = False
) -> Iterator[Endpoint]:
    """llama-cpp-python's OpenAI-compatible server on loopback, for the duration of the block. It
    serves one request at a time, with a fixed seed.

    ``fresh_prompts``: every request is answered as the first one after start is, so the same
    request always gets the same reply. The server otherwise keeps the previous request's KV
    cache and reads only what a new prompt adds to it; a repeated request then has its last
    prompt token read alone instead of in one batch with the rest, which moves the logits in their
    last bits, enough to flip a near tie. Slower (nothing is reused): for tests that compare
    clients on one endpoint."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = Path(tempfile.mkstemp(prefix="rt4chart-server-", suffix=".log")[1])
    with open(log, "w") as fh:
        module = "rt4chart_lab.serving" if fresh_prompts else "llama_cpp.server"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                module,
                "--model",
                str(model_path),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                str(n_ctx),
                "--chat_format",
                "chatml",
                "--model_alias",
                alias,
                "--n_threads",
                str(os.cpu_count() or 2),
                "--seed",
                "0",
            ],
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
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


def _serve_fresh_prompts() -> None:
    """llama-cpp-python's server, its model reading every prompt from an empty KV cache."""
    import runpy

    import llama_cpp

    class FreshPromptLlama(llama_cpp.Llama):
        def generate(self, tokens, *args, **kwargs):
            self.reset()  # no prefix of the previous request is reused: the prompt is read whole
            return super().generate(tokens, *args, **kwargs)

    llama_cpp.Llama = FreshPromptLlama  # what the server builds its model with (llama_cpp.server.model)
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _serve_fresh_prompts()

"""Models loaded through the one llama.cpp registry (the embedded judge's, and GASP's scorer's)
are freed before the interpreter tears llama-cpp-python down: otherwise each one left in a
registry printed an ignored ``TypeError`` traceback at exit, after every test session."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import atexit

    models = []

    def report():  # registered first, so it runs after the package's own exit hook
        print("closed", sum(m._model.model is None for m in models), "of", len(models))

    atexit.register(report)

    from rt4chart_plugins import GaspDetector, Verifier
    from rt4chart_plugins.llama_runtime import loaded as shared

    context, answer = ["The museum opens at 10 AM."], "The museum opens at 10 AM."
    GaspDetector("smollm2-135m", chunks=1).verify(context=context, answer=answer)
    Verifier("local", judge_kwargs={"model": "smollm2-135m", "cache": False}).verify(context=context, answer=answer)
    models = [llm for llm, _ in shared._LOADED.values()]
    """
)


def test_every_loaded_model_is_closed_at_exit_without_a_traceback(smollm2):
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "closed 2 of 2" in done.stdout, done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr

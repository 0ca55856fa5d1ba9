"""Shared fixtures: an isolated judge cache, the embedded model, and a real OpenAI-compatible server.

Every framework's telemetry is off and deepeval reads no ``.env`` file (set at import, before any
framework is imported: deepeval reads its settings then).

Hypothesis profiles, for every property test of the suite: ``fast`` (the default, the fast unit
run) tries 10 examples per property, ``ci`` (``HYPOTHESIS_PROFILE=ci``, set by the full run in
``scripts/test.sh``) 40, and ``fuzz`` (set by ``scripts/fuzz.sh``) ``RT4CHART_FUZZ_EXAMPLES``
(default 10,000). No deadline: the trained judge's first call loads it, and a slow machine is no
failure. A test's own ``@settings(max_examples=...)`` wins over every profile.

Under ``--dist loadfile`` (the fast run's) each test file runs whole in one worker, so its module
fixtures load once; the docs test is the exception: each page's blocks run whole, in document
order, so that the pages spread over the workers instead of queuing in one."""

from __future__ import annotations

import os
import re
import tempfile
from collections import OrderedDict
from pathlib import Path

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


def _load_hypothesis_profile() -> None:
    """Register the profiles and load the one ``HYPOTHESIS_PROFILE`` names (``fast`` by default).
    A page's venv in the release check holds the wheel and pytest alone, without hypothesis."""
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    suppress = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
                HealthCheck.filter_too_much]
    common = {"deadline": None, "suppress_health_check": suppress}
    settings.register_profile("fast", max_examples=10, derandomize=True, **common)
    settings.register_profile("ci", max_examples=40, derandomize=True, **common)
    settings.register_profile("fuzz", max_examples=int(os.environ.get("RT4CHART_FUZZ_EXAMPLES", "10000")),
                              database=None, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))


_load_hypothesis_profile()

#: fixtures that load a llama.cpp model or start its server: a test that uses one is an
#: integration test, and the fast unit run (`scripts/test.sh --fast`) leaves it out
_MODEL_FIXTURES = {"embedded_model_path", "smollm2", "embedded_judge", "openai_server", "llama_server"}
_SERVER_FIXTURES = {"openai_server", "llama_server"}


def pytest_collection_modifyitems(items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & _MODEL_FIXTURES:
            item.add_marker(pytest.mark.model)
        if used & _SERVER_FIXTURES:
            item.add_marker(pytest.mark.server)


#: the docs test: each page's blocks are one unit under ``--dist loadfile``
_DOCS_TEST = "tests/unit/test_docs.py"
_DOCS_BLOCK = re.compile(rf"^{re.escape(_DOCS_TEST)}::test_block\[(.+):\d+\]$")


def is_page(scope: str) -> bool:
    return scope.startswith(_DOCS_TEST + "::")


def load_scope(nodeid: str) -> str:
    """What one xdist worker runs whole, in order: a test file, or one docs page's blocks."""
    if m := _DOCS_BLOCK.match(nodeid):
        return f"{_DOCS_TEST}::{m.group(1)}"
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile``, but each docs page its own unit: the docs' blocks alone outlasted the
    rest of the suite in one worker. A page's blocks share its scratch folder, so they stay
    together and in document order; any other file's tests stay in one worker, so its module
    fixtures load once."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class PagesApart(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return load_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            # xdist queues the units by their number of tests, which put the pages (a few blocks,
            # tens of seconds each) last, one worker left to finish the longest alone
            if not self.ordered:
                self.ordered = True
                self.workqueue = OrderedDict(sorted(self.workqueue.items(), key=lambda unit: not is_page(unit[0])))
            super()._assign_work_unit(node)

    return PagesApart(config, log)


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
    from rt4chart_lab.serving import llama_server

    with llama_server(embedded_model_path, n_ctx=4096, alias="qwen-judge") as endpoint:
        yield endpoint.base_url


@pytest.fixture
def scripted() -> ScriptedJudge:
    return ScriptedJudge()


@pytest.fixture(scope="module")
def embedded_judge(embedded_model_path, tmp_path_factory):
    """The embedded judge (Qwen2.5-Coder-1.5B via llama.cpp) with an empty cache for each test
    module, so that no module passes from verdicts another one cached; the loaded model itself is
    shared by every judge instance."""
    from rt4chart_plugins.judges.cache import JudgeCache
    from rt4chart_plugins.judges.llama.judge import LlamaCppJudge

    return LlamaCppJudge(cache=JudgeCache(tmp_path_factory.mktemp("judge-cache") / "cache.sqlite"))



@pytest.fixture(scope="session")
def llama_server(openai_server):
    """llama-cpp-python's OpenAI-compatible server on loopback serving the embedded model (model
    alias ``qwen-judge``): a real model behind each framework's own LLM client. It is the one the
    core tests use (``tests/conftest.py``), started once per session."""
    return openai_server

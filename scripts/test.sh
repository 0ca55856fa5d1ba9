#!/usr/bin/env bash
# The test suite, against real components (what CI runs).
#   bash scripts/test.sh          everything: installs the package with every extra, builds
#                                 llama-cpp-python, pulls the models, runs the product's tests
#                                 (unit and integration), the lab's tests, then the release check
#                                 (scripts/release_check.sh: the built wheel with each extra alone)
#   bash scripts/test.sh --fast   every test not marked model, server, ray, browser or slow: tests/unit,
#                                 tests/reliability and the model-free tests of tests/integration, with
#                                 ruff and mypy over the product (tests/unit/test_lint.py): no native
#                                 build, no model download, no browser
# Any further arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEEPEVAL_TELEMETRY_OPT_OUT=YES DEEPEVAL_DISABLE_DOTENV=1 RAGAS_DO_NOT_TRACK=true \
       ANONYMIZED_TELEMETRY=False LANGCHAIN_TRACING_V2=false TOKENIZERS_PARALLELISM=false
if [ "${1:-}" = --fast ]; then
  shift
  # a .venv that the demo made holds the package alone: install what the unit tests import
  # (found, not imported: importing the four frameworks alone takes seconds)
  .venv/bin/python -c "import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in
    ('pytest', 'xdist', 'hypothesis', 'ruff', 'mypy', 'pandas', 'openai', 'ragas', 'deepeval', 'langchain_core',
     'llama_index.core')))" \
    2>/dev/null || RT4CHART_EXTRAS=openai,ragas,deepeval,langchain,llama-index,test \
    RT4CHART_LAB_EXTRAS=none bash scripts/setup.sh
  # two workers, each file in one of them (its module fixtures load once), but each docs page a
  # unit of its own (tests/conftest.py): the docs' blocks alone outlast the rest of the suite
  exec .venv/bin/python -m pytest -q -n 2 --dist loadfile \
    -m "not model and not server and not ray and not browser and not slow" tests "$@"
fi
# the property tests try 40 examples each here, 10 in the fast run (tests/conftest.py)
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
bash scripts/setup.sh
.venv/bin/rt4chart model pull --quiet
.venv/bin/rt4chart model pull smollm2-135m --quiet  # GASP tests: a 98 MB scorer
status=0
# the tests that drive a second llama.cpp judge or the docs' LLM examples run in a process of their
# own: sharing the loaded model with the embedded judge's tests left one of its claims unjudged
ISOLATED=(tests/integration/test_cascade.py tests/integration/test_docs_model.py)
.venv/bin/python -m pytest -q tests "${ISOLATED[@]/#/--ignore=}" "$@" || status=$?
.venv/bin/python -m pytest -q "${ISOLATED[@]}" "$@" || status=$?
(cd lab && ../.venv/bin/python -m pytest -q tests "$@") || status=$?
bash scripts/release_check.sh || status=$?
exit $status

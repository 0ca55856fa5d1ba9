#!/usr/bin/env bash
# The test suite, against real components: installs everything it needs (the package with every
# framework extra, llama-cpp-python, the embedded judge's model), then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/rt4chart model pull --quiet
.venv/bin/rt4chart model pull smollm2-135m --quiet  # GASP tests: a 98 MB scorer
export DEEPEVAL_TELEMETRY_OPT_OUT=YES DEEPEVAL_DISABLE_DOTENV=1 RAGAS_DO_NOT_TRACK=true \
       ANONYMIZED_TELEMETRY=False LANGCHAIN_TRACING_V2=false TOKENIZERS_PARALLELISM=false
exec .venv/bin/python -m pytest -q "$@"

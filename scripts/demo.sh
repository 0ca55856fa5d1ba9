#!/usr/bin/env bash
# The main job on the embedded offline judge: install, fetch the model (once), verify the shipped
# policy example and print the auditor's view.
set -euo pipefail
cd "$(dirname "$0")/.."
RT4CHART_EXTRAS=${RT4CHART_EXTRAS:-local} bash scripts/setup.sh
.venv/bin/rt4chart model pull
exec .venv/bin/rt4chart verify --context examples/policy/context.txt --answer-file examples/policy/answer.txt "$@"

#!/usr/bin/env bash
# The main job on the offline default judge (the packaged trained verifier): install the package
# as users do (built and installed, not editable; no model download, no native build), verify the
# shipped policy example, print the auditor's view.
# `bash scripts/demo.sh --judge local` runs the embedded LLM judge instead (builds llama.cpp and
# fetches its 1.1 GB model on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in
  *" --judge local "*|*" --judge=local "*) RT4CHART_EXTRAS=${RT4CHART_EXTRAS:-local} ;;
esac
RT4CHART_EXTRAS=${RT4CHART_EXTRAS-} RT4CHART_LAB_EXTRAS=${RT4CHART_LAB_EXTRAS-none} RT4CHART_EDITABLE=0 bash scripts/setup.sh
exec .venv/bin/rt4chart verify --context examples/policy/context.txt --answer-file examples/policy/answer.txt "$@"

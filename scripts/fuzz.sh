#!/usr/bin/env bash
# Property-based fuzzing of the public API, verify_many and the CLI batch with the trained judge
# (tests/reliability/test_properties.py), far past the suite's short profile, then a table of
# what the examples did.
#   bash scripts/fuzz.sh              10,000 examples of the API property, a tenth as many of each other one
#   bash scripts/fuzz.sh 50000        as many examples as given
# Any failure is shrunk by hypothesis and printed, and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-10000}"
stats="$(mktemp)"
trap 'rm -f "$stats"' EXIT
status=0
run() {  # property, examples
  HYPOTHESIS_PROFILE=fuzz RT4CHART_FUZZ_EXAMPLES="$2" RT4CHART_FUZZ_STATS="$stats.$1" TOKENIZERS_PARALLELISM=false \
    .venv/bin/python -m pytest -q -p no:cacheprovider "tests/reliability/test_properties.py::$1" || status=$?
}
run test_the_api_raises_only_invalid_input_and_every_report_holds "$examples"
run test_verify_many_reports_every_row_and_never_raises "$((examples / 10))"
run test_the_cli_batch_writes_one_row_per_input_line "$((examples / 10))"
run test_an_option_is_taken_or_refused_as_invalid_input "$((examples / 10))"
.venv/bin/python - "$stats" <<'PY'
import glob, json, sys
print("| property | examples | outcomes | scoring s | slowest s | slowest ms/char |")
print("|---|---:|---|---:|---:|---:|")
total = 0
for path in sorted(glob.glob(sys.argv[1] + ".*")):
    for name, s in json.load(open(path)).items():
        total += s["examples"]
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items()))
        print(f"| {name.removeprefix('test_')} | {s['examples']} | {outcomes} | {s['seconds']:.1f} | "
              f"{s['max_seconds']:.2f} | {s['max_ms_per_char']:.2f} |")
print(f"\n{total} examples in all")
PY
rm -f "$stats".*
exit $status

#!/usr/bin/env bash
# The release check: the package as users install it, each extra on its own (what CI runs, from
# scripts/test.sh).
#   bash scripts/release_check.sh                every extra
#   bash scripts/release_check.sh core ragas     the ones named
# It builds the sdist and, from the sdist, the wheel (what an install from PyPI gets); then, for each
# extra, a fresh venv holding that wheel with that extra alone (`pip install "rt4chart-plugins[X]"`)
# and runs scripts/release_smoke.py X there, from a folder outside the checkout, so the installed
# package is what is imported. It prints one line per extra with the seconds each step took.
# `docs` (in the default run, or named) then runs each user page's code blocks (README.md, docs/) in
# a venv holding the wheel with only the extras and packages the page's `docs-needs` marker names
# (tests/unit/test_docs.py; pytest added to run them), from a scratch folder outside the checkout.
# The venvs are the extras' own, grown page by page (fewer needs first, so that each holds exactly
# the page's needs when it runs: tests/unit/test_docs_pip.py --plan); a page none fits, or a run
# of `docs` alone, gets a venv of its own.
# Needs .venv (scripts/setup.sh): uv makes the venvs and installs into them, from its cache when it
# can; the [local] venv takes llama-cpp-python from the wheel scripts/llama_wheel.sh caches (never a
# source build); the [hf] venv takes torch's CPU wheel from pip's find-links folder when pip has one;
# the [openai] check talks to the embedded model behind llama.cpp's server, started from .venv
# (whose model `rt4chart model pull` fetched).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PYTHON=${PYTHON:-python3}
UV=.venv/bin/uv
ALL=(core local openai ragas deepeval langchain llama-index export ray hf)
EXTRAS=() DOCS=0
for arg in "$@"; do
  if [ "$arg" = docs ]; then DOCS=1; else EXTRAS+=("$arg"); fi
done
[ $# -gt 0 ] || { EXTRAS=("${ALL[@]}"); DOCS=1; }
for extra in "${EXTRAS[@]}"; do
  case " ${ALL[*]} " in *" $extra "*) ;; *) echo "unknown extra '$extra': use ${ALL[*]}" >&2; exit 2 ;; esac
done
[ -x "$UV" ] || { echo "no $UV: run bash scripts/setup.sh first (the dev extra installs uv)" >&2; exit 2; }
. scripts/llama_wheel.sh

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rt4chart-release.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export RT4CHART_CACHE_DIR=$WORK/judge-cache \
       DEEPEVAL_TELEMETRY_OPT_OUT=YES DEEPEVAL_DISABLE_DOTENV=1 RAGAS_DO_NOT_TRACK=true \
       ANONYMIZED_TELEMETRY=False LANGCHAIN_TRACING_V2=false TOKENIZERS_PARALLELISM=false \
       RAY_USAGE_STATS_ENABLED=0

started=$SECONDS
"$UV" build --quiet --python "$PYTHON" --out-dir "$WORK/dist" . 2>"$WORK/build.log" ||
  { cat "$WORK/build.log" >&2; exit 1; }
WHEEL=$(ls "$WORK"/dist/*.whl)
echo "built $(basename "$WHEEL") from $(basename "$(ls "$WORK"/dist/*.tar.gz)") in $((SECONDS - started)) s"

install() {  # one fresh venv: the wheel with one extra (the core: none)
  local extra=$1 venv=$WORK/venv-$1 spec args=()
  spec="rt4chart-plugins @ file://$WHEEL"
  [ "$extra" = core ] || spec="rt4chart-plugins[$extra] @ file://$WHEEL"
  if [ "$extra" = local ]; then
    args=(--find-links "$(dirname "$(llama_wheel .venv/bin/python)")" --only-binary llama-cpp-python)
  fi
  if [ "$extra" = hf ]; then  # uv reads no pip.conf: the folder pip finds the CPU torch wheel in, if one is set
    local links; links=$(.venv/bin/python -m pip config get global.find-links 2>/dev/null || true)
    [ -z "$links" ] || args=(--find-links "$links")
  fi
  "$UV" venv --quiet --python "$PYTHON" "$venv" &&
    "$UV" pip install --quiet --python "$venv/bin/python" "${args[@]}" "$spec"
}

# the venvs are made side by side (downloads and unpacking overlap); the checks run one at a time
started=$SECONDS
for extra in "${EXTRAS[@]}"; do
  install "$extra" >"$WORK/install-$extra.log" 2>&1 &
  echo $! >"$WORK/install-$extra.pid"
done
for extra in "${EXTRAS[@]}"; do
  if wait "$(cat "$WORK/install-$extra.pid")"; then echo ok >"$WORK/install-$extra.status"
  else echo failed >"$WORK/install-$extra.status"; fi
done
echo "installed ${#EXTRAS[@]} venvs in $((SECONDS - started)) s"

status=0
printf '%-12s %-8s %s\n' extra result seconds
for extra in "${EXTRAS[@]}"; do
  if [ "$(cat "$WORK/install-$extra.status")" != ok ]; then
    printf '%-12s %-8s %s\n' "$extra" "no-venv" "-"
    sed 's/^/    /' "$WORK/install-$extra.log" >&2
    status=1
    continue
  fi
  mkdir -p "$WORK/run-$extra"
  started=$SECONDS
  cmd=("$WORK/venv-$extra/bin/python" "$REPO/scripts/release_smoke.py" "$extra")
  [ "$extra" = openai ] && cmd=("$REPO/.venv/bin/python" "$REPO/scripts/release_smoke.py" serve -- "${cmd[@]}")
  if (cd "$WORK/run-$extra" && "${cmd[@]}") >"$WORK/smoke-$extra.log" 2>&1; then
    printf '%-12s %-8s %s\n' "$extra" ok "$((SECONDS - started))"
  else
    printf '%-12s %-8s %s\n' "$extra" FAILED "$((SECONDS - started))"
    tail -n 40 "$WORK/smoke-$extra.log" | sed 's/^/    /' >&2
    status=1
  fi
done

docs_install() {  # into a page's venv (made if new): the wheel with the extras it lacks, its packages, pytest
  local venv=$1 extras=$2 packages=$3 spec args=()
  spec="rt4chart-plugins @ file://$WHEEL"
  [ -z "$extras" ] || spec="rt4chart-plugins[$extras] @ file://$WHEEL"
  case ",$extras," in *,local,*)
    args=(--find-links "$(dirname "$(llama_wheel .venv/bin/python)")" --only-binary llama-cpp-python) ;;
  esac
  [ -x "$venv/bin/python" ] || "$UV" venv --quiet --python "$PYTHON" "$venv" || return 1
  # shellcheck disable=SC2086  # the packages are words
  "$UV" pip install --quiet --python "$venv/bin/python" "${args[@]}" "$spec" $packages pytest
}

if [ $DOCS = 1 ]; then
  built=()
  for extra in "${EXTRAS[@]}"; do
    [ "$(cat "$WORK/install-$extra.status")" != ok ] || built+=("$extra")
  done
  printf '%-32s %-12s %-8s %s\n' page venv result seconds
  mkdir -p "$WORK/docs-run"
  while IFS='|' read -r page venv extras packages; do
    dir="$WORK/venv-$venv"
    started=$SECONDS
    if ! docs_install "$dir" "$extras" "$packages" </dev/null >"$WORK/docs-venv.log" 2>&1; then
      printf '%-32s %-12s %-8s %s\n' "$page" "$venv" no-venv -
      sed 's/^/    /' "$WORK/docs-venv.log" >&2
      status=1
      continue
    fi
    # from a folder outside the checkout (the installed wheel is imported), without the project's
    # pytest settings; only this page's blocks, slow ones included (the diff page's pytest gate), the
    # model ones left to tests/integration/test_docs_model.py and lab-data ones skipped without the lab
    if (cd "$WORK/docs-run" && RT4CHART_DOCS_PAGE=$page "$dir/bin/python" -m pytest -q -p no:cacheprovider \
        -c /dev/null --rootdir "$REPO" -W ignore::pytest.PytestUnknownMarkWarning -k test_block \
        "$REPO/tests/unit/test_docs.py") \
        </dev/null >"$WORK/docs-$(basename "$page").log" 2>&1; then
      printf '%-32s %-12s %-8s %s\n' "$page" "$venv" ok "$((SECONDS - started))"
    else
      printf '%-32s %-12s %-8s %s\n' "$page" "$venv" FAILED "$((SECONDS - started))"
      tail -n 40 "$WORK/docs-$(basename "$page").log" | sed 's/^/    /' >&2
      status=1
    fi
  done < <(.venv/bin/python tests/unit/test_docs_pip.py --plan "${built[@]}")
fi
exit $status

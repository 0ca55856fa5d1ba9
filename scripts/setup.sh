#!/usr/bin/env bash
# Create .venv with the package and the extras in $RT4CHART_EXTRAS (default: everything the tests
# need), and the lab (lab/: benchmarks, training) with the extras in $RT4CHART_LAB_EXTRAS (default
# train,bench; "none" leaves the lab out). The embedded LLM judge's runtime is built only when an
# extra needs it (local, all, dev). The package is installed editable (the checkout is what runs)
# unless RT4CHART_EDITABLE=0, which installs it as users do (scripts/demo.sh).
# llama-cpp-python comes from the wheel that scripts/llama_wheel.sh builds once and caches.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${RT4CHART_EXTRAS-all,dev,ray,hf}  # set but empty: the core package only; hf: torch (the CPU wheel here)
LAB_EXTRAS=${RT4CHART_LAB_EXTRAS-train,bench}
. scripts/llama_wheel.sh

[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip

case ",$EXTRAS," in *,local,*|*,all,*|*,dev,*) NEED_LLAMA=1 ;; *) NEED_LLAMA=0 ;; esac
if [ "$NEED_LLAMA" = 1 ] && ! .venv/bin/python -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_VERSION')" 2>/dev/null; then
  WHEEL=$(llama_wheel .venv/bin/python)
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "$WHEEL"
fi

EDITABLE=(-e); [ "${RT4CHART_EDITABLE:-1}" != 0 ] || EDITABLE=()
.venv/bin/python -m pip install --quiet --disable-pip-version-check "${EDITABLE[@]}" ".${EXTRAS:+[$EXTRAS]}"
if [ "$LAB_EXTRAS" != none ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "./lab${LAB_EXTRAS:+[$LAB_EXTRAS]}"
fi

# The browser tests (tests/browser/) drive Debian's Chromium through Playwright, which pip installs
# without a browser; the full test run (the dev extra) installs Chromium with apt when it is missing.
case ",$EXTRAS," in *,dev,*) NEED_BROWSER=1 ;; *) NEED_BROWSER=0 ;; esac
if [ "$NEED_BROWSER" = 1 ] && [ -z "${RT4CHART_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the browser tests…" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } ||
      echo "could not install chromium: the browser tests will fail and say so" >&2
  else
    echo "the browser tests need Chromium: apt-get install chromium as root, or set RT4CHART_CHROMIUM" >&2
  fi
fi

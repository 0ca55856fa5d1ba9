#!/usr/bin/env bash
# Create .venv with the package and the extras in $RT4CHART_EXTRAS (default: everything the tests
# need), and the lab (lab/: benchmarks, training) with the extras in $RT4CHART_LAB_EXTRAS (default
# train,bench; "none" leaves the lab out). The embedded LLM judge's runtime is built only when an
# extra needs it (local, all, dev).
# llama-cpp-python is source-only on PyPI and its default native build crashes on some of our
# CPUs (AMX path), so it is built once with known-safe flags and the wheel is kept in
# ~/.cache/rt4chart/wheels/<flags>/ (a cache only: without it the build simply runs, ~10-15 min).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${RT4CHART_EXTRAS-all,dev,ray}  # set but empty: the core package only
LAB_EXTRAS=${RT4CHART_LAB_EXTRAS-train,bench}
LLAMA_VERSION=0.3.36

[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip

case ",$EXTRAS," in *,local,*|*,all,*|*,dev,*) NEED_LLAMA=1 ;; *) NEED_LLAMA=0 ;; esac
if [ "$NEED_LLAMA" = 1 ] && ! .venv/bin/python -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_VERSION')" 2>/dev/null; then
  SAFE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAMA_CURL=OFF"
  if grep -qw avx512f /proc/cpuinfo && grep -qw avx512_vnni /proc/cpuinfo && grep -qw avx512_bf16 /proc/cpuinfo; then
    FLAVOUR=avx512; CMAKE_ARGS="$SAFE -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"
    # AVX-VNNI (the VEX form) is a separate CPU feature: AMD Zen 4 has AVX512-VNNI but not it, and
    # a build that assumes it dies with SIGILL in the Q4_1 kernels (SmolLM2) on such a CPU.
    if grep -qw avx_vnni /proc/cpuinfo; then
      FLAVOUR=avx512-avxvnni; CMAKE_ARGS="$CMAKE_ARGS -DGGML_AVX_VNNI=ON"
    else
      CMAKE_ARGS="$CMAKE_ARGS -DGGML_AVX_VNNI=OFF"
    fi
  else
    FLAVOUR=avx2; CMAKE_ARGS="$SAFE -DGGML_AVX512=OFF"
  fi
  WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/rt4chart/wheels/$FLAVOUR"
  WHEEL=$(ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl 2>/dev/null | head -n1 || true)
  if [ -z "$WHEEL" ]; then
    echo "building llama-cpp-python $LLAMA_VERSION ($FLAVOUR flags; takes 10-15 minutes on 2 cores)…" >&2
    mkdir -p "$WHEELS"
    CMAKE_ARGS="$CMAKE_ARGS" .venv/bin/python -m pip wheel --quiet --no-deps --no-cache-dir \
      -w "$WHEELS" "llama-cpp-python==$LLAMA_VERSION"
    WHEEL=$(ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl | head -n1)
  fi
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "$WHEEL"
fi

.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${EXTRAS:+[$EXTRAS]}"
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

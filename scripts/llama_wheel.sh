# Sourced by scripts/setup.sh and scripts/release_check.sh: `llama_wheel PYTHON` prints the path of
# the llama-cpp-python wheel for this CPU, building it first (with PYTHON's pip) when it is not in
# the cache.
# llama-cpp-python is source-only on PyPI and its default native build crashes on some of our
# CPUs (AMX path), so it is built once with known-safe flags and the wheel is kept in
# ~/.cache/rt4chart/wheels/<flags>/ (a cache only: without it the build simply runs, ~10-15 min).
LLAMA_VERSION=0.3.36

llama_wheel() {
  local python=$1 flavour cmake_args wheels wheel
  local safe="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAMA_CURL=OFF"
  if grep -qw avx512f /proc/cpuinfo && grep -qw avx512_vnni /proc/cpuinfo && grep -qw avx512_bf16 /proc/cpuinfo; then
    flavour=avx512; cmake_args="$safe -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"
    # AVX-VNNI (the VEX form) is a separate CPU feature: AMD Zen 4 has AVX512-VNNI but not it, and
    # a build that assumes it dies with SIGILL in the Q4_1 kernels (SmolLM2) on such a CPU.
    if grep -qw avx_vnni /proc/cpuinfo; then
      flavour=avx512-avxvnni; cmake_args="$cmake_args -DGGML_AVX_VNNI=ON"
    else
      cmake_args="$cmake_args -DGGML_AVX_VNNI=OFF"
    fi
  else
    flavour=avx2; cmake_args="$safe -DGGML_AVX512=OFF"
  fi
  wheels="${XDG_CACHE_HOME:-$HOME/.cache}/rt4chart/wheels/$flavour"
  wheel=$(ls "$wheels"/llama_cpp_python-$LLAMA_VERSION-*.whl 2>/dev/null | head -n1 || true)
  if [ -z "$wheel" ]; then
    echo "building llama-cpp-python $LLAMA_VERSION ($flavour flags; takes 10-15 minutes on 2 cores)…" >&2
    mkdir -p "$wheels"
    CMAKE_ARGS="$cmake_args" "$python" -m pip wheel --quiet --no-deps --no-cache-dir \
      -w "$wheels" "llama-cpp-python==$LLAMA_VERSION" >&2
    wheel=$(ls "$wheels"/llama_cpp_python-$LLAMA_VERSION-*.whl | head -n1)
  fi
  echo "$wheel"
}

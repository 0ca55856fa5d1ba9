"""The llama.cpp build is checked against the CPU before a model is pulled or loaded.

pip's default build of llama-cpp-python compiles AMX kernels on a CPU with AMX, and those died
with SIGILL in GASP's first decode, killing a whole ragas or DeepEval run. The check reads the
build's ``llama_print_system_info()`` and /proc/cpuinfo's flags; here it is fed both as text, so
it runs on any machine, with or without llama-cpp-python.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from rt4chart_plugins import models
from rt4chart_plugins.errors import MissingExtra, ModelNotAvailable
from rt4chart_plugins.llama_runtime import build as runtime_build
from rt4chart_plugins.llama_runtime.build import build_problem, cpu_flags, enabled_features, safe_cmake_args

ROOT = Path(__file__).resolve().parents[3]
#: what llama-cpp-python 0.3.36 prints: pip's native build on a Sapphire Rapids, and the safe build
NATIVE_AMX = ("CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX_VNNI = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | "
              "AVX512 = 1 | AVX512_VBMI = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 | LLAMAFILE = 1 | "
              "OPENMP = 1 | REPACK = 1 | ")
SAFE = ("CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 1 | "
        "AVX512_VNNI = 1 | AVX512_BF16 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | ")
SAPPHIRE = ("fpu sse2 pni ssse3 fma f16c avx avx2 bmi2 avx512f avx512vbmi avx512_vnni avx512_bf16 avx_vnni "
            "amx_bf16 amx_tile amx_int8")
ZEN4 = "fpu sse2 pni ssse3 fma f16c avx avx2 bmi2 avx512f avx512vbmi avx512_vnni avx512_bf16"
HASWELL = "fpu sse2 pni ssse3 fma f16c avx avx2 bmi2"


def _flags(names: str) -> set[str]:
    return cpu_flags(f"processor\t: 0\nflags\t\t: {names}\nbugs\t\t: spectre_v1\n")


def test_the_builds_instruction_sets_are_read_from_its_system_info():
    assert enabled_features(NATIVE_AMX)[-4:] == ["AMX_INT8", "LLAMAFILE", "OPENMP", "REPACK"]
    assert "AMX_INT8" not in enabled_features(SAFE) and "AVX512" in enabled_features(SAFE)
    assert enabled_features("CPU : AVX = 0 | AVX2 = 1 |") == ["AVX2"]
    assert cpu_flags("processor : 0\n") is None


def test_a_native_build_with_amx_kernels_is_refused_with_the_rebuild_command():
    problem = build_problem(NATIVE_AMX, _flags(SAPPHIRE))
    assert problem and "AMX_INT8" in problem and "SIGILL" in problem
    assert "-DGGML_AMX_INT8=OFF" in problem and "-DGGML_AVX_VNNI=ON" in problem  # this CPU's safe flags
    assert 'pip install --force-reinstall --no-deps --no-cache-dir "llama-cpp-python==0.3.36"' in problem
    assert build_problem(NATIVE_AMX, _flags(SAPPHIRE), allow_amx=True) is None  # the user says they work here
    assert build_problem(NATIVE_AMX, None)  # no /proc/cpuinfo: AMX is still refused


def test_a_build_for_instructions_the_cpu_lacks_is_refused_and_a_safe_one_loads():
    assert build_problem(SAFE, _flags(SAPPHIRE)) is None
    assert build_problem(SAFE, _flags(ZEN4)) is None
    problem = build_problem(NATIVE_AMX, _flags(ZEN4), allow_amx=True)
    assert problem and "AVX_VNNI, AMX_INT8, which this CPU lacks" in problem and "-DGGML_AVX_VNNI=OFF" in problem
    problem = build_problem(SAFE, _flags(HASWELL))
    assert problem and "AVX512" in problem and "-DGGML_AVX512=OFF" in problem
    assert build_problem(SAFE, None) is None  # nothing to compare against: only AMX is refused


def test_the_safe_flags_are_those_of_the_wheel_script():
    script = (ROOT / "scripts" / "llama_wheel.sh").read_text()
    safe = re.search(r'local safe="([^"]+)"', script).group(1)
    assert runtime_build.SAFE_CMAKE_ARGS == safe
    assert f"LLAMA_VERSION={runtime_build.LLAMA_VERSION}" in script
    assert safe_cmake_args(_flags(SAPPHIRE)).endswith(
        "-DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI=ON")
    assert safe_cmake_args(_flags(HASWELL)) == f"{safe} -DGGML_AVX512=OFF"


def test_the_check_runs_before_a_model_is_pulled(monkeypatch):
    """Without llama-cpp-python, ``--method gasp`` pulled the 0.1 GB scorer, then said it was missing;
    an unsafe build must likewise be said before any download."""
    from rt4chart_plugins import GaspDetector

    pulled = []
    monkeypatch.setattr(models, "locate", lambda *a, **k: pulled.append(a) or Path("/nonexistent.gguf"))
    monkeypatch.setattr(runtime_build, "_CHECKED", [])
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # not installed
    with pytest.raises(MissingExtra, match=r"llama-cpp-python.*\[local\]|\[local\].*llama-cpp-python"):
        GaspDetector().scorer
    assert pulled == []

    class NativeBuild:
        @staticmethod
        def llama_print_system_info() -> bytes:
            return NATIVE_AMX.encode()

    monkeypatch.setitem(sys.modules, "llama_cpp", NativeBuild)
    monkeypatch.delenv(runtime_build.ALLOW_AMX, raising=False)
    with pytest.raises(ModelNotAvailable, match="AMX_INT8"):
        GaspDetector().scorer
    assert pulled == []

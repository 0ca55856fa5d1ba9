"""Whether the installed llama.cpp build can run on this CPU, checked before a model is pulled or loaded.

Apart from loading because the check is pure text work (``llama_print_system_info`` against
/proc/cpuinfo) that the build script and its tests read without a model, and because a build that
would die with SIGILL must be refused before the first decode, by every caller alike.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import MissingExtra, ModelNotAvailable

#: llama.cpp's name of an instruction set (``llama_print_system_info``) and the CPU's (/proc/cpuinfo)
CPU_FLAGS = {
    "SSE3": "pni",
    "SSSE3": "ssse3",
    "AVX": "avx",
    "AVX2": "avx2",
    "F16C": "f16c",
    "FMA": "fma",
    "BMI2": "bmi2",
    "AVX_VNNI": "avx_vnni",
    "AVX512": "avx512f",
    "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AMX_INT8": "amx_int8",
}
#: what scripts/llama_wheel.sh builds with on every CPU: no native tuning, no AMX
SAFE_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON "
    "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAMA_CURL=OFF"
)
LLAMA_VERSION = "0.3.36"  # the version scripts/llama_wheel.sh builds
#: set to 1 to load a build with AMX kernels anyway (on a CPU where they are known to work)
ALLOW_AMX = "RT4CHART_LLAMA_ALLOW_AMX"


def enabled_features(system_info: str) -> list[str]:
    """The instruction sets a llama.cpp build uses, from ``llama_print_system_info()``
    (``CPU : SSE3 = 1 | AVX = 1 | AMX_INT8 = 1 | …``)."""
    out = []
    for item in system_info.replace("\n", "|").split("|"):
        name, _, value = item.rpartition(":")[2].partition("=")
        if value.strip() == "1" and name.strip() not in out:
            out.append(name.strip())
    return out


def cpu_flags(cpuinfo: str) -> set[str] | None:
    """The CPU's instruction-set flags from /proc/cpuinfo's text; None when it names none."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    return None


def safe_cmake_args(flags: set[str] | None) -> str:
    """The build flags scripts/llama_wheel.sh picks for a CPU with ``flags``."""
    flags = flags or set()
    if {"avx512f", "avx512_vnni", "avx512_bf16"} <= flags:
        vnni = "ON" if "avx_vnni" in flags else "OFF"  # AVX-VNNI (VEX) is not AVX512-VNNI: Zen 4 has only the latter
        return f"{SAFE_CMAKE_ARGS} -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI={vnni}"
    return f"{SAFE_CMAKE_ARGS} -DGGML_AVX512=OFF"


def build_problem(system_info: str, flags: set[str] | None, *, allow_amx: bool = False) -> str | None:
    """Why this llama.cpp build would kill the process on this CPU, with the command that
    rebuilds it; None when it is safe to load.

    A build that uses an instruction the CPU lacks dies with SIGILL at its first kernel. pip's
    default build of llama-cpp-python (``GGML_NATIVE``) also compiles llama.cpp's AMX kernels on
    a CPU that has AMX, and those died with SIGILL in ``decode`` (GASP's scorer, the embedded
    judge): a signal no error channel of a ragas or DeepEval run can catch. So such a build is
    refused before its first decode, unless ``RT4CHART_LLAMA_ALLOW_AMX=1`` says it works here."""
    used = enabled_features(system_info)
    lacking = [f for f in used if f in CPU_FLAGS and flags is not None and CPU_FLAGS[f] not in flags]
    amx = [f for f in used if f.startswith("AMX")]
    if lacking:
        why = f"it uses {', '.join(lacking)}, which this CPU lacks: its first kernel would die with SIGILL"
    elif amx and not allow_amx:
        why = (
            f"it was built with llama.cpp's {', '.join(amx)} kernels (pip's default native build on a CPU with "
            f"AMX), which die with SIGILL in decode; set {ALLOW_AMX}=1 if they are known to work on this machine"
        )
    else:
        return None
    return (
        f"this llama-cpp-python build cannot run here: {why}. Rebuild it with the safe flags: "
        f'CMAKE_ARGS="{safe_cmake_args(flags)}" pip install --force-reinstall --no-deps --no-cache-dir '
        f'"llama-cpp-python=={LLAMA_VERSION}" (from a checkout, `bash scripts/setup.sh` does this)'
    )


_CHECKED: list[Any] = []


def require_llama_cpp() -> Any:
    """The ``llama_cpp`` module, once it is known to run on this CPU: :class:`MissingExtra` when it
    is not installed, :class:`ModelNotAvailable` naming the rebuild when :func:`build_problem`
    finds one. Called before a model is pulled or loaded, so neither is wasted."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise MissingExtra("llama-cpp-python", "local") from exc
    if not _CHECKED:
        info = llama_cpp.llama_print_system_info()
        info = info.decode(errors="replace") if isinstance(info, bytes) else str(info)
        try:
            cpuinfo: str | None = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:  # not Linux: the instruction sets cannot be compared, only AMX is refused
            cpuinfo = None
        problem = build_problem(
            info,
            cpu_flags(cpuinfo) if cpuinfo else None,
            allow_amx=os.environ.get(ALLOW_AMX, "") in ("1", "true", "yes"),
        )
        if problem:
            raise ModelNotAvailable(problem)
        _CHECKED.append(llama_cpp)
    return llama_cpp

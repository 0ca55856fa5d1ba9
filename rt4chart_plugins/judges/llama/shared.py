"""One loaded llama.cpp model per (file, settings) per process, with the lock that serializes it,
and the base of the classes that drive such a model directly.

A loaded model holds one sequence and its KV cache, so its callers (the embedded judge, GASP's
scorer, the hidden-state reader) must not interleave; sharing the instance also keeps a second
judge or detector on the same file from loading it into memory again.
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import MissingExtra, ModelNotAvailable

_LOADED: dict[tuple, tuple[Any, threading.Lock]] = {}


_LOAD_LOCK = threading.Lock()

#: every model this process loaded, closed by :func:`_close_all` at exit
_OPEN: list[Any] = []


def close_at_exit(llm: Any) -> Any:
    """Free ``llm`` when the interpreter exits, and return it.

    llama-cpp-python frees a model in ``Llama.__del__``; for a model held in a module-level
    registry that runs during interpreter shutdown, after the library's own globals are gone,
    and prints an ignored ``TypeError`` traceback per model. An ``atexit`` hook runs before that
    teardown, while the library is still whole."""
    _OPEN.append(llm)
    return llm


@atexit.register
def _close_all() -> None:
    while _OPEN:
        llm = _OPEN.pop()
        try:
            llm.close()
        except Exception:  # noqa: BLE001 - exiting anyway; one model's failure must not keep the others open
            pass


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


def shared_llama(model_path: str | Path, **params: Any) -> tuple[Any, threading.Lock]:
    """The ``llama_cpp.Llama`` for ``model_path`` loaded with ``params``, and its lock."""
    llama_cpp = require_llama_cpp()
    key = (str(Path(model_path).resolve()), tuple(sorted(params.items())))
    with _LOAD_LOCK:
        if key not in _LOADED:
            llm = llama_cpp.Llama(model_path=str(model_path), verbose=False, **params)
            _LOADED[key] = (close_at_exit(llm), threading.Lock())
        return _LOADED[key]


class DirectLlama:
    """A GGUF model that is driven through llama.cpp's context and batch objects rather than the
    high-level API (GASP's scorer, the hidden-state reader). Loaded on first use; subclasses add
    their load settings in :meth:`_params`."""

    def __init__(self, model_path: str | Path, *, n_ctx: int, n_threads: int | None = None, n_batch: int = 512):
        self.model_path = Path(model_path)
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self.n_batch = n_batch
        self._requested_ctx = n_ctx
        self._llm: Any = None
        self._lock = threading.Lock()

    def _params(self) -> dict[str, Any]:
        return {
            "n_ctx": self._requested_ctx,
            "n_batch": self.n_batch,
            "n_ubatch": self.n_batch,
            "n_threads": self.n_threads,
        }

    def load(self) -> Any:
        if self._llm is None:
            self._llm, self._lock = shared_llama(self.model_path, **self._params())
        return self._llm

    @property
    def n_ctx(self) -> int:
        return self.load().n_ctx()

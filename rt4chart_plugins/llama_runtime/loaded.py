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

from rt4chart_plugins.llama_runtime.build import require_llama_cpp

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

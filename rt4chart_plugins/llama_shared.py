"""One loaded llama.cpp model per (file, settings) per process, with the lock that serializes it.

A loaded model holds one sequence and its KV cache, so callers that drive it directly (GASP's
scorer, the hidden-state reader) must not interleave; sharing the instance also keeps a second
detector on the same file from loading it into memory again.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from .errors import MissingExtra

_LOADED: dict[tuple, tuple[Any, threading.Lock]] = {}
_LOAD_LOCK = threading.Lock()


def shared_llama(model_path: str | Path, **params: Any) -> tuple[Any, threading.Lock]:
    """The ``llama_cpp.Llama`` for ``model_path`` loaded with ``params``, and its lock."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise MissingExtra("llama-cpp-python", "local") from exc
    key = (str(Path(model_path).resolve()), tuple(sorted(params.items())))
    with _LOAD_LOCK:
        if key not in _LOADED:
            _LOADED[key] = (llama_cpp.Llama(model_path=str(model_path), verbose=False, **params), threading.Lock())
        return _LOADED[key]

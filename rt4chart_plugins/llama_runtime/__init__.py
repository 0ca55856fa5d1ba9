"""The llama.cpp runtime that the embedded judge and GASP's scorer both stand on: whether the
installed build can run on this CPU (``build``), and one loaded model per file and settings per
process, with its lock (``loaded``).

A room of its own, below the judges and GASP, so that loading GASP does not load a judge and
neither owns what the other uses. Nothing here imports a judge or GASP, and ``llama_cpp`` itself is
imported only when a model is asked for.
"""

from rt4chart_plugins.llama_runtime.build import require_llama_cpp
from rt4chart_plugins.llama_runtime.loaded import DirectLlama, shared_llama

__all__ = ["DirectLlama", "require_llama_cpp", "shared_llama"]

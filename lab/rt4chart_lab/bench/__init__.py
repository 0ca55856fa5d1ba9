"""``rt4chart bench``: measure RT4CHART on real annotated data (RAGTruth, WiCE).

Small modules, each testable without a model: ``datasets`` (loaders, subsets), ``metrics`` (pure
functions), ``systems`` (what is compared), ``runner`` (resumable per-row predictions), ``report``
(``summary.json``, ``table.md``).
"""

from rt4chart_lab.data.datasets import RagTruthRow, WiceRow, load_ragtruth, load_wice, resolve_data_dir
from rt4chart_lab.bench.systems import SYSTEMS, System

__all__ = ["SYSTEMS", "RagTruthRow", "System", "WiceRow", "load_ragtruth", "load_wice", "resolve_data_dir"]

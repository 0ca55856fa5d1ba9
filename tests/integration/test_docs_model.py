"""The docs' blocks that need the embedded LLM or GASP's scorer (``<!-- docs-test: model -->``),
run for real, the way ``tests/unit/test_docs.py`` runs every other block (see its docstring).

A model block that also needs the lab's data (``<!-- docs-test: model lab-data -->``) is skipped
without it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("docs_blocks", Path(__file__).resolve().parents[1] / "unit" / "test_docs.py")
docs = importlib.util.module_from_spec(_spec)
sys.modules["docs_blocks"] = docs  # its dataclasses look their module up there
_spec.loader.exec_module(docs)

pytestmark = pytest.mark.model


@pytest.mark.parametrize("block", docs.params(docs.cases(model=True)))
def test_model_block(block, embedded_model_path, smollm2, tmp_path_factory, monkeypatch):
    docs.run_block(block, tmp_path_factory, monkeypatch)

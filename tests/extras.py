"""Marks for tests that build a judge whose extra the fast run does not install."""

import importlib.util

import pytest

#: the embedded LLM's runtime (the [local] extra): ``local`` and ``auto`` are refused when built
#: without it, so a test that builds them runs where the full test command installed it
needs_local = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="needs the [local] extra (llama-cpp-python)"
)

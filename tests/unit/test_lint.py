"""The product's style and types, checked in the fast run: ``ruff check``, ``ruff format --check``
and ``mypy``, each over what pyproject.toml names (``rt4chart_plugins/`` and ``adapters/``).

Each runs as a subprocess, so the xdist worker that takes this file runs them beside the other
tests. mypy keeps its cache in ``.mypy_cache``: a warm check takes about a second, a cold one
several."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(tool: str, *args: str) -> None:
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f'{tool} is not installed: pip install -e ".[test]"')
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{tool} {' '.join(args)}:\n{done.stdout}{done.stderr}"


def test_ruff_finds_nothing():
    _run("ruff", "check", "--no-fix", "--output-format", "concise")


def test_the_code_is_ruff_formatted():
    _run("ruff", "format", "--check", "--diff")


def test_mypy_finds_no_type_error():
    _run("mypy")

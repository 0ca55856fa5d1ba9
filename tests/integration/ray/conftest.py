"""The Ray tests' fixtures: the corpus and plain ``verify_many`` as the reference. Every test
module here that starts Ray processes is marked ``ray`` (left out of the fast unit run) and
skipped without the ``[ray]`` extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from corpus import corpus  # noqa: E402
from ray_helpers import comparable  # noqa: E402


@pytest.fixture(scope="session")
def rows() -> list[dict]:
    return corpus(200)


@pytest.fixture(scope="session")
def reference(rows) -> dict[str, dict]:
    """Plain ``verify_many`` on the same rows with the same (default, trained) judge."""
    from rt4chart_plugins import Verifier

    reports = Verifier().verify_many(rows)
    return {r["id"]: comparable(rep.model_dump(mode="json")) for r, rep in zip(rows, reports)}

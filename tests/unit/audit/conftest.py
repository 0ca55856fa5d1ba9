"""The audit's real reports (tests/audit_samples.py), made once per session."""

from __future__ import annotations

import pytest

from rt4chart_plugins import Verifier
from rt4chart_plugins.types import BatchRow
from audit_samples import batch_rows


@pytest.fixture(scope="session")
def verifier() -> Verifier:
    return Verifier("trained")


@pytest.fixture(scope="session")
def audit_rows(verifier) -> list[BatchRow]:
    """What ``rt4chart verify`` writes for a batch of five samples, one of which failed."""
    return batch_rows(verifier)

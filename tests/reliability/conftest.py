"""The counts ``scripts/fuzz.sh`` prints for the property tests.

The hypothesis profiles live in ``tests/conftest.py``: ``fast`` (the default) runs 10 examples per
property, ``ci`` (the full run) 40, and ``fuzz`` (``HYPOTHESIS_PROFILE=fuzz``, set by
scripts/fuzz.sh) ``RT4CHART_FUZZ_EXAMPLES`` (default 10,000) examples of the main property. Time
is measured per character in the fuzz table instead of failing a test on a slow machine.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict

import pytest

#: per property: examples, how they ended, the slowest seconds per input character
STATS: dict[str, dict] = defaultdict(lambda: {"examples": 0, "outcomes": defaultdict(int), "seconds": 0.0,
                                              "max_ms_per_char": 0.0, "max_seconds": 0.0})


@pytest.fixture
def fuzz_stats(request):
    return STATS[request.node.originalname]


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("RT4CHART_FUZZ_STATS")
    if path and STATS:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({k: {**v, "outcomes": dict(v["outcomes"])} for k, v in STATS.items()}, fh, indent=1)

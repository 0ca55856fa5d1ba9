"""Hypothesis profiles for the property tests, and the counts ``scripts/fuzz.sh`` prints.

``ci`` (the default) runs a few dozen examples per property, so the suite stays quick; ``fuzz``
(``HYPOTHESIS_PROFILE=fuzz``, set by scripts/fuzz.sh) runs ``RT4CHART_FUZZ_EXAMPLES`` (default
10,000) examples of the main property. No deadline: the trained judge's first call loads it, and
time is measured per character in the fuzz table instead of failing a test on a slow machine.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, settings

_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
             HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_SUPPRESS, derandomize=True)
settings.register_profile("fuzz", max_examples=int(os.environ.get("RT4CHART_FUZZ_EXAMPLES", "10000")), deadline=None,
                          suppress_health_check=_SUPPRESS, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

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

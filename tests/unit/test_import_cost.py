"""Importing the package loads what the default detector needs, not GASP's llama.cpp path.

GASP's scorer and the embedded judge were once most of ``import rt4chart_plugins`` (0.34 of
0.49 s) for every user, the trained judge's included. They now load when first asked for; the
public name ``GaspDetector`` still imports from the package's face.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("rt4chart_plugins.gasp.", "rt4chart_plugins.judges.llama", "rt4chart_plugins.llama_runtime", "llama_cpp")


def _loaded_after(code: str) -> list[str]:
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split()


def test_importing_the_package_loads_neither_gasp_nor_the_llama_runtime():
    heavy = [m for m in _loaded_after("import rt4chart_plugins") if m.startswith(HEAVY)]
    assert heavy == []


def test_gasp_detector_still_imports_from_the_face_and_loads_gasp_then():
    loaded = _loaded_after(
        "from rt4chart_plugins import GaspDetector\n"
        "from rt4chart_plugins.gasp import GaspDetector as Same, Calibration, DEFAULT_SCORER\n"
        "assert GaspDetector is Same and GaspDetector.__name__ == 'GaspDetector' and DEFAULT_SCORER"
    )
    assert "rt4chart_plugins.gasp.detector" in loaded
    assert "rt4chart_plugins.judges.llama" not in loaded  # GASP stands on the runtime, not on a judge


def test_an_unknown_name_is_still_an_attribute_error():
    import pytest

    import rt4chart_plugins
    import rt4chart_plugins.gasp

    with pytest.raises(AttributeError):
        rt4chart_plugins.NoSuchThing  # noqa: B018
    with pytest.raises(AttributeError):
        rt4chart_plugins.gasp.NoSuchThing  # noqa: B018

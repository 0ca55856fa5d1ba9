"""Importing the package loads what the default detector needs, not GASP's llama.cpp path.

GASP's scorer and the embedded judge were once most of ``import rt4chart_plugins`` (0.34 of
0.49 s) for every user, the trained judge's included. They now load when first asked for; the
public name ``GaspDetector`` still imports from the package's face. The factory, which the
adapters and the Ray workers build through, loads GASP only to build a GASP detector; lemminflect
(a quarter of a second) loads on the first word a claim or a rule asks about.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("rt4chart_plugins.gasp.", "rt4chart_plugins.judges.llama", "rt4chart_plugins.llama_runtime", "llama_cpp")


def _loaded_after(code: str) -> list[str]:
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split()


def test_importing_the_package_loads_neither_gasp_nor_the_llama_runtime():
    heavy = [m for m in _loaded_after("import rt4chart_plugins") if m.startswith(HEAVY)]
    assert heavy == []


@pytest.mark.parametrize("module", ["rt4chart_plugins.factory", "rt4chart_plugins.adapters.common"])
def test_the_factory_and_the_adapters_load_gasp_only_when_a_gasp_detector_is_built(module):
    """The adapters and each Ray worker build their detector through the factory: an RT4CHART
    one must not bring GASP's llama.cpp path with it."""
    assert [m for m in _loaded_after(f"import {module}") if m.startswith(HEAVY)] == []
    built = _loaded_after(
        "from rt4chart_plugins.factory import make_detector\nassert make_detector('gasp', chunks=3).config.chunks == 3"
    )
    assert "rt4chart_plugins.gasp.detector" in built


def test_importing_the_package_leaves_lemminflect_for_the_first_word():
    assert "lemminflect" not in _loaded_after("import rt4chart_plugins")
    loaded = _loaded_after("from rt4chart_plugins.rules.novelty import forms\nassert 'l:report' in forms('reports')")
    assert "lemminflect" in loaded


def test_gasp_detector_still_imports_from_the_face_and_loads_gasp_then():
    loaded = _loaded_after(
        "from rt4chart_plugins import GaspDetector\n"
        "from rt4chart_plugins.gasp import GaspDetector as Same, Calibration, DEFAULT_SCORER\n"
        "assert GaspDetector is Same and GaspDetector.__name__ == 'GaspDetector' and DEFAULT_SCORER"
    )
    assert "rt4chart_plugins.gasp.detector" in loaded
    assert "rt4chart_plugins.judges.llama" not in loaded  # GASP stands on the runtime, not on a judge


def test_an_unknown_name_is_still_an_attribute_error():
    import rt4chart_plugins
    import rt4chart_plugins.gasp

    with pytest.raises(AttributeError):
        rt4chart_plugins.NoSuchThing  # noqa: B018
    with pytest.raises(AttributeError):
        rt4chart_plugins.gasp.NoSuchThing  # noqa: B018

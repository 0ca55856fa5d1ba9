"""Importing the package loads what the default detector needs, not GASP's llama.cpp path.

GASP's scorer and the embedded judge were once most of ``import rt4chart_plugins`` (0.34 of
0.49 s) for every user, the trained judge's included. They now load when first asked for; the
public name ``GaspDetector`` still imports from the package's face. The factory, which the
adapters and the Ray workers build through, loads GASP only to build a GASP detector; lemminflect
(a quarter of a second) loads on the first word a claim or a rule asks about.

The package's face goes further: each public name is imported on first use (PEP 562), so
``import rt4chart_plugins`` alone loads the package's ``__init__`` and little of the standard
library. Modules are counted here, never timed: a timed test fails on a loaded machine.
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


#: what the face must not load before a name is asked for: the numerics, the validation library
#: and everything built on it, the model runtimes and the lemmatiser
NOT_ON_IMPORT = ("numpy", "pydantic", "onnxruntime", "tokenizers", "lemminflect", "rt4chart_plugins.")

#: standard-library modules the face may bring beyond a bare interpreter's (``typing`` and what it pulls)
FACE_BUDGET = 8


def test_importing_the_package_alone_loads_only_its_face():
    bare = set(_loaded_after("pass"))
    loaded = set(_loaded_after("import rt4chart_plugins"))
    assert sorted(m for m in loaded if m.startswith(NOT_ON_IMPORT)) == []
    assert "rt4chart_plugins" in loaded
    assert len(loaded - bare) <= FACE_BUDGET, sorted(loaded - bare)


def test_every_public_name_resolves_and_loads_its_home_then():
    loaded = _loaded_after(
        "import rt4chart_plugins, sys\n"
        "assert 'rt4chart_plugins.verifier' not in sys.modules and 'Verifier' in dir(rt4chart_plugins)\n"
        "for name in rt4chart_plugins.__all__:\n"
        "    value = getattr(rt4chart_plugins, name)\n"
        "    assert value.__name__ == name and value.__module__.startswith('rt4chart_plugins.'), name\n"
        "    assert vars(rt4chart_plugins)[name] is value, name  # kept: the next read is a plain attribute"
    )
    assert {"rt4chart_plugins.verifier", "rt4chart_plugins.gasp.detector", "rt4chart_plugins.guard"} <= set(loaded)


def test_a_report_shows_the_audit_card_whichever_import_loaded_the_types():
    """The package hands ``Report`` its notebook card when the types load, not when it is imported:
    a report read through ``rt4chart_plugins.types`` alone still draws the card."""
    _loaded_after(
        "from rt4chart_plugins.types import Report\n"
        "from rt4chart_plugins.audit.html import report_card\n"
        "report = Report(label=None, hallucinated=False, score=1.0, state='no_claims', answer='Hi.', judge='x')\n"
        "assert report._repr_html_() == report_card(report) and 'rt4c card' in report._repr_html_()"
    )

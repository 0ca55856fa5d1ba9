"""Random-weight verifiers built here from a config, with a word-level tokenizer built here too.

Nothing is downloaded: the tests, the release check and the speed benchmark need real
transformers models of real architectures (BERT, DeBERTa-v2/v3, ModernBERT, T5) in the folder layout
``save_pretrained`` writes, not their trained weights. Their verdicts mean nothing; their shapes,
labels, tokenizers and timings are those of the real thing. Needs the ``[hf]`` extra. A fixture,
so the lab's and not the wheel's; it imports nothing else of the lab.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: sizes: a tiny model for tests (milliseconds a pair), a base-size DeBERTa-v3 (184M parameters) for timing
ARCHITECTURES = ("bert", "deberta", "deberta-v3-base", "modernbert", "t5")
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
T5_SPECIALS = ["<pad>", "</s>", "<unk>"]
#: the sizes of microsoft/deberta-v3-base, over the tiny encoder's
DEBERTA_V3_BASE = {
    "vocab_size": 128100,
    "hidden_size": 768,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "intermediate_size": 3072,
}
_WORDS = re.compile(r"[A-Za-z]+|\d|[^\sA-Za-z\d]")
#: words every toy tokenizer knows besides the ones it is given
BASE_TEXT = (
    "the a an of to in on and or not no is are was were be it its this that for with as by at from "
    "trial free days users new verified policy support email priority extend once all can only lasts "
    "includes applies needed verification premise hypothesis : . , ? ! 0 1 2 3 4 5 6 7 8 9 yes"
)


def _vocab(words: Iterable[str], specials: list[str]) -> dict[str, int]:
    vocab = {t: i for i, t in enumerate(specials)}
    for w in words:
        for token in _WORDS.findall(w.lower()):
            vocab.setdefault(token, len(vocab))
    return vocab


def build_tokenizer(kind: str, texts: Iterable[str] = (), *, model_max_length: int = 512) -> Any:
    """A fast tokenizer over the words of ``texts`` and :data:`BASE_TEXT` (others read as unknown):
    BERT-style pairs (``[CLS] a [SEP] b [SEP]``) or T5-style text (``a </s>``)."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    t5 = kind == "t5"
    specials = T5_SPECIALS if t5 else SPECIALS
    vocab = _vocab([BASE_TEXT, *texts], specials)
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>" if t5 else "[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(True)])
    if t5:
        tok.post_processor = processors.TemplateProcessing(
            single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", vocab["</s>"])]
        )
        return PreTrainedTokenizerFast(
            tokenizer_object=tok,
            eos_token="</s>",
            pad_token="<pad>",
            unk_token="<unk>",
            model_max_length=model_max_length,
            model_input_names=["input_ids", "attention_mask"],
        )
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=model_max_length,
    )


def build_model(
    directory: str | Path,
    architecture: str = "bert",
    *,
    id2label: Mapping[int, str] | None = None,
    texts: Iterable[str] = (),
    max_length: int = 128,
    seed: int = 0,
    favour: str | None = None,
) -> Path:
    """A random ``architecture`` model and its tokenizer saved into ``directory``; ``id2label``:
    its classes (default entailment, neutral, contradiction); ``favour``: a class name whose output
    bias is raised so that the model says it for every pair (a classifier's labels can be checked
    through a verdict)."""
    import torch
    import transformers

    if architecture not in ARCHITECTURES:
        raise ValueError(f"architecture: one of {ARCHITECTURES}")
    directory = Path(directory)
    torch.manual_seed(seed)
    labels = dict(id2label or {0: "entailment", 1: "neutral", 2: "contradiction"})
    head = {"id2label": labels, "label2id": {v: k for k, v in labels.items()}}
    tok = build_tokenizer("t5" if architecture == "t5" else "bert", texts, model_max_length=max_length)
    if architecture == "modernbert":  # it takes no token type ids
        tok.model_input_names = ["input_ids", "attention_mask"]
    vocab = len(tok)
    model: Any
    config: Any
    # the tiny encoder every classifier here is built on (the base-size DeBERTa overrides its sizes)
    encoder = {
        "vocab_size": vocab,
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 64,
        "max_position_embeddings": max_length,
        **head,
    }
    if architecture == "bert":
        config = transformers.BertConfig(**encoder)
        model = transformers.BertForSequenceClassification(config)
    elif architecture.startswith("deberta"):
        base = architecture == "deberta-v3-base"
        config = transformers.DebertaV2Config(
            **{**encoder, **(DEBERTA_V3_BASE if base else {})},
            relative_attention=True,
            position_buckets=256 if base else 32,
            max_relative_positions=-1,
            pos_att_type=["p2c", "c2p"],
            norm_rel_ebd="layer_norm",
            share_att_key=True,
            position_biased_input=False,
            type_vocab_size=0,
            pad_token_id=0,
        )
        model = transformers.DebertaV2ForSequenceClassification(config)
    elif architecture == "modernbert":
        config = transformers.ModernBertConfig(
            **encoder,
            global_attn_every_n_layers=1,
            local_attention=16,
            pad_token_id=tok.pad_token_id,
            cls_token_id=tok.cls_token_id,
            sep_token_id=tok.sep_token_id,
            bos_token_id=tok.cls_token_id,
            eos_token_id=tok.sep_token_id,
        )
        model = transformers.ModernBertForSequenceClassification(config)
    else:
        config = transformers.T5Config(
            vocab_size=vocab,
            d_model=32,
            d_kv=8,
            d_ff=64,
            num_layers=2,
            num_heads=4,
            decoder_start_token_id=0,
            pad_token_id=0,
            eos_token_id=1,
        )
        model = transformers.T5ForConditionalGeneration(config)
    if favour is not None:
        with torch.no_grad():
            model.classifier.bias[model.config.label2id[favour]] += 8.0
    model.eval()
    model.save_pretrained(directory)
    tok.save_pretrained(directory)
    return directory

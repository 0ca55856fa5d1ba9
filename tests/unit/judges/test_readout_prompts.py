"""The readout prompts keep the wording the embedded judge's quality was measured with."""

from __future__ import annotations

from rt4chart_plugins.judges import prompts
from rt4chart_plugins.types import Sentence


def _sentences(*texts: str) -> list[Sentence]:
    out, at = [], 0
    for i, t in enumerate(texts):
        out.append(Sentence(id=i, text=t, start=at, end=at + len(t)))
        at += len(t) + 1
    return out


def test_the_readout_prompts_keep_the_wording_their_quality_was_measured_with():
    """The sample's text appears as it is, and the decomposition prompt is the one the embedded
    judge's measurements used (its cache keys depend on it)."""
    head = prompts.readout_context(_sentences("The lab opens at 9."), "When?")
    assert head == "Document:\n[0] The lab opens at 9.\n\nThe document was retrieved to answer: When?\n\n"
    assert prompts.readout_decompose("It is free.", "The trial.") == (
        "Previous sentences: The trial.\nSentence: It is free.\n\n" + prompts.READOUT_DECOMPOSE)
    assert prompts.readout_decompose("It is free.", "").startswith("Sentence: It is free.")

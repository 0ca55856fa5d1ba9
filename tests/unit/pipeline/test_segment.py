import json

from rt4chart_plugins.pipeline.segment import segment_answer, segment_context


def test_answer_offsets_are_exact_and_unicode_safe():
    answer = "Ça coûte 5 €. L'été dure 3 mois! Ünïcödé ends here."
    sentences = segment_answer(answer)
    assert [s.text for s in sentences] == ["Ça coûte 5 €.", "L'été dure 3 mois!", "Ünïcödé ends here."]
    for s in sentences:
        assert answer[s.start : s.end] == s.text


def test_repeated_sentence_maps_to_its_own_occurrence():
    answer = "It is open. It rains. It is open."
    sentences = segment_answer(answer)
    assert [s.start for s in sentences if s.text == "It is open."] == [0, 22]


def test_punctuation_only_pieces_are_dropped():
    assert segment_answer("...  !!") == []
    assert segment_answer("") == []


def test_passages_keep_their_index_and_local_offsets():
    passages = ["First one. Second one.", "Third, in another passage."]
    sentences = segment_context(passages)
    assert [(s.id, s.passage) for s in sentences] == [(0, 0), (1, 0), (2, 1)]
    for s in sentences:
        assert passages[s.passage][s.start : s.end] == s.text


def test_json_context_is_split_by_field_with_offsets_into_the_original():
    record = {"name": "Finch & Fork", "hours": {"Monday": "17:30-23:00", "Sunday": "9:0-14:0"},
              "attributes": {"WiFi": "free", "OutdoorSeating": False}, "stars": 4.5,
              "tags": ["brunch", "bar"]}
    text = json.dumps(record)
    units = segment_context(text)
    by_field = {u.field: u for u in units}
    assert by_field["hours.Monday"].text == "hours.Monday: 17:30-23:00"
    assert text[by_field["hours.Monday"].start : by_field["hours.Monday"].end] == '"Monday": "17:30-23:00"'
    assert by_field["attributes.OutdoorSeating"].text == "attributes.OutdoorSeating: no"
    assert by_field["stars"].text == "stars: 4.5"
    assert by_field["tags"].text == "tags: brunch, bar"


def test_long_json_text_field_is_split_into_sentences():
    review = "The best brunch in town, with friendly staff. " * 6 + "Service was slow on Sunday."
    text = json.dumps({"review_info": [{"review_text": review}]})
    units = [u for u in segment_context(text) if u.field == "review_info[0].review_text"]
    assert len(units) > 1
    last = units[-1]
    assert text[last.start : last.end] == "Service was slow on Sunday."


def test_text_that_merely_starts_with_a_brace_is_prose():
    units = segment_context("{not json} but prose. Another sentence.")
    assert all(u.field is None for u in units)


def test_a_text_the_splitter_panics_on_is_still_split_and_verified():
    # sentencex's Rust core panics on this text (a PanicException, which no `except Exception` catches)
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.pipeline.segment import split_sentences

    text = "N\x85.Ü Then the trial ends. It lasts 14 days."
    spans = split_sentences(text)
    pieces = [text[a:b] for a, b in spans]
    assert pieces[-1] == "It lasts 14 days." and len(pieces) == 2 and pieces[0].endswith("the trial ends.")
    report = Verifier().verify(context="The trial lasts 14 days.", answer="N\x85.Ü")
    assert report.state != "failed" and report.claims

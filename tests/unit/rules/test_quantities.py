"""Amounts compared as amounts: a conversion is the same fact, another unit or magnitude is not.
Cases written for this file, none from a benchmark."""

from __future__ import annotations

import pytest

from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.rules.amounts import same_amount
from rt4chart_plugins.rules.quantities import quantities


def one(text: str):
    (q,) = quantities(text)
    return q


@pytest.mark.parametrize("a,b", [
    ("a 3,500 metre climb", "a 3.5 km climb"),
    ("weighs 1.2 kilograms", "weighs 1,200 grams"),
    ("holds 3 cubic metres", "holds 3,000 litres"),
    ("a limit of 2 GB", "a limit of 2,000 MB"),
    ("kept at 20 °C", "kept at 68 degrees Fahrenheit"),
    ("raised two and a half million dollars", "raised $2.5 million"),
    ("a quarter-hour break of 15 minutes", "a break of 0.25 hours"),
    # a fraction of one unit, or a unit and a half, in words
    ("a class of an hour and a half", "a class of 90 minutes"),
    ("a wait of a quarter of an hour", "a wait of 15 minutes"),
    ("a walk of three quarters of an hour", "a walk of 45 minutes"),
    ("a stay of a day and a half", "a stay of 36 hours"),
    # a number or a unit made an adjective with a hyphen
    ("a 30-minute visit", "a half-hour visit"),
    ("an hour-long visit", "a 60-minute visit"),
    # a large count is read to the precision it is written with
    ("a town of about 40,000 people", "a town of 40,200 people"),
    ("sold 2.5 million copies", "sold 2,512,000 copies"),
])
def test_the_same_amount_in_other_units_or_words_is_the_same(a, b):
    assert same_amount(one(a), one(b))


@pytest.mark.parametrize("a,b", [
    ("a 12 km ride", "a 12 mile ride"),
    ("contains 40 mg", "contains 40 g"),
    ("a limit of 2 GB", "a limit of 2 MB"),
    ("kept at 20 °C", "kept at 20 °F"),
    ("costs €30", "costs $30"),
    ("a town of 80,000 residents", "a town of 80 million residents"),
    # a year or a small count is written exactly: within 1 % is not the same
    ("the mill opened in 1878", "the mill opened in 1887"),
    ("a fleet of 199 buses", "a fleet of 198 buses"),
    ("a town of 40,000 people", "a town of 48,000 people"),
])
def test_another_unit_currency_or_magnitude_is_another_amount(a, b):
    assert not same_amount(one(a), one(b))


@pytest.mark.parametrize("a,b", [
    ("leaves at 21:15", "leaves at 9:15 p.m."),
    ("opens at 06:30", "opens at 6:30 AM"),
    ("closes at 12 a.m.", "closes at midnight"),
    ("lunch is served at noon", "lunch is served at 12 PM"),
    # without a.m. or p.m., "6:30" is either
    ("the bus comes at 6:30", "the bus comes at 6:30 p.m."),
    ("the bus comes at 6:30", "the bus comes at 06:30"),
])
def test_a_time_of_day_is_the_same_on_either_clock(a, b):
    assert one(a).kind == one(b).kind == "time of day"
    assert same_amount(one(a), one(b))


@pytest.mark.parametrize("a,b", [
    ("opens at 9 AM", "opens at 9 PM"),
    ("leaves at 21:15", "leaves at 9:15 a.m."),
    ("opens at 06:30", "opens at 18:30"),
    ("closes at noon", "closes at midnight"),
])
def test_another_time_of_day_is_another_amount(a, b):
    assert not same_amount(one(a), one(b))


def test_a_time_of_day_is_one_amount_as_written():
    # its hour counts no "pm", and "22:40" is not two counts; a sentence's full stop is not its own
    assert [(q.value, q.text) for q in quantities("It leaves at 22:40 and arrives at 6 AM.")] == [
        (1360.0, "22:40"), (360.0, "6 AM")]
    # a list number run into a time, a score and a ratio are no times of day
    assert all(q.kind != "time of day" for q in quantities("1\n0am: cloudy. The final was 3:1, a 16:9 screen."))


def test_what_is_not_an_amount_is_not_read():
    # list numbers, passage references, addresses, numbers inside words
    assert quantities("3. Reduce the heat (Passage 2).") == []
    assert quantities("Most routers use 192.168.1.1 as their address.") == []
    assert quantities("It is rich in indole-3-carbinol.") == []
    # "half of" and "one of" count nothing; a percentage and a range are read
    assert quantities("Half of the members and one of the guests left.") == []
    assert [(q.value, q.kind) for q in quantities("Bake for 25-30 minutes; 40% rye.")] == [
        (25.0, "[time]"), (30.0, "[time]"), (40.0, "percent")]


def test_the_number_check_knows_an_amount_stated_in_another_unit():
    assert unsupported_facts("The ride is 12,000 metres long.", "The ride is 12 km long.") == []
    assert unsupported_facts("The ride is 15 km long.", "The ride is 12 km long.") == ["15"]


def test_the_number_check_reads_a_share_in_words_as_the_percentage_the_context_states():
    context = "The grade is made up of quizzes (20 percent), a project (30 percent) and an exam (50 percent)."
    assert unsupported_facts("Half of the grade comes from the exam.", context) == []
    assert unsupported_facts("Quizzes make up a fifth of the grade.", context) == []
    # an ordinal is still the ordinal, and "a third customer" is one
    assert unsupported_facts("The exam is on the fifth floor.", context) == ["on the fifth floor"]
    assert unsupported_facts("The exam is on the fifth floor.", context, extended=False) == ["5"]
    assert unsupported_facts("A third student sat the exam.", context) == ["3"]
    # "an hour and a half" states 1.5 hours, not a half the context must state
    assert unsupported_facts("Each class lasts an hour and a half.", "Each class lasts 90 minutes.") == []


def test_a_number_word_used_as_a_pronoun_before_an_amount_is_no_amount():
    # "a half-hour one 15 euros": "one" stands for "visit", it is not one euro
    assert [q.text for q in quantities("An hour-long visit is 25 euros, a half-hour one 15 euros.")] == [
        "1 hour", "25 euros", "0.5 hour", "15 euros"]
    assert quantities("COVID-19 cases rose.") == []


def test_a_span_of_time_states_its_length():
    from rt4chart_plugins.rules.quantities import durations_between

    assert [q.value for q in durations_between("Classes run from 11:00 to 12:30 on Tuesdays.")] == [90.0]
    assert [q.value for q in durations_between("Shifts are from 6 am to 10 am, Monday to Friday.")] == [240.0]
    assert [q.value for q in durations_between("Open 9:00-17:00.")] == [480.0]
    # two times that are no span: what happens at each
    assert durations_between("The shop opens at 9 am and closes at 6 pm.") == []
    context = "Shifts are from 6 am to 10 am, Monday to Friday."
    assert unsupported_facts("Each shift lasts four hours.", context) == []
    assert unsupported_facts("Each shift lasts five hours.", context) == ["5"]


def test_the_number_check_knows_a_time_of_day_on_either_clock_and_names_it_as_written():
    assert unsupported_facts("The last ferry leaves at 21:15.", "The last ferry leaves at 9:15 p.m.") == []
    assert unsupported_facts("The last ferry leaves at 9:15 p.m.", "The last ferry leaves at 21:15.") == []
    assert unsupported_facts("The bus comes at 6:30.", "The bus comes at 18:30.") == []
    # the time the claim wrote, not its hour on the 24-hour clock ("21")
    assert unsupported_facts("The shop opens at 9 PM.", "The shop is open on weekdays.") == ["9 PM"]
    # a text that keeps a 24-hour clock ("17:0-21:30") means the morning by "10:30"
    assert unsupported_facts("It is open on Mondays from 7:00 AM to 10:30 PM.",
                             '{"hours": {"Monday": "7:0-10:30", "Friday": "17:0-21:30"}}') == ["10:30 PM"]
    assert unsupported_facts("It is open on Mondays from 7:00 AM to 10:30 AM.",
                             '{"hours": {"Monday": "7:0-10:30", "Friday": "17:0-21:30"}}') == []


def test_a_records_range_of_hours_is_read_on_the_24_hour_clock():
    # "20:0" as records write it is 20:00; "10:30" in a text that keeps the 24-hour clock is morning
    assert [(q.value, q.text) for q in quantities('"Friday": "16:45-20:0", "Monday": "7:0-10:30"')] == [
        (1005.0, "16:45"), (1200.0, "20:00"), (420.0, "7:00"), (630.0, "10:30")]
    assert unsupported_facts("It is open on Fridays from 16:45 to 20:00.", '{"hours": {"Friday": "16:45-20:0"}}') == []


def test_an_age_is_a_time_but_no_length_of_time():
    # "a 10-year-old" is never compared with "every six hours", as a length of time would be
    age, count, every = quantities("A 10-year-old can take one tablet every six hours.")
    assert (age.kind, age.text) == ("age", "10 year-old") and every.kind == "[time]"
    assert same_amount(quantities("a baby 18 months old")[0], quantities("a 1.5-year-old")[0])
    assert not same_amount(quantities("He is 10 years old.")[0], quantities("It lasts 10 years.")[0])
    from rt4chart_plugins.rules.contrast import Contrasts

    adults = ["Adults and children over 12 may take one or two tablets every four to six hours, as needed."]
    assert Contrasts(adults).find("A 10-year-old can take one tablet every six hours.") is None

"""What a context states by one step of arithmetic is known, not added: a stay's length from its
two dates, a time moved by a stated duration, a price's share by a stated percentage, the share
one amount of a sentence is of another. What takes a number the context does not imply is still
named. Cases written for this file, none from a benchmark."""

from __future__ import annotations

from rt4chart_plugins.rules.dates import dates, days_between, other_weekday
from rt4chart_plugins.rules.derived import MOST_PRODUCTS, implied, shares
from rt4chart_plugins.rules.facts import KnownFacts, unsupported_facts
from rt4chart_plugins.rules.quantities import quantities

HIRE = "Your van hire starts at Mill Lane on 28 June at 09:00 and ends there on 2 July at 09:00."
DENTAL = "Your hygiene visit is booked for Friday 7 March at 14:20. Please arrive 15 minutes early."
CINEMA = "Tickets cost 12 euros. Members get 25 percent off every film."
POOL = "A swim costs 8 euros for adults and 4 euros for children."


def test_dates_are_read_in_either_order_with_their_day_of_the_week_and_year():
    found = dates("It opens on Thursday 3 April, closes on May 12, 2026, and reopens on the 1st of June.")
    assert [(d.day, d.month, d.year, d.weekday) for d in found] == [
        (3, 4, None, 3), (12, 5, 2026, None), (1, 6, None, None)]
    # "may" the verb, a clock time and a day past the month's end are no dates
    assert dates("You may 3 times a day.") == []
    assert dates("It starts at May 10:30.") == []
    assert dates("It is due on 31 April.") == []


def test_a_stay_states_its_length_in_days_across_a_month_and_a_year():
    assert [(q.value, q.unit) for q in days_between(HIRE)] == [(4.0, "day")]
    # without a time of day, the days both ends included are stated too
    assert [q.value for q in days_between("The course runs from 29 December to 3 January.")] == [5.0, 6.0]
    # two dates of two sentences are two events, not one stay
    assert days_between("The hall opens on 2 May. The fair is on 9 May.") == []
    assert unsupported_facts("The van hire lasts four days.", HIRE) == []
    assert unsupported_facts("The van hire lasts 96 hours.", HIRE) == []
    assert unsupported_facts("The van hire lasts five days.", HIRE) == ["5"]


def test_a_leap_year_holds_29_february_and_another_year_does_not():
    assert [q.value for q in days_between("The fair runs from 27 February 2024 to 2 March 2024.")] == [4.0, 5.0]
    assert [q.value for q in days_between("The fair runs from 27 February 2023 to 2 March 2023.")] == [3.0, 4.0]
    assert [q.value for q in days_between("The fair runs from 29 February 2024 to 2 March 2024.")] == [2.0, 3.0]
    fair = "The book fair runs from 28 February 2024 to 1 March 2024."
    assert unsupported_facts("The fair lasts three days.", fair) == []
    assert unsupported_facts("The fair lasts four days.", fair) == ["4"]


def test_a_time_moved_by_a_stated_duration_is_known_and_another_is_not():
    assert unsupported_facts("Please be there by 14:05.", DENTAL) == []
    assert unsupported_facts("Please be there by 2:05 pm.", DENTAL) == []
    assert unsupported_facts("Please be there by 14:00.", DENTAL) == ["14:00"]


def test_a_share_of_a_price_by_a_stated_percentage_is_known():
    assert unsupported_facts("Members pay 9 euros a ticket.", CINEMA) == []
    assert unsupported_facts("Members save 3 euros a ticket.", CINEMA) == []
    assert unsupported_facts("Members pay 10 euros a ticket.", CINEMA) == ["10"]


def test_a_share_or_a_multiple_in_words_that_two_amounts_of_a_sentence_state_is_known():
    assert shares([POOL]) == {50.0, 200.0}
    assert unsupported_facts("Children pay half the adult price.", POOL) == []
    assert unsupported_facts("Adults pay twice the child price.", POOL) == []
    assert unsupported_facts("Children pay a third of the adult price.", POOL) == ["3"]
    assert unsupported_facts("Adults pay three times the child price.", POOL) == ["3"]
    # two sentences' amounts are not compared: nothing says one is a share of the other
    apart = "Adults pay 8 euros.\nA locker costs 4 euros."
    assert unsupported_facts("Children pay half the adult price.", apart) == ["0.5"]


def test_the_contrast_rule_reads_implied_amounts_as_known_not_as_contradicted():
    from rt4chart_plugins.rules.contrast import Contrasts

    contrasts = Contrasts(CINEMA.split(". "))
    assert contrasts.check("Members pay 9 euros a ticket.") is None
    assert contrasts.check("Tickets cost 15 euros.").kind == "quantity"


def test_a_day_of_the_week_another_date_gives_is_no_clash():
    assert other_weekday("It is on Tuesday 8 April.", "It is on Thursday 3 April.") is None
    assert other_weekday("It is on 3 April.", "It is on Thursday 3 April.") is None
    mine, theirs = other_weekday("It is on Tuesday 3 April.", "It is on Thursday 3 April.")
    assert (mine.text, theirs.text) == ("Tuesday 3 April", "Thursday 3 April")
    # another year is another date
    assert other_weekday("It was on Tuesday 3 April 2029.", "It is on Thursday 3 April 2025.") is None


def test_a_table_of_numbers_implies_no_more_than_the_bound():
    table = " ".join(f"Item {i} costs {i + 1} euros." for i in range(100)) + " " + " ".join(
        f"Plan {i} saves {i + 1} percent." for i in range(20))
    stated = quantities(table)
    assert len([q for q in implied([table], stated) if q.kind == "currency"]) <= 2 * MOST_PRODUCTS


def test_the_known_facts_of_a_context_read_its_sentences_once():
    facts = KnownFacts(POOL, None, [POOL])
    assert facts.shares() is facts.shares()


def test_a_month_the_context_never_gives_is_a_missing_fact():
    course = "The group project counts for 30 percent. The exam takes place on 14 December."
    assert unsupported_facts("The group project is due on 30 November.", course) == ["November"]
    assert unsupported_facts("The exam is in December.", course) == []
    # a month is known by its short name, in digits in either order, and inside a span of months
    assert unsupported_facts("The pool opens in March.", "The pool opens on Mar 3.") == []
    assert unsupported_facts("The review is from March 2015.", "Reviewed: 2015-03-04.") == []
    assert unsupported_facts("It was signed in April.", "Signed on 3/4/2015.") == []
    assert unsupported_facts("The garden is open in April.", "The garden is open from March to May.") == []
    assert unsupported_facts("The garden is open in January.", "The garden is open from November to February.") == []
    assert unsupported_facts("The garden is open in June.", "The garden is open from March to May.") == ["June"]
    # "May" the verb is no month, at a sentence's start or a list item's
    assert unsupported_facts("6. May reduce the risk of colds.", course) == []
    assert unsupported_facts("The pool may open in May.", course) == ["May"]


def test_a_date_is_known_as_a_date_and_one_the_context_lacks_is_named_as_written():
    fair = "The group project counts for 30 percent. The exam is on 14 December. The fair runs from 12 to 15 May."
    # inside a span of days, whatever the source's numbers
    assert unsupported_facts("The fair is open on 13 May.", fair) == []
    assert unsupported_facts("The exam is on December 14th.", fair) == []
    # a day the source gives to another month, or as a percentage, does not make the date known
    assert unsupported_facts("The exam is on 15 December.", fair) == ["15 December"]
    assert unsupported_facts("The exam is on 30 December.", fair) == ["30 December"]
    assert unsupported_facts("The exam is on 14 December 2025.", fair) == ["2025"]
    hire = "Your van hire starts on 28 June at 09:00 and ends on 2 July at 09:00."
    assert unsupported_facts("You have the van on 30 June.", hire) == []
    assert unsupported_facts("You have the van on 30 July.", hire) == ["30 July"]


def test_a_judges_premise_is_read_without_dates_and_months_as_its_decision_was_fitted():
    premise = "The exam is on 14 December."
    assert unsupported_facts("The project is due on 30 November.", premise) == ["November"]
    assert unsupported_facts("The project is due on 30 November.", premise, extended=False) == ["30"]


def test_a_month_set_in_capitals_is_read_as_a_month():
    dateline = "Nottingham Live, 08:00, 30 JUN 2018. Police have not named the man."
    assert unsupported_facts("The police had not named the man by June 2018.", dateline) == []
    assert unsupported_facts("The police had not named the man on 30 June.", dateline) == []
    assert unsupported_facts("The police had not named the man by July 2018.", dateline) == ["July"]


def test_a_short_month_with_its_full_stop_is_read_as_news_writes_it():
    alert = "If your phone sounds an alert on Wednesday, Oct. 4, don't be alarmed: it is a test."
    assert unsupported_facts("On October 4th, phones will sound a test alert.", alert) == []
    assert unsupported_facts("On October 5th, phones will sound a test alert.", alert) == ["October 5th"]
    assert [(d.day, d.month, d.year) for d in dates("Filed on 4 Oct. 2023 and Sept. 5, 2020.")] == [(4, 10, 2023), (5, 9, 2020)]

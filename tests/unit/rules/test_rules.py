from rt4chart_plugins.rules.facts import codes, names, numbers, unsupported_facts
from rt4chart_plugins.rules.initialisms import initialisms
from rt4chart_plugins.rules.places import places


def test_numbers_are_compared_as_values():
    assert numbers("It costs $1,000 for 5 PM to 9:30 pm, twice.") >= {1000.0, 17.0, 21.0, 2.0}
    assert unsupported_facts("Open from 5 PM to 9 PM", '{"hours": {"Monday": "17:0-21:0"}}') == []
    assert unsupported_facts("It lasts fourteen days", "The trial lasts 14 days.") == []
    assert unsupported_facts("It lasts 30 days", "The trial lasts 14 days.") == ["30"]


def test_an_amount_in_words_is_read_as_its_value_on_either_side():
    # a compound number word is one value, not its parts
    assert numbers("twenty-four, ninety-nine") == {24.0, 99.0}
    assert unsupported_facts("Twenty-four members joined.", "The club has 24 new members.") == []
    assert unsupported_facts("Twenty-four members joined.", "The club has 48 members.") == ["24"]
    # "forty thousand" is 40,000, whichever side writes it in words
    assert unsupported_facts("About forty thousand people live there.", "The town has about 40,000 people.") == []
    assert unsupported_facts("About 40,000 people live there.", "The town has about forty thousand people.") == []
    assert unsupported_facts("About 40,000 people live there.", "The town has about forty people.") == ["40000"]
    assert unsupported_facts("About forty thousand people live there.", "The town has 14,000 people.") == ["40000"]
    # an ordinal is its number, up to the tenth, as places read floors
    assert unsupported_facts("It was the eighth edition.", "The festival had its 8th edition this year.") == []
    assert unsupported_facts("It was the ninth edition.", "The festival had its 8th edition this year.") == ["9"]


def test_a_new_number_of_any_length_is_named_as_written():
    """28 digits and more exceed Decimal's default precision; the value is still named exactly."""
    for digits in (28, 29, 30):
        value = "1" + "0" * (digits - 1)
        assert unsupported_facts(f"The price is {value}.", "The price is 5.") == [value]
    assert unsupported_facts("The price is 1e400.", "The price is 5.") == ["1E+400"]


def test_list_numbering_and_passage_references_are_not_facts():
    assert numbers("4. Water the plants (Passage 2).") == set()
    assert unsupported_facts("Step 6: Serve with rice (Passages 1 and 3).", "Serve with rice.") == []


def test_a_code_the_context_lacks_is_named_as_written():
    context = "The workshop is in Room D12 and is filmed in 4K. Bring an A5 notebook."
    assert unsupported_facts("The workshop is in Room E14.", context) == ["E14"]
    assert unsupported_facts("The workshop is filmed in 8K.", context) == ["8K"]
    # written otherwise, it is the same code
    assert unsupported_facts("The workshop is in room d12, filmed in 4k.", context) == []
    assert unsupported_facts("The workshop is in Room D12.", "The workshop is in Room D 12.") == []
    # ordinals, decades, clock times, amounts run into their unit and hyphenated words are no codes
    assert codes("the 3rd row, the 1990s, at 9am, 20GB, 5km, 19th-century, Under-12s, COVID-19") == []


def test_an_initialism_the_context_never_writes_spells_out_or_means_is_missing():
    context = "The Lunden ferry has a cafe and a 230-volt socket at every seat. Tickets for the European Union's islands."
    assert unsupported_facts("Free Wi-Fi is available on board.", context) == ["Wi-Fi"]
    assert unsupported_facts("The ferry shows films on a TV.", context) == ["TV"]
    # written otherwise, spelled out by its initials, in the singular, or a word of the same meaning
    assert unsupported_facts("Free Wi-Fi is on board.", "The ferry has free wifi.") == []
    assert unsupported_facts("The EU runs it.", context) == []
    assert unsupported_facts("The quartet signs CDs.", "A CD of the concert is for sale.") == []
    assert unsupported_facts("A DVD is lent for a week.", "DVDs are lent for a week.") == []
    assert unsupported_facts("Blue Spoon has a TV.", '{"name": "Blue Spoon", "attributes": {"HasTV": "False"}}') == []
    # what a hyphen joins to it is not part of it
    assert initialisms("The ex-FBI agent led an FBI-led inquiry.") == ["FBI"]
    assert unsupported_facts("An Ex-FBI agent was sentenced.", "A former FBI agent was sentenced.") == []
    assert unsupported_facts("It has 16 GB of RAM.", "The laptop has 16 GB of memory.") == []
    # units, a clock's letters, Roman numerals, names the names check reads, and shouted text are not read
    assert initialisms("It has 20 GB, opens at 9 PM, since World War II, sells Coca-Cola.") == []
    assert initialisms("THE FERRY HAS WIFI") == []
    assert initialisms("NASA's probe has an HDMI and a USB-C port.") == ["NASA", "HDMI", "USB-C"]
    # a judge's decision reads its premise without them, as it was fitted
    assert unsupported_facts("Free Wi-Fi is available on board.", context, extended=False) == []


def test_a_place_none_of_whose_words_the_context_holds_is_missing():
    context = "The Castle Road Dental Practice opens at 8:00. Parking is behind the building."
    assert unsupported_facts("The practice is on the first floor, opposite the pharmacy.", context) == [
        "on the first floor",
        "opposite the pharmacy",
    ]
    assert unsupported_facts("The practice is next to the motorway junction.", context) == ["next to the motorway junction"]
    # a place the context names, in another form; a measure, not a place; the judges' premise read
    assert unsupported_facts("You can park behind the buildings.", context) == []
    assert unsupported_facts("The practice stands near a castle.", context) == []
    assert unsupported_facts("Prices rose above 5 percent and were near freezing.", "Prices rose 5 percent.") == []
    assert unsupported_facts("The water lies below the surface, behind the scenes.", "The water lies deep.") == []
    assert unsupported_facts("The practice is next to the motorway junction.", context, extended=False) == []
    # a place of words the context holds apart; a floor it names for something else
    dental = "The practice is on the ground floor of Harbour House. Parking is behind it. It opens every second Saturday."
    assert unsupported_facts("The practice is next to the harbour car park.", dental) == ["next to the harbour car park"]
    assert unsupported_facts("The practice is on the second floor.", dental) == ["on the second floor"]
    assert unsupported_facts("The practice is on the ground floor.", dental) == []
    assert unsupported_facts("It is on the 2nd floor.", "It is on the second floor.") == []
    assert unsupported_facts("It is on the second floor.", "Offices: floor 2.") == []
    assert places("It sits next to the town hall, on the second floor.") == [
        ("next to the town hall", "the town hall"),
        ("on the second floor", "second floor"),
    ]


def test_a_description_of_a_name_none_of_whose_words_the_context_holds_is_missing():
    context = "The Elmfield Public Library is open from 9 am on weekdays. Its director, Ms Ada Holm, is a historian."
    claim = "The Elmfield Public Library, a three-storey building, opens at 9 am on weekdays."
    assert unsupported_facts(claim, context) == ["a three-storey building"]
    # the clause the claims stage cuts off it
    assert unsupported_facts("The Elmfield Public Library, a three-storey building", context) == ["a three-storey building"]
    # a description the context gives; a connective is no name; the judges' premise read
    assert unsupported_facts("Ms Ada Holm, a historian by training, runs the library.", context) == []
    assert unsupported_facts("However, a new reader card is free.", "A reader card is free.") == []
    assert unsupported_facts(claim, context, extended=False) == []


def test_names_exclude_sentence_initial_and_common_words():
    assert names("However, Marie Curie moved to Paris.") == {"marie", "curie", "paris"}
    assert names("Supports brain function.") == set()
    assert unsupported_facts("It was founded by Tim Cook.", "Apple was founded in 1976.") == ["cook", "tim"]
    assert unsupported_facts("Who founded it? Tim Cook.", "x", question="Did Tim Cook found it?") == []


def test_the_plural_of_a_known_word_is_not_a_new_name():
    hours = "hours.Monday: 11:0-22:0\nhours.Friday: 9:0-17:0"
    assert unsupported_facts("It is open on Mondays and Fridays.", hours) == []
    assert unsupported_facts("It also opens on Sundays.", hours) == ["sundays"]


def test_a_spelled_out_state_meets_the_records_postal_code():
    record = '{"city": "Philadelphia", "state": "PA"}'
    assert unsupported_facts("It is in Philadelphia, Pennsylvania.", record) == []
    assert unsupported_facts("It is in Charleston, West Virginia.", '{"city": "Charleston", "state": "WV"}') == []
    assert unsupported_facts("It is in Philadelphia, Ohio.", record) == ["ohio"]
    assert unsupported_facts("It is in Philadelphia, Pennsylvania.", "It is in Philadelphia.") == ["pennsylvania"]


def test_word_overlap_reads_a_state_and_its_code_as_one_word():
    from rt4chart_plugins.judges.trained.premise import coverage, words

    assert words("Boise, Idaho") == words("Boise, ID") == ["boise", "id"]
    assert coverage("Reno, Nevada", "city: Reno\nstate: NV") == 1.0


def test_a_claim_that_says_the_opposite_of_a_yes_no_field_is_caught():
    from rt4chart_plugins.rules.records.fields import YesNoFields

    units = ["attributes.HasTV: False", "attributes.RestaurantsDelivery: True", "attributes.GoodForKids: None",
             "attributes.BusinessAcceptsCreditCards: False", "categories: Breakfast & Brunch, Cafes",
             "attributes.GoodForMeal: {'breakfast': False, 'dinner': False}",
             "attributes.BusinessParking: {'garage': True, 'valet': False}"]
    fields = YesNoFields(units)
    flips = lambda claim: [str(f) for f in fields.contradicted(claim)]  # noqa: E731
    assert flips("It has TVs for watching games.") == ["attributes.HasTV: False"]
    assert flips("It does not have a TV.") == []
    assert flips("It does not deliver or accept credit cards.") == ["attributes.RestaurantsDelivery: True"]
    assert flips("It has no TV, and offers delivery.") == []  # the negation stops at the next predicate
    assert flips("It is great for kids.") == []  # None is unknown, left to the judge
    assert flips("It is a breakfast spot.") == []  # another field (categories) says so
    assert flips("It is popular for dinner.") == ["attributes.GoodForMeal.dinner: False"]
    assert flips("Parking is available in a garage or with a valet.") == ["attributes.BusinessParking.valet: False"]
    assert flips("TVs are not available.") == []  # denied after the name: the record agrees
    assert flips("Delivery is not offered.") == ["attributes.RestaurantsDelivery: True"]
    assert flips("The valet was friendly.") == []  # no word of the parent field (parking)


HOURS = ["name: Corner Diner", "hours.Monday: 11:0-22:0", "hours.Tuesday: 11:0-22:0", "hours.Friday: 11:0-23:0",
         "hours.Saturday: 10:0-0:0", "hours.Sunday: 0:0-0:0"]


def _hours_conflicts(claim: str) -> list[str]:
    from rt4chart_plugins.rules.records.hours import OpeningHours

    return [str(c) for c in OpeningHours(HOURS).contradicted(claim)]


def test_hours_a_claim_gives_a_day_against_the_records():
    assert _hours_conflicts("It serves until midnight on Fridays.") == ["hours.Friday: 11:0-23:0"]
    assert _hours_conflicts("On Fridays it closes at 11 PM.") == []
    assert _hours_conflicts("It is open Monday through Tuesday from 9 a.m. to 5 p.m.") == [
        "hours.Monday: 11:0-22:0", "hours.Tuesday: 11:0-22:0"]
    assert _hours_conflicts("From Monday to Tuesday it is open from 11 AM to 10 PM, and on Saturdays "
                            "from 10 AM until midnight.") == []
    assert _hours_conflicts("It opens at 9 AM on Saturdays.") == ["hours.Saturday: 10:0-0:0"]
    assert _hours_conflicts("It is closed on Mondays.") == ["hours.Monday: 11:0-22:0"]


def test_hours_summaries_vague_days_and_unlisted_days_are_left_alone():
    # one listed day of the group has the stated hours: a summary ("with later hours on Friday"), not an error
    assert _hours_conflicts("It is open Monday through Friday from 11 AM to 10 PM, later on Fridays.") == []
    assert _hours_conflicts("It is open until midnight on most days.") == []
    assert _hours_conflicts("It is open on Wednesdays from 8 AM to 2 PM.") == []  # the record lists no Wednesday
    assert _hours_conflicts("It is closed on Sundays.") == []  # 0:0-0:0 says nothing
    assert _hours_conflicts("On Mondays it opens at 11 AM, closes for a break and opens again at 5 PM.") == []
    assert _hours_conflicts("It has 4.5 stars and is open late.") == []


def _hours_confirmed(claim: str) -> list[str] | None:
    from rt4chart_plugins.rules.records.hours import OpeningHours

    found = OpeningHours(HOURS).confirmed(claim)
    return None if found is None else [str(c) for c in found]


def test_a_sentence_of_nothing_but_hours_the_record_bears_out_is_confirmed():
    assert _hours_confirmed("Corner Diner is open from 11 AM to 10 PM Monday through Tuesday.") == [
        "hours.Monday: 11:0-22:0", "hours.Tuesday: 11:0-22:0"]
    assert _hours_confirmed("On Saturdays it is open from 10 AM until midnight.") == ["hours.Saturday: 10:0-0:0"]
    # a day the record does not list is closed: the evidence is the hours it does list
    assert _hours_confirmed("It is closed on Wednesdays and Thursdays.") == [
        "hours.Monday: 11:0-22:0", "hours.Tuesday: 11:0-22:0", "hours.Friday: 11:0-23:0", "hours.Saturday: 10:0-0:0"]


def test_hours_confirmation_is_strict():
    assert _hours_confirmed("It is open Monday through Friday from 11 AM to 10 PM.") is None  # Friday closes at 11
    assert _hours_confirmed("It is open from 11 AM to 10 PM on Mondays, for lunch and dinner.") is None  # more than hours
    assert _hours_confirmed("It is open late on weekends.") is None
    assert _hours_confirmed("It is closed on Sundays.") is None  # listed as 0:0-0:0: unknown
    assert _hours_confirmed("It is closed on Fridays.") is None
    assert _hours_confirmed("It is open on Mondays.") is None  # a day without a time confirms nothing


RECORD_UNITS = ["name: Blue Spoon", "attributes.RestaurantsTakeOut: True", "attributes.RestaurantsDelivery: False",
                "attributes.GoodForKids: True", "attributes.BusinessParking: {'garage': False, 'street': True}"]


def test_a_sentence_of_nothing_but_yes_no_attributes_the_record_bears_out_is_confirmed():
    from rt4chart_plugins.rules.records.fields import YesNoFields

    fields = YesNoFields(RECORD_UNITS)
    found = fields.confirmed("Blue Spoon offers takeout but does not deliver, and it is good for kids.")
    assert [str(f) for f in found] == ["attributes.RestaurantsTakeOut: True", "attributes.RestaurantsDelivery: False",
                                       "attributes.GoodForKids: True"]
    assert [str(f) for f in fields.confirmed("Street parking is available.")] == [
        "attributes.BusinessParking.street: True"]
    assert fields.confirmed("It offers delivery.") is None  # the opposite
    assert fields.confirmed("It offers takeout and has great food.") is None  # more than attributes
    assert fields.confirmed("It is a great spot for kids.") is None
    assert fields.confirmed("It offers takeout, and the staff is friendly.") is None  # a clause with no field
    assert fields.confirmed("It has garage parking.") is None


def test_hours_read_any_spacing_of_a_clock_time_and_never_fail_on_odd_text():
    assert _hours_conflicts("It serves until 12\tA.M. on Fridays.") == ["hours.Friday: 11:0-23:0"]
    for odd in ("", "Monday", "from 99 PM to 7 AM on Mondays", "closed closed on on", "10pm-" * 50):
        assert isinstance(_hours_conflicts(odd), list)  # a well-defined result, whatever the text
        assert _hours_confirmed(odd) is None or isinstance(_hours_confirmed(odd), list)

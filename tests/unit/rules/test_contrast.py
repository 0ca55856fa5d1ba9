"""The contrast rule: a claim that reuses its context's words and says the opposite is caught, and
the paraphrases, weakenings and converses that merely look like a contrast are left alone.

Every case here is written for this file (none comes from the minimal-pairs dev set or from a
benchmark), one per linguistic pattern the rule claims to read."""

from __future__ import annotations

import pytest

from rt4chart_plugins.rules.contrast import Contrasts, reading
from rt4chart_plugins.rules.contrast.negations import _needs
from rt4chart_plugins.rules.contrast.reading import span
from rt4chart_plugins.rules.contrast.restrictions import unrestricted
from rt4chart_plugins.text.words import stem

CAUGHT = [
    # (kind, context sentences, claim)
    ("negation", ["The east gate is not locked at night.", "Staff park behind the library."],
     "The east gate is locked at night."),
    ("negation", ["Members can bring one guest to the sauna."], "Members cannot bring a guest to the sauna."),
    # a word a prefix negates ("non-refundable", "unlimited") against its plain word
    ("negation", ["Tickets for the Holm quartet are non-refundable but can be passed on."],
     "Tickets for the Holm quartet can be refunded up to a week before."),
    ("negation", ["At the Holm car park, parking is unlimited on Sundays."],
     "At the Holm car park, parking is limited to two hours on Sundays."),
    # "every" over an interval restricts: "every second Tuesday" is not "every Tuesday"
    ("quantifier", ["In Holm, the blue bin is collected every second Tuesday."], "In Holm, the blue bin is collected every Tuesday."),
    # a clause with no subject of its own after a conjunction is said of the sentence's first subject
    ("negation", ["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is not closed on Sundays."),
    ("negation", ["The plugin no longer supports Python 3.8."], "The plugin still supports Python 3.8."),
    ("negation", ["The council failed to approve the new budget in June."], "The council approved the new budget in June."),
    ("quantifier", ["Only holders of a yellow pass may use the north lift."], "Anyone may use the north lift."),
    ("quantifier", ["Most of the flats in Harbour Court have a balcony."], "Every flat in Harbour Court has a balcony."),
    # "all other" and "every other" range over what an exception leaves: they restrict, as "most" does
    ("quantifier", ["The canteen is shut on Fridays.", "It serves hot meals on all other weekdays."],
     "The canteen serves hot meals every weekday."),
    ("quantifier", ["The recycling van collects glass every other week."], "The recycling van collects glass every week."),
    ("modality", ["Helmets are recommended for riders on the forest trail."], "Riders on the forest trail must wear helmets."),
    ("modality", ["Applicants must attach a reference letter to the form."], "Applicants may attach a reference letter to the form."),
    ("direction", ["The Avon bridge is longer than the Severn bridge."], "The Severn bridge is longer than the Avon bridge."),
    ("direction", ["The Avon bridge is longer than the Severn bridge."], "The Avon bridge is shorter than the Severn bridge."),
    ("direction", ["The choir rehearsed before the concert began."], "The choir rehearsed after the concert began."),
    ("opposite", ["The west reading room is closed on public holidays."], "The west reading room is open on public holidays."),
    ("roles", ["Norcast acquired Vellum Media in 2019."], "Vellum Media acquired Norcast in 2019."),
    ("negation", ["The pool has a sauna and a steam room.", "The gym is not open to day visitors."],
     "The pool has a sauna, and the gym is open to day visitors."),
    # a verb in -ify on one side, its noun in -ification on the other: the alignment must see one word
    ("quantifier", ["Only members whose address has been verified may borrow rare books.",
                    "Members may borrow rare books for two weeks."],
     "All members may borrow rare books, and no verification is needed."),
    ("negation", ["Parcels must be classified by weight before shipping.", "Parcels ship on Fridays."],
     "No classification of parcels is needed before shipping."),
    ("quantity", ["The Marlow ferry crossing is 8 kilometres long."], "The Marlow ferry crossing is 8 miles long."),
    # an amount the sentence gives to something else: the claim's words bind it to the other piece
    ("quantity", ["Seats cost 40 euros in the front rows and 25 euros at the back."],
     "Seats at the back cost 40 euros."),
    ("quantity", ["Adults ride for 3 euros and children under 14 for 1.50 euros."],
     "Children under 14 ride for 3 euros."),
    ("quantity", ["Lab reports are due within two weeks, while essays are due within 10 days."],
     "Essays are due within two weeks."),
    ("quantity", ["Exports grew 4 % in May and 2 % in June."], "Exports grew 4 % in June."),
    # "it" takes the names carried past a sentence whose only capital is its first word
    ("negation", ["The Linden Library opens at 9 am on weekdays.", "Loans last three weeks.",
                  "It has a reading room, but no café."], "The Linden Library has a café."),
    # one date, another day of the week
    ("date", ["Your eye test is on Monday 14 October at 10:15.", "Bring your glasses."],
     "Your eye test is on Wednesday 14 October."),
    ("date", ["The choir sings on Saturday, June 7, 2025 in the town hall."], "The choir sings on Sunday, June 7 in the town hall."),
    ("quantity", ["Each tablet contains 20 mg of zinc."], "Each tablet contains 20 g of zinc."),
    ("quantity", ["The Tarn estate employs 350 people."], "The Tarn estate employs 350,000 people."),
    ("quantity", ["Hollis Park was opened in 1962 by the mayor."], "Hollis Park was opened in 1926 by the mayor."),
    # a sentence with both poles gives each to what it names before it
    ("opposite", ["The Ashby route is the fastest and the coastal route is the slowest."], "The coastal route is the fastest."),
    ("opposite", ["At the spring fair, the Orla stall had the longest queue and the Pim stall the shortest."],
     "The Pim stall had the longest queue at the spring fair."),
    # a time of day is an amount too: the other half of the day, or another hour
    ("quantity", ["The Linden bakery opens at 7 AM and closes at 3 PM."], "The Linden bakery opens at 7 PM."),
    ("quantity", ["The last ferry to Brackholm leaves at 21:15."], "The last ferry to Brackholm leaves at 8:15 p.m."),
    # a sentence that says "it" for what the sentence before it names, and a clause that "but" opens
    # with the subject of the clause before it
    ("negation", ["The Lumo 7 tablet has a 10-inch screen.", "It has a USB-C port, but no headphone jack."],
     "The Lumo 7 has a headphone jack."),
    ("quantity", ["The Lumo 7 tablet has a 10-inch screen.", "It comes with a two-year warranty."],
     "The Lumo 7 has a five-year warranty."),
    # both poles in one sentence, each said of when or where it holds: the claim's "when" is the other pole's
    ("opposite", ["The Holm library is open from 9 am on weekdays, and it is closed on Sundays."],
     "The Holm library is open on Sundays."),
    ("opposite", ["The west pool is closed on public holidays but open on Sundays."], "The west pool is closed on Sundays."),
    # a negated pole said of what the sentence gives the same pole
    ("negation", ["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is not open on Mondays."),
    # a span of days that ends elsewhere
    ("quantity", ["The Elm bakery's summer market runs from 12 to 15 June."],
     "The Elm bakery's summer market runs from 12 to 14 June."),
    # without exception, against a sentence that gives the other pole some of the time
    ("opposite", ["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is open every day."),
    ("opposite", ["The Varga museum is open Tuesday to Sunday, and it is closed on Mondays."], "The Varga museum is always open."),
    # the verb says it as the adjective does
    ("opposite", ["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery opens on Sundays."),
    ("opposite", ["The Holm library opens on Saturdays."], "The Holm library is closed on Saturdays."),
    # a pole said without exception, or of the same day, against the other pole said of a day
    ("opposite", ["Repairs take two days.", "The Vale bike shop is closed on Mondays."], "The Vale bike shop is open every day of the week."),
    ("opposite", ["The Vale bike shop is closed on Mondays."], "The Vale bike shop is open on Mondays."),
    # nothing to pay, against a price or a discount short of all of it
    ("price", ["Shoe hire costs 4 euros.", "Members get 25 percent off shoe hire."], "Shoe hire is free for members."),
    ("price", ["A day pass costs 14 euros for adults and 7 euros for under-16s."], "A day pass is free for under-16s."),
    # an amount the context gives something else, where the sentence that holds every other word of
    # the claim gives another: the claim's amount is bound to the wrong thing
    ("quantity", ["The Fenwick garage charges 30 euros for an oil change.",
                  "A full inspection costs 90 euros and takes two hours."], "A full inspection costs 30 euros."),
    # a permission granted in other words than the ones that deny it, either way round
    ("negation", ["Visitors under 12 are not admitted to the Holm climbing wall."],
     "Visitors under 12 may use the Holm climbing wall with an adult."),
    ("negation", ["Glass bottles are prohibited in the Holm stadium."], "Glass bottles are permitted in the Holm stadium."),
    ("negation", ["Day visitors are welcome at the Holm sauna."], "Day visitors can not use the Holm sauna."),
    # a price on top of one the sentence puts the thing inside
    ("price", ["The Holm hostel rate is 30 euros a night.", "Breakfast is served from 7:00 to 10:00 and is included in the rate."],
     "Breakfast costs extra."),
    ("price", ["Bike hire is included in the Holm day pass, but lockers cost 2 euros."], "Bike hire is charged separately."),
    ("price", ["The Holm day pass includes bike hire and a locker."], "A locker costs extra."),
    # a word of permission aligns a short claim with the sentence that denies it in another word
    ("negation", ["The Holm hotel has 40 rooms.", "Pets are not accepted."], "Pets are welcome."),
]

LEFT_ALONE = [
    # the pole said of another when, without one, or of every day but the one the sentence excepts
    (["Repairs take two days.", "The Vale bike shop is closed on Mondays."], "The Vale bike shop is open on Tuesdays."),
    (["The Vale bike shop is closed on Mondays."], "The Vale bike shop is open."),
    (["The Vale bike shop is closed on Mondays."], "The Vale bike shop is open every day except Mondays."),
    # each amount where the sentence puts it, a claim vaguer than the sentence, the words that
    # every piece shares, and a sentence that names the other piece only to compare
    (["Seats cost 40 euros in the front rows and 25 euros at the back."], "Seats at the back cost 25 euros."),
    (["Seats cost 40 euros in the front rows and 25 euros at the back."], "Seats cost 25 euros."),
    (["Seats cost 40 euros in the front rows and 25 euros at the back."],
     "Seats in the front rows cost 40 euros, more than those at the back."),
    (["Exports grew 4 % in May and 2 % in June."], "Exports grew 2 % in June."),
    # a participle's clause says more of the piece before it: it is no piece of its own
    (["The firm leased 3,000 square metres on the fifth floor, bringing its total to 9,000 square metres."],
     "The firm grew to 9,000 square metres by leasing the fifth floor."),
    # a claim that says more than the sentence's pieces is not read as one of them
    (["Only two weeks remain before the final, so each player has trained for 86 days."],
     "With only two weeks left, each player is tired."),
    # what follows the last amount's phrase bears on every piece
    (["Keep the receipt for 2 years after buying or 1 year after opening, whichever is later, if you want a refund."],
     "Keep the receipt for 2 years if you want a refund."),
    (["Adults ride for 3 euros and children under 14 for 1.50 euros."], "Adults ride for 3 euros."),
    # the same date and day, said otherwise; another date, with its own day
    (["Your eye test is on Monday 14 October at 10:15."], "Your eye test is on Monday, the 14th of October."),
    (["The market opens on Friday 3 May and again on Friday 10 May."], "The market opens on Friday 10 May."),
    # a paraphrase of a negation: the negated word is not in the context
    (["The board rejected the merger proposal."], "The board did not accept the merger proposal."),
    # a weakening: all → some
    (["All twenty rooms have a desk."], "Some rooms have a desk."),
    # the exception kept: "all other" on both sides
    (["The canteen is shut on Fridays.", "It serves hot meals on all other weekdays."],
     "The canteen serves hot meals on all other weekdays."),
    # a converse, and a passive
    (["The Avon bridge is longer than the Severn bridge."], "The Severn bridge is shorter than the Avon bridge."),
    (["Norcast acquired Vellum Media in 2019."], "Vellum Media was acquired by Norcast in 2019."),
    # the same order told as a sequence
    (["The team trained for a month, and two weeks later it won the cup."], "The team won the cup after training for a month."),
    # a negation in a condition, and a question, assert nothing
    (["If the form is not signed, the request is rejected."], "The form is signed."),
    (["Wouldn't the guard have seen the van?"], "The guard saw the van."),
    # another subject: "white oaks do not", not "red oaks do not"
    (["Red oaks have pointed leaves."], "White oaks do not have pointed leaves."),
    # a negation about another word of the sentence
    (["The report did not name the driver who was injured."], "The driver was injured."),
    # a negation of another object: a driving licence is not the forklift licence
    (["Applicants need a forklift licence and must be able to lift 25 kg."], "Applicants do not need a driving licence."),
    # an obligation elsewhere in the sentence, an option for the claim's thing
    (["Guests must show a ticket; umbrellas are allowed but optional."], "Umbrellas are optional for guests."),
    # the claim says what the context says
    (["The east gate is not locked at night."], "The east gate is not locked at night."),
    # the same amount in another unit, and a number the context has without its unit
    (["The Marlow ferry crossing is 8 kilometres long."], "The Marlow ferry crossing is 8,000 metres long."),
    (["Simmer white rice for 15 to 20 minutes and brown rice 35 to 40."], "Simmer brown rice for 35 minutes."),
    # each pole said of what the sentence gives it to
    (["The Ashby route is the fastest and the coastal route is the slowest."], "The Ashby route is the fastest."),
    (["The Ashby route is the fastest and the coastal route is the slowest."], "The coastal route is the slowest of the two."),
    (["At the spring fair, the Orla stall had the longest queue and the Pim stall the shortest."],
     "The Orla stall had the longest queue."),
    # the same time of day written on the other clock, or as a word
    (["The last ferry to Brackholm leaves at 21:15."], "The last ferry to Brackholm leaves at 9:15 p.m."),
    (["The night market in Osset closes at 12 a.m."], "The night market in Osset closes at midnight."),
    # a time the sentence does not state, which another sentence does
    (["The Linden bakery opens at 7 AM.", "On Saturdays the Linden bakery opens at 8 AM."],
     "On Saturdays the Linden bakery opens at 8 AM."),
    # what the "it" sentence states, said of the thing it stands for
    (["The Lumo 7 tablet has a 10-inch screen.", "It has a USB-C port, but no headphone jack."],
     "The Lumo 7 has a USB-C port."),
    # another subject after "but": Tom's piano says nothing of Mia's
    (["Mia plays the violin, but Tom does not play the piano."], "Mia plays the piano."),
    # both poles in one sentence, the claim giving each its own "when"; "it" is the library, not another holder
    (["The Holm library is open from 9 am on weekdays, and it is closed on Sundays."], "The Holm library is closed on Sundays."),
    (["The Holm library is open from 9 am on weekdays, and it is closed on Sundays."], "The Holm library is open on weekdays."),
    (["The west pool is closed on public holidays but open on Sundays."], "The west pool is open on Sundays."),
    # a day inside the span of days the sentence gives
    (["The Elm bakery's summer market runs from 12 to 15 June."], "The Elm bakery's summer market is open on 14 June."),
    # a negated pole against a sentence that gives the other pole its when: "not open" is "closed"
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is not open on Sundays."),
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery does not open on Sundays."),
    # an "every" that ranges over the same pole's own when
    (["The Holm library is open on weekdays, and it is closed on Sundays."], "The Holm library is open every weekday."),
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is open every Monday."),
    # "opens" or "closes" at a time says when it is open, not whether
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery closes at 18:00."),
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery opens on Mondays."),
    (["The Holm museum closes at 17:00 on Sundays."], "The Holm museum is open on Sundays."),
    (["The Arden gallery stays open until 9 p.m. on Fridays."], "On Fridays, the Arden gallery closes at 9 p.m."),
    # "free" before a noun, or of something else than a price; a sentence that calls something free
    (["Smith signed a three-year contract worth 5 million dollars."], "The free agent Smith signed a three-year contract."),
    (["The Brook cafe serves cakes for 3 euros, all of them sugar-free."], "The Brook cafe serves cakes that are free of sugar."),
    (["Adult tickets cost 12 euros, and children under 12 enter free."], "Adult tickets are free on Sundays."),
    # an amount another sentence gives, where no sentence holds every other word of the claim: the
    # claim may join them ("adult" from one, "on Sundays" from the other)
    (["Adult tickets cost 12 euros.", "On Sundays every ticket costs 8 euros."], "On Sundays adult tickets cost 8 euros."),
    # too little in common to align
    (["The east gate is not locked at night."], "Parking is free."),
    # a prefix that negates nothing ("unless", "understand"), and an interval said as one
    (["The Holm offer is valid unless you cancel."], "The Holm offer is valid less a fee."),
    # the plain word with a negation after it says what the prefixed one does
    (["A doctor stated that Ms Holm will likely be unable to attend any court hearings."],
     "Ms Holm is unlikely to attend any court hearings."),
    # a prefixed word that names a kind of thing rather than saying it of its subject
    (["Unused data on the Holm plan does not roll over."], "The Holm plan sends a text when you have used 80 percent of your data."),
    (["Holm staff understand the rules."], "Holm staff stand by the rules."),
    (["In Holm, the blue bin is collected every second Tuesday."], "In Holm, the blue bin is collected every two weeks."),
    # a negated word said of other things than the plain one: "not closed on Mondays" / "closed on Sundays"
    (["The Holm shop is closed on Sundays."], "The Holm shop is not closed on Mondays."),
    (["The Corner bakery is open from 7:00 to 18:00, Monday to Saturday, and closed on Sundays."],
     "The Corner bakery is not closed on Mondays."),
    (["Dogs are not allowed in Holm Park."], "Dogs are allowed in Linden Square."),
    # a permission denied for one where or when says nothing of another, nor of a "can" in an "if"
    (["Holm ferry tickets cannot be bought online."], "You can buy Holm ferry tickets on board."),
    (["Cars are not permitted on the Holm morning crossing."], "Cars are allowed on the Holm evening crossing."),
    (["Dogs are allowed on the open deck of the Holm ferry."], "Dogs are not permitted in the Holm ferry's cabin."),
    (["Visitors under 12 are not admitted to the Holm climbing wall."], "Visitors can watch from the Holm café if they are under 12."),
    # what costs extra is another thing than the one the sentence puts inside the price
    (["Bike hire is included in the Holm day pass, but lockers cost 2 euros."], "Lockers cost extra."),
    (["Bike hire is not included in the Holm day pass."], "Bike hire costs extra."),
    (["Bike hire is included in the Holm day pass."], "Bike hire does not cost extra."),
    (["Holm pebbles can be carried in one hand, but one cannot do so with boulders."],
     "Holm pebbles can be carried easily, while boulders cannot."),
]


@pytest.mark.parametrize("kind,context,claim", CAUGHT, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(CAUGHT)])
def test_a_contrast_is_caught_and_cites_the_sentence_that_states_otherwise(kind, context, claim):
    found = Contrasts(context).find(claim)
    assert found is not None, claim
    assert found.kind == kind
    assert 0 <= found.unit < len(context)
    # the cited sentence is the one that says otherwise, and the reason quotes it
    assert found.said in context[found.unit]
    assert context[found.unit].strip() in str(found) or found.said in str(found)


@pytest.mark.parametrize("context,claim", LEFT_ALONE, ids=[f"left-{i}" for i in range(len(LEFT_ALONE))])
def test_what_only_looks_like_a_contrast_is_left_alone(context, claim):
    assert Contrasts(context).find(claim) is None


def test_an_amount_given_to_another_piece_is_blamed_on_the_claims_wrong_amount_not_its_right_one():
    # the claim gives the first piece its own amount and the second a wrong one: the wrong one is blamed
    contrasts = Contrasts(["The club charges 40 euros a year, or 5 euros per visit."])
    found = contrasts.check("The club charges 40 euros a year, or 6 euros per visit.")
    assert (found.kind, found.claim_says) == ("quantity", "6 euros")


def test_an_amount_the_context_gives_to_another_thing_is_no_support():
    # 60 euros is the permit's price; the sentence about the fine gives 40 euros
    context = [
        "A permit costs 60 euros a year and can be applied for at the town hall.",
        "Cars parked longer than allowed may be fined 40 euros.",
    ]
    found = Contrasts(context).find("Cars parked too long may be fined 60 euros.")
    assert (found.kind, found.at, found.unit) == ("quantity", "60 euros", 1)
    assert Contrasts(context).find("Cars parked longer than allowed may be fined 40 euros.") is None
    # a sentence that gives the amount and shares a word with the claim may be what the claim is
    # about: "a year" is the permit's, so the fine may be a yearly one there
    claim = "Cars parked longer than allowed may be fined 60 euros a year."
    assert Contrasts(context).find(claim) is None
    assert Contrasts(context).find(claim.replace(" a year", "")).at == "60 euros"
    # a time of day as well: 11:00 is when check-out ends
    context = ["Breakfast is served from 7:00 to 10:30.", "Check-out is by 11:00."]
    assert Contrasts(context).find("Breakfast is served at 11:00.").at == "11:00"
    # a sentence that gives the amount of what the claim says, without the claim's names
    context = ["Net of one-off items, our earnings in the quarter were $4.2 million.", "In the third quarter, Norcast Media earned $3.9 million."]
    assert Contrasts(context).find("Norcast Media reported earnings of $4.2 million in the quarter.") is None
    # a claim that gives each thing its own amount is read piece by piece, not here
    context = ["Day passes cost 12 euros.", "Passes for the sauna cost 8 euros a day."]
    assert Contrasts(context).find("A day pass costs 12 euros and the sauna 8 euros.") is None


def test_a_need_denied_in_other_words_is_a_negation():
    context = ["Greenleaf Foods is hiring a warehouse assistant.", "Applicants need a forklift licence and must be able to lift 25 kg."]
    for claim, at in (
        ("A forklift licence is not required.", "not required"),
        ("You do not need a forklift licence.", "not need"),
    ):
        found = Contrasts(context).find(claim)
        assert (found.kind, found.at, found.unit) == ("negation", at, 1)
    # what is needed, and who needs it, must be the sentence's
    assert Contrasts(context).find("A forklift licence is required.") is None
    assert Contrasts(context).find("Children do not need a forklift licence.") is None
    assert Contrasts(context).find("A driving licence is not required.") is None
    # an "if" clause, or a side that says both, asserts no need
    assert Contrasts(["If a helmet is needed, the shop lends one for free."]).find("A helmet is not needed at the shop.") is None
    assert _needs(span(-1, "Applicants need a forklift licence but no driving licence is required.")) is None
    assert _needs(span(-1, "No driving licence is required.")) == (4, True, {stem("driving"), stem("licence")})


def test_a_sentences_pieces_divide_at_its_strongest_break_between_two_amounts():
    # "and" joins what is said of follow-up sessions; the semicolon divides the two things priced
    context = ["A first assessment lasts 45 minutes and costs 65 euros; follow-up sessions last 30 minutes and cost 45 euros."]
    assert Contrasts(context).find("Follow-up sessions cost 45 euros.") is None
    found = Contrasts(context).find("Follow-up sessions cost 65 euros.")
    assert (found.kind, found.at) == ("quantity", "65 euros")
    # with only "and" between them, "and" divides: the balcony's price is its own
    found = Contrasts(["Tickets cost 28 euros in the stalls and 18 euros in the balcony."]).find(
        "Balcony tickets cost 28 euros."
    )
    assert (found.kind, found.at) == ("quantity", "28 euros")
    # an "and" that opens a noun phrase divides before one inside a phrase ("a scale and polish")
    prices = ["A check-up costs 45 euros and a scale and polish costs 60 euros."]
    found = Contrasts(prices).find("A scale and polish costs 45 euros.")
    assert (found.kind, found.at) == ("quantity", "45 euros")
    assert Contrasts(prices).find("A scale and polish costs 60 euros.") is None


def test_a_time_of_day_a_sentence_gives_to_another_piece_is_a_contrast():
    context = ["Check-in is from 15:00 and check-out is by 11:00."]
    found = Contrasts(context).find("Check-out is by 15:00.")
    assert (found.kind, found.at) == ("quantity", "15:00")
    assert Contrasts(context).find("Check-out is by 11:00.") is None
    # the two ends of a span are no pieces: which end a time is, is not read
    assert Contrasts(["The gym is open from 6:00 to 22:00 on weekdays."]).find("The gym is open until 6:00 on weekdays.") is None


def test_the_words_before_the_first_amount_are_its_pieces_when_a_later_piece_says_its_own():
    context = ["Adults pay 12 euros and children pay 6 euros."]
    found = Contrasts(context).find("Adults pay 6 euros.")
    assert (found.kind, found.at) == ("quantity", "6 euros") and "12 euros" in found.claimed
    assert Contrasts(context).find("Children pay 6 euros.") is None
    # a claim of what every piece says is only vaguer than the sentence
    assert Contrasts(["Adult tickets cost 12 euros and child tickets cost 6 euros."]).find("Tickets cost 6 euros.") is None


def test_a_span_of_times_is_one_piece_of_its_sentence():
    context = ["The practice is open Monday to Thursday from 8:30 to 17:00 and on Fridays from 8:30 to 13:00."]
    found = Contrasts(context).find("On Fridays the practice closes at 17:00.")
    assert (found.kind, found.at, found.claimed) == ("quantity", "17:00", "17:00 (the context: 8:30 to 13:00)")
    # a time both spans hold, or the piece's own, is no contrast
    assert Contrasts(context).find("On Fridays the practice opens at 8:30.") is None
    assert Contrasts(context).find("On Fridays the practice closes at 13:00.") is None


def test_a_contrast_names_the_claims_own_words_it_is_about():
    """``at`` is what the phrase finder looks for in the claim, so it must be the claim's words as
    written, also where the reason says more ("… (the context: …)", "who did what to whom")."""
    found = Contrasts(["The Marlow ferry crossing is 8 kilometres long."]).find("The Marlow ferry crossing is 8 miles long.")
    assert found.kind == "quantity" and found.at == "8 miles" and "8 kilometres" in found.claimed
    found = Contrasts(["Norcast acquired Vellum Media in 2019."]).find("Vellum Media acquired Norcast in 2019.")
    assert found.kind == "roles" and found.at == "acquired"
    found = Contrasts(["Only holders of a yellow pass may use the north lift."]).find("Anyone may use the north lift.")
    assert found.at == found.claimed == "Anyone"


def test_a_negation_quotes_the_claims_words_as_it_writes_them():
    # "don't" is read as "do", "not": the reason quotes the claim, not the reading
    context = ["Applicants need a forklift licence."]
    assert Contrasts(context).find("You don't need a forklift licence.").at == "don't need"
    assert Contrasts(context).find("A forklift licence isn't required.").at == "isn't required"
    found = Contrasts(["Members can bring one guest to the sauna."]).find("Members can't bring a guest to the sauna.")
    assert found.at == "can't bring"


def test_a_negation_says_the_claim_says_the_opposite_whichever_side_negates():
    # "…, not “LNER”" would read as if the context never named what it excludes
    context = ["You may travel on any Northern service that day, but not on LNER trains."]
    found = Contrasts(context).check("You can take an LNER train with this ticket.")
    assert found.reason == f"The context says “{context[0]}”; the claim says the opposite (“LNER”)."
    found = Contrasts(["Seat reservations are included with this fare."]).check("Seat reservations are not included.")
    assert found.reason.endswith("; the claim says the opposite (“not included”).")


def test_a_verb_in_ify_and_its_noun_share_a_stem():
    assert {stem(w) for w in ("verify", "verified", "verifies", "verification")} == {stem("verify")}
    assert stem("classified") == stem("classification") != stem("class")


def test_an_empty_context_or_claim_finds_nothing():
    assert Contrasts([]).find("The gate is locked.") is None
    assert Contrasts(["The gate is locked."]).find("") is None
    assert Contrasts(["", "   "]).find("The gate is not locked.") is None


def test_threads_comparing_at_once_get_what_one_thread_gets():
    """The trained judge verifies windows in worker threads; the stemmer keeps state, so each
    thread must have its own (a shared one raised IndexError on RAGTruth rows)."""
    import random
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    # words no cache has seen, so that every call reaches a stemmer
    contexts = [[" ".join("".join(rng.choice(letters) for _ in range(rng.randint(4, 14))) + suffix
                          for suffix in ("ing", "ed", "s", "ation", "ness", "ly"))] for _ in range(400)]
    claims = [c[0].split(" ", 3)[-1] for c in contexts]

    def run(k: int):
        return Contrasts(contexts[k]).find(claims[k])

    import sys

    alone = [run(k) for k in range(len(contexts))]
    reading.stem.cache_clear()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, mid-word
    try:
        with ThreadPoolExecutor(8) as pool:
            together = list(pool.map(run, range(len(contexts))))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


def test_only_one_of_the_alternatives_the_context_gives_is_a_contrast():
    # the claim keeps one alternative of a list and drops the other, whichever it keeps
    for context, claim in (
        ("Library fines can be paid at the front desk or through the council's website.", "Fines can only be paid at the front desk."),
        ("Library fines can be paid at the front desk or through the council's website.", "Fines can only be paid through the website."),
        ("The pharmacy accepts payment by card or cash.", "The pharmacy accepts payment by card only."),
        ("Ms Lena Ortiz and Mr Paul Grant teach the evening class.", "Only Ms Ortiz teaches the evening class."),
        # the claim's subject may be the other alternative's word
        ("The alarm sounds when the door opens or if the window is broken.", "The alarm only sounds when the door opens."),
    ):
        found = Contrasts([context]).find(claim)
        assert (found.kind, found.at.lower(), found.unit) == ("quantifier", "only", 0), claim
    context = ["Library fines can be paid at the front desk or through the council's website."]
    # both alternatives kept, no "only", or "only" meaning "merely"
    assert Contrasts(context).find("Fines can only be paid at the front desk or through the website.") is None
    assert Contrasts(context).find("Fines can be paid at the front desk.") is None
    assert Contrasts(["Library fines cost 20 cents a day or 2 euros a week."]).find("Fines cost only 2 euros a week.") is None
    # a list of amounts is the amount checks'; "and" between clauses lists no alternatives
    hours = ["The pool is open from 7:00 to 21:00 on weekdays and on Sundays from 9:00 to 13:00."]
    assert Contrasts(hours).find("On Sundays the pool is only open until 13:00.") is None
    assert Contrasts(["Members bring a guest and use the sauna for free."]).find("Members can only bring a guest.") is None
    # a verb is no noun of a list; "only" before "a few" means "merely"; a word far after "only" is not what it keeps
    # "only" before an article keeps one thing as much as before a noun
    found = Contrasts(["The kit includes a pump and a repair patch."]).find("The kit only includes a pump.")
    assert (found.kind, found.at) == ("quantifier", "only")
    assert Contrasts(["The guard checked the tickets and waved at the crowd."]).find("The guard only checked the tickets.") is None
    assert Contrasts(["It takes a few taps to see the stops and routes."]).find("It only takes a few taps to see the stops.") is None
    youth = ["The club works with young people aged 12 to 18 from all districts and schools in the city."]
    assert Contrasts(youth).find("The club works exclusively with young people aged 12 to 18 from many districts.") is None


def test_a_universal_of_time_against_a_context_that_says_when_is_a_contrast():
    pool = ["The outdoor pool is open from 10:00 to 19:00 on weekdays and from 9:00 to 20:00 at weekends."]
    caught = (
        # at any hour, against hours; every day, against some days; at any hour, against an exception
        (["Dogs may use the beach outside the summer months."], "Dogs may use the beach at any time.", "at any time"),
        (pool, "The outdoor pool is open around the clock.", "around the clock"),
        (["The library is open on weekdays from 9:00 to 18:00."], "The library is open every day.", "every day"),
        (["Staff can be reached by phone during office hours, except on public holidays."],
         "Staff can be reached by phone at all times.", "at all times"),
    )
    for context, claim, said in caught:
        found = Contrasts(context).find(claim)
        assert (found.kind, found.at, found.unit) == ("quantifier", said, 0), claim
    # a when alone after a comma restricts the clause before it
    shifts = ["Shifts run from 7 am to 11 am, Tuesday to Saturday."]
    assert Contrasts(shifts).find("Shifts run from 7 am to 11 am every day.").at == "every day"
    # weekdays and weekends are every day; hours say nothing against "every day"
    assert Contrasts(pool).find("The outdoor pool is open every day.") is None
    assert Contrasts(["The café opens on Sundays from 10:00 to 16:00."]).find("The café is always open on Sundays.") is None
    # the claim names the restriction's grain itself, denies it, or the context says the same universal
    assert Contrasts(pool).find("At weekends the outdoor pool is open at any time after 9:00.") is None
    beach, denied = span(0, "Dogs may use the beach outside the summer months."), span(-1, "Dogs may not use the beach at any time.")
    assert unrestricted(denied, beach, [beach], denied) is None
    assert Contrasts(["The shop is open every day from 8:00 to 20:00."]).find("The shop is open every day.") is None


def test_amounts_listed_together_share_what_follows_them():
    # "every day" is each time's: it binds the claim to no piece of the list
    context = ["The shuttle leaves the airport at 6:40, 12:10 and 18:25 every day."]
    assert Contrasts(context).find("The shuttle leaves the airport at 6:40 every day.") is None
    found = Contrasts(context).find("The shuttle leaves the airport at 7:40 every day.")
    assert (found.kind, found.at) == ("quantity", "7:40")


def test_a_price_for_whom_the_context_says_is_free_is_a_contrast():
    context = ["The course fee of 90 euros is waived for apprentices."]
    found = Contrasts(context).find("Apprentices pay a course fee of 90 euros.")
    assert (found.kind, found.at) == ("price", "pay")
    found = Contrasts(["Visitors over 80 enter the castle gardens free of charge."]).find("Visitors over 80 pay 8 euros to enter the castle gardens.")
    assert (found.kind, found.at) == ("price", "pay")
    # the waived thing's own price, someone else's price, or a price denied, is no contrast
    assert Contrasts(context).find("The course fee is 90 euros.") is None
    assert Contrasts(context).find("Students pay a course fee of 90 euros.") is None
    assert Contrasts(context).find("Apprentices do not pay the course fee of 90 euros.") is None


def test_a_sentence_that_prices_everyone_else_calls_free_whom_the_sentence_before_it_does():
    context = [
        "Entry to the botanical garden is free for children under 12, students and museum members.",
        "Everyone else pays 9 euros.",
    ]
    for claim in ("Students pay 9 euros.", "Museum members pay 9 euros to enter the botanical garden."):
        found = Contrasts(context).find(claim)
        assert (found.kind, found.unit) == ("price", 0), claim
    assert Contrasts(context).find("Adults pay 9 euros.") is None


def test_a_counts_number_that_the_context_has_only_as_a_measure_is_compared():
    context = ["The hub charges in 3 hours.", "It has two USB ports and one HDMI port."]
    found = Contrasts(context).find("The hub has three USB ports.")
    assert (found.kind, found.at) == ("quantity", "three")
    # a number the context writes bare, as a count or as an ordinal of what the claim names, leaves
    # the count to the judge
    assert Contrasts(["It has two USB ports.", "A third port is planned."]).find("It has three USB ports.") is None
    militants = ["The strikes targeted four militants.", "Three of the alleged attackers were killed."]
    assert Contrasts(militants).find("The strikes killed three militants.") is None
    # an ordinal of another thing counts nothing
    hotel = ["Your booking is confirmed for three nights.", "You have a double room on the fourth floor."]
    found = Contrasts(hotel).find("The booking is for four nights.")
    assert (found.kind, found.unit, found.at) == ("quantity", 0, "four")
    assert Contrasts(hotel).find("You stay three nights on the fourth floor.") is None
    # a count read from the noun before it may be a measure whose unit is said once ("30 and 40 years")
    ages = ["Volunteers must be between the age of 18 and 65 years."]
    assert Contrasts(ages).find("Volunteers must be between the ages of 18 and 65.") is None


def test_days_of_the_week_the_sentence_leaves_out_are_a_contrast():
    shop = ["The shop is open Monday to Saturday from 9:00 to 18:00."]
    found = Contrasts(shop).find("The shop is open on Sundays.")
    assert (found.kind, found.unit, found.at) == ("date", 0, "Sundays")
    assert Contrasts(shop).find("The shop opens at 9:00 on Saturdays.") is None  # inside the span
    assert Contrasts(shop).find("The shop is closed on Sundays.") is None  # the other pole
    assert Contrasts(shop).find("The shop is not open on Sundays.") is None
    # the days of a second pole are an exception to the rest
    closed = ["The shop is closed on Mondays."]
    assert Contrasts(closed).find("On Saturdays, the shop closes at 2 pm.") is None
    bus = ["Bus 42 runs every 10 minutes on weekdays and every 20 minutes on Sundays."]
    found = Contrasts(bus).find("Bus 42 runs on Saturdays.")
    assert (found.kind, found.at) == ("date", "Saturdays")
    assert Contrasts(bus).find("Bus 42 runs every 20 minutes on Sundays.") is None
    # a span of days written with a dash is the days between; days written short are not read
    office = ["The office is open Monday – Friday from 9:00 to 17:00."]
    assert Contrasts(office).find("The office is open on Wednesdays.") is None
    assert Contrasts(office).find("The office is open on Saturdays.").kind == "date"
    short = ["The office is open Mon–Fri 9:00 to 17:00 and Saturdays 10:00 to 14:00."]
    assert Contrasts(short).find("The office is open on Wednesdays.") is None
    # vague days ("most days") are not read
    assert Contrasts(["The office is open most days and on Saturdays."]).find("The office is open on Sundays.") is None
    # a claim with a word the sentence lacks may be about another day than the sentence's
    police = ["Police said on Monday that the attack on the embassy killed three guards."]
    assert Contrasts(police).find("The attack on the embassy happened on Sunday.") is None
    # the days an exception names are the ones excepted: this check leaves them alone
    assert Contrasts(["The shop is open every day except Mondays."]).find("The shop is open on Mondays.") is None


def test_a_day_of_the_week_is_no_name_in_who_did_what_to_whom():
    course = ["Introduction to Statistics (STAT 101) is taught by Dr Helena Marsh on Tuesdays and Thursdays."]
    found = Contrasts(course).find("STAT 101 is taught on Mondays.")
    assert (found.kind, found.at) == ("date", "Mondays")
    assert Contrasts(course).find("Dr Helena Marsh is taught by STAT 101.").kind == "roles"

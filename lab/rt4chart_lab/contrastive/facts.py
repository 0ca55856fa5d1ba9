"""Invented fact sheets with minimal-pair statements whose labels hold by construction.

The edits of :mod:`.edits` work on real sentences, so they fire only where a sentence happens to
have the right shape: a role verb between two names, a modal, a quantifier. News and QA passages
rarely do, and those kinds stay under 1 % of the edits. Here each phenomenon is written on
purpose: a short context about invented people, firms and places (so no world knowledge can
decide), a faithful statement (often a paraphrase: the passive, the converse, a conversion) and
twins that change one meaning-bearing element. Every label is fixed by the template, not guessed,
and each group keeps its twins together (one ``group``), so a split never separates them.

The contexts carry unrelated distractor sentences about other invented entities, so the premise
picker has to find the sentence that decides. The wording and vocabulary are this module's own;
the hand-written minimal-pairs dev set is never read here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .example import Example

Statement = tuple[str, str]  # (claim, label)
Sheet = tuple[list[str], list[Statement]]  # (context sentences that decide, statements)

_ONSETS = "b br c d dr f g gr h j k l m n p pr r s st t tr v w z".split()
_VOWELS = "a e i o u ai ea io".split()
_CODAS = "l n r s th x nd rk ll m st".split()


def _word(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(parts - 1)) + rng.choice(
        _ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)


def _cap(rng: random.Random, parts: int = 2) -> str:
    return _word(rng, parts).capitalize()


def _upper_first(text: str) -> str:
    """``text`` opening a sentence: its first letter upper case, the rest as written."""
    return text[:1].upper() + text[1:]


class World:
    """Fresh invented names: each draw is new, so distractor sheets never speak of the same thing."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make: Callable[[], str]) -> str:
        for _ in range(50):
            name = make()
            if name not in self.used:
                self.used.add(name)
                return name
        return make()

    def person(self) -> str:
        return self._fresh(lambda: f"{_cap(self.rng, self.rng.choice((1, 2)))} {_cap(self.rng, 2)}")

    def org(self) -> str:
        suffix = self.rng.choice(["Foods", "Labs", "Logistics", "Bank", "Studios", "Motors", "Health", "Books",
                                  "Energy", "Systems", "Outfitters", "Press", "Farms", "Software", "Pharma"])
        return self._fresh(lambda: f"{_cap(self.rng, 2)} {suffix}")

    def town(self) -> str:
        return self._fresh(lambda: _cap(self.rng, 2) + self.rng.choice(["ford", "ton", "vale", "by", "mouth", "wick"]))

    def product(self) -> str:
        kind = self.rng.choice(["kettle", "bicycle", "laptop", "tent", "blender", "drone", "backpack", "heater"])
        return self._fresh(lambda: f"the {_cap(self.rng, 2)} {kind}")


# --- the templates: each returns the deciding sentences and its statements ---------------------

_POLAR = [  # (positive, negative) predicates of a firm
    ("accepts cash payments", "does not accept cash payments"),
    ("ships orders abroad", "does not ship orders abroad"),
    ("offers free parking", "does not offer free parking"),
    ("charges a fee for returns", "does not charge a fee for returns"),
    ("opens on public holidays", "does not open on public holidays"),
    ("sells its products online", "does not sell its products online"),
    ("allows pets in its shops", "does not allow pets in its shops"),
    ("publishes its prices", "does not publish its prices"),
    ("has a customer helpline", "has no customer helpline"),
    ("tests its products on animals", "does not test its products on animals"),
]


def negation(rng: random.Random, w: World) -> Sheet:
    org = w.org()
    pos, neg = rng.choice(_POLAR)
    true, false = (pos, neg) if rng.random() < 0.5 else (neg, pos)
    ctx = f"{org} {true}."
    return [ctx], [(f"{org} {true}.", "ENT"), (f"{org} {false}.", "CON"),
                   (f"It is not true that {org} {false}.", "ENT")]


_GROUPS = [("members", "member"), ("employees", "employee"), ("students", "student"), ("residents", "resident"),
           ("subscribers", "subscriber"), ("volunteers", "volunteer")]
_PERKS = ["a parking permit", "a free lunch", "a discount card", "a welcome pack", "a yearly bonus", "a locker"]
_ACTIONS = ["use the rooftop garden", "borrow the projectors", "book the meeting rooms", "enter the archive",
            "vote at the annual meeting", "park in the inner courtyard", "use the pool after 8 PM"]


def quantifier(rng: random.Random, w: World) -> Sheet:
    org = w.org()
    plural, singular = rng.choice(_GROUPS)
    kind = rng.randrange(3)
    if kind == 0:
        perk = rng.choice(_PERKS)
        ctx = f"All {plural} of {org} receive {perk}."
        return [ctx], [(f"Every {singular} of {org} receives {perk}.", "ENT"),
                       (f"No {singular} of {org} receives {perk}.", "CON"),
                       (f"Only a few {plural} of {org} receive {perk}.", "CON")]
    if kind == 1:
        action = rng.choice(_ACTIONS)
        ctx = f"Only {plural} of {org} may {action}."
        return [ctx], [(f"People who are not {plural} of {org} may not {action}.", "ENT"),
                       (f"Anyone may {action}.", "CON"),
                       (f"Visitors who are not {plural} of {org} may also {action}.", "CON")]
    perk = rng.choice(_PERKS)
    ctx = f"Some {plural} of {org} receive {perk}."
    return [ctx], [(f"At least one {singular} of {org} receives {perk}.", "ENT"),
                   (f"None of the {plural} of {org} receive {perk}.", "CON"),
                   (f"All {plural} of {org} receive {perk}.", "NIC")]


_DUTIES = [("show a ticket at the entrance", "showing a ticket at the entrance"),
           ("wear a helmet on the track", "wearing a helmet on the track"),
           ("register before the workshop", "registering before the workshop"),
           ("sign the visitor book", "signing the visitor book"),
           ("book a table in advance", "booking a table in advance")]
_WHO = ["Visitors", "Guests", "Participants", "Riders", "Customers", "Players"]


def modality(rng: random.Random, w: World) -> Sheet:
    place = f"the {_cap(rng, 2)} {rng.choice(['Museum', 'Club', 'Centre', 'Arena', 'Gallery', 'Market'])}"
    who = rng.choice(_WHO)
    duty, gerund = rng.choice(_DUTIES)
    other, _ = rng.choice([d for d in _DUTIES if d[0] != duty])
    kind = rng.randrange(3)
    if kind == 0:
        ctx = f"At {place}, {who.lower()} must {duty}."
        return [ctx], [(f"At {place}, {gerund} is required of {who.lower()}.", "ENT"),
                       (f"At {place}, {who.lower()} do not need to {duty}.", "CON"),
                       (f"At {place}, {gerund} is optional for {who.lower()}.", "CON"),
                       (f"At {place}, {who.lower()} must also {other}.", "NIC")]
    if kind == 1:
        ctx = f"At {place}, {gerund} is optional."
        return [ctx], [(f"At {place}, {who.lower()} are not required to {duty}.", "ENT"),
                       (f"At {place}, {who.lower()} must {duty}.", "CON"),
                       (f"At {place}, {gerund} is mandatory.", "CON")]
    ctx = f"At {place}, {who.lower()} are allowed to {duty}."
    return [ctx], [(f"At {place}, {who.lower()} may {duty}.", "ENT"),
                   (f"At {place}, {who.lower()} are not allowed to {duty}.", "CON"),
                   (f"At {place}, {who.lower()} are forbidden to {duty}.", "CON")]


_COMPARE = [("older", "younger"), ("taller", "shorter"), ("heavier", "lighter"), ("faster", "slower"),
            ("cheaper", "more expensive"), ("larger", "smaller"), ("longer", "shorter"), ("busier", "quieter")]
_SUPERLATIVE = {"older": "oldest", "taller": "tallest", "heavier": "heaviest", "faster": "fastest",
                "cheaper": "cheapest", "larger": "largest", "longer": "longest", "busier": "busiest"}


def comparative(rng: random.Random, w: World) -> Sheet:
    more, less = rng.choice(_COMPARE)
    noun = rng.choice(["bridge", "tower", "ferry", "station", "library", "market hall"])
    a, b = f"the {w.town()} {noun}", f"the {w.town()} {noun}"
    a_, b_ = _upper_first(a), _upper_first(b)
    ctx = f"{a_} is {more} than {b}."
    return [ctx], [(f"{b_} is {less} than {a}.", "ENT"), (f"{b_} is {more} than {a}.", "CON"),
                   (f"{a_} is {less} than {b}.", "CON"),
                   (f"{a_} is the {_SUPERLATIVE[more]} {noun} in the country.", "NIC")]


_JOBS = [("worked at", "working at", "joining"), ("studied at", "studying at", "joining"),
         ("taught at", "teaching at", "moving to")]


def event_order(rng: random.Random, w: World) -> Sheet:
    person, o1, o2 = w.person(), w.org(), w.org()
    did, doing, then = rng.choice(_JOBS)
    then_past = {"joining": "joined", "moving to": "moved to"}[then]
    did_base = {"worked at": "work", "studied at": "study", "taught at": "teach"}[did]
    ctx = f"{person} {did} {o1} before {then} {o2}."
    return [ctx], [(f"{person} {then_past} {o2} after {doing} {o1}.", "ENT"),
                   (f"{person} {then_past} {o2} before {doing} {o1}.", "CON"),
                   (f"{person} {did} {o1} after {then} {o2}.", "CON"),
                   (f"{person} did not {did_base} at {o1} until after {then} {o2}.", "CON")]


_ROLES = [("acquired", "was acquired by"), ("sued", "was sued by"), ("hired", "was hired by"),
          ("defeated", "was defeated by"), ("replaced", "was replaced by"), ("funded", "was funded by"),
          ("supplied", "was supplied by"), ("overtook", "was overtaken by")]


def role_swap(rng: random.Random, w: World) -> Sheet:
    verb, passive = rng.choice(_ROLES)
    people = verb in {"hired", "replaced", "defeated"} and rng.random() < 0.5
    a, b = (w.person(), w.person()) if people else (w.org(), w.org())
    year = rng.randrange(1990, 2025)
    ctx = f"{a} {verb} {b} in {year}."
    return [ctx], [(f"{b} {passive} {a} in {year}.", "ENT"), (f"{b} {verb} {a} in {year}.", "CON"),
                   (f"{a} {passive} {b} in {year}.", "CON")]


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                 10: "ten", 12: "twelve", 20: "twenty"}


def numbers(rng: random.Random, w: World) -> Sheet:
    org, t1, t2 = w.org(), w.town(), w.town()
    noun = rng.choice(["shops", "warehouses", "offices", "clinics", "branches"])
    n, m = rng.choice(list(_NUMBER_WORDS)), rng.randrange(2, 15)
    ctx = f"{org} runs {_NUMBER_WORDS[n]} {noun} in {t1} and {m} in {t2}."
    wrong = n + rng.choice([-1, 1, 2, 3]) if n > 2 else n + 2
    return [ctx], [(f"{org} runs {n} {noun} in {t1}.", "ENT"), (f"{org} runs {wrong} {noun} in {t1}.", "CON"),
                   (f"{org} runs {n + m} {noun} in {t1} and {t2} together.", "ENT"),
                   (f"{org} runs {n + m + rng.choice([2, 3, 5])} {noun} in {t1} and {t2} together.", "CON")]


def prices(rng: random.Random, w: World) -> Sheet:
    product = w.product()
    price = rng.choice([19, 24, 35, 49, 60, 75, 120, 250])
    pct = rng.choice([10, 15, 20, 25, 30, 50])
    P = _upper_first(product)
    ctx = f"{P} costs ${price}, and members get {pct}% off."
    return [ctx], [(f"Members get a {pct}% discount on {product}.", "ENT"),
                   (f"Members get a {pct + rng.choice([5, 10, 20])}% discount on {product}.", "CON"),
                   (f"{P} costs ${price * 2}.", "CON"), (f"{P} sells for ${price}.", "ENT")]


_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def dates_times(rng: random.Random, w: World) -> Sheet:
    place = f"The {w.town()} {rng.choice(['library', 'pool', 'post office', 'bakery', 'clinic'])}"
    kind = rng.randrange(3)
    if kind == 0:
        day = rng.choice(_DAYS)
        ctx = f"{place} is closed on {day}s."
        other = rng.choice([d for d in _DAYS if d != day])
        return [ctx], [(f"{place} does not open on {day}s.", "ENT"), (f"{place} is open on {day}s.", "CON"),
                       (f"{place} is open every day of the week.", "CON"), (f"{place} is closed on {other}s.", "NIC")]
    if kind == 1:
        opens, closes = rng.randrange(7, 11), rng.randrange(4, 9)
        ctx = f"{place} opens at {opens} AM and closes at {closes} PM."
        return [ctx], [(f"{place} closes at {closes} PM.", "ENT"),
                       (f"{place} closes at {closes + rng.choice([1, 2])} PM.", "CON"),
                       (f"{place} opens at {opens} PM.", "CON"),
                       (f"{place} is open for {12 - opens + closes} hours a day.", "ENT")]
    weeks = rng.randrange(2, 9)
    year = rng.randrange(2001, 2026)
    ctx = f"{place} was renovated in {year}; the work took {weeks} weeks."
    renovation = f"The renovation of {place[0].lower() + place[1:]}"
    return [ctx], [(f"{renovation} took {weeks * 7} days.", "ENT"),
                   (f"{renovation} took {weeks + rng.choice([2, 3])} weeks.", "CON"),
                   (f"{place} was renovated in {year + rng.choice([-2, -1, 1, 2])}.", "CON")]


def units(rng: random.Random, w: World) -> Sheet:
    kind = rng.randrange(3)
    if kind == 0:
        n = rng.choice([3, 5, 8, 12, 15, 21])
        trail = f"The {w.town()} trail"
        ctx = f"{trail} is {n} km long."
        return [ctx], [(f"{trail} is {n} kilometres long.", "ENT"), (f"{trail} is {n} miles long.", "CON"),
                       (f"{trail} is {n * 1000:,} metres long.", "ENT"), (f"{trail} is {n} metres long.", "CON")]
    if kind == 1:
        mg = rng.choice([250, 500, 750])
        drug = f"{_cap(rng, 2)}ol"
        ctx = f"One tablet of {drug} contains {mg} mg of the active ingredient."
        return [ctx], [(f"One {drug} tablet contains {mg / 1000:g} g of the active ingredient.", "ENT"),
                       (f"One {drug} tablet contains {mg} g of the active ingredient.", "CON")]
    c = rng.choice([4, 18, 25, 30])
    room = f"The {_cap(rng, 2)} greenhouse"
    ctx = f"{room} is kept at {c} °C."
    return [ctx], [(f"{room} is kept at {c} degrees Celsius.", "ENT"), (f"{room} is kept at {c} °F.", "CON")]


_DEPTS = ["sales", "design", "research", "support", "finance", "legal", "marketing"]


def entity_swap(rng: random.Random, w: World) -> Sheet:
    org, p1, p2, p3 = w.org(), w.person(), w.person(), w.person()
    d1, d2, d3 = rng.sample(_DEPTS, 3)
    ctx = [f"At {org}, {p1} leads the {d1} team.", f"{p2} leads the {d2} team."]
    return ctx, [(f"The {d1} team at {org} is led by {p1}.", "ENT"), (f"{p2} leads the {d1} team at {org}.", "CON"),
                 (f"{p1} leads the {d2} team at {org}.", "CON"), (f"{p3} leads the {d3} team at {org}.", "NIC")]


_EXTRAS = ["and it won a national award in {year}", "and it plans to open a branch in {town}",
           "and it was founded by {person}", "and it is owned by {org}", "and its offices are in {town}"]


def added_fact(rng: random.Random, w: World) -> Sheet:
    org = w.org()
    pos, neg = rng.choice(_POLAR)
    fact = rng.choice((pos, neg))
    extra = rng.choice(_EXTRAS).format(year=rng.randrange(1990, 2025), town=w.town(), person=w.person(), org=w.org())
    ctx = f"{org} {fact}."
    return [ctx], [(f"{org} {fact}.", "ENT"), (f"{org} {fact}, {extra}.", "NIC")]


_EVENTS = [("raised its prices in {m1}", "its sales fell in {m2}", "its sales fell because it raised its prices",
            "raising its prices caused its sales to fall"),
           ("moved its headquarters in {m1}", "its chief executive resigned in {m2}",
            "its chief executive resigned because of the move", "the move led its chief executive to resign"),
           ("launched a new app in {m1}", "its customer numbers grew in {m2}",
            "its customer numbers grew thanks to the new app", "the new app caused its customer numbers to grow")]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]


def causal_link(rng: random.Random, w: World) -> Sheet:
    org = w.org()
    first, second, because, caused = rng.choice(_EVENTS)
    i = rng.randrange(len(_MONTHS) - 2)
    first, second = first.format(m1=_MONTHS[i]), second.format(m2=_MONTHS[i + 2])
    ctx = [f"{org} {first}.", f"{_upper_first(second)}."]
    return ctx, [(f"{org} {first}, and {second}.", "ENT"), (f"At {org}, {because}.", "NIC"),
                 (f"At {org}, {caused}.", "NIC")]


_PLANS = [("reopen", "the bridge"), ("open", "the new station"), ("close", "the old factory"),
          ("expand", "the harbour"), ("move", "the market")]


def hedged(rng: random.Random, w: World) -> Sheet:
    verb, thing = rng.choice(_PLANS)
    thing = f"{thing} in {w.town()}"
    month = rng.choice(_MONTHS)
    kind = rng.randrange(2)
    if kind == 0:
        hedge = rng.choice(["may", "might", "could"])
        ctx = f"Officials said {thing} {hedge} {verb} in {month}."
        return [ctx], [(f"Officials said {thing} could possibly {verb} in {month}.", "ENT"),
                       (f"Officials said {thing} will {verb} in {month}.", "NIC")]
    n = rng.choice([200, 300, 450, 1200, 5000])
    event = f"the {w.town()} fair"
    ctx = f"About {n:,} people attended {event}."
    return [ctx], [(f"Roughly {n:,} people attended {event}.", "ENT"),
                   (f"Exactly {n + rng.choice([3, 7, 12]):,} people attended {event}.", "NIC")]


def multi_sentence(rng: random.Random, w: World) -> Sheet:
    p1, p2, t1, t2 = w.person(), w.person(), w.town(), w.town()
    shop = rng.choice(["bakery", "bookshop", "repair shop", "café", "pharmacy"])
    year = rng.randrange(1995, 2020)
    ctx = [f"{p1} moved to {t1} in {year}.", f"{p2} stayed in {t2}.",
           f"Three years after the move, {p1} opened a {shop} there."]
    return ctx, [(f"{p1} opened a {shop} in {t1} in {year + 3}.", "ENT"),
                 (f"{p2} opened a {shop} in {t1}.", "CON"), (f"{p1} opened a {shop} in {t1} in {year}.", "CON")]


def conjunction(rng: random.Random, w: World) -> Sheet:
    org = w.org()
    (p1, n1), (p2, n2) = rng.sample(_POLAR, 2)
    true1, true2 = rng.choice((p1, n1)), rng.choice((p2, n2))
    false2 = n2 if true2 == p2 else p2
    p3, n3 = rng.choice([p for p in _POLAR if p[0] not in (p1, p2)])
    ctx = [f"{org} {true1}.", f"It {true2}."]
    return ctx, [(f"{org} {true1} and {true2}.", "ENT"), (f"{org} {true1} and {false2}.", "CON"),
                 (f"{org} {true1} and {rng.choice((p3, n3))}.", "NIC")]


TEMPLATES: dict[str, Callable[[random.Random, World], Sheet]] = {
    "negation": negation, "quantifier": quantifier, "modality": modality, "comparative": comparative,
    "event_order": event_order, "role_swap": role_swap, "numbers": numbers, "prices": prices,
    "dates_times": dates_times, "units": units, "entity_swap": entity_swap, "added_fact": added_fact,
    "causal_link": causal_link, "hedged": hedged, "multi_sentence": multi_sentence, "conjunction": conjunction,
}
DISTRACTORS = 3  # unrelated sentences of other sheets in every context


def fact_examples(n: int, *, seed: int = 0) -> list[Example]:
    """``n`` fact sheets, the templates taken in turn; every statement of a sheet an Example."""
    rng = random.Random(f"facts|{seed}")
    names = sorted(TEMPLATES)
    out: list[Example] = []
    for i in range(n):
        world = World(rng)
        kind = names[i % len(names)]
        deciding, statements = TEMPLATES[kind](rng, world)
        filler = [s for _ in range(DISTRACTORS) for s in TEMPLATES[rng.choice(names)](rng, world)[0][:1]]
        at = rng.randrange(len(filler) + 1)
        context = " ".join(filler[:at] + deciding + filler[at:])
        for claim, label in statements:
            out.append(Example(context=context, question=None, claim=claim, label=label,  # type: ignore[arg-type]
                               source=f"facts/{kind}", group=f"facts{seed}-{i}"))
    return out

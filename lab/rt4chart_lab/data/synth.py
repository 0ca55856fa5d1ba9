"""Synthetic verifier pairs: edits that turn a supported sentence into a contradicted one, and
generated business records (like RAGTruth's Data2txt task, which has no train rows) with faithful
and unfaithful verbalizations.

Every generator takes a ``random.Random`` so that a seed rebuilds the same data.
"""

from __future__ import annotations

import json
import random
import re

# ---------------------------------------------------------------------------------------------
# Contradicting edits of a sentence

_NUM = re.compile(r"(?<![\w.,:])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w]|[.,]\d)")
_NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_FLIPS = [("increased", "decreased"), ("rose", "fell"), ("higher", "lower"), ("more", "fewer"),
          ("open", "closed"), ("before", "after"), ("won", "lost"), ("accepts", "does not accept"),
          ("allowed", "not allowed"), ("largest", "smallest"), ("first", "last"), ("men", "women"),
          ("north", "south"), ("east", "west"), ("arrested", "released"), ("approved", "rejected"),
          ("supports", "opposes"), ("positive", "negative"), ("cheap", "expensive"), ("quiet", "noisy")]
_AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|will|did|does|do)\b(?! not)")
_NEGATED = re.compile(r"\b(is|are|was|were|has|have|had|can|will|did|does|do) not\b")
_CAPITAL = re.compile(r"(?<!^)(?<![.!?]\s)\b([A-Z][a-z]{2,})\b")


def _change_number(text: str, rng: random.Random) -> str | None:
    found = list(_NUM.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    raw = m.group(1).replace(",", "")
    value = float(raw)
    if 1900 <= value <= 2100 and "." not in raw:
        new = value + rng.choice([-3, -2, -1, 1, 2, 3])
    elif value < 10:
        new = rng.choice([v for v in range(1, 13) if v != value])
    else:
        new = round(value * rng.choice([0.5, 0.7, 1.3, 1.5, 2.0]))
    if new == value:
        new = value + 1
    out = f"{new:.1f}" if "." in raw else f"{int(new):,}" if "," in m.group(1) else str(int(new))
    return text[: m.start(1)] + out + text[m.end(1):]


def _swap_from(text: str, pool: list[str], rng: random.Random) -> str | None:
    present = [w for w in pool if re.search(rf"\b{w}\b", text)]
    if not present:
        return None
    old = rng.choice(present)
    new = rng.choice([w for w in pool if w != old])
    return re.sub(rf"\b{old}\b", new, text, count=1)


def _swap_name(text: str, context_names: list[str], rng: random.Random) -> str | None:
    mine = [m.group(1) for m in _CAPITAL.finditer(text)]
    others = [n for n in context_names if n not in text]
    if not mine or not others:
        return None
    old = rng.choice(mine)
    return re.sub(rf"\b{old}\b", rng.choice(others), text, count=1)


def _flip(text: str, rng: random.Random) -> str | None:
    options = [(a, b) for a, b in _FLIPS if re.search(rf"\b{a}\b", text)]
    options += [(b, a) for a, b in _FLIPS if re.search(rf"\b{b}\b", text)]
    if options:
        a, b = rng.choice(options)
        return re.sub(rf"\b{a}\b", b, text, count=1)
    if _NEGATED.search(text):
        return _NEGATED.sub(lambda m: m.group(1), text, count=1)
    if _AUX.search(text):
        return _AUX.sub(lambda m: m.group(1) + " not", text, count=1)
    return None


def contradict(text: str, context_names: list[str], rng: random.Random) -> str | None:
    """A version of ``text`` that the same context contradicts, or None when no edit applies."""
    edits = [
        lambda: _change_number(text, rng),
        lambda: _swap_from(text, _DAYS, rng),
        lambda: _swap_from(text, _MONTHS, rng),
        lambda: _swap_name(text, context_names, rng),
        lambda: _flip(text, rng),
    ]
    rng.shuffle(edits)
    for edit in edits:
        out = edit()
        if out and out != text:
            return out
    return None


#: Trailing elaborations of the kind a generator appends to a faithful sentence. None of them is
#: about anything a particular context states, so "faithful sentence + one of these" is baseless
#: (NIC); half of the unfaithful sentences the verifier missed on held-out train rows had this form.
ELABORATIONS = [
    "which can help reduce the risk of heart disease and stroke",
    "which makes it a popular destination for tourists",
    "making it an ideal choice for families with young children",
    "which is considered one of the best in the region",
    "as recommended by most health experts",
    "which has been widely praised by critics",
    "and the results are usually visible within a few weeks",
    "which is why it remains so popular today",
    "a decision that was welcomed by local residents",
    "and it is expected to be completed by the end of the year",
    "which led to a significant increase in sales",
    "although experts warn that the long-term effects are still unknown",
    "and this is the most common cause of the condition",
    "which is a great way to save money",
    "according to a recent survey",
    "and the company plans to expand to other countries",
    "which can take up to several months",
    "as part of a broader effort to improve public safety",
    "and is known for its friendly and welcoming atmosphere",
    "which is also rich in vitamins and antioxidants",
    "and it is the oldest of its kind in the country",
    "prompting calls for a full investigation",
    "which is the main reason for its success",
    "and many customers return for the excellent service",
    "so it is best to consult a doctor before starting",
    "and the police are still searching for the suspect",
    "which usually costs between 50 and 100 dollars",
    "after years of declining sales",
    "which was first introduced in the early 1990s",
    "and it has won several international awards",
]
_CONNECTORS = ["and", "which means that", "while", "as", "because"]


def extend(text: str, tail: str) -> str:
    """``text`` with ``tail`` appended as a trailing clause (", tail.")."""
    body = text.rstrip().rstrip(".!?;:,")
    return f"{body}, {tail.strip().rstrip('.!?')}."


def clause_of(sentence: str, rng: random.Random) -> str:
    """A trailing clause made of another sentence: its part after the last comma when that part
    has four words or more, else the whole sentence, joined by a connector."""
    body = sentence.strip().rstrip(".!?")
    parts = [p.strip() for p in body.split(",")]
    if len(parts) > 1 and len(parts[-1].split()) >= 4:
        return parts[-1]
    first, rest = body[:1], body[1:]
    if not (len(body) > 1 and body.split()[0].isupper()):  # "NASA said" keeps its capital
        first = first.lower()
    return f"{rng.choice(_CONNECTORS)} {first}{rest}"


def context_names(text: str) -> list[str]:
    return sorted({m.group(1) for m in _CAPITAL.finditer(text)} - set(_DAYS) - set(_MONTHS))


# ---------------------------------------------------------------------------------------------
# Generated business records

_NAME_A = ["Golden", "Blue", "Rusty", "Little", "Urban", "Corner", "Happy", "Lucky", "Sunny", "Old Town",
           "Red", "Green Leaf", "Silver", "Harbor", "Maple", "Copper", "Wild", "Twin"]
_NAME_B = ["Spoon", "Dragon", "Anchor", "Bistro", "Kitchen", "Grill", "Cafe", "Taqueria", "Noodle House",
           "Bakery", "Tavern", "Salon", "Auto Care", "Books", "Pizzeria", "Smokehouse", "Diner", "Spa"]
_CITIES = [("Philadelphia", "PA"), ("Tampa", "FL"), ("Nashville", "TN"), ("Tucson", "AZ"), ("Reno", "NV"),
           ("Indianapolis", "IN"), ("Santa Barbara", "CA"), ("New Orleans", "LA"), ("St. Louis", "MO"),
           ("Boise", "ID"), ("Edmonton", "AB"), ("Clearwater", "FL")]
_STREETS = ["Main St", "Oak Ave", "Market St", "Broadway", "Elm St", "2nd Ave", "Chestnut St", "Magazine St"]
_CATEGORIES = [["Restaurants", "Italian", "Pizza"], ["Restaurants", "Mexican", "Tacos"],
               ["Coffee & Tea", "Cafes", "Breakfast & Brunch"], ["Bars", "Nightlife", "American (Traditional)"],
               ["Beauty & Spas", "Nail Salons"], ["Automotive", "Auto Repair", "Oil Change Stations"],
               ["Restaurants", "Chinese", "Noodles"], ["Bakeries", "Desserts", "Food"],
               ["Restaurants", "Barbeque", "Southern"], ["Shopping", "Bookstores"], ["Restaurants", "Sushi Bars", "Japanese"]]
_BOOL_ATTRS = {
    "BusinessAcceptsCreditCards": ("accepts credit cards", "does not accept credit cards"),
    "RestaurantsTakeOut": ("offers takeout", "does not offer takeout"),
    "RestaurantsDelivery": ("offers delivery", "does not offer delivery"),
    "OutdoorSeating": ("has outdoor seating", "has no outdoor seating"),
    "GoodForKids": ("is good for kids", "is not recommended for kids"),
    "HasTV": ("has TVs", "has no TV"),
    "RestaurantsReservations": ("takes reservations", "does not take reservations"),
    "BikeParking": ("offers bike parking", "has no bike parking"),
    "DogsAllowed": ("allows dogs", "does not allow dogs"),
    "WheelchairAccessible": ("is wheelchair accessible", "is not wheelchair accessible"),
}
_WIFI = {"u'free'": "offers free Wi-Fi", "u'no'": "does not offer Wi-Fi", "u'paid'": "offers paid Wi-Fi"}
_ALCOHOL = {"u'full_bar'": "has a full bar", "u'none'": "does not serve alcohol", "u'beer_and_wine'": "serves beer and wine"}
_ABSENT = ["has a happy hour every weekday", "offers free valet parking", "is family-owned", "was founded in 1998",
           "has a rooftop patio", "offers live music on weekends", "has vegan options", "has a drive-through",
           "offers catering services", "has a loyalty program", "is open 24 hours", "offers gift cards",
           "has a private dining room", "serves gluten-free dishes", "hosts trivia nights"]
_REVIEW_PARTS = {
    5: ["The food was amazing and the staff were very friendly.", "Best {dish} I have had in {city}.",
        "Service was quick and the prices were fair."],
    4: ["Good {dish}, a bit of a wait on weekends.", "Friendly staff and a cozy atmosphere."],
    3: ["The {dish} was okay but nothing special.", "Service was slow but the staff were polite."],
    2: ["The {dish} was cold and overpriced.", "We waited 40 minutes for our order."],
    1: ["Rude staff and a dirty dining room.", "Never coming back; my order was wrong twice."],
}
_DISHES = ["pizza", "tacos", "ramen", "brisket", "croissants", "sushi", "burgers", "pad thai", "latte"]


def _clock(hour: int) -> str:
    suffix = "AM" if hour < 12 or hour == 24 else "PM"
    h = hour % 12 or 12
    return f"{h} {suffix}"


def business_record(rng: random.Random) -> dict:
    city, state = rng.choice(_CITIES)
    hours = {}
    for day in _DAYS:
        if rng.random() < 0.85:
            open_h = rng.choice([6, 7, 8, 9, 10, 11, 12, 16, 17])
            close_h = min(open_h + rng.choice([6, 8, 9, 10, 11, 12]), 24)
            hours[day] = f"{open_h}:0-{close_h % 24}:0"
    attrs: dict[str, object] = {k: rng.choice(["True", "False"]) for k in rng.sample(sorted(_BOOL_ATTRS), rng.randint(3, 7))}
    if rng.random() < 0.6:
        attrs["WiFi"] = rng.choice(sorted(_WIFI))
    if rng.random() < 0.5:
        attrs["Alcohol"] = rng.choice(sorted(_ALCOHOL))
    if rng.random() < 0.6:
        attrs["RestaurantsPriceRange2"] = str(rng.randint(1, 4))
    reviews = []
    for _ in range(rng.randint(1, 3)):
        stars = rng.randint(1, 5)
        text = " ".join(rng.sample(_REVIEW_PARTS[stars], min(2, len(_REVIEW_PARTS[stars]))))
        reviews.append({"review_stars": float(stars),
                        "review_date": f"20{rng.randint(12, 22)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                        "review_text": text.format(dish=rng.choice(_DISHES), city=city)})
    return {
        "name": f"{rng.choice(_NAME_A)} {rng.choice(_NAME_B)}",
        "address": f"{rng.randint(10, 9999)} {rng.choice(_STREETS)}",
        "city": city, "state": state,
        "categories": ", ".join(rng.choice(_CATEGORIES)),
        "hours": hours, "attributes": attrs,
        "business_stars": rng.choice([2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0]),
        "review_info": reviews,
    }


def verbalize(record: dict, rng: random.Random) -> list[tuple[str, str]]:
    """(sentence, label) pairs about ``record``: ENT faithful, CON contradicted, NIC absent."""
    out: list[tuple[str, str]] = []
    name, city = record["name"], record["city"]
    cats = record["categories"].split(", ")
    other_city = rng.choice([c for c, _ in _CITIES if c != city])
    out.append((f"{name} is a {cats[-1].lower()} spot located at {record['address']} in {city}, {record['state']}.", "ENT"))
    out.append((f"{name} is located in {other_city}.", "CON"))
    out.append((f"It is listed under {cats[0]} and {cats[1]}.", "ENT"))
    wrong_cat = rng.choice([c for group in _CATEGORIES for c in group if c not in cats])
    out.append((f"It is listed under {wrong_cat}.", "CON"))
    stars = record["business_stars"]
    out.append((f"The business has an overall rating of {stars:g} stars.", "ENT"))
    out.append((f"The business has an overall rating of {stars + rng.choice([-1.5, -1, 1]):g} stars.", "CON"))
    for day in rng.sample(sorted(record["hours"]), min(2, len(record["hours"]))):
        open_h, close_h = (int(x.split(":")[0]) for x in record["hours"][day].split("-"))
        close_h = close_h or 24
        out.append((f"On {day}s it is open from {_clock(open_h)} to {_clock(close_h)}.", "ENT"))
        shifted = (close_h + rng.choice([-3, -2, 2])) % 24 or 24
        out.append((f"On {day}s it is open from {_clock(open_h)} to {_clock(shifted)}.", "CON"))
    closed = [d for d in _DAYS if d not in record["hours"]]
    if record["hours"]:
        open_days = sorted(record["hours"], key=_DAYS.index)
        out.append((f"It opens on {open_days[0]}.", "ENT"))
    for key, value in record["attributes"].items():
        if key in _BOOL_ATTRS:
            yes, no = _BOOL_ATTRS[key]
            true_text, false_text = (yes, no) if value == "True" else (no, yes)
            out.append((f"{name} {true_text}.", "ENT"))
            out.append((f"{name} {false_text}.", "CON"))
        elif key == "WiFi":
            out.append((f"It {_WIFI[value]}.", "ENT"))
            out.append((f"It {_WIFI[rng.choice([v for v in _WIFI if v != value])]}.", "CON"))
        elif key == "Alcohol":
            out.append((f"It {_ALCOHOL[value]}.", "ENT"))
            out.append((f"It {_ALCOHOL[rng.choice([v for v in _ALCOHOL if v != value])]}.", "CON"))
        elif key == "RestaurantsPriceRange2":
            out.append((f"Its price range is {'$' * int(value)}.", "ENT"))
    missing_attrs = [k for k in _BOOL_ATTRS if k not in record["attributes"]]
    for key in rng.sample(missing_attrs, min(2, len(missing_attrs))):
        out.append((f"{name} {_BOOL_ATTRS[key][0]}.", "NIC"))
    for phrase in rng.sample(_ABSENT, 3):
        out.append((f"{name} {phrase}.", "NIC"))
    if closed and rng.random() < 0.5:
        out.append((f"It is open on {closed[0]}s from 9 AM to 5 PM.", "NIC"))
    for review in record["review_info"][:2]:
        s = int(review["review_stars"])
        first = review["review_text"].split(". ")[0].rstrip(".")
        out.append((f"One reviewer gave it {s} stars, saying: \"{first}.\"", "ENT"))
        wrong = rng.choice([v for v in range(1, 6) if v != s])
        out.append((f"One reviewer gave it {wrong} stars, saying: \"{first}.\"", "CON"))
    text = json.dumps(record)
    unmentioned = [d for d in _DISHES if d not in text] or ["desserts"]
    out.append((f"Reviewers praise the {rng.choice(unmentioned)} and the {rng.choice(['decor', 'music', 'view'])}.", "NIC"))
    return out


def record_context(record: dict) -> str:
    """The record as the string a RAG system would pass as context (RAGTruth's Data2txt form)."""
    return json.dumps(record)

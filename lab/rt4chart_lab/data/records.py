"""Review-rich business records and overview-style verbalizations, for Data2txt-like training pairs.

``synth.business_record`` taught the verifier single facts against short records. A generator of
Data2txt answers does more: one sentence lists several attributes ("offers takeout and delivery,
accepts credit cards and has outdoor seating"), reads nested attribute strings (parking, ambience,
meals), groups days with the same hours, and above all *summarizes reviews* that run to several
sentences each ("reviewers praise the attentive service but complain about the wait"). The shipped
verifier flags most such faithful sentences (lab/docs/training.md, "Where it fails"). These
records carry long reviews built from aspect sentences whose polarity is known, so a review summary
gets a label: ENT when some review says it, CON when the reviews say the opposite, NIC when no
review touches the aspect. Every value here is generated; no RAGTruth row is read.

Each generator takes a ``random.Random``, so a seed rebuilds the same data.
"""

from __future__ import annotations

import json
import random

from rt4chart_plugins.rules.records.fields import nested_flags
from rt4chart_plugins.rules.records.regions import REGIONS
from rt4chart_lab.data.synth import _CITIES, _DAYS, _NAME_A, _NAME_B, _STREETS

LABEL_ORDER = {"ENT": 0, "NIC": 1, "CON": 2}  # a sentence with parts takes its worst part's label

_CUISINES = [("Italian", ["lasagna", "carbonara", "margherita pizza", "tiramisu"]),
             ("Mexican", ["carne asada tacos", "enchiladas", "guacamole", "churros"]),
             ("Thai", ["pad thai", "green curry", "tom yum soup", "mango sticky rice"]),
             ("Japanese", ["salmon sashimi", "spicy tuna roll", "tonkotsu ramen", "gyoza"]),
             ("American (New)", ["burger", "mac and cheese", "fried chicken sandwich", "onion rings"]),
             ("Chinese", ["dumplings", "kung pao chicken", "fried rice", "hot and sour soup"]),
             ("Breakfast & Brunch", ["pancakes", "eggs benedict", "french toast", "breakfast burrito"]),
             ("Barbeque", ["brisket", "pulled pork", "baby back ribs", "cornbread"]),
             ("Indian", ["chicken tikka masala", "garlic naan", "samosas", "lamb vindaloo"]),
             ("Vietnamese", ["pho", "banh mi", "spring rolls", "vermicelli bowl"])]
_EXTRA_CATS = ["Bars", "Cocktail Bars", "Sandwiches", "Seafood", "Vegetarian", "Desserts", "Caterers",
               "Food Trucks", "Wine Bars", "Salad"]

# Review sentences per aspect and polarity. A summary names the aspect with other words (_ASPECT_PHRASES).
_REVIEW = {
    "food": {1: ["The {dish} was absolutely delicious and full of flavor.", "Everything we ordered tasted fresh, especially the {dish}.",
                 "Hands down the best {dish} I've had in {city}.", "The {dish} was cooked perfectly and I would order it again."],
             -1: ["The {dish} was bland and lukewarm.", "My {dish} tasted like it had been sitting out for an hour.",
                  "The {dish} was greasy and way too salty.", "Honestly the {dish} was a letdown, dry and flavorless."]},
    "service": {1: ["Our server was super attentive and checked on us often.", "The staff were warm and welcoming from the moment we walked in.",
                    "The waitress was friendly and gave great recommendations."],
                -1: ["Our server was rude and seemed annoyed that we were there.", "The staff ignored us for a good while before anyone came by.",
                     "The cashier was dismissive when I asked a question about the menu."]},
    "wait": {1: ["Our food came out fast, within ten minutes of ordering.", "Even though it was busy, we were seated right away."],
             -1: ["We waited almost an hour for our food.", "The wait for a table was over 45 minutes even with a reservation."]},
    "price": {1: ["Prices are very reasonable for the portion sizes.", "Great value for the money."],
              -1: ["It's overpriced for what you get.", "Two entrees and drinks came to over $90, which felt steep."]},
    "ambience": {1: ["The place has a cozy, laid-back vibe with nice music.", "The decor is charming and the patio is lovely in the evening."],
                 -1: ["It was so loud inside that we could barely hear each other.", "The dining room felt cramped and dated."]},
    "cleanliness": {1: ["The restaurant was spotless, even the restrooms.", "Tables were clean and the kitchen looked well kept."],
                    -1: ["The tables were sticky and the floor was dirty.", "The bathroom was filthy and out of paper towels."]},
    "portions": {1: ["Portions are huge; I took half of my plate home.", "They really don't skimp on the portions."],
                 -1: ["The portions were tiny for the price.", "I left hungry because the plate was so small."]},
    "drinks": {1: ["The cocktails were creative and strong.", "They have a great selection of local beers on tap."],
               -1: ["My margarita was watered down.", "The drink menu is limited and the wine was warm."]},
}
_FILLER = ["We came here on a Friday night with a group of friends.", "I stopped by for a quick lunch during the week.",
           "My family has been coming here for years.", "We found this place while visiting {city}.",
           "I ordered takeout through their website.", "It was my first time trying this spot."]
_CLOSERS = {1: ["I will definitely be back!", "Highly recommend this place."],
            0: ["Overall it was an okay experience.", "Not sure I would go out of my way to come back."],
            -1: ["I won't be returning.", "Save your money and go somewhere else."]}
_ASPECT_PHRASES = {
    "food": {1: ["the food", "the flavorful dishes"], -1: ["the quality of the food", "bland or cold food"]},
    "service": {1: ["the friendly and attentive service", "the welcoming staff"], -1: ["rude or inattentive staff", "poor service"]},
    "wait": {1: ["the quick service", "the short wait times"], -1: ["long wait times", "slow service"]},
    "price": {1: ["the reasonable prices", "the good value"], -1: ["high prices", "the prices being too steep"]},
    "ambience": {1: ["the cozy atmosphere", "the pleasant ambience"], -1: ["the noisy and cramped dining room", "the atmosphere"]},
    "cleanliness": {1: ["how clean the restaurant is", "the clean dining area"], -1: ["dirty tables and restrooms", "cleanliness issues"]},
    "portions": {1: ["the generous portions", "the large portion sizes"], -1: ["small portions", "the portion sizes"]},
    "drinks": {1: ["the drinks", "the cocktail and beer selection"], -1: ["weak drinks", "the limited drink menu"]},
}
_PRAISE = ["Reviewers praise {x}.", "Customers frequently mention {x}.", "Diners have highlighted {x}.",
           "Many reviewers appreciated {x}."]
_COMPLAIN = ["Some customers complained about {x}.", "However, a few reviewers mentioned {x}.",
             "Several diners were disappointed by {x}."]

_BOOL = {  # attribute: (said when True, said when False)
    "RestaurantsTakeOut": ("offers takeout", "does not offer takeout"),
    "RestaurantsDelivery": ("offers delivery", "does not deliver"),
    "BusinessAcceptsCreditCards": ("accepts credit cards", "does not accept credit cards"),
    "OutdoorSeating": ("has outdoor seating", "does not have outdoor seating"),
    "RestaurantsReservations": ("takes reservations", "does not take reservations"),
    "GoodForKids": ("is kid-friendly", "is not ideal for children"),
    "RestaurantsGoodForGroups": ("is good for groups", "is not suited to large groups"),
    "HasTV": ("has TVs", "does not have TVs"),
    "Caters": ("offers catering", "does not offer catering"),
    "BikeParking": ("has bike parking", "does not have bike parking"),
    "WheelchairAccessible": ("is wheelchair accessible", "is not wheelchair accessible"),
    "DogsAllowed": ("allows dogs", "does not allow dogs"),
    "RestaurantsTableService": ("provides table service", "does not offer table service"),
}
_PARKING = {"garage": "a parking garage", "street": "street parking", "validated": "validated parking",
            "lot": "a parking lot", "valet": "valet parking"}
_AMBIENCE = ["romantic", "intimate", "classy", "hipster", "divey", "touristy", "trendy", "upscale", "casual"]
_MEALS = ["dessert", "latenight", "lunch", "dinner", "brunch", "breakfast"]
_MEAL_WORDS = {"dessert": "dessert", "latenight": "late-night food", "lunch": "lunch", "dinner": "dinner",
               "brunch": "brunch", "breakfast": "breakfast"}
_NOISE = {"quiet": "quiet", "average": "moderately noisy", "loud": "loud", "very_loud": "very loud"}
_WIFI = {"free": "free Wi-Fi", "no": "no Wi-Fi", "paid": "paid Wi-Fi"}
_ALCOHOL = {"full_bar": "a full bar", "beer_and_wine": "beer and wine", "none": "no alcohol"}
_PRICE = {1: "inexpensive", 2: "moderately priced", 3: "on the pricier side", 4: "expensive"}
_ABSENT = ["offers a happy hour on weekdays", "hosts live music on weekends", "has a rooftop terrace",
           "is family-owned", "has a drive-through", "offers a loyalty program", "has a gluten-free menu",
           "was recently renovated", "has won several local awards", "offers free valet parking"]


def _clock(minutes: int) -> str:
    h, m = divmod(minutes % (24 * 60), 60)
    if h == 0 and m == 0:
        return "midnight"
    if h == 12 and m == 0:
        return "noon"
    suffix = "AM" if h < 12 else "PM"
    return f"{h % 12 or 12}:{m:02d} {suffix}" if m else f"{h % 12 or 12} {suffix}"


def _pyrepr(flags: dict[str, bool]) -> str:
    """Yelp stores nested attributes as a Python-literal string: ``"{'garage': False, ...}"``."""
    return "{" + ", ".join(f"'{k}': {v}" for k, v in flags.items()) + "}"


def _review(stars: int, dishes: list[str], city: str, rng: random.Random) -> str:
    """A review of several sentences; its aspects lean positive with its stars."""
    p_good = {5: 0.92, 4: 0.75, 3: 0.5, 2: 0.25, 1: 0.08}[stars]
    aspects = rng.sample(sorted(_REVIEW), rng.randint(3, 5))
    if "food" not in aspects and rng.random() < 0.7:
        aspects[0] = "food"
    parts = [rng.choice(_FILLER).format(city=city)] if rng.random() < 0.7 else []
    for aspect in aspects:
        polarity = 1 if rng.random() < p_good else -1
        dish = rng.choice(dishes)
        parts.append(rng.choice(_REVIEW[aspect][polarity]).format(dish=dish, city=city))
    parts.append(rng.choice(_CLOSERS[1 if stars >= 4 else 0 if stars == 3 else -1]))
    return " ".join(parts)


def review_record(rng: random.Random) -> dict:
    """A Yelp-shaped business record with nested attribute strings and reviews of several sentences."""
    city, state = rng.choice(_CITIES)
    cuisine, dishes = rng.choice(_CUISINES)
    categories = ["Restaurants", cuisine] + rng.sample(_EXTRA_CATS, rng.randint(0, 2))
    rng.shuffle(categories)
    open_m = rng.choice([7, 8, 10, 11, 11, 16, 17]) * 60 + rng.choice([0, 0, 0, 30])
    close_m = min(open_m + rng.choice([8, 9, 10, 11, 12]) * 60, 24 * 60)
    weekend = (max(open_m - 60, 6 * 60), min(close_m + 60, 24 * 60))
    hours = {}
    closed = set(rng.sample(_DAYS, rng.choice([0, 0, 1, 1, 2])))
    for day in _DAYS:
        if day in closed:
            continue
        o, c = weekend if day in ("Friday", "Saturday") and rng.random() < 0.6 else (open_m, close_m)
        hours[day] = f"{o // 60}:{o % 60}-{(c // 60) % 24}:{c % 60}"
    attrs: dict[str, str] = {}
    for key in rng.sample(sorted(_BOOL), rng.randint(6, 10)):
        attrs[key] = rng.choices(["True", "False", "None"], [0.6, 0.3, 0.1])[0]
    attrs["BusinessParking"] = _pyrepr({k: rng.random() < 0.35 for k in _PARKING})
    amb = {k: False for k in _AMBIENCE}
    for k in rng.sample(_AMBIENCE, rng.randint(1, 2)):
        amb[k] = True
    attrs["Ambience"] = _pyrepr(amb)
    attrs["GoodForMeal"] = _pyrepr({k: rng.random() < 0.4 for k in _MEALS})
    attrs["NoiseLevel"] = f"u'{rng.choice(sorted(_NOISE))}'"
    attrs["WiFi"] = f"u'{rng.choice(sorted(_WIFI))}'"
    attrs["Alcohol"] = f"u'{rng.choice(sorted(_ALCOHOL))}'"
    attrs["RestaurantsAttire"] = "u'casual'" if rng.random() < 0.85 else "u'dressy'"
    attrs["RestaurantsPriceRange2"] = str(rng.randint(1, 4))
    stars_pool = [rng.randint(1, 5) for _ in range(3)]
    reviews = []
    for s in stars_pool:
        text = _review(s, dishes, city, rng)
        reviews.append({"review_stars": float(s),
                        "review_date": f"20{rng.randint(14, 22)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} "
                                       f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}",
                        "review_text": text})
    return {
        "name": f"{rng.choice(_NAME_A)} {rng.choice(_NAME_B)}",
        "address": f"{rng.randint(10, 9999)} {rng.choice(_STREETS)}",
        "city": city, "state": state,
        "categories": ", ".join(categories),
        "hours": hours, "attributes": attrs,
        "business_stars": round(sum(stars_pool) / 3 * 2) / 2,
        "review_info": reviews,
        "_facts": {"cuisine": cuisine, "dishes": dishes},  # removed from the context; read by verbalize()
    }


def record_context(record: dict) -> str:
    """The record as a RAG system would pass it (RAGTruth's Data2txt form), without the generator's notes."""
    return json.dumps({k: v for k, v in record.items() if not k.startswith("_")})


def _literal(value: str) -> str:
    return value[2:-1] if value.startswith("u'") else value


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _worst(labels: list[str]) -> str:
    return max(labels, key=LABEL_ORDER.__getitem__)


def _review_knowledge(record: dict) -> tuple[dict[str, int], dict[str, int]]:
    """What the reviews say, re-read from their text: aspect → bits (1 praised, 2 criticized)."""
    said: dict[str, int] = {}
    dishes: dict[str, int] = {}
    for review in record["review_info"]:
        text = review["review_text"]
        for aspect, pools in _REVIEW.items():
            for polarity, sentences in pools.items():
                for template in sentences:
                    for dish in record["_facts"]["dishes"]:
                        if template.format(dish=dish, city=record["city"]) in text:
                            bit = 1 if polarity > 0 else 2
                            said[aspect] = said.get(aspect, 0) | bit
                            if "{dish}" in template:
                                dishes[dish] = dishes.get(dish, 0) | bit
    return said, dishes


def _hours_groups(hours: dict[str, str]) -> list[tuple[list[str], str]]:
    groups: list[tuple[list[str], str]] = []
    for day in _DAYS:
        if day in hours and groups and groups[-1][1] == hours[day] and _DAYS.index(groups[-1][0][-1]) == _DAYS.index(day) - 1:
            groups[-1][0].append(day)
        elif day in hours:
            groups.append(([day], hours[day]))
    return groups


def _span_text(span: str, shift: int = 0) -> str:
    o, c = (int(a) * 60 + int(b) for a, b in (part.split(":") for part in span.split("-")))
    c = c or 24 * 60
    return f"from {_clock(o)} to {_clock(c + shift)}"


def _days_text(days: list[str]) -> str:
    return f"{days[0]} through {days[-1]}" if len(days) > 2 else " and ".join(days)


def verbalize(record: dict, rng: random.Random) -> list[tuple[str, str]]:
    """(sentence, label) pairs in the style of a generated overview: ENT faithful, CON contradicted, NIC absent."""
    out: list[tuple[str, str]] = []
    name, city, state = record["name"], record["city"], record["state"]
    facts = record["_facts"]
    attrs = record["attributes"]
    cuisine = facts["cuisine"].split(" (")[0]
    other = rng.choice([c for c, _ in _CUISINES if c != facts["cuisine"]]).split(" (")[0]
    other_city = rng.choice([c for c, _ in _CITIES if c != city])
    article = "an" if cuisine[0] in "AEIOU" else "a"
    where = f"{city}, {REGIONS[state] if rng.random() < 0.5 else state}"  # answers spell states out as often as not
    out.append((f"{name} is {article} {cuisine} restaurant located at {record['address']} in {where}.", "ENT"))
    out.append((f"{name} is {'an' if other[0] in 'AEIOU' else 'a'} {other} restaurant located in {city}.", "CON"))
    out.append((f"Located in {other_city}, {name} serves {cuisine} cuisine.", "CON"))
    wrong_state = rng.choice(sorted({s for _, s in _CITIES} - {state}))
    out.append((f"{name} is a restaurant in {city}, {REGIONS[wrong_state]}.", "CON"))
    stars = record["business_stars"]
    out.append((f"It has an overall rating of {stars:g} out of 5 stars based on customer reviews.", "ENT"))
    out.append((f"It holds an average rating of {stars + rng.choice([-1.5, -1, 1, 0.5]):g} stars.", "CON"))

    # Several attributes in one sentence: the label of its worst part.
    known = {k: v for k, v in attrs.items() if k in _BOOL}
    for _ in range(3):
        keys = rng.sample(sorted(known), min(len(known), rng.randint(2, 4)))
        parts, labels = [], []
        for i, key in enumerate(keys):
            yes, no = _BOOL[key]
            value = known[key]
            if value == "None":
                parts.append(rng.choice([yes, no]))
                labels.append("NIC")
                continue
            truth = value == "True"
            flip = i == 0 and rng.random() < 0.4
            parts.append((yes if truth != flip else no))
            labels.append("CON" if flip else "ENT")
        if rng.random() < 0.25:
            missing = [k for k in _BOOL if k not in attrs]
            if missing:
                parts.append(_BOOL[rng.choice(missing)][0])
                labels.append("NIC")
        rng.shuffle(parts)
        out.append((f"{rng.choice([name, 'The restaurant', 'It'])} {_join(parts)}.", _worst(labels)))

    parking = nested_flags(attrs["BusinessParking"])
    have = [k for k, v in parking.items() if v]
    lack = [k for k, v in parking.items() if not v]
    if have:
        out.append((f"Parking options include {_join([_PARKING[k] for k in have])}.", "ENT"))
    if lack:
        out.append((f"Customers can use {_PARKING[rng.choice(lack)]}.", "CON"))
    amb = nested_flags(attrs["Ambience"])
    on = [k for k, v in amb.items() if v]
    off = [k for k, v in amb.items() if not v]
    out.append((f"The ambience is {_join(on)}, and the attire is {_literal(attrs['RestaurantsAttire'])}.", "ENT"))
    out.append((f"It has a {rng.choice(off)} atmosphere.", "CON"))
    meals = nested_flags(attrs["GoodForMeal"])
    good = [k for k, v in meals.items() if v]
    if good:
        out.append((f"It is a good spot for {_join([_MEAL_WORDS[k] for k in good])}.", "ENT"))
    bad = [k for k, v in meals.items() if not v]
    if bad:
        out.append((f"It is especially popular for {_MEAL_WORDS[rng.choice(bad)]}.", "CON"))
    noise = _literal(attrs["NoiseLevel"])
    out.append((f"The noise level is {_NOISE[noise]}, and it offers {_WIFI[_literal(attrs['WiFi'])]}.", "ENT"))
    out.append((f"It serves {_ALCOHOL[_literal(attrs['Alcohol'])]} and is {_PRICE[int(attrs['RestaurantsPriceRange2'])]}.", "ENT"))
    wrong_alcohol = rng.choice([v for k, v in _ALCOHOL.items() if k != _literal(attrs["Alcohol"])])
    out.append((f"It serves {wrong_alcohol}.", "CON"))

    groups = _hours_groups(record["hours"])
    if groups:
        chosen = groups[: rng.randint(1, min(3, len(groups)))]
        text = ", and ".join(f"{_days_text(days)} {_span_text(span)}" for days, span in chosen)
        out.append((f"It is open {text}.", "ENT"))
        days, span = rng.choice(groups)
        out.append((f"It is open {_days_text(days)} {_span_text(span, rng.choice([-120, -60, 60, 90]))}.", "CON"))
    closed = [d for d in _DAYS if d not in record["hours"]]
    if closed:
        out.append((f"It is closed on {_join([d + 's' for d in closed])}.", "ENT"))
        out.append((f"On {closed[0]}s it opens at 10 AM.", "NIC"))
    else:
        out.append(("It is open seven days a week.", "ENT"))
    for phrase in rng.sample(_ABSENT, 2):
        out.append((f"{name} {phrase}.", "NIC"))

    said, dishes = _review_knowledge(record)
    for aspect, phrases in _ASPECT_PHRASES.items():
        bits = said.get(aspect, 0)
        polarity = rng.choice([1, -1])
        template = rng.choice(_PRAISE if polarity > 0 else _COMPLAIN)
        wanted = 1 if polarity > 0 else 2
        label = "ENT" if bits & wanted else "CON" if bits else "NIC"
        out.append((template.format(x=rng.choice(phrases[polarity])), label))
    liked = [d for d, b in dishes.items() if b & 1]
    disliked = [d for d, b in dishes.items() if b & 2 and not b & 1]
    unmentioned = [d for d in facts["dishes"] if d not in dishes]
    if liked:
        out.append((f"Reviewers particularly enjoyed the {rng.choice(liked)}.", "ENT"))
    if disliked:
        out.append((f"The {rng.choice(disliked)} received high praise from reviewers.", "CON"))
        out.append((f"One diner found the {rng.choice(disliked)} disappointing.", "ENT"))
    if unmentioned:
        out.append((f"Many customers recommend the {rng.choice(unmentioned)}.", "NIC"))
    review = rng.choice(record["review_info"])
    s = int(review["review_stars"])
    year = review["review_date"][:4]
    tone = "positive" if s >= 4 else "mixed" if s == 3 else "negative"
    out.append((f"A {s}-star review from {year} describes a {tone} experience.", "ENT"))
    given = {(int(r["review_stars"]), r["review_date"][:4]) for r in record["review_info"]}
    wrong = [v for v in range(1, 6) if abs(v - s) >= 2 and (v, year) not in given]
    if wrong:
        out.append((f"One reviewer gave it {rng.choice(wrong)} stars in {year}.", "CON"))
    return out

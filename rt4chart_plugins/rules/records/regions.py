"""US states and Canadian provinces: the postal code a record stores and the name an answer writes.

Business records (RAGTruth's Data2txt, Yelp exports, most address data) store "PA"; a generated
answer says "Philadelphia, Pennsylvania". Without this table the number/name check reports
"pennsylvania" as a name the context lacks and word coverage counts it as a missing word, so the
first sentence of almost every such answer was flagged (all 5 hand-written ones in our record
probe that spell a state out). A fixed table of 65 codes is data, not logic: no library.
"""

from __future__ import annotations

import re

REGIONS = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "DC": "District of Columbia",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "PR": "Puerto Rico",
    "AB": "Alberta",
    "BC": "British Columbia",
    "MB": "Manitoba",
    "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador",
    "NS": "Nova Scotia",
    "NT": "Northwest Territories",
    "NU": "Nunavut",
    "ON": "Ontario",
    "PE": "Prince Edward Island",
    "QC": "Quebec",
    "SK": "Saskatchewan",
    "YT": "Yukon",
}
_CODE_OF = {name.lower(): code for code, name in REGIONS.items()}
# longest first, so "West Virginia" is read before "Virginia"
_NAME = re.compile(r"\b(" + "|".join(sorted((re.escape(n) for n in REGIONS.values()), key=len, reverse=True)) + r")\b")


def region_names(text: str) -> list[tuple[str, str]]:
    """(name as written, postal code) for every state or province ``text`` spells out."""
    return [(m.group(1), _CODE_OF[m.group(1).lower()]) for m in _NAME.finditer(text)]


def spell_codes(text: str) -> str:
    """``text`` with every spelled-out state or province replaced by its postal code."""
    return _NAME.sub(lambda m: _CODE_OF[m.group(1).lower()], text)


def has_code(text: str, code: str) -> bool:
    """Whether ``text`` holds the postal code as a word of its own, in capitals ("state: PA")."""
    return re.search(rf"(?<![A-Za-z]){code}(?![A-Za-z])", text) is not None

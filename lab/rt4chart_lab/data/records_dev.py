"""A hand-written Data2txt-style dev set: answers about generated review-rich business records.

RAGTruth has no Data2txt train rows, and its Data2txt test rows are for reporting only, so choices
about structured contexts (the generated training records, the number/name check, thresholds)
need data of their own. This is it: six records from
:func:`rt4chart_lab.data.records.review_record` (seeds 9001 to 9006; training draws its
records from another stream) and, for each, eleven or twelve sentences written by hand the way a
generator summarizes such a record: several attributes per sentence, states spelled out, hours
grouped, reviews paraphrased. 47 are faithful (E), 13 contradict the record (C) and 8 state what
it does not contain (N). Labels were written from the record alone.

``rows()`` turns them into RAGTruth-style rows, so ``rt4chart bench --dataset records`` scores
them like any other: each record gives answers of up to four faithful sentences (not
hallucinated) and, for each unfaithful sentence, an answer of three faithful ones around it plus
that sentence, with a gold span on it (hallucinated). That makes 33 answers, 21 hallucinated
(64 %, RAGTruth Data2txt's own rate is 64 % on all test rows).
"""

from __future__ import annotations

import random

from rt4chart_lab.data.datasets import GoldSpan, RagTruthRow

SENTENCES: dict[int, list[tuple[str, str]]] = {
    9001: [
        ('Harbor Diner is a trendy New American spot and cocktail bar on Oak Ave in Philadelphia, Pennsylvania.', 'E'),
        ('It has a 4-star rating and is very affordable, falling in the lowest price range.', 'E'),
        ('The diner is open from 11 AM to 9 PM Sunday through Thursday and closed on Fridays and Saturdays.', 'E'),
        ('It is a good choice for groups and offers takeout and table service, although it does not deliver or accept reservations.', 'E'),
        ('Families will find it a great place for kids.', 'C'),
        ('Guests can park in the on-site lot, and paid Wi-Fi is available.', 'E'),
        ('The diner also serves a full range of cocktails from its bar.', 'C'),
        ('Reviewers rave about the flavorful fried chicken sandwich and the mac and cheese.', 'E'),
        ('Several customers appreciated the good value, though one noted that the portions were small and another found the dining room cramped and not very clean.', 'E'),
        ('One reviewer was also impressed by the friendly bartenders.', 'N'),
        ('It accepts all major credit cards.', 'C'),
    ],
    9002: [
        ('Wild Spoon is a Chinese restaurant in Reno, Nevada, that also offers sandwiches and catering.', 'E'),
        ('It is open every day of the week from 7:30 AM to 3:30 PM.', 'E'),
        ('It is open late on weekends, serving until midnight on Fridays and Saturdays.', 'C'),
        ('The restaurant takes reservations, accepts credit cards, and is wheelchair accessible.', 'E'),
        ('Dogs are welcome, and street parking is available nearby.', 'E'),
        ('The atmosphere is classy but can be loud, and the dress code is casual.', 'E'),
        ('It is a great spot for kids.', 'N'),
        ('Diners praise the perfectly cooked dumplings, kung pao chicken, and hot and sour soup.', 'E'),
        ('Reviewers also mention generous portions and a charming patio.', 'E'),
        ('However, several reviewers complained about rude staff.', 'N'),
        ('Its prices are on the higher end, although one reviewer found them very reasonable for the portion sizes.', 'E'),
    ],
    9003: [
        ('Sunny Cafe is an inexpensive Italian restaurant located at 9667 Broadway in Boise, Idaho.', 'E'),
        ('It has a modest rating of 2.5 stars.', 'E'),
        ('From Monday to Thursday it is open from 11 AM to 11 PM, and on Saturdays from 10 AM until midnight.', 'E'),
        ('It is also open on Sundays for brunch.', 'N'),
        ('The cafe offers delivery, takeout, and catering, and it welcomes both dogs and children.', 'E'),
        ('It has a hipster vibe, no Wi-Fi, and does not serve alcohol.', 'E'),
        ('Validated parking is available for guests.', 'E'),
        ('Opinions on the lasagna are divided: one diner loved it, while another found it greasy and too salty.', 'E'),
        ('Reviewers also disagree about the service, with one praising an attentive server and others describing rude or neglectful staff.', 'E'),
        ('Many reviewers loved the tiramisu.', 'C'),
        ('It is known for its quiet, romantic setting, ideal for date nights.', 'C'),
    ],
    9004: [
        ('Green Leaf Auto Care is a barbecue restaurant and bar at 8533 Market St in New Orleans, Louisiana, with a 3.5-star rating.', 'E'),
        ('It opens in the evening, from 5 PM to midnight on most days and from 4 PM on Saturdays.', 'E'),
        ('It serves beer and wine, accepts credit cards, and can cater events.', 'E'),
        ('It has TVs for watching games.', 'C'),
        ('The bar has a divey, casual feel but asks guests to dress up.', 'E'),
        ('Free Wi-Fi is available to customers.', 'C'),
        ('Reviewers enjoyed the pulled pork and found the cocktails creative and strong.', 'E'),
        ('The cornbread got mixed reactions, with one reviewer loving it and another calling it greasy and too salty.', 'E'),
        ('Several reviewers felt the prices were steep, pointing to a bill of over $90 for two entrees and drinks.', 'E'),
        ('Others complained about inattentive and rude service.', 'E'),
        ('The brisket is considered the best in New Orleans.', 'N'),
    ],
    9005: [
        ('Copper Spa is a barbecue restaurant on Elm St in Indianapolis with a rating of just 1 star.', 'E'),
        ('It serves breakfast, brunch and dessert and is open from 7 AM to 4 PM on most days, with longer hours on Fridays.', 'E'),
        ('It is closed on Wednesdays.', 'E'),
        ('It has outdoor seating, takes reservations, and offers a full bar.', 'E'),
        ('It is also a good place to bring a large group.', 'C'),
        ('Parking is available in a garage, and the restaurant is wheelchair accessible.', 'N'),
        ('Prices are high, and reviewers consistently describe the place as overpriced with small portions.', 'E'),
        ('Reviewers were divided on the baby back ribs, which one called the best in Indianapolis while others found them dry.', 'E'),
        ('Most reviewers also complained about a filthy bathroom.', 'E'),
        ('The friendly staff was the one bright spot mentioned by reviewers.', 'N'),
        ('One reviewer waited over 45 minutes for a table despite having a reservation.', 'E'),
        ('It received a 5-star review in 2019.', 'C'),
    ],
    9006: [
        ('Maple Diner is a breakfast and brunch spot in Tampa, Florida, that also serves sandwiches.', 'E'),
        ('It is open Tuesday through Sunday, from 7:30 AM to 7:30 PM, with extended hours on Saturday.', 'E'),
        ('It is closed on Sundays.', 'C'),
        ('The diner is quiet and has a romantic yet casual atmosphere.', 'E'),
        ('It offers takeout but no delivery, and it only accepts cash.', 'E'),
        ('Free Wi-Fi is available, and there is a parking lot for customers.', 'E'),
        ('It serves a full bar menu with craft cocktails.', 'C'),
        ('Two five-star reviewers praised the friendly waitress and the perfectly cooked pancakes and eggs benedict.', 'E'),
        ('However, one reviewer had a bad experience, with cold eggs benedict, a filthy bathroom and a 45-minute wait.', 'E'),
        ('The portion sizes were unanimously praised.', 'C'),
        ('Maple Diner is family-owned and has been serving Tampa since 1985.', 'N'),
        ('It is moderately priced and good for kids.', 'E'),
    ],
}
_KIND = {"C": "Evident Conflict", "N": "Evident Baseless Info"}


def _row(row_id: str, context: str, sentences: list[tuple[str, str]]) -> RagTruthRow:
    answer, labels = "", []
    for text, label in sentences:
        start = len(answer) + (1 if answer else 0)
        answer = f"{answer} {text}" if answer else text
        if label != "E":
            labels.append(GoldSpan(start, start + len(text), _KIND[label]))
    return RagTruthRow(id=row_id, task_type="Data2txt", split="dev", context=context, answer=answer,
                       question=None, hallucinated=bool(labels), labels=tuple(labels))


SUBSETS = ("dev", "blind", "both")


def rows(subset: str = "dev") -> list[RagTruthRow]:
    """The answers, in a fixed order (ids ``rec<seed>-ok<k>`` and ``rec<seed>-bad<k>``): the 33 of
    this set (``dev``), the 37 of the set written blind (``blind``, :mod:`.records_blind`), or ``both``."""
    from rt4chart_lab.data.records import record_context, review_record  # generated on demand, never stored
    from rt4chart_lab.data.records_blind import SENTENCES as BLIND

    if subset not in SUBSETS:
        raise ValueError(f"unknown records subset {subset!r}: use one of {', '.join(SUBSETS)}")
    chosen = {"dev": SENTENCES, "blind": BLIND, "both": {**SENTENCES, **BLIND}}[subset]
    out: list[RagTruthRow] = []
    for seed, sentences in chosen.items():
        context = record_context(review_record(random.Random(seed)))
        faithful = [i for i, (_, label) in enumerate(sentences) if label == "E"]
        for k in range(0, len(faithful), 4):
            out.append(_row(f"rec{seed}-ok{k // 4}", context, [sentences[i] for i in faithful[k : k + 4]]))
        for k, i in enumerate(j for j, (_, label) in enumerate(sentences) if label != "E"):
            around = sorted(sorted(faithful, key=lambda j: (abs(j - i), j))[:3] + [i])
            out.append(_row(f"rec{seed}-bad{k}", context, [sentences[j] for j in around]))
    return out

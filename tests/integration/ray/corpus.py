"""A deterministic corpus of short RAG rows for the Ray tests: real verdicts from the trained
judge in well under a second a row, faithful and hallucinated answers mixed, some contexts given
as passages, and no dependence on the benchmark data."""

from __future__ import annotations

import random

PLACES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Lagos", "Perth", "Riga", "Cusco", "Tartu", "Bergen"]
THINGS = ["library", "museum", "stadium", "bridge", "observatory", "market", "theatre", "harbour"]
ARCHITECTS = ["Alvar Lind", "Maria Costa", "Kenji Ito", "Ada Obi", "Lena Berg", "Omar Haddad"]


def corpus(n: int = 200, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        place, thing, architect = rng.choice(PLACES), rng.choice(THINGS), rng.choice(ARCHITECTS)
        year, floors, visitors = rng.randint(1850, 2020), rng.randint(2, 12), rng.randint(2, 90) * 1000
        facts = [f"The {thing} of {place} opened in {year}.",
                 f"It was designed by {architect} and has {floors} floors.",
                 f"About {visitors} people visit it every year.",
                 f"Entry is free on the first Sunday of each month."]
        kind = i % 4
        if kind == 0:
            answer = f"The {thing} of {place} opened in {year} and was designed by {architect}."
        elif kind == 1:
            answer = f"The {thing} of {place} opened in {year + rng.randint(3, 40)}."
        elif kind == 2:
            other = rng.choice([a for a in ARCHITECTS if a != architect])
            answer = f"It has {floors} floors. It was designed by {other}, who also built the city hall."
        else:
            answer = f"About {visitors} people visit it every year, and entry is free on the first Sunday."
        context: str | list[str] = " ".join(facts) if i % 3 else [" ".join(facts[:2]), " ".join(facts[2:])]
        row = {"id": f"r{i:04d}", "context": context, "answer": answer}
        if i % 2:
            row["question"] = f"What do you know about the {thing} of {place}?"
        rows.append(row)
    return rows

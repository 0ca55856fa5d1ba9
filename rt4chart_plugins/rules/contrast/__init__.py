"""Contradictions that word overlap cannot see: the claim uses the context's words and says the opposite.

"Anyone can enter the lab after 6 PM" against "Only employees with a badge may enter the lab after
6 PM" shares every content word with its context; so does "Opened software can be refunded"
against "Opened software cannot be refunded". A cross-encoder trained mostly on baseless additions
reads such sentences as supported, and word coverage agrees with it. What differs is a small,
closed set of words that carry the meaning: negation, quantifiers, modality, and the direction of
a comparison or an order. This rule aligns the claim with the context clause that shares most of
its content words, and reports a contrast when that clause marks one of these differently:

- **negation**: the clause is negated and the claim is not, or the reverse ("cannot" / "can"),
  also in other words of permission ("are not allowed" / "can use", "prohibited" / "permitted")
  and of need ("is not required" / "need");
- **quantifier**: the claim generalizes what the clause restricts ("anyone" / "only", "every" /
  "most"), or restricts what the clause generalizes ("only" / "all"); keeps one of the
  alternatives the clause lists ("only in the app" / "from the driver or with the app",
  :mod:`.alternatives`); or says at any time, or every day, what the clause says of some hours or
  days ("at any time" / "outside peak hours", "every day" / "Monday to Friday", :mod:`.restrictions`);
- **modality**: an obligation where the clause gives an option or a recommendation ("must" /
  "optional", "required" / "recommended"), or the reverse;
- **direction**: the opposite pole of one scale ("longer" / "shorter", "before" / "after", "open" /
  "closed", "increased" / "decreased") with the compared things on the same sides; the same pole
  with them on swapped sides ("A is larger than B" / "B is larger than A"). A converse ("A is
  larger than B" / "B is smaller than A") is consistent and reports nothing.
- **opposite**: a one-place opposite about the same thing ("open" / "closed", "increased" /
  "decreased", "the longest" / "the shortest"); where the sentence uses both poles, each is
  said of what it names before it ("A is the fastest and B the slowest" / "B is the fastest");
- **roles**: the names around a shared verb swapped ("A acquired B" / "B acquired A"), a passive
  read as such;
- **quantity**: an amount the context states nowhere, or only of something else, where the
  aligned sentence states another of the same kind (:mod:`rt4chart_plugins.rules.quantities`:
  "12 miles" / "12 kilometres", "opens at 9 PM" / "opens at 9 AM", "fined 60 euros" / "fined 40
  euros" where 60 euros is a permit's price);
- **date**: another day of the week for a date ("Tuesday 3 April" / "Thursday 3 April"), or days
  of the week the clause leaves out ("open on Sundays" / "open Monday to Saturday",
  :mod:`.restrictions`);
- **price**: free against a price ("Shoe hire is free" / "25 percent off shoe hire"), extra
  against included ("Breakfast costs extra" / "included in the rate"), a price for whom the
  context says is free ("Students pay a joining fee" / "waived for students", :mod:`.prices`).

The package reads in three steps: :mod:`.lexicon` holds the word classes, :mod:`.reading` how a
sentence is read (stems, clauses, what a negator bears on, a clause's subject), :mod:`.checks` one
function per kind, those of a negation in :mod:`.negations`, those that need more reading of their
own in :mod:`.alternatives`, :mod:`.restrictions` and :mod:`.prices`; :mod:`.align` aligns a claim
with its sentence and runs them.

It is deliberately conservative: a contrast needs a strong alignment (most of the claim's content
words in one context sentence), and where two context sentences align equally well, every one of
them must show it. A weakening ("some" where the context says "all") is not a contrast. Word
lists are closed-class English words and common antonym pairs, never the words of one example.
"""

from rt4chart_plugins.rules.contrast.align import ContrastRule, Contrasts
from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.reading import tokens

__all__ = ["Contrast", "ContrastRule", "Contrasts", "tokens"]

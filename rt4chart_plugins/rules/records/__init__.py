"""Rules for structured records (a JSON context split by field, as ``pipeline/segment.py`` does).

They were written for business listings of the kind RAGTruth's Data2txt task has (Yelp-style
records: yes/no attributes such as ``"HasTV": "False"``, ``hours.Monday: 17:30-23:0``, US state
codes). On such a record a claim that flips a yes/no field or gives a day other hours is CON and
cites the field; a sentence of nothing but hours or yes/no attributes, each as the record has
them, is ENT. They never fire on plain-text contexts, and ``record_checks=False`` switches them off
for JSON contexts of another kind.
"""

from rt4chart_plugins.rules.records.checks import RecordChecks, RecordRule

__all__ = ["RecordChecks", "RecordRule"]

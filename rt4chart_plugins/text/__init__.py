"""The text kit: how the product reads English text at the level of words, below the rules, the
claims and the judges that all share it. ``words`` defines a word, a stopword, a content word and a
stem once; ``english`` holds the regular expressions over English text (number words, clock times,
field names, list markers, text no encoder accepts); ``abstention`` tells a sentence that only says
"I don't know". Nothing here checks a claim: the checks are :mod:`rt4chart_plugins.rules`.
"""

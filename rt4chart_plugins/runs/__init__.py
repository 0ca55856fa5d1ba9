"""Many rows in, one line per row out: the one way a file of rows is run, locally or on Ray.

``spec``: the detector the flags describe, and the settings that are a row's fingerprint's only
detector input. ``rows_in``: the one reader and id rule. ``rows_out``: the one writer, resume and
summary. ``formats``: the output views (JSONL, CSV, text) fed the row itself. ``actions``: what is
done to each row (verify it, or guard it). ``local``: the loop on this machine; ``distributed/``
runs the same spec and rows on Ray.
"""

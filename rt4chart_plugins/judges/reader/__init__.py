"""The cheap read in ``judge="auto"``: which claims the embedded LLM reads (:mod:`.gate`), and how
its reading and the trained verifier's combine (:mod:`.combine`), both fitted in the lab on
labelled (claim, premise) pairs and shipped as :data:`.fitted.FIT_FILE`."""

"""What the four framework adapters share, one module per job, so that an adapter holds only what
its framework needs:

- :mod:`.verifier`: the detector behind an adapter (the judge chosen, its options checked early)
- :mod:`.rows`: one framework row read, checked and verified; a failed row as a report or an error
- :mod:`.failure`: a failed row's error, typed: its kind and class, carried from the verifier
- :mod:`.reason`: a report as the reason text a framework shows beside the score
- :mod:`.payload`: a report as JSON for a trace or a log, and the claim table of many reports
- :mod:`.llm`: a framework's LLM as a judge: the reply as JSON text, the judge's name, the wrap
- :mod:`.openai_chat`: the request sent through a framework LLM's own OpenAI client
- :mod:`.extras`: the framework imported, or the extra to install named

Nothing here imports a framework: each adapter package does that itself, when it is imported.
"""

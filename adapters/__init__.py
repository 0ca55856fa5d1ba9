"""Framework adapters, one package per framework, each importing its framework only when imported:

- ``rt4chart_plugins.adapters.ragas``: ``RT4ChartFaithfulness`` (ragas.evaluate), ``RT4ChartFaithfulnessV2``
- ``rt4chart_plugins.adapters.deepeval``: ``RT4ChartMetric``
- ``rt4chart_plugins.adapters.langchain``: ``RT4ChartVerifier`` (a Runnable)
- ``rt4chart_plugins.adapters.llama_index``: ``RT4ChartEvaluator``

Importing one without its framework raises :class:`rt4chart_plugins.MissingExtra` naming the extra.
Each package holds its framework's LLM as a judge (``judge.py``) apart from the metric, evaluator or
Runnable that wraps the verifier; what the four share is in :mod:`rt4chart_plugins.adapters.common`.
"""

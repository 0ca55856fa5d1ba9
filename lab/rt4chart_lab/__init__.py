"""rt4chart-lab: the benchmarks, training and probes behind rt4chart-plugins.

Never imported by the product. Its commands (``rt4chart bench``, ``train-verifier``, ``gasp-fit``,
``bench-combine``, ``readout-fit``) reach the product's CLI through the ``rt4chart.commands``
entry points. Floors, from the bottom: ``data`` (loaders, generators, dev sets), ``metrics`` and
``intervals``, then ``bench``, ``training``, ``gasp_fit`` and ``readout``.
"""

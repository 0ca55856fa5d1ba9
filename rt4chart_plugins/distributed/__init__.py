"""Audit corpora on a Ray cluster: :func:`verify_dataset` over a ``ray.data.Dataset`` and the
CLI's ``--engine ray``. Needs the ``[ray]`` extra; nothing here imports Ray until it is used."""

from __future__ import annotations

from typing import Any


def verify_dataset(ds: Any, judge: Any = None, **options: Any) -> Any:
    """See :func:`rt4chart_plugins.distributed.ray_engine.verify_dataset`."""
    from rt4chart_plugins.distributed.ray_engine import verify_dataset as run

    return run(ds, judge, **options)


__all__ = ["verify_dataset"]

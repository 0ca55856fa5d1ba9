"""``verify_dataset``: a ``ray.data.Dataset`` of rows in, a Dataset of ``{id, ok, error, report}`` out.

Ray Data streams the rows in batches to a pool of up to ``workers`` actors (it starts with one
and grows while rows wait: a pool that held every CPU from the start would starve the read tasks
that feed it, and the job would stall); each actor builds its detector (and
loads its judge: the ONNX verifier, a GGUF model) once, and scores every batch it is given with
``verify_many``, so a batch is as fast as it is on one machine. Ray restarts an actor that dies and
runs its batch again (``max_restarts``/``max_task_retries`` are unlimited for actor pools); a batch
is whole or absent in the output, and the CLI drops an id it already wrote, so no row is lost or
written twice. A row that cannot be verified is a result row with ``ok=False``: the job never
fails because of a row.
"""

from __future__ import annotations

from typing import Any

from rt4chart_plugins.distributed.rate_limit import bucket_actor, limit_requests
from rt4chart_plugins.distributed.rows import INPUT_COLUMN, score_records
from rt4chart_plugins.errors import InvalidInput, MissingExtra
from rt4chart_plugins.runs.spec import DetectorSpec

#: rows per batch: the unit Ray retries when an actor dies (small, so little work is redone) and
#: the unit of one ``verify_many`` (large enough that the per-batch overhead, about a millisecond, vanishes)
DEFAULT_BATCH_SIZE = 16


def import_ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401 - Ray Data needs pyarrow and pandas: the extra installs ray[data]
    except ImportError:
        raise MissingExtra("ray", "ray") from None
    return ray


class Scorer:
    """One per actor: the detector built and its judge loaded once, then batch after batch."""

    def __init__(self, spec: DetectorSpec, bucket: Any = None):
        self.spec = spec
        self.detector = spec.build()
        self.detector.prepare()
        if bucket is not None:  # only for a judge that calls an API: the detector is a Verifier
            limit_requests(getattr(self.detector, "judge", None), bucket)

    def __call__(self, batch: Any) -> dict[str, list]:
        return score_records(self.detector, batch.to_dict("records"), concurrency=self.spec.concurrency)


def default_workers(num_cpus: float) -> int:
    """One actor per ``num_cpus`` CPUs of the cluster (at least one)."""
    ray = import_ray()
    cpus = ray.cluster_resources().get("CPU", 1.0)
    return max(1, int(cpus // num_cpus)) if num_cpus > 0 else max(1, int(cpus))


def verify_dataset(
    ds: Any,
    judge: Any = None,
    *,
    method: str = "rt4chart",
    judge_kwargs: dict | None = None,
    workers: int | None = None,
    batch_size: int | None = None,
    concurrency: int = 4,
    num_cpus: float = 1.0,
    rate_limit: float | None = None,
    burst: int = 1,
    **pipeline_options: Any,
) -> Any:
    """Verify every row of ``ds`` on the cluster; returns a lazy Dataset of result rows.

    ``ds`` rows: ``{id, context, answer, question?}`` (other columns are ignored), or ``{id, input}``
    with ``input`` the JSON text of such an object. ``judge``/``judge_kwargs``/``pipeline_options``
    are those of :class:`~rt4chart_plugins.Verifier` (``method="gasp"``: ``pipeline_options`` are
    :class:`~rt4chart_plugins.GaspDetector`'s). ``workers``: the most actors (default: the cluster's CPUs /
    ``num_cpus``); ``batch_size``: rows per batch (default 16); ``concurrency``: rows in flight per
    actor; ``rate_limit``: API requests per second shared by all actors (``burst`` saved up at
    most), for the ``openai`` judge. Unknown options are refused before anything runs.
    """
    spec = DetectorSpec.create(
        method=method, judge=judge, judge_kwargs=judge_kwargs or {}, options=pipeline_options, concurrency=concurrency
    )
    return map_spec(
        ds, spec, workers=workers, batch_size=batch_size, num_cpus=num_cpus, rate_limit=rate_limit, burst=burst
    )


def map_spec(
    ds: Any,
    spec: DetectorSpec,
    *,
    workers: int | None = None,
    batch_size: int | None = None,
    num_cpus: float = 1.0,
    rate_limit: float | None = None,
    burst: int = 1,
) -> Any:
    """:func:`verify_dataset` for a spec already checked (the CLI builds one from its flags)."""
    ray = import_ray()
    for name, value in (("workers", workers), ("batch_size", batch_size)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise InvalidInput(f"{name} must be a positive integer, got {value!r}")
    if not num_cpus >= 0:
        raise InvalidInput(f"num_cpus must be >= 0, got {num_cpus!r}")
    if not isinstance(ds, ray.data.Dataset):
        raise InvalidInput(f"verify_dataset takes a ray.data.Dataset, got {type(ds).__name__}")
    bucket = None
    if rate_limit is not None:
        if not spec.sends_requests():
            raise InvalidInput("rate_limit applies to judges that call an API (judge='openai'); this one calls none")
        bucket = bucket_actor(rate_limit, burst)
    schema = ds.schema()
    columns = set(schema.names) if schema is not None else set()
    if "id" not in columns or not ({"context", "answer"} <= columns or INPUT_COLUMN in columns):
        raise InvalidInput(
            f"the dataset needs columns id, context, answer (question optional), or id and "
            f"{INPUT_COLUMN}; it has {', '.join(sorted(columns)) or 'none'}"
        )
    return ds.map_batches(
        Scorer,
        fn_constructor_kwargs={"spec": spec, "bucket": bucket},
        batch_size=batch_size or DEFAULT_BATCH_SIZE,
        batch_format="pandas",
        num_cpus=num_cpus,
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers or default_workers(num_cpus)),
    )

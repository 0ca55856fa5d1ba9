"""One request rate for every worker of a job: a token bucket held by one Ray actor.

Each API request a worker's judge sends first reserves a token from the bucket and sleeps until
its reservation is due, so N workers together send at most ``rate`` requests a second (plus a
``burst`` at the start), however many there are. Reservations rather than a blocking acquire: the
actor answers every call at once and never holds a worker's slot, and since every clock reading
happens in the one actor, the workers' clocks need not agree. Cache hits send no request and take
no token; a retry (the judge's backoff) is a request and takes one.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.chat import ChatJudge


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up. The bucket may go below zero: that
    is the queue of reservations, each due when the bucket would have refilled to it."""

    def __init__(self, rate: float, burst: int = 1):
        if not rate > 0 or burst < 1:
            raise InvalidInput(f"a rate limit needs rate > 0 and burst >= 1, got rate={rate}, burst={burst}")
        self.rate = float(rate)
        self.burst = int(burst)
        self._tokens = float(burst)
        self._at = time.monotonic()
        self.granted = 0

    def reserve(self) -> float:
        """Take one token; the seconds the caller must wait before it may send its request."""
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        self._tokens -= 1.0
        self.granted += 1
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    def stats(self) -> dict[str, float]:
        return {"rate": self.rate, "burst": self.burst, "granted": self.granted}


def bucket_actor(rate: float, burst: int = 1) -> Any:
    """The job's bucket as a Ray actor (no CPU of its own: it only does arithmetic)."""
    import ray

    TokenBucket(rate, burst)  # refuse bad settings here, not in the actor's log
    return ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)(TokenBucket).remote(rate, burst)


def limit_requests(judge: Any, bucket: Any) -> None:
    """Make every request ``judge`` sends wait for a token of ``bucket`` (a Ray actor handle).

    It wraps the one method through which a :class:`ChatJudge` sends a request, on this
    instance only, so the judge's cache, retries and salvage stay as they are."""
    if not isinstance(judge, ChatJudge):
        raise InvalidInput(f"a rate limit applies to judges that call an API; the {judge.name!r} judge calls none")
    send = judge._complete

    async def limited(*args: Any, **kwargs: Any) -> Any:
        wait = await bucket.reserve.remote()
        if wait > 0:
            await asyncio.sleep(wait)
        return await send(*args, **kwargs)

    judge._complete = limited  # type: ignore[method-assign]

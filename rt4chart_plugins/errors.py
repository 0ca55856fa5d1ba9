"""Errors a caller can act on. Each message says what to do next."""

from __future__ import annotations

from collections.abc import Iterable


class Rt4chartError(Exception):
    """Base class: everything this package raises on purpose."""


class InvalidInput(Rt4chartError, ValueError):
    """The (context, question, answer) given cannot be verified as it stands."""


class JudgeError(Rt4chartError):
    """The judge could not produce a usable answer (after retries)."""


class InvalidReply(JudgeError):
    """The judge answered, but not with what was asked, after it was asked again: a reply cut off
    before its JSON ended, one without the JSON asked for, or no chat completion at all (an HTML
    page). Nothing is read from it; the row it was for fails with this reason."""


class JudgeUnavailable(Rt4chartError):
    """The judge's endpoint cannot serve any row: it refused the credentials or the model (401,
    403, 404), or it kept failing until the circuit breaker opened. Not a :class:`JudgeError`,
    on purpose: a batch stops at the first one instead of failing every row the same way, and the
    rows not yet scored stay to do for a re-run."""


class ModelNotAvailable(Rt4chartError):
    """A local model file is missing or corrupt; the message names the command that fixes it."""


class MissingExtra(Rt4chartError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""

    def __init__(self, package: str, extra: str):
        super().__init__(f'{package} is not installed. Install it with: pip install "rt4chart-plugins[{extra}]"')
        self.package = package
        self.extra = extra


def unknown_options(given: Iterable[str], known: Iterable[str], what: str) -> InvalidInput | None:
    """The error for options that ``what`` does not take, each with its nearest known name, or
    None when every option is known: a typo (``decompositon``) is an error that names the fix,
    never a setting silently ignored."""
    known = sorted(set(known))
    unknown = sorted(set(given) - set(known))
    if not unknown:
        return None
    import difflib  # only for a typo's hint: most imports of the errors never need it

    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return InvalidInput(f"{what} takes no option {', '.join(hints)}; it takes {', '.join(known) or 'none'}")

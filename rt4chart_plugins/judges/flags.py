"""The CLI's judge flags, read off the registry's entries: which judges take a flag, and the
options the flags given set for one judge. The table passes itself in, so this machinery stays out
of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.entries import Flag, JudgeEntry


def flags_of(entries: Iterable[JudgeEntry]) -> dict[str, list[tuple[JudgeEntry, Flag]]]:
    """Every judge flag, with the judges that take it, in the order the entries declare them."""
    flags: dict[str, list[tuple[JudgeEntry, Flag]]] = {}
    for e in entries:
        for f in e.flags:
            flags.setdefault(f.flag, []).append((e, f))
    return flags


def either(names: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def options_set(found: JudgeEntry, given: Mapping[str, Any], entries: Iterable[JudgeEntry]) -> dict[str, Any]:
    """The options that the judge flags given (``{"--timeout": 30.0}``) set for the judge of
    ``found``; a flag it does not take is refused, naming the judges of ``entries`` that do."""
    mine = {f.flag: f for f in found.flags}
    options: dict[str, Any] = {}
    for flag, value in given.items():
        if flag not in mine:
            takers = [e.name for e, _ in flags_of(entries).get(flag, [])]
            raise InvalidInput(
                f"{flag} is for the {either(takers)} judge, not {found.name!r}"
                + (f"; its flags: {', '.join(mine)}" if mine else "; it takes no flag")
            )
        f = mine[flag]
        path = f.option.split(".")
        target = options
        for part in path[:-1]:
            target = target.setdefault(part, {})
        target[path[-1]] = f.const if f.const is not None else value
    return options

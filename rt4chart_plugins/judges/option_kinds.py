"""The kinds an entry's options are declared with, checked strictly and refused in words.

An entry declares each option as a type (``int``, ``float``, ``str``, ``bool``, ``Path``), a union
with ``None``, a bounded kind of :mod:`rt4chart_plugins.config`, a tuple of alternatives, or a
:class:`~rt4chart_plugins.judges.entries.Nested` dict of another entry's options. A value is one of
them or it is refused with what it must be ("a number in [0, 1]"), never pydantic's error list.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from rt4chart_plugins.config import wanted
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.entries import Nested

_STRICT = ConfigDict(strict=True, arbitrary_types_allowed=True)
_VALIDATORS: dict[Any, TypeAdapter[Any]] = {}
_WORDS = {str: "a string", Path: "a path", bool: "true or false", int: "a whole number", float: "a number"}

#: how a nested dict is checked: (the entry's name, its options, what to call them in a refusal)
NestedCheck = Callable[[str, Mapping[str, Any], str], None]


def kinds(kind: Any) -> tuple[Any, ...]:
    """The members of a union (``X | None``, or a tuple of alternatives), else the kind itself."""
    if isinstance(kind, tuple):
        return tuple(type(None) if k is None else k for k in kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return typing.get_args(kind)
    return (kind,)


def described(kind: Any) -> str:
    """What a value of ``kind`` must be, in words."""
    parts = []
    for k in kinds(kind):
        if k is type(None):
            parts.append("None")
        elif isinstance(k, Nested):
            parts.append(f"a dict of the {k.entry!r} judge's options")
        elif isinstance(k, type) and k in _WORDS:
            parts.append(_WORDS[k])
        elif isinstance(k, type):
            parts.append(f"a {k.__name__}")
        else:
            parts.append(wanted(k))
    return " or ".join(dict.fromkeys(parts))


def check_value(judge: str, option: str, kind: Any, value: Any, nested: NestedCheck) -> None:
    """Refuse ``value`` unless it is one of ``kind``'s members; a nested dict goes to ``nested``."""
    for k in kinds(kind):
        if isinstance(k, Nested):
            if isinstance(value, dict):
                nested(k.entry, value, f"the {judge!r} judge's {option}")
                return
            continue
        if k not in _VALIDATORS:
            _VALIDATORS[k] = TypeAdapter(k, config=_STRICT)
        try:
            _VALIDATORS[k].validate_python(value)
            return
        except ValidationError:
            continue
    raise InvalidInput(
        f"the {judge!r} judge's option {option} must be {described(kind)}, got {type(value).__name__} {value!r}"
    )

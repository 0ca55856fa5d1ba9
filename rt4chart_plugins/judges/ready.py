"""Checked when built means ready to run: what a judge's options name is there, now.

Types are the registry's first check (:mod:`rt4chart_plugins.judges.option_kinds`); a judge whose
options are well typed may still be unable to run: an option it cannot do without is missing, a
model folder does not exist or lacks its files, the extra it imports is not installed, or a
pipeline option asks for what the judge would silently not do. Each would otherwise fail every row
(or every Ray actor) with a raw library error, or be recorded in a config that says what did not
happen. All of it is read without loading anything, and each refusal is one line.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import InvalidInput, MissingExtra, ModelNotAvailable
from rt4chart_plugins.judges.entries import Holds, JudgeEntry


def check_ready(found: JudgeEntry, options: Mapping[str, Any]) -> None:
    """Refuse options (already well typed) the judge of ``found`` could not run with: a required
    one missing, a path that names nothing or a folder without its files, a missing extra, then
    what the entry's own ``refuse`` check finds (``hf``: the model's files and runtime)."""
    for option in found.required:
        if options.get(option) in (None, ""):
            raise InvalidInput(f"the {found.name!r} judge needs a {option}: {_how_to_give(found, option)}")
    for option, holds in found.paths.items():
        if options.get(option) not in (None, ""):
            _check_path(f"the {found.name!r} judge's {option}", Path(options[option]).expanduser(), holds)
    if found.extra is not None and importlib.util.find_spec(found.extra.module) is None:
        raise MissingExtra(found.extra.package, found.extra.extra)
    if found.refuse:
        module, _, function = found.refuse.partition(":")
        if error := getattr(importlib.import_module(module), function)(options):
            raise error


def check_honoured(found: JudgeEntry, options: Mapping[str, Any], pipeline: Mapping[str, Any]) -> None:
    """Refuse a pipeline option the judge of ``found`` (with ``options``) would ignore."""
    for ignored in found.ignores:
        value = pipeline.get(ignored.option)
        if value is not None and ignored.applies(options, value):
            raise InvalidInput(f"the {found.name!r} judge ignores {ignored.option}={value!r}: {ignored.why}")


def _how_to_give(found: JudgeEntry, option: str) -> str:
    as_name = f"judge='{found.name}:<{option}>' or " if found.prefix_option == option else ""
    return f"{as_name}judge_kwargs={{{option!r}: ...}}"


def _check_path(what: str, path: Path, holds: Holds) -> None:
    fix = f": {holds.fix}" if holds.fix else ""
    if not path.exists():
        raise ModelNotAvailable(f"{what} {path} does not exist{fix}")
    if not holds.files:
        if not path.is_file():
            raise ModelNotAvailable(f"{what} {path} is no file{fix}")
        return
    if not path.is_dir():
        raise ModelNotAvailable(f"{what} {path} is no folder{fix}")
    missing = [name for name in holds.files if not (path / name).is_file()]
    if missing:
        raise ModelNotAvailable(f"{what} {path} holds no {', '.join(missing)}{fix}")

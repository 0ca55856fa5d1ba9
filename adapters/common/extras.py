"""An adapter's framework, imported when the adapter is, or the extra that installs it named.

Each adapter package calls :func:`require_framework` before it imports its own modules, so that
importing it without its framework raises :class:`MissingExtra` with the ``pip install`` line,
not a bare ``ModuleNotFoundError`` from somewhere inside it.
"""

from __future__ import annotations

import importlib

from rt4chart_plugins.errors import MissingExtra


def require_framework(package: str, extra: str, modules: tuple[str, ...]) -> None:
    """Import ``modules`` (the framework's modules the adapter uses), or raise
    :class:`MissingExtra` naming the distribution ``package`` and the rt4chart-plugins ``extra``."""
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError as exc:
        raise MissingExtra(package, extra) from exc

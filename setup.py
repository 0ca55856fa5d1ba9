"""The package list, found instead of written down, so that a new package cannot be left out of the
wheel: ``rt4chart_plugins`` with every folder under it (a folder without ``__init__.py`` too, such
as the trained verifier's ``artifact/``), and ``adapters/`` (kept at the top of the checkout, as the
design has it) shipped as ``rt4chart_plugins.adapters``. Everything else about the distribution
(metadata, package data, the ``package-dir`` mapping) is in pyproject.toml."""

from setuptools import find_namespace_packages, setup


def packages(folder: str, name: str) -> list[str]:
    """``name`` and every package under ``folder``, named as installed."""
    found = find_namespace_packages(where=folder, exclude=["*__pycache__*"])
    return [name, *(f"{name}.{sub}" for sub in found)]


setup(packages=packages("rt4chart_plugins", "rt4chart_plugins") + packages("adapters", "rt4chart_plugins.adapters"))

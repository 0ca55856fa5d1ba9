"""The product's imports run one way: types → rules → judges → pipeline stages → façade → batch,
CLI, adapters; and nothing in the product imports the lab.

Read from the source with ``ast`` (nothing is imported), so a wrong-way import fails here before
it becomes a circular import somewhere else.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rt4chart_plugins"
ADAPTERS = ROOT / "adapters"

#: the floor of each module, by its dotted name's longest listed prefix; lower floors never import higher ones
FLOORS = {
    "rt4chart_plugins.types": 0, "rt4chart_plugins.errors": 0, "rt4chart_plugins.config": 0,
    "rt4chart_plugins.deadline": 0,
    "rt4chart_plugins.models": 0,
    "rt4chart_plugins.rules": 1,
    "rt4chart_plugins.judges": 2,
    "rt4chart_plugins.pipeline": 3,
    "rt4chart_plugins.detector": 4, "rt4chart_plugins.verifier": 4, "rt4chart_plugins.gasp": 4,
    "rt4chart_plugins.render": 5, "rt4chart_plugins.batch": 5, "rt4chart_plugins.cli": 5,
    "rt4chart_plugins.distributed": 5,
    "rt4chart_plugins.adapters": 5, "rt4chart_plugins.audit": 5, "rt4chart_plugins": 5,
}


def floor(module: str) -> int:
    best = max((p for p in FLOORS if module == p or module.startswith(p + ".")), key=len)
    return FLOORS[best]


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        yield path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    for path in sorted(ADAPTERS.glob("*.py")):
        name = "rt4chart_plugins.adapters" + ("" if path.stem == "__init__" else f".{path.stem}")
        yield path, name


def _imports(path: Path):
    """Every module a file imports, with ``from pkg import sub`` read as importing ``pkg.sub``
    when ``sub`` is a module of the package."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                target = ROOT / Path(*sub.split("."))
                yield sub if target.with_suffix(".py").is_file() or target.is_dir() else node.module


def test_no_import_runs_from_a_lower_floor_to_a_higher_one():
    wrong = []
    for path, name in _modules():
        if name == "rt4chart_plugins":  # the package's face re-exports the public API
            continue
        for imported in _imports(path):
            if imported.startswith("rt4chart_plugins") and floor(imported) > floor(name):
                wrong.append(f"{name} (floor {floor(name)}) imports {imported} (floor {floor(imported)})")
    assert not wrong, "\n".join(wrong)


def test_the_product_never_imports_the_lab():
    offenders = [f"{name} imports {imp}" for path, name in _modules() for imp in _imports(path)
                 if imp.split(".")[0] == "rt4chart_lab"]
    assert not offenders, offenders


def test_the_floors_map_covers_every_module():
    """A new top-level module must be given a floor here, not fall to the package's face."""
    unplaced = [name for _, name in _modules()
                if name != "rt4chart_plugins" and max((p for p in FLOORS if name == p or name.startswith(p + ".")),
                                                      key=len) == "rt4chart_plugins"]
    assert not unplaced, unplaced

"""The product's imports run one way: types → the text kit → rules and claims → judges → pipeline stages → façade
→ batch, CLI, adapters; and nothing in the product imports the lab. Within the adapters: the shared modules
→ a framework's judge → its metric (evaluator, Runnable) → its package's face.

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
    "rt4chart_plugins.models": 0, "rt4chart_plugins.examples": 0,
    "rt4chart_plugins.text": 1, "rt4chart_plugins.llama_runtime": 1,
    "rt4chart_plugins.rules": 2, "rt4chart_plugins.claims": 2,
    "rt4chart_plugins.judges": 3,
    "rt4chart_plugins.pipeline": 4,
    "rt4chart_plugins.detector": 5, "rt4chart_plugins.verifier": 5, "rt4chart_plugins.gasp": 5,
    "rt4chart_plugins.guard": 5, "rt4chart_plugins.factory": 5,
    "rt4chart_plugins.render": 6, "rt4chart_plugins.batch": 6, "rt4chart_plugins.model_export": 6,
    "rt4chart_plugins.cli_options": 6, "rt4chart_plugins.guard_command": 6, "rt4chart_plugins.cli": 6,
    "rt4chart_plugins.distributed": 6, "rt4chart_plugins.runs": 6,
    "rt4chart_plugins.adapters": 6, "rt4chart_plugins.audit": 6, "rt4chart_plugins": 6,
}


def floor(module: str) -> int:
    best = max((p for p in FLOORS if module == p or module.startswith(p + ".")), key=len)
    return FLOORS[best]


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        yield path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    for path in sorted(ADAPTERS.rglob("*.py")):
        parts = list(path.relative_to(ADAPTERS).with_suffix("").parts)
        yield path, ".".join(["rt4chart_plugins", "adapters", *(parts[:-1] if parts[-1] == "__init__" else parts)])


def _source(module: str) -> Path:
    """Where a dotted name of the product lies (``rt4chart_plugins.adapters`` is ``adapters/``), less the suffix."""
    parts = module.split(".")
    if parts[:2] == ["rt4chart_plugins", "adapters"]:
        return ADAPTERS.joinpath(*parts[2:])
    return ROOT.joinpath(*parts)


def _imports(path: Path):
    """Every module a file imports, with ``from pkg import sub`` read as importing ``pkg.sub``
    when ``sub`` is a module of the package."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                target = _source(sub)
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


def _adapter_layer(module: str) -> tuple[str, int]:
    """A module under ``rt4chart_plugins.adapters`` as (its package, its layer): the shared
    ``common`` 0, a framework's ``judge`` 1, the framework's other modules (the metric, evaluator
    or Runnable and their helpers) 2, the framework package's face 3."""
    parts = module.split(".")[2:]
    if not parts:
        return "", 3
    if parts[0] == "common":
        return "common", 0
    if len(parts) == 1:
        return parts[0], 3
    return parts[0], 1 if parts[1] == "judge" else 2


def test_within_the_adapters_the_metric_imports_the_judge_and_common_never_the_reverse():
    """A framework's modules import their own package's and the shared ones, each from its own
    layer or a lower one: the judge never imports the metric, the shared modules no framework's."""
    wrong = []
    for path, name in _modules():
        if not name.startswith("rt4chart_plugins.adapters."):
            continue
        package, layer = _adapter_layer(name)
        for imported in _imports(path):
            if not imported.startswith("rt4chart_plugins.adapters."):
                continue
            other, other_layer = _adapter_layer(imported)
            if other not in (package, "common") or other_layer > layer:
                wrong.append(f"{name} (layer {layer}) imports {imported} (layer {other_layer})")
    assert not wrong, "\n".join(wrong)


#: the one module of the judges an adapter may import: what a framework's judge is built on
JUDGE_KIT = "rt4chart_plugins.judges.kit"
#: the rooms whose insides may move: an adapter reaches them through the kit or the package's face
INSIDES = ("rt4chart_plugins.judges", "rt4chart_plugins.pipeline", "rt4chart_plugins.rules")


def test_the_adapters_reach_the_judges_only_through_the_kit():
    """A framework's adapter is written against :mod:`rt4chart_plugins.judges.kit` and the public
    façade alone: no other module of the judges, the pipeline or the rules."""
    wrong = [
        f"{name} imports {imported}"
        for path, name in _modules()
        if name.startswith("rt4chart_plugins.adapters")
        for imported in _imports(path)
        if imported != JUDGE_KIT and any(imported == room or imported.startswith(room + ".") for room in INSIDES)
    ]
    assert not wrong, "\n".join(wrong)

"""Every fenced code block of the README and the docs runs here, so the docs cannot drift.

The blocks are those of ``README.md``, ``docs/**/*.md``, ``lab/README.md`` and ``lab/docs/**/*.md``;
each is one case, named ``FILE:LINE`` after its opening fence.

- ``python`` blocks are executed, each in a fresh namespace. The working directory is a scratch
  folder per document, shared by its blocks in document order. A user page's (README.md, docs/)
  reaches only the checkout's scripts (``tests/``, ``scripts/``, which the page says are a
  checkout's): its data comes from the package, as a pip user's does (``rt4chart examples``,
  ``rt4chart_plugins.examples.read``). A lab page's reaches ``examples/``, ``docs/``, ``lab/``,
  ``scripts/`` and ``tests/``. A block asserts on its results.
- ``bash`` / ``console`` blocks: every line that starts with ``rt4chart `` or ``python `` is run with
  ``bash -c`` (the venv's ``bin/`` first on ``PATH``) and must exit 0, or the status that a
  ``# exit N`` comment at the end of the line names. Any other line fails the case.
- A ``text`` block right after a ``python`` or ``bash`` block (only blank lines between them) is
  that block's expected standard output. It is compared after normalizing whitespace, and ``…``
  stands for any text (seconds, say). A mismatch fails with a diff.
- ``json``, ``jsonl`` and ``toml`` blocks are parsed.
- Any other block (untagged, another tag, a ``text`` block after no runnable block) fails.

An HTML comment on the line just before a fence marks a block that cannot run everywhere:

- ``<!-- docs-test: model -->``: needs the embedded LLM or GASP's scorer (llama-cpp-python and a
  pulled model). Not run here: ``tests/integration/test_docs_model.py`` runs these blocks.
- ``<!-- docs-test: lab-data -->``: needs the lab (``rt4chart_lab``) and the shared benchmark data
  (``$RT4CHART_DATA_DIR``, else ``shared/data`` beside the checkout). Skipped when either is
  missing, run otherwise; such blocks keep their runs small (``--limit 3``) in the doc itself.
  They are integration checks of the lab over that data, marked ``slow`` as well: the fast unit
  run (``scripts/test.sh --fast``) leaves them to the full run.
- ``<!-- docs-test: setup -->``: the fresh-machine commands (``bash scripts/demo.sh``,
  ``bash scripts/test.sh``, ``pip install ...``). These are the single exception: they are NOT
  run, only checked that every file or folder they name exists in the repository.

- ``<!-- docs-test: hf -->``: needs the ``[hf]`` extra (torch and transformers: it builds a tiny
  model with them) and the lab, whose ``rt4chart_lab.hf_toy`` builds it (a fixture, not in the
  wheel). Skipped when any is missing, run otherwise; marked ``slow`` as well (torch's import, a
  model built, exported and read through the CLI, the lab's speed benchmark), so the fast unit run
  leaves them to the full run, as the unit tests of ``tests/unit/judges`` cover the judge itself.

- ``<!-- docs-test: slow -->``: runs for tens of seconds (the fault matrix); marked ``slow``, so the
  fast unit run (``scripts/test.sh --fast``) leaves it to the full run.

Markers combine: ``<!-- docs-test: model lab-data -->`` needs both (the integration test skips
it without the lab's data).

Besides the blocks, the docs' links must stay inside the repository (or point at a framework's
public site), the user docs carry no history (no dates, sessions or issue numbers), the README
stays short, and the module map of ``docs/design.md`` names exactly the product's modules.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the interpreter's bin/ (the venv's): `rt4chart` and `python` resolve there
BIN = Path(sys.executable).parent
#: what a lab page's scratch folder links to, so that blocks can name repository paths
REACHABLE = ("examples", "docs", "lab", "scripts", "tests")
#: what a user page's links to: the checkout's scripts, never its data (the wheel ships that)
USER_REACHABLE = ("scripts", "tests")
#: user pages whose blocks still read the checkout's examples/ and docs/ (to be emptied: a page reads
#: the package's examples with `rt4chart examples` or `examples.read`)
READS_THE_CHECKOUT: set[str] = set()
MARKERS = {"model", "lab-data", "setup", "slow", "hf"}
RUNNABLE = {"python", "bash", "console", "sh", "shell"}
SHELL = RUNNABLE - {"python"}
PARSED = {"json", "jsonl", "toml"}
LINE_TIMEOUT = {"model": 600, "lab-data": 300, None: 120}
#: the only sites outside the repository a doc may link to: the frameworks' public documentation
PUBLIC_SITES = ("docs.ragas.io", "deepeval.com", "python.langchain.com", "docs.llamaindex.ai")

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
_EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")


def doc_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             ROOT / "lab" / "README.md", *sorted((ROOT / "lab" / "docs").rglob("*.md"))]
    only = os.environ.get("RT4CHART_DOCS_PAGE")  # the release check runs one page in a venv of its needs
    return [f for f in files if f.is_file() and (not only or f == ROOT / only)]


#: ``<!-- docs-needs: ragas export +langchain-openai -->``: the extras (and, after ``+``, the other
#: packages) that a user page's runnable blocks need beyond the package; ``core`` for none. The
#: page says the same in words on the next line; scripts/release_check.sh reads it to run the
#: page's blocks in a venv holding only those (``python tests/unit/test_docs_pip.py --plan``).
_NEEDS = re.compile(r"^<!--\s*docs-needs:\s*(.*?)\s*-->\s*$")


def page_needs(path: Path) -> tuple[list[str], list[str]] | None:
    """The extras and the other packages a page declares, or None when it declares none."""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _NEEDS.match(line)
        if m:
            names = m.group(1).split()
            return [n for n in names if not n.startswith("+") and n != "core"], [n[1:] for n in names if n.startswith("+")]
    return None


def needs_sentence(extras: list[str], packages: list[str]) -> str:
    """What a page says, in words, it needs: the pip command."""
    spec = f'"rt4chart-plugins[{",".join(extras)}]"' if extras else "rt4chart-plugins"
    return f"Needs `pip install {' '.join([spec, *packages])}`."


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    end: int  # 1-based line of the closing fence
    lang: str
    body: str
    markers: frozenset[str] = frozenset()
    expected: "Block | None" = None
    is_output: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def doc(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def parse(path: Path) -> list[Block]:
    """The fenced blocks of one Markdown file, expected outputs attached to their blocks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not re.match(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        block = Block(path, start + 1, i + 1, lang, "\n".join(body) + "\n")
        if i >= len(lines):
            block.problems.append("the fence is never closed")
        marker = _MARKER.match(lines[start - 1]) if start else None
        if marker:
            names = frozenset(marker.group(1).split())
            block.markers = names
            if names - MARKERS:
                block.problems.append(f"unknown docs-test marker(s) {sorted(names - MARKERS)}; use {sorted(MARKERS)}")
        blocks.append(block)
        i += 1
    for prev, block in zip(blocks, blocks[1:]):
        between = lines[prev.end : block.line - 1]
        if block.lang == "text" and prev.lang in RUNNABLE and not prev.is_output and all(not s.strip() for s in between):
            prev.expected, block.is_output = block, True
    return blocks


def all_blocks() -> list[Block]:
    return [b for path in doc_files() for b in parse(path)]


def cases(*, model: bool) -> list[Block]:
    """The blocks that are cases: not the expected outputs (checked with their block), and the
    model blocks only for the integration test."""
    return [b for b in all_blocks() if not b.is_output and (("model" in b.markers) == model)]


# ---- running -------------------------------------------------------------------------------------

_WORKDIRS: dict[str, Path] = {}


def workdir(block: Block, factory: pytest.TempPathFactory) -> Path:
    """The scratch folder of the block's document (shared by its blocks, in order)."""
    if block.doc not in _WORKDIRS:
        path = factory.mktemp(re.sub(r"\W+", "-", block.doc))
        user = block.path in user_docs() and block.doc not in READS_THE_CHECKOUT
        for name in USER_REACHABLE if user else REACHABLE:
            if (ROOT / name).exists():
                (path / name).symlink_to(ROOT / name, target_is_directory=True)
        _WORKDIRS[block.doc] = path
    return _WORKDIRS[block.doc]


def lab_data_missing() -> str | None:
    if importlib.util.find_spec("rt4chart_lab") is None:
        return "the lab is not installed (pip install -e lab)"
    env = os.environ.get("RT4CHART_DATA_DIR")
    if not ((env and Path(env).is_dir()) or (ROOT.parent / "shared" / "data").is_dir()):
        return "no shared benchmark data ($RT4CHART_DATA_DIR)"
    return None


def commands(block: Block) -> list[tuple[int, str]]:
    """(doc line, command) of a shell block: continuation lines joined, blanks and comments dropped."""
    out: list[tuple[int, str]] = []
    pending, first = "", 0
    for offset, raw in enumerate(block.body.splitlines(), start=1):
        text = raw.strip()
        if block.lang == "console" and text.startswith("$ "):
            text = text[2:]
        if not pending and (not text or text.startswith("#")):
            continue
        if not pending:
            first = block.line + offset
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        out.append((first, pending + text))
        pending = ""
    if pending:
        out.append((first, pending))
    return out


def runs(command: str) -> bool:
    return command.startswith(("rt4chart ", "python "))


def check_setup(block: Block) -> None:
    """Fresh-machine commands are not run: every path they name must exist in the repository."""
    missing: list[str] = []
    for line, command in commands(block):
        assert not command.startswith("rt4chart "), (
            f"{block.doc}:{line}: `rt4chart` lines run; move {command!r} out of the setup block")
        try:
            tokens = shlex.split(command, comments=True)
        except ValueError as exc:
            pytest.fail(f"{block.doc}:{line}: cannot read {command!r}: {exc}")
        for k, token in enumerate(tokens):
            previous = tokens[k - 1] if k else ""
            path = re.sub(r"\[[^\]]*\]$", "", token)
            pathlike = ("/" in path or re.search(r"\.(sh|py|md|txt|json|jsonl|toml)$", path)
                        or previous in ("-e", "--editable", "cd", "bash", "sh", "source"))
            if (not pathlike or "://" in path or path.startswith(("-", "$", "~", "/")) or ".venv" in path
                    or "=" in path or ">" in path):
                continue
            if not (ROOT / path).exists():
                missing.append(f"{block.doc}:{line}: {path}")
    assert not missing, "setup commands name files that are not in the repository:\n" + "\n".join(missing)


def compare(block: Block, actual: str) -> None:
    expected = block.expected.body if block.expected else None
    if expected is None:
        return
    exp = " ".join(expected.split())
    act = " ".join(actual.split())
    pattern = ".*?".join(re.escape(piece) for piece in re.split(r"\s*…\s*", exp))
    if re.fullmatch(pattern, act, re.DOTALL):
        return
    diff = "\n".join(difflib.unified_diff(expected.strip().splitlines(), actual.strip().splitlines(),
                                          f"documented ({block.expected.id})", "actual", lineterm=""))
    pytest.fail(f"{block.id}: the output differs from the documented one (… matches any text, "
                f"whitespace is normalized):\n{diff}", pytrace=False)


def run_python(block: Block, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(cwd)
    code = compile("\n" * block.line + block.body, str(block.path), "exec")  # tracebacks give the doc's lines
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"__name__": "__main__"})  # noqa: S102 - the docs' own examples
    return out.getvalue()


def run_shell(block: Block, cwd: Path) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100",
           "PYTHONIOENCODING": "utf-8"}
    env.pop("RT4CHART_JUDGE", None)
    marker = "model" if "model" in block.markers else "lab-data" if "lab-data" in block.markers else None
    stdout: list[str] = []
    for line, command in commands(block):
        if not runs(command):
            pytest.fail(f"{block.doc}:{line}: {command!r} is not run by the docs test: only `rt4chart …` and "
                        "`python …` lines run (fresh-machine commands go in a `<!-- docs-test: setup -->` block)",
                        pytrace=False)
        wanted = int(m.group(1)) if (m := _EXIT.search(command)) else 0
        try:
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, text=True,
                                  capture_output=True, timeout=LINE_TIMEOUT[marker])
        except subprocess.TimeoutExpired:
            pytest.fail(f"{block.doc}:{line}: {command!r} ran past {LINE_TIMEOUT[marker]} s", pytrace=False)
        if done.returncode != wanted:
            pytest.fail(f"{block.doc}:{line}: {command!r} exited {done.returncode}, the doc says {wanted}\n"
                        f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}", pytrace=False)
        stdout.append(done.stdout)
    return "".join(stdout)


def run_block(block: Block, factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """One case: the block checked the way its kind and marker say."""
    assert not block.problems, f"{block.id}: " + "; ".join(block.problems)
    if "setup" in block.markers:
        assert block.lang in SHELL, f"{block.id}: only shell blocks can be setup blocks"
        check_setup(block)
        return
    if "lab-data" in block.markers and (why := lab_data_missing()):
        pytest.skip(why)
    if "hf" in block.markers and not all(map(importlib.util.find_spec, ("torch", "transformers", "rt4chart_lab"))):
        pytest.skip("needs the [hf] extra (torch, transformers) and the lab's toy builder (rt4chart_lab.hf_toy)")
    monkeypatch.delenv("RT4CHART_JUDGE", raising=False)
    if block.lang == "python":
        compare(block, run_python(block, workdir(block, factory), monkeypatch))
    elif block.lang in SHELL:
        compare(block, run_shell(block, workdir(block, factory)))
    elif block.lang in PARSED:
        parse_data(block)
    elif block.lang == "text":
        pytest.fail(f"{block.id}: a text block is the expected output of the python or bash block right "
                    "before it; this one follows none", pytrace=False)
    else:
        pytest.fail(f"{block.id}: a ```{block.lang or '(untagged)'} block: tag it python, bash, text (the "
                    f"output of the block before), json, jsonl or toml", pytrace=False)


def parse_data(block: Block) -> None:
    if block.lang == "json":
        json.loads(block.body)
    elif block.lang == "jsonl":
        for line in block.body.splitlines():
            if line.strip():
                json.loads(line)
    else:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib
        tomllib.loads(block.body)


#: the markers of blocks the fast run leaves to the full one: tens of seconds each, the lab's
#: commands over the shared benchmark data, or a torch model built and run end to end
FULL_RUN_ONLY = {"slow", "lab-data", "hf"}


def params(blocks: list[Block]) -> list:
    """The blocks as pytest cases, a ``slow``, ``lab-data`` or ``hf`` block marked ``slow`` so that
    the fast run deselects it."""
    return [pytest.param(b, id=b.id, marks=[pytest.mark.slow] if b.markers & FULL_RUN_ONLY else []) for b in blocks]


@pytest.mark.parametrize("block", params(cases(model=False)))
def test_block(block: Block, tmp_path_factory, monkeypatch):
    run_block(block, tmp_path_factory, monkeypatch)


# ---- the pages themselves ------------------------------------------------------------------------

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _prose(path: Path) -> str:
    """The page without its code blocks (commands may name what prose may not link to)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", "", text, flags=re.M | re.S)


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    heads = re.findall(r"^#{1,6}\s+(.+?)\s*$", _prose(path), re.M)
    return {re.sub(r"[^\w\- ]", "", h.replace("`", "").lower()).replace(" ", "-") for h in heads}


def user_docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_docs_test_marker_sits_on_a_fence():
    stray = []
    for path in doc_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if _MARKER.match(line) and not (n + 1 < len(lines) and _FENCE.match(lines[n + 1])):
                stray.append(f"{path.relative_to(ROOT)}:{n + 1}")
    assert not stray, f"a docs-test marker must be on the line just before a fence: {stray}"


def test_links_stay_in_the_repository():
    bad = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        if "../shared" in text:
            bad.append(f"{path.relative_to(ROOT)}: names ../shared (say: the shared benchmark data, "
                       "--data-dir or $RT4CHART_DATA_DIR)")
        for target in _LINK.findall(_prose(path)):
            where = f"{path.relative_to(ROOT)}: ({target})"
            if re.match(r"^[a-z]+://", target):
                host = re.sub(r"^[a-z]+://([^/]+).*$", r"\1", target)
                if not any(host == site or host.endswith("." + site) for site in PUBLIC_SITES):
                    bad.append(f"{where} leaves the repository")
                continue
            if target.startswith("mailto:"):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                bad.append(f"{where} does not resolve to a file of the repository")
            elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                bad.append(f"{where}: {resolved.relative_to(ROOT)} has no heading #{anchor}")
    assert not bad, "\n".join(bad)


def test_user_docs_carry_no_history():
    """Dates, sessions and issue numbers belong in git and in the lab's notes, not in user docs."""
    bad = []
    for path in user_docs():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for pattern, what in ((r"\b20\d\d-\d\d-\d\d\b", "a date"), (r"\bsessions?\b", "a session"),
                                  (r"(?<![\w&])#\d+\b|\bissue\s+\d+", "an issue number")):
                if re.search(pattern, line, re.IGNORECASE):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: {what}: {line.strip()[:100]}")
    assert not bad, "\n".join(bad)


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120, f"README.md has {len(lines)} lines; details go to docs/"


def test_design_module_map_names_every_module():
    """docs/design.md's module map lists the product's modules as they are: every ``.py`` file of
    ``rt4chart_plugins/`` and ``adapters/`` but the packages' ``__init__.py``, and nothing else."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text.split("## Module map", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\|\s*`([\w/]+\.py)`", section, re.M))
    tree = {p.relative_to(ROOT / "rt4chart_plugins").as_posix()
            for p in (ROOT / "rt4chart_plugins").rglob("*.py") if p.name != "__init__.py"}
    tree |= {p.relative_to(ROOT).as_posix() for p in (ROOT / "adapters").rglob("*.py") if p.name != "__init__.py"}
    assert not tree - named, f"modules missing from docs/design.md's module map: {sorted(tree - named)}"
    assert not named - tree, f"docs/design.md's module map names modules that do not exist: {sorted(named - tree)}"


def test_each_user_page_says_what_it_needs():
    """The docs assumed the full dev install: an adapter page's ``reports_dataframe`` needed pandas
    (``[export]``), the LangChain page imported ``langchain_openai``, which no extra installs. Each
    page now declares its needs (``docs-needs``), says them in words, and the release check runs the
    page in a venv holding only those."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    known = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    wrong = []
    for path in user_docs():
        needs = page_needs(path)
        name = path.relative_to(ROOT).as_posix()
        if needs is None:
            wrong.append(f"{name}: no <!-- docs-needs: ... --> marker")
            continue
        extras, packages = needs
        if set(extras) - known:
            wrong.append(f"{name}: unknown extras {sorted(set(extras) - known)}")
        if name != "README.md" and needs_sentence(extras, packages) not in path.read_text(encoding="utf-8"):
            wrong.append(f"{name}: does not say {needs_sentence(extras, packages)!r}")
    assert not wrong, wrong


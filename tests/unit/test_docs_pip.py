"""The user docs as a pip user meets them: what they install, what they read, and where the
release check runs them.

- A page's install lines (its ``pip install ...rt4chart-plugins...`` setup lines) install, together,
  every extra and package its ``docs-needs`` names: an adapter page installed only the framework's
  extra while its blocks needed ``[export]``, ``[openai]`` or ``langchain-openai``.
- The diff page's CI gate block stands alone: it died with a bare ``StopIteration`` without pytest
  or without the files an earlier block made.
- ``plan``: which venv of scripts/release_check.sh runs each user page. The check builds one venv
  per extra (the wheel with that extra alone) for its smoke checks; each page then runs in one of
  those, grown by what the page needs beyond it, in an order in which every page finds its venv
  holding exactly its needs (and pytest, which runs the blocks). A page no such venv fits gets a
  venv of its own. ``python tests/unit/test_docs_pip.py --plan EXTRA...`` prints the plan for the
  extras whose venvs were built, one ``PAGE|VENV|EXTRAS|PACKAGES`` line a page: VENV is an extra
  (its venv) or ``docs-N`` (a new one); EXTRAS and PACKAGES are what to install into it first.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_docs import ROOT, commands, page_needs, parse, user_docs  # noqa: E402

_SPEC = re.compile(r"^rt4chart-plugins(?:\[([^\]]*)\])?$")


def install_lines(path: Path) -> list[tuple[set[str], set[str]]]:
    """(extras, other packages) of each ``pip install`` of the package in the page's setup blocks."""
    out = []
    for block in parse(path):
        if "setup" not in block.markers:
            continue
        for _, command in commands(block):
            words = shlex.split(command, comments=True)
            if "pip" not in words or "install" not in words[words.index("pip") :]:
                continue
            args = [w for w in words[words.index("install", words.index("pip")) + 1 :] if not w.startswith("-")]
            specs = [m for w in args if (m := _SPEC.match(w))]
            if specs:
                extras = {e for m in specs if m.group(1) for e in m.group(1).split(",")}
                out.append((extras, {w for w in args if not _SPEC.match(w)}))
    return out


def test_each_pages_install_lines_install_what_the_page_needs():
    wrong = []
    for path in user_docs():
        lines = install_lines(path)
        needs = page_needs(path)
        if not lines or needs is None:
            continue  # a page without an install line: its Needs line is the command
        extras = set().union(*(e for e, _ in lines))
        packages = set().union(*(p for _, p in lines))
        missing = (set(needs[0]) - extras) | {f"+{p}" for p in set(needs[1]) - packages}
        if missing and "all" not in extras:
            wrong.append(f"{path.relative_to(ROOT)}: its install lines leave out {sorted(missing)}")
    assert not wrong, "\n".join(wrong)


def test_an_install_block_that_leaves_out_a_need_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('<!-- docs-needs: langchain export +langchain-openai -->\n\n<!-- docs-test: setup -->\n'
                    '```bash\npip install "rt4chart-plugins[langchain]"\n```\n')
    assert install_lines(page) == [({"langchain"}, set())]


# ---- the diff page's CI gate ---------------------------------------------------------------------


def _gate_block() -> str:
    (block,) = [b for b in parse(ROOT / "docs" / "diff.md") if b.lang == "python" and "rt4chart_gate" in b.body]
    return block.body


@pytest.mark.slow
def test_the_diff_pages_ci_gate_stands_alone(tmp_path):
    """Run alone in an empty folder it passes; without pytest it says so, not ``StopIteration``."""
    script = tmp_path / "gate.py"
    script.write_text(_gate_block(), encoding="utf-8")
    env = {**os.environ, "RT4CHART_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("RT4CHART_JUDGE", None)
    alone = tmp_path / "alone"
    alone.mkdir()
    done = subprocess.run([sys.executable, str(script)], cwd=alone, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("faithfulness regressed from before.jsonl to after.jsonl")
    # a folder whose `pytest` cannot be imported stands for an environment without pytest
    hidden = tmp_path / "no-pytest"
    hidden.mkdir()
    (hidden / "pytest.py").write_text("raise ImportError('No module named pytest')\n")
    done = subprocess.run([sys.executable, str(script)], cwd=alone, capture_output=True, text=True, timeout=300,
                          env={**env, "PYTHONPATH": str(hidden)})
    assert done.returncode == 1 and "StopIteration" not in done.stderr, done.stderr[-3000:]
    assert "pytest exited 1" in done.stderr and "No module named pytest" in done.stderr, done.stderr[-3000:]


# ---- where the release check runs each page ------------------------------------------------------


def plan(built: list[str]) -> list[tuple[str, str, list[str], list[str]]]:
    """(page, venv, extras to add, packages to add) for each user page, in the order to run them."""
    pages = []
    for path in user_docs():
        extras, packages = page_needs(path) or ([], [])
        pages.append((path.relative_to(ROOT).as_posix(), set(extras) | {f"+{p}" for p in packages}))
    pages.sort(key=lambda page: (len(page[1]), page[0]))  # fewer needs first: a venv only grows
    held = {extra: ({extra} if extra != "core" else set()) for extra in built}
    out, fresh = [], 0
    for page, needs in pages:
        fits = [v for v, has in held.items() if has <= needs and (v in needs or v == "core" or v.startswith("docs-"))]
        if fits:
            venv = max(fits, key=lambda v: (len(held[v]), v in needs, -list(held).index(v)))
        else:
            fresh += 1
            venv, held[f"docs-{fresh}"] = f"docs-{fresh}", set()
        add = needs - held[venv]
        held[venv] = set(needs)
        out.append((page, venv, sorted(a for a in add if not a.startswith("+")),
                    sorted(a[1:] for a in add if a.startswith("+"))))
    return out


ALL = ["core", "local", "openai", "ragas", "deepeval", "langchain", "llama-index", "export", "ray", "hf"]


def test_the_release_check_runs_each_page_in_a_venv_of_its_needs_alone():
    """Replayed: each venv starts as the wheel with its extra, grows by what the plan adds, and holds
    exactly the page's needs when the page runs; with every extra's venv built, no venv is added."""
    runs = plan(ALL)
    assert sorted(p for p, *_ in runs) == sorted(p.relative_to(ROOT).as_posix() for p in user_docs())
    held = {extra: ({extra} if extra != "core" else set()) for extra in ALL}
    for page, venv, extras, packages in runs:
        assert venv in ALL, f"{page} got a venv of its own ({venv}) though every extra's venv was built"
        held[venv] |= set(extras) | {f"+{p}" for p in packages}
        needed, more = page_needs(ROOT / page) or ([], [])
        assert held[venv] == set(needed) | {f"+{p}" for p in more}, (page, venv, held[venv])
    only_docs = plan([])  # `release_check.sh docs`: no extra's venv built, new venvs as needed
    assert {v for _, v, *_ in only_docs} == {f"docs-{n}" for n in range(1, 1 + len({v for _, v, *_ in only_docs}))}


if __name__ == "__main__":  # scripts/release_check.sh
    assert sys.argv[1:2] == ["--plan"], "usage: test_docs_pip.py --plan [EXTRA...]"
    for page, venv, extras, packages in plan(sys.argv[2:]):
        print(f"{page}|{venv}|{','.join(extras)}|{' '.join(packages)}")

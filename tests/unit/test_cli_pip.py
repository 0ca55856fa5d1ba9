"""The command line as a pip install has it: help that names no lab command and leaves no flag
unexplained, and ``rt4chart examples``, which writes the docs' example files from the package.

``rt4chart verify --help`` pointed to ``rt4chart train-verifier`` (a lab command, which a pip
install does not have) and printed ``--window-overlap`` with no help.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re

import pytest

from rt4chart_plugins import cli, examples


def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue()


COMMANDS = ("verify", "guard", "report", "export", "diff", "schema", "model", "examples")


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = cli.build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_commands_help_names_no_lab_command(command):
    assert _help(command).startswith("usage: rt4chart " + command)
    sub = _subparser(command)
    text = " ".join([sub.description or "", *(a.help or "" for a in sub._actions)])
    named = [lab for lab in cli.LAB_COMMANDS if re.search(rf"rt4chart {re.escape(lab)}\b", text)]
    assert not named, f"rt4chart {command} --help names lab command(s) {named}"


@pytest.mark.parametrize("command", ("verify", "guard"))
def test_every_flag_of_the_commands_that_verify_has_help(command):
    sub = _subparser(command)
    bare = [a.option_strings[0] for a in sub._actions if a.option_strings and not a.help]
    assert not bare, f"rt4chart {command}: flags without help: {bare}"


def test_rt4chart_examples_writes_the_packaged_files(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["examples"]) == 0
    listed = capsys.readouterr().out.split()
    assert listed == [f"examples/{name}" for name in examples.FILES]
    assert (tmp_path / "examples" / "policy" / "context.txt").read_text() == examples.read("policy/context.txt")
    assert cli.main(["examples", "-q"]) == 0 and capsys.readouterr().out == ""  # again: nothing to do
    # a verification of the written files, as the docs run it
    assert cli.main(["verify", "--context", "examples/policy/context.txt", "--answer-file",
                     "examples/policy/answer.txt", "--format", "jsonl"]) == 0
    assert '"label":"CON"' in capsys.readouterr().out.replace(" ", "")


def test_rt4chart_examples_refuses_to_overwrite_a_users_file(tmp_path, capsys):
    (tmp_path / "policy").mkdir()
    (tmp_path / "policy" / "answer.txt").write_text("my answer")
    assert cli.main(["examples", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "policy/answer.txt" in err and "other content" in err
    assert (tmp_path / "policy" / "answer.txt").read_text() == "my answer"
    assert not (tmp_path / "samples.jsonl").exists()  # nothing written


# ---- Ray's own lines off the terminal ------------------------------------------------------------


def test_lines_written_to_descriptor_2_are_hidden_and_the_runs_own_stay(capfd):
    """What Ray's C++ core and the processes it starts write to descriptor 2 stays off the terminal;
    the run's own lines (``sys.stderr``: its bar and summary) reach it, and so does the error."""
    import os
    import sys

    from rt4chart_plugins.distributed.job import ray_lines_hidden

    with ray_lines_hidden():
        os.write(2, b"[2026 E 1 1] core_worker.cc:2465: an actor's constructor arguments...\n")
        print("3 rows: 0 already done, 3 scored, 0 failed", file=sys.stderr)
    err = capfd.readouterr().err
    assert err == "3 rows: 0 already done, 3 scored, 0 failed\n"
    with pytest.raises(RuntimeError), ray_lines_hidden():
        os.write(2, b"raylet: the line that says why\n")
        raise RuntimeError("the cluster is gone")
    err = capfd.readouterr().err
    assert "Ray's last lines (--ray-logs shows them all):\nraylet: the line that says why" in err
    print("after", file=sys.stderr)  # descriptor 2 and sys.stderr are back
    os.write(2, b"fd2\n")
    assert capfd.readouterr().err == "after\nfd2\n"


def test_ray_logs_is_a_ray_flag(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": 1, "context": "c", "answer": "a"}\n')
    assert cli.main(["verify", str(rows), "-o", str(tmp_path / "out.jsonl"), "--ray-logs"]) == 2
    assert "need --engine ray" in capsys.readouterr().err

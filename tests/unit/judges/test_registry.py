"""One registry names every judge, and one factory builds every detector: the Python API, the CLI,
the adapters and the Ray spec go through them, refuse what they do not know with the same words,
and a judge added to the registry is offered by all of them at once."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path

import pytest
from extras import needs_local

from rt4chart_plugins import InvalidInput, Judge, Verifier, make_judge
from rt4chart_plugins.judges.base import DecomposeResult, VerifyResult
from rt4chart_plugins.judges.registry import JUDGES, Flag, JudgeEntry, choose, is_judge_name, judge_options

POLICY = Path(__file__).resolve().parents[3] / "examples" / "policy"


class FakeJudge(Judge):
    """A judge registered by a test, as a new judge package would be: its name carries a model."""

    def __init__(self, model: str = "none", *, size: int = 1):
        self.model, self.size = model, size
        self.name = f"fake:{model}"

    async def decompose(self, sentences, *, holistic, cost):
        return DecomposeResult(claims=[(s.id, s.text) for s in sentences])

    async def verify(self, request, *, cost):
        return VerifyResult()


@pytest.fixture
def fake(monkeypatch):
    """An entry ``fake``, spelt ``fake:<model>``, with a flag of its own: the one entry a new judge adds."""
    e = JudgeEntry(
        "fake",
        f"{__name__}:FakeJudge",
        "a judge registered by a test",
        options={"model": str, "size": int},
        flags=(Flag("--fake-size", "size", "its size", int),),
        sends_requests=True,
        decomposition="clauses",
        prefix_option="model",
    )
    monkeypatch.setitem(JUDGES, "fake", e)
    return e


def _constructor_options(cls: type) -> set[str]:
    """The keywords a class's constructor takes, following ``**kwargs`` handed on to its base."""
    options: set[str] = set()
    for klass in cls.__mro__:
        if "__init__" not in vars(klass) or klass in (Judge, object):
            continue
        params = inspect.signature(vars(klass)["__init__"]).parameters.values()
        options |= {p.name for p in params if p.name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    return options


@pytest.mark.parametrize("name", sorted(JUDGES))
def test_each_entry_declares_its_constructors_options(name):
    # ChatJudge's name is the subclass's to set (OpenAIJudge names itself by endpoint and model)
    target = JUDGES[name].load()
    if inspect.isclass(target):
        declared = _constructor_options(target)
    else:  # a function that builds one of several classes by an option (local's read)
        from rt4chart_plugins.judges.llama import READS

        assert target.__name__ == "local_judge"
        own = {p.name for p in inspect.signature(target).parameters.values() if p.kind == p.KEYWORD_ONLY}
        declared = own.union(*(_constructor_options(k) for k in READS.values()))
    assert set(JUDGES[name].options) == declared - {"name"}
    for flag in JUDGES[name].flags:
        head = flag.option.split(".")[0]
        assert head in JUDGES[name].options, flag


def test_every_registered_judge_and_flag_is_offered_by_the_cli_and_the_adapters():
    from rt4chart_plugins.adapters.common.verifier import JUDGE_NAMES
    from rt4chart_plugins.cli import build_parser

    verify = build_parser()._subparsers._group_actions[0].choices["verify"]
    offered = {o for a in verify._actions for o in a.option_strings}
    judge = next(a for a in verify._actions if a.dest == "judge")
    assert set(JUDGE_NAMES) == set(JUDGES) >= {"trained", "local", "openai", "auto"}
    assert all(name in judge.help for name in JUDGES)
    assert {f.flag for e in JUDGES.values() for f in e.flags} <= offered
    assert "threshold" in judge_options("trained") and "base_url" in judge_options("openai")


def test_a_flag_several_judges_share_reads_the_same_way_for_each():
    by_flag: dict[str, set] = {}
    for e in JUDGES.values():
        for f in e.flags:
            by_flag.setdefault(f.flag, set()).add((f.type, f.const, f.negatable))
    assert all(len(kinds) == 1 for kinds in by_flag.values()), by_flag


# ---- the refusals, at construction -----------------------------------------------------------


def test_an_unknown_judge_fails_when_the_verifier_is_built_with_the_nearest_names():
    with pytest.raises(InvalidInput, match=r"unknown judge 'bogus'.*'trained', 'local', 'openai', 'auto'"):
        Verifier("bogus")  # failed only at the first verify
    with pytest.raises(InvalidInput, match=r"unknown judge 'trainde' \(did you mean 'trained'\?\)"):
        Verifier("trainde")
    with pytest.raises(InvalidInput, match=r"unknown judge 'gpt'"):
        make_judge("gpt")


def test_an_unknown_option_is_refused_with_the_nearest_name():
    with pytest.raises(InvalidInput, match=r"takes no option 'treshold' \(did you mean 'threshold'\?\)"):
        Verifier("trained", judge_kwargs={"treshold": 0.5})
    with pytest.raises(InvalidInput, match=r"the 'auto' judge's trained takes no option 'bogus'"):
        Verifier("auto", judge_kwargs={"trained": {"bogus": 1}})  # a nested judge's options are checked too


def test_an_option_of_another_judge_says_which_judge_takes_it():
    with pytest.raises(InvalidInput, match=r"takes no option 'base_url'.*base_url is an option of the openai judge"):
        Verifier("trained", judge_kwargs={"base_url": "http://127.0.0.1:9/v1"})


@pytest.mark.parametrize("judge,options,says", [
    ("trained", {"threshold": "high"}, r"threshold must be a number in \[0, 1\] \(a probability\) or None, got str 'high'"),
    ("trained", {"threads": True}, "threads must be a whole number of at least 1 or None"),  # a bool is no count
    ("trained", {"artifact_dir": 3}, "artifact_dir must be a string or a path or None"),
    ("openai", {"timeout": -1}, "timeout must be a number of seconds above 0"),
    ("local", {"evidence": "yes"}, "evidence must be true or false"),
    ("auto", {"trained": {"threshold": "x"}}, r"threshold must be a number in \[0, 1\]"),
    ("auto", {"trained": "v1"}, "trained must be a dict of the 'trained' judge's options or None"),
    ("auto", {"gate_threshold": "high"}, r"gate_threshold must be a number in \[0, 1\] \(a probability\) or None"),
    ("local", {"read": "sentences"}, "read must be"),
])
def test_an_option_of_the_wrong_type_is_refused(judge, options, says):
    with pytest.raises(InvalidInput, match=says):
        Verifier(judge, judge_kwargs=options)


def test_judge_options_that_are_no_dict_are_refused():
    with pytest.raises(InvalidInput, match="judge options must be a dict, got list"):
        Verifier("trained", judge_kwargs=[("threshold", 0.5)])


def test_options_given_with_a_judge_instance_are_refused():
    with pytest.raises(InvalidInput, match="Judge instance"):
        Verifier(FakeJudge(), judge_kwargs={"size": 2})


def _refusal(call) -> str:
    with pytest.raises(InvalidInput) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("judge,options", [("bogus", {}), ("trained", {"treshold": 0.5}), ("trained", {"threads": 0})])
def test_every_caller_refuses_with_the_one_message(judge, options, tmp_path, capsys):
    """The API, the factory, the adapters and the Ray spec give the same words; so does the CLI,
    for what a flag can say."""
    from rt4chart_plugins.adapters.common.verifier import build_verifier
    from rt4chart_plugins.runs.spec import DetectorSpec
    from rt4chart_plugins.factory import make_detector

    message = _refusal(lambda: Verifier(judge, judge_kwargs=options))
    assert _refusal(lambda: make_detector("rt4chart", judge, judge_kwargs=options)) == message
    assert _refusal(lambda: build_verifier(judge, None, judge_kwargs=options)) == message
    assert _refusal(lambda: DetectorSpec.create(judge=judge, judge_kwargs=options)) == message
    if judge == "bogus":
        import rt4chart_plugins.cli as cli

        (tmp_path / "ctx.txt").write_text("x")
        assert cli.main(["verify", "--context", str(tmp_path / "ctx.txt"), "--answer", "x", "--judge", judge]) == 2
        assert capsys.readouterr().err == f"rt4chart: {message}\n"


def test_the_cli_refuses_a_flag_of_another_judge_naming_the_judge_that_takes_it(tmp_path, capsys):
    import rt4chart_plugins.cli as cli

    (tmp_path / "ctx.txt").write_text("x")
    args = ["verify", "--context", str(tmp_path / "ctx.txt"), "--answer", "x", "--judge", "local", "--base-url", "u"]
    assert cli.main(args) == 2
    assert capsys.readouterr().err.startswith("rt4chart: --base-url is for the openai judge, not 'local'")


def test_gasp_takes_no_judge_wherever_it_is_asked_for():
    from rt4chart_plugins.adapters.common.verifier import build_verifier
    from rt4chart_plugins.runs.spec import DetectorSpec
    from rt4chart_plugins.factory import make_detector

    message = _refusal(lambda: make_detector("gasp", "local"))
    assert "uses no judge" in message
    assert _refusal(lambda: build_verifier("local", None, method="gasp")) == message
    assert _refusal(lambda: DetectorSpec.create(method="gasp", judge="local")) == message
    assert "did you mean 'gasp'" in _refusal(lambda: make_detector("gsap"))


# ---- a name with its option, and a judge added by one entry ----------------------------------


def test_a_prefixed_name_is_its_entry_with_the_option(fake):
    assert Verifier("fake:org/model").judge.model == "org/model"
    assert Verifier("fake", judge_kwargs={"model": "org/model"}).judge.name == "fake:org/model"
    assert is_judge_name("fake:org/model") and is_judge_name("fake") and not is_judge_name("trained:x")
    assert choose("fake:org/model", {"size": 3}).options == {"model": "org/model", "size": 3}
    with pytest.raises(InvalidInput, match="names no model: write fake:<model>"):
        Verifier("fake:")
    with pytest.raises(InvalidInput, match="given twice"):
        Verifier("fake:a", judge_kwargs={"model": "b"})
    with pytest.raises(InvalidInput, match=r"'trained' judge takes no ':' suffix"):
        Verifier("trained:x")


def test_a_judge_added_by_one_entry_reaches_the_cli_the_adapters_and_the_ray_spec(fake):
    import rt4chart_plugins.cli as cli
    from rt4chart_plugins.adapters.common.verifier import build_verifier
    from rt4chart_plugins.runs.spec import DetectorSpec

    args = cli.build_parser().parse_args(["verify", "--judge", "fake:org/m", "--fake-size", "7", "--answer", "a"])
    judge = cli.detector_from_args(args).judge
    assert (judge.model, judge.size) == ("org/m", 7)
    assert build_verifier("fake:org/m", None).judge.model == "org/m"
    spec = DetectorSpec.create(judge="fake:org/m", judge_kwargs={"size": 2})
    again = pickle.loads(pickle.dumps(spec))  # what a worker receives
    assert again == spec and again.sends_requests()  # the entry says so; no name is hard-coded
    built = again.build()
    assert (built.judge.model, built.judge.size, built.config.decomposition) == ("org/m", 2, "clauses")


def test_the_ray_spec_round_trip_builds_what_the_factory_builds():
    from rt4chart_plugins.runs.spec import DetectorSpec

    spec = DetectorSpec.create(judge="openai", judge_kwargs={"model": "m", "base_url": "http://127.0.0.1:9/v1"},
                               options={"window_size": 8, "window_overlap": 2}, concurrency=3)
    built = pickle.loads(pickle.dumps(spec)).build()
    assert isinstance(built, Verifier) and built.concurrency == 3 and built.config.window_size == 8
    assert built.config.decomposition == "llm" and spec.sends_requests()
    assert not DetectorSpec.create().sends_requests() and not DetectorSpec.create(method="gasp").sends_requests()


# ---- names and defaults that follow the judge ------------------------------------------------


def test_a_judges_name_is_the_same_before_and_after_it_loads(tmp_path):
    from rt4chart_plugins.judges.cascade import CascadeJudge
    from rt4chart_plugins.judges.llama import LlamaCppJudge
    from rt4chart_plugins.judges.llama.loading import judge_model_name
    from rt4chart_plugins.judges.trained import TrainedJudge

    trained = TrainedJudge()
    before = trained.name
    trained.prepare()
    assert before == trained.name and before.startswith("trained-minilm-v")
    gguf = tmp_path / "judge.gguf"
    gguf.write_bytes(b"0" * 10)
    # the name loading gives (judge_model_name, called by load_judge_model), known before it loads
    assert LlamaCppJudge(gguf).name == judge_model_name("qwen2.5-coder-1.5b", gguf) == "llama.cpp:judge.gguf:10"
    assert ":" in LlamaCppJudge().name.removeprefix("llama.cpp:")  # the pinned file's checksum, not just its name
    auto = CascadeJudge(budget=0.0)
    assert auto.name.startswith(f"auto({before}+llama.cpp:")


def test_the_reports_judge_is_the_name_the_verifier_gave_before_its_first_row():
    verifier = Verifier()
    name = verifier.name
    report = verifier.verify(context="The trial lasts 14 days.", answer="The trial lasts 14 days.")
    assert report.judge == name


@needs_local
def test_the_decomposition_default_is_the_judges():
    assert Verifier().config.decomposition == "clauses"  # the trained verifier: no LLM, clauses
    assert Verifier("local").config.decomposition == "clauses"  # the premise read: the verifier's clauses
    assert Verifier("local", judge_kwargs={"read": "window"}).config.decomposition == "llm"
    assert Verifier("openai", judge_kwargs={"api_key": "k"}).config.decomposition == "llm"
    assert Verifier("auto").config.decomposition == "clauses"  # the trained verifier's, read again by sentence
    assert Verifier(FakeJudge()).config.decomposition == "llm"  # a Judge given as is: its own decompose
    assert Verifier(decomposition="sentence").config.decomposition == "sentence"
    assert Verifier(decomposition=None).config.decomposition == "clauses"


def test_the_default_judge_splits_into_clauses_and_refuses_an_llm_decomposition_it_would_ignore():
    """``llm`` gave the trained verifier its clauses all the same, and the config said ``llm``:
    refused when the verifier is built, in one line, rather than recorded."""
    context, answer = (POLICY / "context.txt").read_text(), (POLICY / "answer.txt").read_text()
    new = Verifier().verify(context=context, answer=answer)
    assert [c.label for c in new.claims] == ["CON", "CON", "ENT", "ENT", "NIC"]
    with pytest.raises(InvalidInput, match=r"'trained' judge ignores decomposition='llm'") as exc:
        Verifier(decomposition="llm")
    assert "\n" not in str(exc.value)


def test_the_environment_chooses_the_default_judge(monkeypatch):
    from rt4chart_plugins.judges.registry import judge_name

    monkeypatch.delenv("RT4CHART_JUDGE", raising=False)
    assert judge_name(None) == "trained"
    monkeypatch.setenv("RT4CHART_JUDGE", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "k")  # the public API without a key is refused when built
    assert judge_name(None) == "openai" and judge_name("local") == "local"
    assert Verifier().config.decomposition == "llm"
    monkeypatch.setenv("RT4CHART_JUDGE", "bogus")
    with pytest.raises(InvalidInput, match="unknown judge 'bogus'"):
        Verifier()


def test_an_unknown_pipeline_option_is_refused():
    with pytest.raises(InvalidInput, match="decompositon"):
        Verifier(decompositon="sentence")

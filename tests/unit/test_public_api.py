"""The package's top level is its public API: what users call, the report they read and every
error they can catch. Internal helpers stay in their own modules."""

from __future__ import annotations

import inspect

import rt4chart_plugins
from rt4chart_plugins import errors

PUBLIC = {
    # the detectors and their judges
    "Verifier",
    "GaspDetector",
    "make_judge",
    "Judge",
    "PipelineConfig",
    # what a judge of one's own reads and returns
    "VerifyRequest",
    "VerifyResult",
    "Judgement",
    "DecomposeResult",
    "Claim",
    # what a report holds
    "Report",
    "ClaimVerdict",
    "Evidence",
    "Label",
    "Span",
    "Sentence",
    "Cost",
    # what the guard returns
    "GuardedAnswer",
    # what can be caught
    "Rt4chartError",
    "InvalidInput",
    "JudgeError",
    "InvalidReply",
    "JudgeUnavailable",
    "ModelNotAvailable",
    "MissingExtra",
}


def test_all_names_the_public_api_and_nothing_else():
    assert len(rt4chart_plugins.__all__) == len(set(rt4chart_plugins.__all__)), "a name listed twice"
    assert set(rt4chart_plugins.__all__) == PUBLIC
    for name in rt4chart_plugins.__all__:
        assert getattr(rt4chart_plugins, name) is not None


def test_every_error_the_package_raises_is_exported():
    raised = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and issubclass(value, errors.Rt4chartError)
        and value.__module__ == errors.__name__
        and not name.startswith("_")
    }
    assert raised <= set(rt4chart_plugins.__all__), f"not exported: {sorted(raised - set(rt4chart_plugins.__all__))}"
    for name in raised:
        assert getattr(rt4chart_plugins, name) is getattr(errors, name)


def test_the_internal_helpers_live_in_their_own_modules():
    from rt4chart_plugins.detector import Detector, failed_report, run_sync
    from rt4chart_plugins.types import VerifyInput, set_html_view

    for helper in (Detector, failed_report, run_sync, VerifyInput, set_html_view):
        assert helper.__name__ not in rt4chart_plugins.__all__


def test_star_import_gives_the_public_api():
    namespace: dict = {}
    exec("from rt4chart_plugins import *", namespace)
    assert set(namespace) - {"__builtins__"} == PUBLIC


def test_a_judge_of_ones_own_needs_only_the_top_level():
    """Every type a custom judge reads or builds is public: the request it gets, the claims in it,
    the result and judgements it returns, a decomposition; and only ``verify`` must be written."""
    from rt4chart_plugins import Claim, DecomposeResult, Judge, Judgement, Label, Verifier, VerifyRequest, VerifyResult

    seen: list[VerifyRequest] = []

    class Everything(Judge):
        name = "everything"

        async def verify(self, request, *, cost):
            seen.append(request)
            return VerifyResult(
                judgements=[Judgement(claim_id=c.id, label=Label.ENT, evidence=[0]) for c in request.claims]
            )

    report = Verifier(Everything()).verify(context="The sky is blue.", answer="The sky is blue. Grass is green.")
    assert [c.label for c in report.claims] == [Label.ENT, Label.ENT]
    assert all(isinstance(c, Claim) for c in seen[0].claims)
    assert DecomposeResult(claims=[(0, "x")]).claims == [(0, "x")]


def test_type_checkers_see_each_public_name_where_the_face_loads_it_from():
    """The face imports its names on first use; a type checker reads them from the imports under
    ``if TYPE_CHECKING:``. Both must name the same module for every public name, or a checker and
    the running code disagree on what ``from rt4chart_plugins import X`` is."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(rt4chart_plugins.__file__).read_text(encoding="utf-8"))
    checked = next(
        node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    seen = {
        alias.name: node.module for node in checked.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert seen == rt4chart_plugins._HOMES
    assert set(seen) == PUBLIC
    assert PUBLIC <= set(dir(rt4chart_plugins))

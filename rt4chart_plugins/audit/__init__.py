"""The audit: every verdict of a run as a table (``table``) or as one self-contained HTML page,
and two runs compared (``diff``), with a gate for CI (``gate``)."""

from rt4chart_plugins.audit.diff import diff_reports
from rt4chart_plugins.audit.diff_output import write_diff
from rt4chart_plugins.audit.diff_types import AuditDiff, ClaimChange, RowChange
from rt4chart_plugins.audit.gate import FaithfulnessRegression, assert_no_regression
from rt4chart_plugins.audit.html import render_html, write_html
from rt4chart_plugins.audit.rows import AuditRow, as_rows, load_results
from rt4chart_plugins.audit.table import ClaimRow, claim_rows, reports_to_dataframe, write_table

__all__ = [
    "write_html",
    "render_html",
    "AuditRow",
    "as_rows",
    "load_results",
    "ClaimRow",
    "claim_rows",
    "reports_to_dataframe",
    "write_table",
    "diff_reports",
    "write_diff",
    "AuditDiff",
    "RowChange",
    "ClaimChange",
    "assert_no_regression",
    "FaithfulnessRegression",
]

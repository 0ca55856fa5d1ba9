"""Source nodes as the core reads them: each node's text as a passage, and its id and metadata
carried back onto the evidence cited from it, for the evaluator and the guard alike (as LangChain's
evidence carries a ``Document``'s metadata)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rt4chart_plugins.types import Report


def node_metadata(node: Any) -> dict[str, Any]:
    """A source node's id and metadata, JSON-safe (the report always serializes)."""
    inner = getattr(node, "node", node)
    raw = inner.metadata if isinstance(getattr(inner, "metadata", None), Mapping) else {}
    return {"node_id": inner.node_id, **json.loads(json.dumps(dict(raw), default=str))}


def cite_nodes(report: Report, nodes: Sequence[Any]) -> Report:
    """Each evidence sentence carries the id and metadata of the node it was cited from."""
    metadata = [node_metadata(n) for n in nodes]
    for claim in report.claims:
        for evidence in claim.evidence:
            if 0 <= evidence.passage < len(metadata):
                evidence.metadata = metadata[evidence.passage]
    return report

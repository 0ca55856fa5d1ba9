"""The JSON that JSON judges are asked for, defined once as pydantic models.

``ClaimsOut`` and ``VerdictsOut`` are what a judge must return; :func:`strict_schema` turns each
into the strict JSON Schema that is sent as the response format (every property required, no
extra keys, no ``$ref``), which OpenAI's structured outputs and llama.cpp's grammar both accept.
Frameworks whose LLM interface takes a model class (ragas ``InstructorLLM``, deepeval
``a_generate(schema=...)``) get the lenient twins ``LenientClaimsOut`` / ``LenientVerdictsOut``:
labels and ids typed loosely on purpose, so a small judge that writes "SUPPORTED" or "3" still
yields a verdict (the core maps the spellings) instead of failing validation as a whole.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ClaimItem(BaseModel):
    sentence: int = Field(description="number of the answer sentence the claim comes from")
    text: str = Field(description="the atomic, self-contained claim")


class ClaimsOut(BaseModel):
    claims: list[ClaimItem]


class VerdictItem(BaseModel):
    claim: int = Field(description="the claim's number")
    label: Literal["ENT", "CON", "NIC"]
    evidence: list[int] = Field(description="context sentence numbers")
    phrase: str | None = Field(description="unsupported or contradicted words of the claim; null for ENT")
    reason: str = Field(description="one sentence")


class VerdictsOut(BaseModel):
    verdicts: list[VerdictItem]


class LenientVerdictItem(BaseModel):
    claim: int = Field(description="the claim's number")
    label: str = Field(description="ENT, CON or NIC")
    evidence: list[int | str] = Field(default_factory=list, description="context sentence numbers")
    phrase: str | None = Field(default=None, description="unsupported or contradicted words of the claim; null for ENT")
    reason: str = Field(default="", description="one sentence")


class LenientClaimsOut(BaseModel):
    claims: list[ClaimItem] = Field(default_factory=list)


class LenientVerdictsOut(BaseModel):
    verdicts: list[LenientVerdictItem] = Field(default_factory=list)


#: the lenient model for each kind of request ("claims": decomposition, "verdicts": verification)
LENIENT: dict[str, type[BaseModel]] = {"claims": LenientClaimsOut, "verdicts": LenientVerdictsOut}


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model as a self-contained strict JSON Schema: references inlined, titles and
    descriptions dropped (the prompt says what each field means), every property required,
    ``additionalProperties: false``, and ``X | None`` written as ``{"type": [X, "null"]}``."""
    full = model.model_json_schema()
    defs = full.get("$defs", {})

    def walk(node: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in node:
            return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
        if "anyOf" in node:  # Optional[X]
            types = [walk(n)["type"] for n in node["anyOf"]]
            return {"type": types}
        out: dict[str, Any] = {"type": node["type"]}
        if "enum" in node:
            out["enum"] = node["enum"]
        if node["type"] == "array":
            out["items"] = walk(node["items"])
        if node["type"] == "object":
            out["properties"] = {k: walk(v) for k, v in node["properties"].items()}
            out["required"] = list(node["properties"])
            out["additionalProperties"] = False
        return out

    return walk(full)


DECOMPOSE_SCHEMA = strict_schema(ClaimsOut)
VERIFY_SCHEMA = strict_schema(VerdictsOut)

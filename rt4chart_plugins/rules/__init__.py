"""Deterministic checks that need no model, below both the judges and the pipeline stages.

``text`` holds the word-level helpers every rule and the trained judge share; ``facts`` finds the
numbers and names of a claim that the context lacks; ``contrast`` finds a claim that reuses a
context sentence's words with another negation, quantifier, modality, direction or roles; ``records`` reads structured (JSON) records:
yes/no fields, opening hours and region codes. The record rules were written for business records
of the kind RAGTruth's Data2txt task has; ``PipelineConfig(record_checks=False)`` turns them off.
"""

"""The audit's real reports (tests/audit_samples.py), made once per session."""

from audit_samples import audit_rows, runs, verifier  # noqa: F401 - fixtures

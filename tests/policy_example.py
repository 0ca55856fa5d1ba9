"""The acceptance example of issue #2 (also shipped in examples/policy/), shared by tests."""

POLICY_CONTEXT = [
    "The free trial is available to new customers who sign up for the Basic plan.",
    "Only new users whose identity has been verified are eligible for the trial.",
    "Trial accounts can export up to 5 reports per month.",
    "Eligible users may request one extension of the trial by 7 days.",
    "The free trial lasts 14 days.",
]
POLICY_ANSWER = (
    "The trial policy applies to all users, and no verification is needed. The free trial lasts 14 days, "
    "and verified new users can extend it once by 7 days. The trial also includes priority email support."
)

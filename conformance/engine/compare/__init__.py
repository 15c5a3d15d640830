"""Implementations against each other, case by case: pairs, causes, minimal inputs.

The shrinking budgets live here, where ``compare --help`` reads them without loading the
engine."""

__all__ = ["MAX_STEPS", "SHRINK_BUDGET"]

#: Candidate inputs tried per disagreement at most (each asks both implementations once).
MAX_STEPS = 150
#: Candidate inputs tried while shrinking, in all: shared evenly by the generated cases (at
#: most :data:`MAX_STEPS` per disagreement).
SHRINK_BUDGET = 50_000

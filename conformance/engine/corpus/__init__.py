"""The corpus report: every implementation on a user's own systems, why they differ, and whether
the ranking holds up."""

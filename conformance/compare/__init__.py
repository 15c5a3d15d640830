"""Compare implementations, attribute every discrepancy to knob changes, report it."""

"""Which profile and options an unknown implementation matches."""

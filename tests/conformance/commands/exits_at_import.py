"""Ends the process when imported (a user's implementation that cannot start)."""

import sys

sys.exit(3)

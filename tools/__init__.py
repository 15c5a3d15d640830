"""Maintainer tools (not installed): recording fixture cases from outside sources."""

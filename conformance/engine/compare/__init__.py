"""Implementations against each other, case by case: pairs, causes, minimal inputs."""

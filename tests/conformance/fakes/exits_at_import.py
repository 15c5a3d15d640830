"""A module that ends the process while it is imported."""

import sys

sys.exit(3)


def bleu(hypotheses, references, **config):  # never reached
    return 0.0

"""conformance: run BLEU implementations against the fixtures, compare them, report."""

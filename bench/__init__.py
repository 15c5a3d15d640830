"""Benchmarks of bleu_impl against sacrebleu, NLTK and others (``python -m bench``)."""

"""One module per ``bleu-conformance`` subcommand."""

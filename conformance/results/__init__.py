"""Results: what the engine found, as typed records, and the JSON Lines logs every report is
rendered from."""

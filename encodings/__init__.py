"""OR-tools CP-SAT models, one module per game that has one (imported as solodeck.encodings)."""

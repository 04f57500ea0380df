"""One module per game: its constants, Move type, State and deal procedure."""

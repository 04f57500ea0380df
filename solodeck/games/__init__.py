"""One package per game (one for the trick-taking family), the same files in each: rules.py (the
moves, the state, the deal), position.py, search.py, blind.py, and the Game in __init__.py
(ARCHITECTURE.md, "A game's package"). The registry finds every package's GAME or GAMES."""

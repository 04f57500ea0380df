"""Write the small endgame puzzles of Foresight and Heartburn (puzzles/<game>/endgame-*.toml):
seeded deals played at random down to a few cards a seat, each valued by brute-force minimax
(no table, no cuts). Run from anywhere: python puzzles/make_trick_endgames.py"""
import random
from pathlib import Path
from solodeck import cards as C
from solodeck.registry import get_game
from solodeck.games.tricks.rules import _sorted

def brute(state, seat):
    o = state.outcome()
    if o is not None: return o.scores[seat]
    vals = [brute(state.play(m), seat) for m in state.legal_moves()]
    return max(vals) if state.to_move()==seat else min(vals)

for name, configs in (("foresight", [(4, 1, 3), (3, 2, 3), (5, 3, 2), (4, 4, 3)]), ("heartburn", [(4, 1, 3), (3, 2, 3), (6, 3, 2), (4, 5, 3)])):
    g = get_game(name)
    for i, (n, seed, cards) in enumerate(configs, start=1):
        d = g.new_deal(seed, {"players": n})
        st = g.initial_state(d) if name == "heartburn" else g.initial_state(d, exchange=False)
        r = random.Random(seed)
        while st.cards_left() > n * cards or st.trick:
            st = st.play(r.choice(st.legal_moves()))
        values = [brute(st, s) for s in range(n)]
        lines = [f'# {g.title}: an endgame of {cards} cards a seat, from seeded deal {seed} after random play',
                 f'game = "{name}"', "", "[options]", f"players = {n}"]
        lines += ["", "[position]", f"leader = {st.leader + 1}"]
        if name == "foresight":
            lines.append(f'trump = "{"none" if st.rules.trump < 0 else C.SUITS[st.rules.trump]}"')
        for s in range(n):
            lines.append(f'hand-{s+1} = "{C.format_cards(_sorted(st.hands[s]))}"')
            lines.append(f'hole-{s+1} = "{C.format_cards(_sorted(st.holes[s]))}"')
            if name == "foresight":
                lines.append(f"taken-{s+1} = {st.tricks[s]}")
            else:
                lines.append(f'taken-{s+1} = "{C.format_cards(_sorted(st.taken[s]))}"')
        lines += ["", "[meta]", f"values = {values}",
                  'checked = "brute-force minimax over every legal card, no table and no cuts (tests/test_trick_games.py recomputes it)"']
        path = Path(__file__).resolve().parent.parent / "puzzles" / name / f"endgame-{i}.toml"
        open(path, "w").write("\n".join(lines) + "\n")
        print(path, values)

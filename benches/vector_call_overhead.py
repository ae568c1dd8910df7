"""Per-call overhead of the native module: the tiny benchmark behind the abi3 vs per-version
wheel choice (issue 11, benches/README.md). Run it once under each build:

    python benches/vector_call_overhead.py            # prints one line per call, ns per call

Each figure is the best of 7 repeats of a timeit loop; only the build differs between runs.
"""

from __future__ import annotations

import timeit

from cribpiquet import cribbage
from cribpiquet.vector import VectorGame

game = cribbage.Game("six-card")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
ids = [0, 17, 30, 44]
vec = VectorGame(game, 1, observation=None)
vec.reset()

CALLS = {
    "Game.num_players()": lambda: game.num_players(),
    "State.current_player()": lambda: state.current_player(),
    "State.legal_actions()": lambda: state.legal_actions(),
    "State.clone()": lambda: state.clone(),
    "score_hand(4 ids, id)": lambda: cribbage.score_hand(ids, 5),
    "VectorGame(n=1).sample_legal()": lambda: vec.sample_legal(),
}

if __name__ == "__main__":
    for name, call in CALLS.items():
        number = 20_000
        best = min(timeit.repeat(call, number=number, repeat=7)) / number
        print(f"{name:34s} {best * 1e9:8.1f} ns")

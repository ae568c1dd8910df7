"""State texts from Python (issue 8, items 4 and 10): every state of random playouts of both
games (every cribbage variant, both piquet rule sets and scopes) reads back equal through
``serialize()`` / ``game.deserialize_state()`` and through pickle; texts of states that play
cannot reach are refused with ``ValueError``."""

from __future__ import annotations

import pickle
import random

import pytest

from cribpiquet import cribbage, piquet

CRIBBAGE_GAMES = [
    cribbage.Game(variant, target=target, lurch=lurch)
    for variant in ("five-card", "six-card", "three-player", "four-player")
    for target in (None, 15)
    for lurch in (False, True)
]
PIQUET_GAMES = [piquet.Game(rules, scope=scope) for rules in ("russian", "rubicon") for scope in ("deal", "partiya")]


def with_field(text: str, key: str, value: str) -> str:
    """``text`` with the value of field ``key`` replaced."""
    tokens = text.split(" ")
    hits = [i for i, t in enumerate(tokens) if t.startswith(key + "=")]
    assert len(hits) == 1, (key, text)
    tokens[hits[0]] = f"{key}={value}"
    return " ".join(tokens)


def playout_round_trips(game, games: int, seed: int) -> int:
    """Play ``games`` random games; check every state's text and every 7th state's pickle."""
    rng = random.Random(seed)
    seen = 0
    for _ in range(games):
        s = game.new_initial_state()
        while True:
            text = s.serialize()
            back = game.deserialize_state(text)
            assert back == s, text
            assert back.serialize() == text
            if seen % 7 == 0:
                p = pickle.loads(pickle.dumps(s))
                assert p == s and p.serialize() == text and p.history() == s.history()
                q = pickle.loads(pickle.dumps(back))
                assert q == s and q.serialize() == text
            seen += 1
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
    return seen


@pytest.mark.parametrize("game", CRIBBAGE_GAMES, ids=repr)
def test_cribbage_states_round_trip(game):
    games = 6 if game.target >= 61 else 40
    assert playout_round_trips(game, games, seed=8) > games * 10


@pytest.mark.parametrize("game", PIQUET_GAMES, ids=repr)
def test_piquet_states_round_trip(game):
    games = 60 if game.scope == "deal" else 4
    assert playout_round_trips(game, games, seed=8) > games * 50


def test_a_cut_after_a_deal_is_refused():
    # Issue 8.4: phase=cut with deals≠0 is never reached by play.
    game = cribbage.Game("six-card")
    text = game.new_initial_state().serialize()
    assert "phase=cut" in text and "deals=0" in text
    with pytest.raises(ValueError, match=r"deals=1 is not reachable: play gives deals=0"):
        game.deserialize_state(with_field(text, "deals", "1"))
    # Five-card to 3: three for last at the cut wins before any deal (deals stays 0).
    game = cribbage.Game("five-card", target=3)
    text = game.new_initial_state().serialize()
    with pytest.raises(ValueError, match="not a cribbage state"):
        game.deserialize_state(with_field(text, "deals", "2"))
    s = game.new_initial_state()
    for card in ("2C", "9D"):
        s.apply_action(s.string_to_action(card))
    assert (s.phase, s.deals, s.winner, s.scores()) == ("game-over", 0, 1, [0, 3])
    assert game.deserialize_state(s.serialize()) == s
    with pytest.raises(ValueError, match="not a cribbage state"):
        game.deserialize_state(with_field(s.serialize(), "deals", "1"))


def test_unreachable_texts_are_refused_with_value_error():
    rng = random.Random(5)
    game = cribbage.Game("six-card")
    s = game.new_initial_state()
    while s.phase != "play":
        s.apply_action(rng.choice(s.legal_actions()))
    text = s.serialize()
    assert game.deserialize_state(text) == s
    for key, value in [("phase", "discard"), ("count", "7"), ("winner", "0"), ("rewards", "5,0,0")]:
        with pytest.raises(ValueError, match="not a cribbage state"):
            game.deserialize_state(with_field(text, key, value))
    for bad in (text[:-5], text + " extra=1", "", "cribbage/1", "piquet/1 " + text):
        with pytest.raises(ValueError):
            game.deserialize_state(bad)
    # Piquet: the last action's points are the replayed deal's.
    game = piquet.Game("russian", scope="deal")
    s = game.new_initial_state()
    while s.phase != "play" or len(s.plays()) < 2:
        s.apply_action(rng.choice(s.legal_actions()))
    text = s.serialize()
    assert game.deserialize_state(text) == s
    rewards = ",".join(str(int(r)) for r in s.rewards())
    wrong = ",".join(str(int(r) + 1) for r in s.rewards())
    assert f"rewards={rewards}" in text
    with pytest.raises(ValueError, match="not reachable"):
        game.deserialize_state(with_field(text, "rewards", wrong))

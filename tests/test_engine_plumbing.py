"""The engine's plumbing for front ends (issue 22, item 5): what play.py, the envs and openspiel.py
used to re-derive — the chance draw from a seed, the cards of an action, the current count and who
said go, and the longest game — asked of the engine. Values checked by hand."""

import pytest

from cribpiquet import cribbage, piquet

GAMES = [cribbage.Game("five-card"), cribbage.Game(), cribbage.Game("three-player"), cribbage.Game("four-player"),
         piquet.Game(scope="deal"), piquet.Game(), piquet.Game(piquet.Rules.rubicon())]  # fmt: skip


# ----------------------------------------------------------------------------- sample_chance


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_sample_chance_is_a_legal_outcome_fixed_by_seed_and_move_number(game):
    s = game.new_initial_state()
    seen = set()
    for step in range(40):
        if not s.is_chance_node():
            s.apply_action(s.legal_actions()[0])
            continue
        a = s.sample_chance(step)
        assert a in s.legal_actions() and a == s.sample_chance(step)
        seen.add(a)
        s.apply_action(a)
        # Undo, and the same seed draws the same outcome again (it depends on the move number).
        assert s.undo_action() == a and s.sample_chance(step) == a
        s.apply_action(a)
    assert len(seen) > 5


def test_sample_chance_covers_the_pack_and_depends_on_the_move_number():
    s = cribbage.Game().new_initial_state()
    assert {s.sample_chance(seed) for seed in range(2000)} == set(range(52))
    # One seed, a game of different draws: the cut, then the next cut (the first card is out).
    first = s.sample_chance(3)
    s.apply_action(first)
    assert s.sample_chance(3) != first
    assert piquet.Game().new_initial_state().sample_chance(2**64 - 1) == piquet.Game().new_initial_state().sample_chance(-1)


def test_sample_chance_plays_a_whole_game_reproducibly():
    def play(seed):
        s = cribbage.Game("five-card").new_initial_state()
        while not s.is_terminal():
            s.apply_action(s.sample_chance(seed) if s.is_chance_node() else s.legal_actions()[0])
        return s.history()

    assert play(5) == play(5) and play(5) != play(6)


def test_sample_chance_errors():
    s = cribbage.Game().new_initial_state()
    with pytest.raises(TypeError, match="seed must be an int, got bool"):
        s.sample_chance(True)
    with pytest.raises(ValueError, match="seed must fit in 64 bits"):
        s.sample_chance(2**64)
    s = cribbage.Game(first_dealer=0).new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.sample_chance(1))
    with pytest.raises(ValueError, match=r"^sample_chance: no chance event is next \(P1 to move\)$"):
        s.sample_chance(1)


# ----------------------------------------------------------------------------- action_cards


def test_action_cards_cribbage():
    s = cribbage.Game().new_initial_state()
    assert s.action_cards(0) == [0] and s.action_cards(51) == [51]
    assert s.action_cards(cribbage.pair_action(30, 5)) == [5, 30]
    assert s.action_cards(52) == [0, 1] and s.action_cards(1377) == [50, 51]
    assert s.action_cards(cribbage.GO) == []
    with pytest.raises(ValueError, match=r"^no cribbage action 1379 \(ids are 0..1378\)$"):
        s.action_cards(1379)
    with pytest.raises(TypeError, match="a piquet card is not a cribbage card"):
        s.action_cards(piquet.Card(3))


def test_action_cards_piquet():
    s = piquet.Game().new_initial_state()
    assert s.action_cards(0) == [0] and s.action_cards(31) == [31]
    for a in [*range(piquet.EXCHANGE_BASE, piquet.EXCHANGE_BASE + 9), piquet.ANNOUNCE_CAPOT, piquet.PASS]:
        assert s.action_cards(a) == []
    with pytest.raises(ValueError, match=r"^no piquet action 43 \(ids are 0..42\)$"):
        s.action_cards(43)
    with pytest.raises(TypeError, match="action must be an int, got bool"):
        s.action_cards(False)


# ----------------------------------------------------------------------- count_cards, said_go


def test_count_cards_and_said_go_follow_the_worked_example():
    # The cribbage State docstring's deal: P1 holds 5 7 9 J and P0 6 8 10 Q after the discards.
    s = cribbage.Game("six-card").new_initial_state()
    for a in [0, 12, *range(13, 25), cribbage.pair_action(13, 15), cribbage.pair_action(14, 16), 26]:
        s.apply_action(a)
    for card in [23, 24, 21]:  # J, Q, 9: 29
        s.apply_action(card)
    assert s.count_cards() == [23, 24, 21] and s.said_go() == []
    s.apply_action(cribbage.GO)
    assert s.said_go() == [0] and s.count_cards() == [23, 24, 21]
    s.apply_action(cribbage.GO)
    assert s.said_go() == [] and s.count_cards() == []


# --------------------------------------------------------------------------- max_game_length


def test_max_game_length_hand_checked():
    # Cribbage: (sides × (target − 1) + 1) deals × a deal's actions, + the cut's 32 rounds.
    assert cribbage.Game("five-card").max_game_length() == 121 * (10 + 2 + 1 + 6 + 2) + 2 * 32
    assert cribbage.Game("five-card", first_dealer=1).max_game_length() == 121 * 21
    assert cribbage.Game().max_game_length() == 241 * (12 + 2 + 1 + 8 + 2 * 8) + 2 * 32
    assert cribbage.Game("three-player").max_game_length() == 361 * (16 + 3 + 1 + 12 + 3 * 12) + 3 * 32
    assert cribbage.Game("four-player").max_game_length() == 241 * (20 + 4 + 1 + 16 + 4 * 16) + 4 * 32
    # Piquet: a deal is 24 dealt + 2 exchanges + 16 discards and draws (+ 2 announcements) + 24.
    assert piquet.Game(scope="deal").max_game_length() == 68 + 2 * 32
    assert piquet.Game().max_game_length() == 4 * 68 + 2 * 2 * 32  # 2 koroliks of 2 deals
    assert piquet.Game(first_dealer=0).max_game_length() == 4 * 68 + 2 * 32
    assert piquet.Game(piquet.Rules.rubicon()).max_game_length() == (6 + 32) * 66 + 2 * 32


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_simulated_games_never_exceed_max_game_length(game):
    for players in ["random", "first"]:
        r = cribbage.simulate(game, 100, players=players, seed=3) if isinstance(game, cribbage.Game) else \
            piquet.simulate(game, 100, players=players, seed=3)  # fmt: skip
        assert int(r["actions"].max()) <= game.max_game_length()

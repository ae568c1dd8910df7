"""cribpiquet.bots.Greedy: its discard values equal a brute-force enumeration written here (every
starter, every opponent pair, scored by cribbage.score_hand), it plays only legal actions with
values over exactly the legal set in random states of every variant, rule set and scope, it is
deterministic, and it plays in simulate by object and by name."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cribpiquet import bots, cribbage, piquet

from test_bots import random_decision_states


def two_player_discard_state(variant, p0, p1):
    """A cribbage state at the discard: P0 cuts AC and P1 KC, so P0 deals; P1 then P0 get the
    cards of `p1` and `p0` (card ids) alternately; P1 (pone) discards first."""
    s = cribbage.Game(variant).new_initial_state()
    s.apply_action(0)
    s.apply_action(12)
    for a, b in zip(p1, p0):
        s.apply_action(a)
        s.apply_action(b)
    assert s.phase == "discard" and s.dealer == 0 and s.current_player() == 1
    return s


def brute_force_net(hand, dealer):
    """{pair action: net} for a two-player hand by naive enumeration: the kept cards' mean
    score_hand over every unseen starter; the crib's mean score_hand(crib=True) over every pair
    of unseen cards the opponent may throw and every other unseen starter; heels 2 per unseen
    jack / unseen cards; net = hand ± (crib + heels)."""
    unseen = [c for c in range(52) if c not in hand]
    jacks = sum(1 for c in unseen if c % 13 == 10)
    heels = 2 * jacks / len(unseen)
    pairs = list(itertools.combinations(unseen, 2))
    out = {}
    for a, b in itertools.combinations(sorted(hand), 2):
        kept = [c for c in hand if c not in (a, b)]
        hand_value = sum(cribbage.score_hand(kept, s) for s in unseen) / len(unseen)
        # Every (opponent pair, starter) row, scored by the same scorer in one batch.
        rows, starters = [], []
        for x, y in pairs:
            for s in unseen:
                if s != x and s != y:
                    rows.append((a, b, x, y))
                    starters.append(s)
        crib = cribbage.score_hand_batch(np.array(rows), np.array(starters), crib=True)
        crib_value = float(crib.astype(np.float64).mean())
        sign = 1 if dealer else -1
        out[cribbage.pair_action(a, b)] = hand_value + sign * (crib_value + heels)
    return out


@pytest.mark.parametrize("variant,seed", [("six-card", 1), ("six-card", 2), ("five-card", 3)])
def test_discard_values_equal_brute_force_for_both_roles(variant, seed):
    rng = random.Random(seed)
    n = 6 if variant == "six-card" else 5
    cards = rng.sample(range(52), 2 * n)
    p0, p1 = cards[:n], cards[n:]
    s = two_player_discard_state(variant, p0, p1)
    greedy = bots.Greedy()
    pone = greedy.action_values(s)
    expected = brute_force_net(p1, dealer=False)
    assert sorted(pone) == sorted(expected) == s.legal_actions()
    for a in expected:
        assert pone[a] == pytest.approx(expected[a], abs=1e-9)
    assert pone[greedy.step(s)] == max(pone.values())
    s.apply_action(greedy.step(s))
    dealer = greedy.action_values(s)
    expected = brute_force_net(p0, dealer=True)
    for a in expected:
        assert dealer[a] == pytest.approx(expected[a], abs=1e-9)
    assert dealer[greedy.step(s)] == max(dealer.values())


def test_a_hand_checked_discard():
    # P1 (pone) holds 5C 5D 5H JS KC 2D: keeping 5C 5D 5H JS (14 before the starter, 29 with the
    # 5S) and throwing KC 2D (which make no fifteen, pair or run) is the best discard, ahead of
    # throwing 2D JS (12.1: 5 5 5 K also holds 14, but has no chance of nobs and gives the crib
    # a jack).
    ids = lambda text: [cribbage.Card(t).id for t in text.split()]  # noqa: E731
    s = two_player_discard_state("six-card", ids("AH 3H 7H 9S QH 8D"), ids("5C 5D 5H JS KC 2D"))
    greedy = bots.Greedy()
    best = greedy.step(s)
    assert best == cribbage.pair_action(*ids("KC 2D"))
    values = greedy.action_values(s)
    kept = ids("5C 5D 5H JS")
    unseen = [c for c in range(52) if c not in ids("5C 5D 5H JS KC 2D")]
    hand_mean = sum(cribbage.score_hand(kept, c) for c in unseen) / 46
    assert hand_mean > 14
    others = sorted(v for a, v in values.items() if a != best)
    assert values[best] - others[-1] > 0.5
    assert others[-1] == pytest.approx(values[cribbage.pair_action(*ids("2D JS"))])


GAMES = [cribbage.Game(v) for v in ("six-card", "five-card", "three-player", "four-player")] + [
    piquet.Game(rules, scope=scope) for rules in ("russian", "rubicon") for scope in ("deal", "partiya")
]


@pytest.mark.parametrize("game", GAMES, ids=[repr(g) for g in GAMES])
def test_greedy_plays_only_legal_actions_and_values_the_legal_set(game):
    states = random_decision_states(game, 10, seed=11)
    greedy = bots.Greedy()
    for s in states:
        before = s.serialize()
        a = greedy.step(s)
        legal = s.legal_actions()
        assert a in legal, s
        values = greedy.action_values(s)
        assert sorted(values) == legal
        assert values[a] == max(values.values()), s
        assert s.serialize() == before


def test_every_piquet_exchange_phase_in_both_rule_sets():
    # Exchanges are rare among random states: play whole deals with greedy in both seats.
    for rules in ("russian", "rubicon"):
        s = piquet.Game(rules, scope="deal").new_initial_state()
        greedy = bots.Greedy()
        rng = random.Random(5)
        phases = set()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.legal_actions()))
                continue
            phases.add(s.phase)
            a = greedy.step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
        assert {"exchange", "discard", "play"} <= phases, phases


def test_greedy_is_deterministic_and_restart_keeps_it():
    states = random_decision_states(cribbage.Game("six-card"), 8, seed=3)
    a, b = bots.Greedy(), bots.Greedy()
    first = [a.step(s) for s in states]
    assert first == [b.step(s) for s in states]
    a.restart()
    assert first == [a.step(s) for s in states]
    assert repr(a) == "Greedy()" and a.name == "greedy"


def test_chance_nodes_and_finished_games_are_value_errors():
    greedy = bots.Greedy()
    s = cribbage.Game().new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        greedy.step(s)
    with pytest.raises(TypeError):
        greedy.step("not a state")  # type: ignore[arg-type]


def test_greedy_in_simulate_by_object_and_by_name():
    game = cribbage.Game("five-card")
    by_bot = cribbage.simulate(game, 40, players=[bots.Greedy(), "random"], seed=2)
    by_name = cribbage.simulate(game, 40, players=["greedy", "random"], seed=2)
    for k in by_bot:
        np.testing.assert_array_equal(by_bot[k], by_name[k])
    # Greedy sits in seat 0 of every game: it wins most of them against random play.
    assert (by_bot["winner"] == 0).mean() > 0.8

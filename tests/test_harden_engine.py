"""Issue 19, the engines' and vector's side: VectorGame memory and read-only views, messages that
name the argument and echo little, one documented rule for State properties and methods, the
cards of the current count and who said go."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
from cribpiquet.vector import VectorGame

# ---------------------------------------------------------------- 1: VectorGame memory


def test_a_vector_too_large_for_memory_is_a_memory_error_naming_the_size():
    with pytest.raises(MemoryError) as e:
        VectorGame(cribbage.Game("five-card"), 2**31 - 1)
    msg = str(e.value)
    assert msg.startswith("VectorGame: cannot hold 2147483647 games (") and msg.endswith("; use fewer games")
    assert "MiB" in msg


def test_simulate_too_large_for_memory_says_how_much():
    # six-card: 2 sides × (scores + 5 sources) × 4 bytes + 2 returns × 8 + 10 = 74 bytes a game.
    with pytest.raises(MemoryError) as e:
        cribbage.simulate(cribbage.Game("six-card"), 2**50)
    assert str(e.value) == f"cannot hold the results of {2**50} games (about {74 * 2**50 >> 20} MiB); simulate fewer per call"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_the_output_buffers_are_allocated_fallibly():
    # The game states fit under the limit and the observation buffer does not: a MemoryError
    # naming that buffer and the outputs' size, where numpy's own allocation panicked before.
    code = textwrap.dedent(
        """
        import resource
        from cribpiquet import cribbage
        from cribpiquet.vector import VectorGame
        def vm():
            return int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        g = cribbage.Game("five-card")
        n = 400_000
        base = vm()
        small = VectorGame(g, n, observation=None)
        without = vm() - base
        del small
        tensor = n * 4 * g.information_state_tensor_size()
        assert tensor > without, (tensor, without)
        resource.setrlimit(resource.RLIMIT_AS, (vm() + without + tensor // 2, resource.RLIM_INFINITY))
        try:
            VectorGame(g, n)
            print("no error")
        except MemoryError as e:
            print("MemoryError", e)
        print(VectorGame(g, 10).reset().legal_mask.shape)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("MemoryError VectorGame: cannot allocate the observation buffer for 400000 games"), lines
    assert lines[0].endswith("MiB); use fewer games")
    assert lines[1] == f"(10, {cribbage.NUM_DISTINCT_ACTIONS})"


# ------------------------------------------------------------------ 7: read-only views


@pytest.mark.parametrize("game", [cribbage.Game("five-card"), piquet.Game(scope="deal")], ids=repr)
def test_batch_views_cannot_be_made_writable_and_the_mask_follows_the_games(game):
    v = VectorGame(game, 8, seed=3)
    batch = v.reset()
    arrays = [batch.current_player, batch.legal_mask, batch.rewards, batch.terminated, batch.returns, batch.observation]
    for a in arrays:
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a.setflags(write=True)
        with pytest.raises(ValueError):
            a.base.setflags(write=True)
        with pytest.raises(ValueError):
            a[...] = 0
    rng = np.random.default_rng(1)
    for _ in range(30):
        actions = v.sample_legal(seed=int(rng.integers(1 << 30)))
        batch = v.step(actions)
        for i in range(len(v)):
            s = v.state(i)
            if s.is_terminal():
                continue
            expected = np.zeros(game.num_distinct_actions(), dtype=bool)
            expected[s.legal_actions()] = True
            assert (batch.legal_mask[i] == expected).all()
    # A copy is the caller's to change.
    mine = batch.copy()
    mine.legal_mask[...] = True
    assert not batch.legal_mask.all()


# ------------------------------------------------------------------------ 11: messages


def test_a_piquet_card_is_not_a_cribbage_discard_card():
    with pytest.raises(TypeError, match="a must be a cribbage card id or Card, got a piquet Card"):
        cribbage.pair_action(piquet.Card(0), piquet.Card(1))
    with pytest.raises(TypeError, match="b must be a cribbage card id or Card, got a piquet Card"):
        cribbage.pair_action(0, piquet.Card(1))
    assert cribbage.pair_action(cribbage.Card(0), cribbage.Card(1)) == cribbage.pair_action(0, 1) == 52
    # The engines refuse the other game's card as an action too.
    s = cribbage.Game().new_initial_state()
    with pytest.raises(TypeError):
        s.apply_action(piquet.Card(3))
    t = piquet.Game().new_initial_state()
    with pytest.raises(TypeError):
        t.apply_action(cribbage.Card(3))


def test_messages_echo_little_of_huge_input():
    with pytest.raises(TypeError) as e:
        piquet.Rules().replace(**{"x" * 10**6: 1})
    assert "x" * 81 not in str(e.value) and len(str(e.value)) < 500
    assert str(e.value).startswith('unknown rule field "' + "x" * 80 + '…"')
    with pytest.raises(ValueError) as e:
        piquet.score_game("7C", "8C", [], silent="5H " * 1000)
    assert len(str(e.value)) < 160 and str(e.value).startswith('silent must be "elder", "dealer" or None, got "5H')


def test_wrong_types_name_the_argument():
    with pytest.raises(TypeError, match="^name must be a str, got int 5$"):
        piquet.Rules(5)
    assert piquet.Rules() == piquet.Rules("russian") == piquet.Rules(name="russian")
    with pytest.raises(TypeError, match=r"^deserialize_state: text must be a str .*got int 5$"):
        cribbage.Game().deserialize_state(5)
    with pytest.raises(TypeError, match=r"^deserialize_state: text must be a str .*got int 5$"):
        piquet.Game().deserialize_state(5)


# ---------------------------------------------------------------- 13: the State API rule

# OpenSpiel's names keep OpenSpiel's form (methods); every other accessor follows the rule.
OPENSPIEL = {
    "current_player", "is_chance_node", "is_player_node", "is_terminal", "num_players", "get_game",
    "legal_actions", "legal_actions_mask", "chance_outcomes", "apply_action", "child", "clone",
    "undo_action", "returns", "player_return", "rewards", "action_to_string", "string_to_action",
    "history", "move_number", "information_state_string", "information_state_tensor",
    "observation_tensor", "resample_from_infostate", "serialize",
    "history_str", "is_simultaneous_node", "observation_string",  # issue 32: more of OpenSpiel's names
}


def states_along_a_game(game, seed):
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    out = [s.clone()]
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.integers(len(legal))]))
        out.append(s.clone())
    return out


@pytest.mark.parametrize(
    "game", [cribbage.Game("six-card"), cribbage.Game("three-player"), piquet.Game(scope="deal")], ids=repr
)
def test_state_accessors_follow_the_documented_rule(game):
    cls = type(game.new_initial_state())
    # render(player=None) is the display method (issue 23): HTML text, not state.
    names = [n for n in dir(cls) if not n.startswith("_") and n not in OPENSPIEL and n != "render"]
    properties = [n for n in names if isinstance(getattr(cls, n), property) or type(getattr(cls, n)).__name__ == "getset_descriptor"]
    methods = [n for n in names if n not in properties]
    assert {"phase", "dealer", "winner", "deals", "game_value"} <= set(properties)
    assert {"plays", "hand", "kept"} <= set(methods)
    # The rule is written where a user looks.
    assert "properties and methods" in cls.__doc__.lower() and "openspiel" in cls.__doc__.lower()
    for s in states_along_a_game(game, 5)[::7]:
        for n in properties:  # a property is one plain value: an int, a str, a bool or None
            value = getattr(s, n)
            assert value is None or type(value) in (int, str, bool), (n, value)
        for n in methods:  # a method takes an argument or returns a collection
            try:
                value = getattr(s, n)()
            except TypeError:
                continue  # it takes an argument (hand(p), kept(p) …)
            # (a collection, or None while there is none yet: piquet's declarations())
            assert value is None or isinstance(value, (list, tuple, dict)), (n, value)
    # The old spellings keep working.
    s = states_along_a_game(game, 5)[-1]
    assert isinstance(s.deals, int) and isinstance(s.plays(), list)


# -------------------------------------------------- 14: the current count and who said go


def test_count_cards_and_said_go_follow_the_play():
    game = cribbage.Game("six-card")
    rng = np.random.default_rng(4)
    checked = goes = 0
    for _ in range(30):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.phase == "play" and not s.is_chance_node():
                cards = s.count_cards()
                assert sum(min(c % 13 + 1, 10) for c in cards) == s.count
                # The count's cards are the last ones laid, in order.
                laid = [c for _, c in s.plays()]
                assert laid[len(laid) - len(cards):] == cards
                said = s.said_go()
                assert said == sorted(said) and s.current_player() not in said
                goes += bool(said)
                checked += 1
            legal = s.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            if s.phase == "play" and a == cribbage.GO:
                p = s.current_player()
                s.apply_action(a)
                # The go is recorded unless it ended the count (the go point and a reset).
                assert p in s.said_go() or s.count_cards() == [] or s.phase != "play"
                continue
            s.apply_action(a)
        assert s.count_cards() == [] or s.phase != "play"
    assert checked > 500 and goes > 20


def test_count_cards_hand_checked():
    # Six-card: ids 0 and 12 cut (an ace and a king: P0 deals); ids 13..24 are one suit's A..Q,
    # dealt one at a time from P1: P1 holds A 3 5 7 9 J, P0 2 4 6 8 10 Q.
    s = cribbage.Game("six-card").new_initial_state()
    for card in [0, 12] + list(range(13, 25)):
        s.apply_action(card)
    assert s.count_cards() == [] and s.said_go() == []
    s.apply_action(cribbage.pair_action(13, 15))  # P1 throws A 3
    s.apply_action(cribbage.pair_action(14, 16))  # P0 throws 2 4
    s.apply_action(26)  # the starter: an ace of another suit
    assert s.phase == "play" and s.current_player() == 1
    s.apply_action(17)  # P1: 5 (count 5)
    s.apply_action(18)  # P0: 6 (11)
    assert s.count_cards() == [17, 18] and s.count == 11


def test_piquet_trick_is_the_trick_in_progress():
    for s in states_along_a_game(piquet.Game(scope="deal"), 3):
        trick = s.trick()
        plays = s.plays()
        assert len(trick) == len(plays) % 2
        assert trick == plays[len(plays) - len(trick):]


# ------------------------------------------------------------------ 14: the first dealer


def play_randomly(g, seed, check):
    rng = random.Random(seed)
    s = g.new_initial_state()
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if rng.random() < 0.1:
            check(s)
    check(s)
    return s


@pytest.mark.parametrize("variant", ["five-card", "six-card", "three-player", "four-player"])
def test_cribbage_first_dealer_skips_the_cut_and_survives_every_round_trip(variant):
    n = cribbage.Game(variant).num_players()
    assert cribbage.Game(variant).first_dealer is None
    assert cribbage.Game(variant).new_initial_state().phase == "cut"
    for d in range(n):
        g = cribbage.Game(variant, first_dealer=d)
        assert g.first_dealer == d and g != cribbage.Game(variant)
        assert eval(repr(g), dict(vars(cribbage))) == g  # noqa: S307 - the repr contract
        assert repr(g).endswith(f", first_dealer={d})")
        assert pickle.loads(pickle.dumps(g)) == g
        s = g.new_initial_state()
        assert (s.phase, s.dealer, s.deals, s.is_chance_node()) == ("deal", d, 1, True)
        # Five-card: the pone's three for last is pegged before the first deal.
        expected = [0] * g.num_sides()
        if variant == "five-card":
            expected[1 - d] = 3
        assert s.scores()[: g.num_sides()] == expected

        def check(state, g=g):
            back = g.deserialize_state(state.serialize())
            assert back == state and back.serialize() == state.serialize()
            assert pickle.loads(pickle.dumps(state)) == state

        end = play_randomly(g, d, check)
        assert end.is_terminal()
    # The deal passes left from the chosen dealer.
    s = cribbage.Game(variant, first_dealer=n - 1).new_initial_state()
    while s.deals < 2:
        s.apply_action(s.legal_actions()[0])
    assert s.dealer == 0
    # Another game's state is refused, naming the difference.
    with pytest.raises(ValueError, match="P1 dealing first"):
        cribbage.Game(variant).deserialize_state(cribbage.Game(variant, first_dealer=1).new_initial_state().serialize())
    with pytest.raises(ValueError, match=rf"first_dealer must be in range\(0, {n}\), got {n}"):
        cribbage.Game(variant, first_dealer=n)
    with pytest.raises(TypeError):
        cribbage.Game(variant, first_dealer=True)


def test_cribbage_first_dealer_in_simulate_and_the_vector():
    g = cribbage.Game("five-card", first_dealer=1)
    r = cribbage.simulate(g, 300, seed=2)
    assert (r["first_dealer"] == 1).all()
    assert (r["three_for_last"][:, 0] == 3).all()
    v = VectorGame(g, 4, seed=1)
    total = v.reset().rewards.copy()
    assert (total == [[3.0, 0.0]] * 4).all()  # the three for last, in reset()'s rewards


@pytest.mark.parametrize(
    "game", [piquet.Game(scope="deal"), piquet.Game(), piquet.Game("rubicon"), piquet.Game("rubicon", scope="deal")],
    ids=repr,
)
def test_piquet_first_dealer_skips_the_first_draw_and_survives_every_round_trip(game):
    assert game.first_dealer is None and game.new_initial_state().phase == "cut"
    for d in (0, 1):
        g = piquet.Game(game.rules, scope=game.scope, first_dealer=d)
        assert g.first_dealer == d and g != game
        assert eval(repr(g), dict(vars(piquet))) == g  # noqa: S307 - the repr contract
        assert repr(g).endswith(f", first_dealer={d})")
        assert pickle.loads(pickle.dumps(g)) == g
        s = g.new_initial_state()
        assert (s.phase, s.dealer, s.elder, s.deals) == ("deal", d, 1 - d, 1)

        def check(state, g=g):
            back = g.deserialize_state(state.serialize())
            assert back == state and back.serialize() == state.serialize()

        draws = 0
        for seed in range(3):
            rng = random.Random(seed)
            s = g.new_initial_state()
            while not s.is_terminal():
                draws += s.phase == "cut"
                s.apply_action(rng.choice(s.legal_actions()))
                if rng.random() < 0.05:
                    check(s)
            check(s)
        if g.scope == "deal" or g.rules.as_dict()["match_scoring"] != "partiya":
            assert draws == 0  # the one draw was skipped
    with pytest.raises(ValueError, match=r"first_dealer must be in range\(0, 2\), got 2"):
        piquet.Game(first_dealer=2)
    with pytest.raises(ValueError, match="first dealer"):
        piquet.Game().deserialize_state(piquet.Game(first_dealer=0).new_initial_state().serialize())
    r = piquet.simulate(piquet.Game(scope="deal", first_dealer=1), 100, seed=1)
    assert (r["first_dealer"] == 1).all()

"""The cribbage game engine from Python: ``cribbage.Game``, ``State`` and ``simulate``.

Scripted deals are driven action by action through the Python API; every expected score is
derived by hand in the comments (pips: A = 1, J Q K = 10; ids ``suit * 13 + rank``). The order
of play follows the engine's documented rules (``rust/cribbage/game/mod.rs``): each player cuts
in seat order and the lowest card deals; cards are dealt one at a time from the dealer's left;
players discard from the dealer's left, dealer last; the pone leads; the show is automatic (pone,
dealer, crib) and the next deal begins with the deal passing left.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
from cribpiquet.cribbage import (
    CHANCE,
    GO,
    NUM_DISTINCT_ACTIONS,
    TERMINAL,
    Game,
    State,
    action_pair,
    pair_action,
    simulate,
)

VARIANTS = ("five-card", "six-card", "three-player", "four-player")


def cid(text: str) -> int:
    return cribbage.Card(text).id


def play(state: State, *actions: str) -> None:
    """Apply actions given as text (``"5H"``, ``"KC+QD"``, ``"go"``)."""
    for text in actions:
        state.apply_action(state.string_to_action(text))


def random_states(variant: str, n_games: int, seed: int):
    """Every state of ``n_games`` random games (chance included), as (state, next action)."""
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            yield s, a
            s.apply_action(a)
        yield s, None


# -------------------------------------------------------------------------------- constants


def test_constants_and_action_ids():
    assert (CHANCE, TERMINAL) == (-1, -4)  # OpenSpiel's kChancePlayerId / kTerminalPlayerId
    assert (GO, NUM_DISTINCT_ACTIONS) == (1378, 1379)  # 52 cards + C(52,2) = 1326 pairs + go
    assert pair_action(0, 1) == 52 and pair_action(1, 0) == 52  # AC+2C: the first pair
    assert pair_action(50, 51) == 1377  # QS+KS: the last
    # colex order: 52 + b(b-1)/2 + a for a < b: 5H (30) and JC (10) -> 52 + 435 + 10.
    assert pair_action(cid("5H"), cid("JC")) == 52 + 30 * 29 // 2 + 10 == 497
    seen = set()
    for b in range(52):
        for a in range(b):
            action = pair_action(a, b)
            assert action_pair(action) == (a, b)
            seen.add(action)
    assert seen == set(range(52, 1378))
    for bad in [(3, 3), (-1, 4), (0, 52), (2**70, 1)]:
        with pytest.raises((ValueError, OverflowError)):
            pair_action(*bad)
    for bad in (0, 51, 1378, 1379, -1):
        with pytest.raises(ValueError, match="not a two-card discard"):
            action_pair(bad)


def test_action_text_round_trip():
    s = Game().new_initial_state()
    assert s.action_to_string(cid("5H")) == "5H"
    assert s.action_to_string(pair_action(cid("5H"), cid("JC"))) == "JC+5H"  # lower id first
    assert s.action_to_string(GO) == "go"
    assert s.action_to_string(0, GO) == "go"  # OpenSpiel's (player, action) form
    for a in range(NUM_DISTINCT_ACTIONS):
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("5h jc") == s.string_to_action("JC+5H") == 497
    assert s.string_to_action(1, "GO") == GO
    with pytest.raises(ValueError):
        s.action_to_string(NUM_DISTINCT_ACTIONS)
    with pytest.raises(ValueError):
        s.string_to_action("5H 5H")
    with pytest.raises(TypeError):
        s.string_to_action(5)


# ------------------------------------------------------------------------------------- Game


def test_game_basics():
    g = Game()
    assert (g.variant, g.target, g.num_players(), g.num_sides()) == ("six-card", 121, 2, 2)
    assert Game("five-card").target == 61
    assert Game("three-player").num_players() == 3 and Game("three-player").num_sides() == 3
    assert Game("four-player").num_players() == 4 and Game("four-player").num_sides() == 2
    assert Game("FOUR_PLAYER", target=31).target == 31
    assert g.num_distinct_actions() == NUM_DISTINCT_ACTIONS
    assert g.information_state_tensor_shape() == [1293]
    assert g.observation_tensor_shape() == [813]
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1.0, 1.0, 0.0)
    assert Game("three-player").min_utility() == -0.5
    assert g.max_chance_outcomes() == 52
    assert repr(Game("five-card", target=31)) == "Game('five-card', target=31)"
    assert Game("six-card") == Game(target=121) and hash(Game()) == hash(Game("six-card"))
    assert Game("six-card") != Game("six-card", target=61)
    for game in (Game("five-card", target=7), Game("four-player")):
        assert pickle.loads(pickle.dumps(game)) == game
        assert copy.deepcopy(game) == game


@pytest.mark.parametrize(
    "args,kwargs",
    [(("seven-card",), {}), ((), {"target": 0}), ((), {"target": 10_001}), ((), {"target": -5})],
)
def test_game_bad_arguments(args, kwargs):
    with pytest.raises(ValueError):
        Game(*args, **kwargs)


def test_game_target_is_keyword_only():
    with pytest.raises(TypeError):
        Game("six-card", 121)


# --------------------------------------------------------------------- a scripted six-card deal


def test_six_card_scripted_deal():
    game = Game("six-card")
    s = game.new_initial_state()
    assert s.current_player() == CHANCE and s.is_chance_node() and s.phase == "cut"
    assert s.legal_actions() == list(range(52))
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and outcomes[0] == (0, 1 / 52)

    # The cut: P0 cuts KH, P1 cuts 3D; the lower card (3) deals, so P1 deals and P0 is pone.
    play(s, "KH", "3D")
    assert s.dealer == 1 and s.phase == "deal" and s.deals == 1
    assert len(s.chance_outcomes()) == 52  # the cut cards go back: the whole pack is dealt from

    # The deal, one card at a time from the dealer's left (P0), alternately.
    p0 = ["5C", "5D", "4H", "6S", "KC", "QD"]
    p1 = ["TS", "9H", "7C", "8D", "2S", "AH"]
    for a, b in zip(p0, p1):
        play(s, a, b)
    assert s.phase == "discard" and s.current_player() == 0
    assert s.hand(0) == sorted(cid(c) for c in p0)
    assert len(s.legal_actions()) == 15  # C(6, 2) discards
    assert s.legal_actions() == sorted(s.legal_actions())
    assert all(52 <= a < GO for a in s.legal_actions())

    # Discards, pone first: P0 lays away KC QD, P1 (dealer) 2S AH.
    play(s, "KC+QD")
    assert s.current_player() == 1
    play(s, "2S+AH")
    assert s.phase == "starter" and s.current_player() == CHANCE
    assert len(s.legal_actions()) == 52 - 12  # every card not in a hand or the crib
    assert s.crib() == sorted(cid(c) for c in ["KC", "QD", "2S", "AH"])
    assert s.discards(0) == sorted([cid("KC"), cid("QD")])

    # The starter 3H (not a jack: no heels). Pone leads.
    play(s, "3H")
    assert s.phase == "play" and s.current_player() == 0 and s.starter == cid("3H")
    assert s.scores() == [0, 0]

    play(s, "5C")  # count 5: nothing
    play(s, "TS")  # count 15: fifteen two for P1
    assert s.scores() == [0, 2] and s.rewards() == [0.0, 2.0] and s.count == 15
    play(s, "5D", "9H")  # counts 20, 29: no pair (T/5, 5/9), no run, no 15/31
    assert s.scores() == [0, 2] and s.count == 29
    # P0 holds 4H 6S: 29 + 4 > 31, so go is his only legal action (and P1's: 7C, 8D).
    assert s.legal_actions() == [GO]
    play(s, "go")
    assert s.current_player() == 1 and s.legal_actions() == [GO]
    play(s, "go")  # nobody can lay: the last card (P1's 9H) scores one for the go
    assert s.scores() == [0, 3] and s.rewards() == [0.0, 1.0]
    assert s.count == 0 and s.current_player() == 0  # new count, led by the player after P1

    play(s, "4H", "7C", "6S")  # counts 4, 11, 17: 4-7-6 is no run
    assert s.scores() == [0, 3]
    # P1's 8D: count 25, the last three 7-6-8 are a run of three (3), and it is the last card
    # of the play (1): P1 has 2 + 1 + 3 + 1 = 7 pegged. Then the show, automatically:
    #   P0 (pone) 5C 5D 4H 6S + 3H: fifteens 5C-4H-6S, 5D-4H-6S (4), pair of fives (2), double
    #       run 3-4-5-6 (8) = 14.
    #   P1 TS 9H 7C 8D + 3H: fifteen 7-8 (2), run 7-8-9-T (4) = 6.
    #   crib KC QD 2S AH + 3H: fifteens K-2-3, Q-2-3 (4), run A-2-3 (3) = 7.
    play(s, "8D")
    assert cribbage.score_hand("5C 5D 4H 6S", "3H") == 14
    assert cribbage.score_hand("TS 9H 7C 8D", "3H") == 6
    assert cribbage.score_hand("KC QD 2S AH", "3H", crib=True) == 7
    assert s.scores() == [14, 7 + 6 + 7]
    assert s.rewards() == [14.0, 4.0 + 6 + 7]  # the last card's points and the whole show
    assert s.side_scores() == [14, 20]
    # The next deal: the deal passes left, to P0.
    assert s.phase == "deal" and s.deals == 2 and s.dealer == 0 and s.hand(0) == []
    assert s.returns() == [0.0, 0.0] and not s.is_terminal() and s.winner is None
    assert len(s.history()) == 2 + 12 + 2 + 1 + 10 and s.move_number() == 27


def test_five_card_seed_flow_three_for_last():
    s = Game("five-card").new_initial_state()
    # The cut: P0 2C, P1 9D: P0 deals, and the pone (P1) pegs three for last at once.
    play(s, "2C", "9D")
    assert s.dealer == 0 and s.scores() == [0, 3] and s.rewards() == [0.0, 3.0]
    # Five each, from the dealer's left (P1).
    p1 = ["KS", "9C", "QH", "AD", "7H"]
    p0 = ["TD", "5S", "5H", "2D", "8S"]
    for a, b in zip(p1, p0):
        play(s, a, b)
    assert s.current_player() == 1 and len(s.legal_actions()) == 10  # C(5, 2)
    play(s, "AD+7H", "2D+8S", "5C")  # discards (pone first), then the starter 5C
    assert s.current_player() == 1 and s.hand(1) == sorted(cid(c) for c in ["KS", "9C", "QH"])
    # One count to 31: K (10), T (20), 9 (29): nothing scores (no pair, run or 15).
    play(s, "KS", "TD", "9C")
    assert s.scores() == [0, 3]
    assert s.legal_actions() == [GO]  # P0 holds 5S 5H: 34 > 31
    play(s, "go")
    assert s.legal_actions() == [GO]  # P1 holds QH: 39 > 31
    # Both go: P1's 9C takes the go point and the play ends (one count only); the unplayed
    # 5S 5H (P0) and QH (P1) stay in hand and are shown:
    #   P1 (pone) KS 9C QH + 5C: fifteens K-5, Q-5 = 4.
    #   P0 TD 5S 5H + 5C: fifteens T-5 x3 and 5-5-5 (8), pair royal (6) = 14.
    #   crib AD 7H 2D 8S + 5C: fifteens 7-8, 2-5-8, A-2-5-7 = 6 (no run, no flush).
    play(s, "go")
    assert cribbage.score_hand("KS 9C QH", "5C") == 4
    assert cribbage.score_hand("TD 5S 5H", "5C") == 14
    assert cribbage.score_hand("AD 7H 2D 8S", "5C", crib=True) == 6
    assert s.scores() == [14 + 6, 3 + 1 + 4]
    assert s.phase == "deal" and s.deals == 2 and s.dealer == 1


def test_heels_and_a_win_in_the_show():
    # A six-card game to 5: the dealer's heels (a jack turned) count at once, and the first to
    # reach the target wins even in the middle of the show.
    s = Game("six-card", target=5).new_initial_state()
    play(s, "KH", "3D")  # P1 deals
    for a, b in zip(["5C", "5D", "4H", "6S", "KC", "QD"], ["TS", "9H", "7C", "8D", "2S", "AH"]):
        play(s, a, b)
    play(s, "KC+QD", "2S+AH", "JH")  # starter JH: his heels, 2 for the dealer
    assert s.scores() == [0, 2] and s.rewards() == [0.0, 2.0]
    play(s, "5C", "TS")  # fifteen two: P1 reaches 4
    play(s, "5D", "9H", "go", "go")  # the go point: P1 reaches 5 = the target, in the play
    assert s.is_terminal() and s.current_player() == TERMINAL and s.phase == "game-over"
    assert s.winner == 1 and s.scores() == [0, 5] and s.returns() == [-1.0, 1.0]
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    assert not s.legal_actions_mask().any()


def test_four_player_partners_share_scores():
    s = Game("four-player").new_initial_state()
    play(s, "KH", "3D", "9S", "QC")  # P1 cut lowest: P1 deals
    assert s.dealer == 1 and s.current_player() == CHANCE
    rng = random.Random(3)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.current_player() == 2  # the dealer's left discards first
    assert all(a < 52 for a in s.legal_actions()) and len(s.legal_actions()) == 5
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        sc = s.scores()
        assert sc[0] == sc[2] and sc[1] == sc[3] and s.side_scores() == sc[:2]
    assert s.returns()[0] == s.returns()[2] and s.returns()[1] == s.returns()[3]


# ------------------------------------------------------------------------- errors, no panics


def test_illegal_action_leaves_the_state_unchanged():
    s = Game().new_initial_state()
    play(s, "KH", "3D")
    before, history = s.serialize(), s.history()
    for bad in (52, GO, 1379, 70_000, -1, 2**63 - 1, -(2**63)):
        with pytest.raises(ValueError, match=f"illegal action {bad}") as err:
            s.apply_action(bad)
        assert "legal actions" in str(err.value)
        assert s.serialize() == before and s.history() == history
    with pytest.raises(ValueError, match="illegal action"):
        s.apply_action(2**80)
    for bad in ("5H", 1.0, None, True, [1]):
        with pytest.raises(TypeError):
            s.apply_action(bad)
    assert s.serialize() == before
    s.apply_action(np.int64(cid("5H")))  # numpy ints are ints
    # A card the player does not hold, in the play:
    while s.phase != "play":
        s.apply_action(s.legal_actions()[0])
    held = set(s.hand(s.current_player()))
    card = next(c for c in range(52) if c not in held)
    message = rf"illegal action {card} \({cribbage.Card(card)}\) in the play phase"
    with pytest.raises(ValueError, match=message) as err:
        s.apply_action(card)
    first = s.legal_actions()[0]
    assert f"legal actions: [{first} ({s.action_to_string(first)})" in str(err.value)


def test_bad_players_and_undo_errors():
    s = Game().new_initial_state()
    with pytest.raises(ValueError, match="nothing|no action"):
        s.undo_action()
    with pytest.raises(ValueError, match="chance"):
        s.information_state_string()
    for bad in (2, -1, 99):
        with pytest.raises(ValueError, match="no player"):
            s.information_state_tensor(bad)
        with pytest.raises(ValueError):
            s.resample_from_infostate(bad, 1)
        with pytest.raises(ValueError):
            s.hand(bad)
    s.apply_action(5)
    with pytest.raises(ValueError, match="last action is 5"):
        s.undo_action(CHANCE, 6)
    with pytest.raises(ValueError, match="taken by -1"):
        s.undo_action(0, 5)
    assert s.undo_action(CHANCE, 5) == 5 and s.history() == []
    with pytest.raises(ValueError):
        Game().deserialize_state("not a state")
    with pytest.raises(ValueError, match="five-card"):
        Game("six-card").deserialize_state(Game("five-card").new_initial_state().serialize())
    with pytest.raises(TypeError):
        State()


# ----------------------------------------------------- undo, clone, child, serialize, pickle


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trips(variant):
    game = Game(variant)
    rng = random.Random(11)
    s = game.new_initial_state()
    snapshots = [s.clone()]
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        c = s.child(a)
        assert s == snapshots[-1]  # child leaves the parent alone
        s.apply_action(a)
        assert c == s and c.history() == s.history()
        snapshots.append(s.clone())
        if len(snapshots) % 17 == 0:
            back = game.deserialize_state(s.serialize())
            assert back == s and back.serialize() == s.serialize()
    assert len(snapshots) == len(s.history()) + 1
    # pickle keeps the history, so undo works on the copy; copy/deepcopy are clones.
    for other in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s), s.clone()):
        assert other == s and other.history() == s.history()
    p = pickle.loads(pickle.dumps(s))
    # Undo all the way back, exactly (a clone rebuilds its undo stack by replay).
    c = s.clone()
    for expected in reversed(snapshots[:-1]):
        last = s.history()[-1]
        assert s.undo_action() == last
        assert s == expected and s.serialize() == expected.serialize()
        assert s.history() == expected.history()
    assert s.history() == [] and s == game.new_initial_state()
    for _ in range(len(snapshots) - 1):
        c.undo_action()
        p.undo_action()
    assert c == s and p == s
    # Clones are independent.
    d = s.clone()
    d.apply_action(d.legal_actions()[0])
    assert d != s and s.history() == []


def test_undo_after_clone_mid_game():
    s = Game().new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    for _ in range(3):
        c.apply_action(rng.choice(c.legal_actions()))
    for _ in range(3):
        c.undo_action()
    assert c == s
    c.undo_action()  # past the clone point: rebuilt from the history
    s.undo_action()
    assert c == s and c.history() == s.history()


def test_deserialized_and_resampled_states_start_a_new_history():
    s = Game().new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        s.apply_action(rng.choice(s.legal_actions()))
    d = s.get_game().deserialize_state(s.serialize())
    assert d == s and d.history() == []
    with pytest.raises(ValueError):
        d.undo_action()
    d.apply_action(d.legal_actions()[0])
    d.undo_action()
    assert d == s


def test_pickle_rejects_a_tampered_history():
    s = Game().new_initial_state()
    s.apply_action(3)
    restore, (game, root, history) = s.__reduce__()
    assert restore(game, root, history) == s
    with pytest.raises(ValueError, match="illegal action 3"):
        restore(game, root, [3, 3])


def test_str_and_repr_are_readable():
    s = Game().new_initial_state()
    assert repr(s) == "<cribbage.State six-card to 121, deal 0, cut, to move chance, scores P0 0, P1 0>"
    play(s, "KH", "3D")
    for a, b in zip(["5C", "5D", "4H", "6S", "KC", "QD"], ["TS", "9H", "7C", "8D", "2S", "AH"]):
        play(s, a, b)
    play(s, "KC+QD")
    text = str(s)
    assert "phase discard, dealer P1, to move P1" in text
    assert "P0: hand 5C 5D 4H 6S | shows 5C 5D 4H 6S | gave KC QD" in text
    assert "scores: P0 0, P1 0" in text
    assert "P0+P2 0, P1+P3 0" in repr(Game("four-player").new_initial_state())


# ----------------------------------------------------------------- information and tensors


def test_tensors_shapes_and_dtypes():
    for variant in VARIANTS:
        game = Game(variant)
        s = game.new_initial_state()
        rng = random.Random(1)
        while s.phase != "play":
            s.apply_action(rng.choice(s.legal_actions()))
        for p in range(game.num_players()):
            info = s.information_state_tensor(p)
            obs = s.observation_tensor(p)
            assert info.dtype == np.float32 and info.shape == tuple(game.information_state_tensor_shape())
            assert obs.dtype == np.float32 and obs.shape == tuple(game.observation_tensor_shape())
            # Own unplayed cards are one-hot at offset 33 (both tensors).
            assert sorted(np.flatnonzero(info[33:85])) == s.hand(p)
            assert sorted(np.flatnonzero(obs[33:85])) == s.hand(p)
        assert np.array_equal(s.information_state_tensor(), s.information_state_tensor(s.current_player()))
        mask = s.legal_actions_mask()
        assert mask.dtype == np.bool_ and mask.shape == (NUM_DISTINCT_ACTIONS,)
        assert list(np.flatnonzero(mask)) == s.legal_actions()
        other = (s.current_player() + 1) % game.num_players()
        assert s.legal_actions(other) == [] and not s.legal_actions_mask(other).any()
        assert s.legal_actions(s.current_player()) == s.legal_actions()


@pytest.mark.parametrize("variant", VARIANTS)
def test_information_tensor_differs_exactly_when_the_information_does(variant):
    # Per observer: seats in the tensor are relative to the observer (the text names seats).
    seen: dict[tuple[int, str], bytes] = {}
    tensors: dict[tuple[int, bytes], str] = {}
    game = Game(variant)
    for s, _ in random_states(variant, 3, seed=7):
        for p in range(game.num_players()):
            text = s.information_state_string(p)
            t = s.information_state_tensor(p).tobytes()
            assert seen.setdefault((p, text), t) == t
            assert tensors.setdefault((p, t), text) == text
    assert len(seen) > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_resample_is_consistent_with_the_observer(variant):
    game = Game(variant)
    rng = random.Random(9)
    checked = changed = 0
    for i, (s, _) in enumerate(random_states(variant, 4, seed=3)):
        if i % 7 or s.is_terminal():
            continue
        for p in range(game.num_players()):
            r = s.resample_from_infostate(p, rng.getrandbits(64))
            assert r.information_state_string(p) == s.information_state_string(p)
            assert np.array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
            assert r.hand(p) == s.hand(p) and r.discards(p) == s.discards(p)
            assert r.history() == [] and r.scores() == s.scores()
            assert r.current_player() == s.current_player()
            # Reproducible for a seed, and playable to the end.
            assert s.resample_from_infostate(p, 77) == s.resample_from_infostate(p, 77)
            changed += r != s
            checked += 1
            if checked % 10 == 0:
                while not r.is_terminal():
                    r.apply_action(rng.choice(r.legal_actions()))
    assert checked > 50 and changed > checked // 2


def test_own_discards_are_part_of_the_information_state():
    # Perfect recall: two deals that differ only in which cards P0 gave the crib look different
    # to P0 (OpenSpiel's cribbage forgets them) and the same to P1.
    def after(discard: str) -> State:
        s = Game().new_initial_state()
        play(s, "KH", "3D")
        for a, b in zip(["5C", "5D", "4H", "6S", "KC", "QD"], ["TS", "9H", "7C", "8D", "2S", "AH"]):
            play(s, a, b)
        play(s, discard)
        return s

    a, b = after("KC+QD"), after("KC+5C")
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "discarded: KC QD" in a.information_state_string(0)
    assert not np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert a.information_state_string(1) == b.information_state_string(1)
    assert np.array_equal(a.information_state_tensor(1), b.information_state_tensor(1))


# --------------------------------------------------------------------- random games, invariants


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_invariants(variant):
    game = Game(variant)
    n, sides = game.num_players(), game.num_sides()
    rng = random.Random(2024)
    for _ in range(400):
        s = game.new_initial_state()
        last = [0] * sides
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal))
            player = s.current_player()
            assert (player == CHANCE) == s.is_chance_node()
            if player == CHANCE:
                probs = [p for _, p in s.chance_outcomes()]
                assert abs(sum(probs) - 1) < 1e-9 and [a for a, _ in s.chance_outcomes()] == legal
            else:
                assert 0 <= player < n and s.chance_outcomes() == []
            s.apply_action(rng.choice(legal))
            now = s.side_scores()
            assert all(x >= y for x, y in zip(now, last))  # scores never decrease
            assert [x - y for x, y in zip(now, last)] == s.rewards()[:sides]  # points of this action
            last = now
            if not s.is_terminal():
                assert max(now) < game.target
        winner = s.winner
        assert winner is not None and s.side_scores()[winner] >= game.target
        assert sorted(s.side_scores())[-2] < game.target  # only the winner reached the target
        assert abs(sum(s.returns())) < 1e-9
        assert [s.returns()[p] == 1.0 for p in range(n)] == [p % sides == winner for p in range(n)]


# ------------------------------------------------------------------------------------ simulate


KEYS_BY_SIDE = ("scores", "pegging", "hand", "crib", "heels", "three_for_last")
KEYS_BY_GAME = ("winner", "first_dealer", "deals", "actions")


@pytest.mark.parametrize("variant", VARIANTS)
def test_simulate_shapes_totals_and_determinism(variant):
    game = Game(variant)
    sides = game.num_sides()
    a = simulate(game, 400, seed=3, threads=1)
    b = simulate(game, 400, seed=3, threads=2)
    c = simulate(game, 400, seed=3)
    for key in KEYS_BY_SIDE:
        assert a[key].shape == (400, sides) and a[key].dtype == np.int32, key
    for key in KEYS_BY_GAME:
        assert a[key].shape == (400,), key
    assert a["returns"].shape == (400, game.num_players()) and a["returns"].dtype == np.float64
    assert set(a) == set(KEYS_BY_SIDE + KEYS_BY_GAME + ("returns",))
    assert list(a)[:6] == ["scores", "returns", "winner", "first_dealer", "deals", "actions"]
    for key in a:
        assert np.array_equal(a[key], b[key]) and np.array_equal(a[key], c[key]), key
    d = simulate(game, 400, seed=4)
    assert not np.array_equal(a["scores"], d["scores"])
    total = a["pegging"] + a["hand"] + a["crib"] + a["heels"] + a["three_for_last"]
    assert np.array_equal(total, a["scores"])
    rows = np.arange(400)
    assert (a["scores"][rows, a["winner"]] >= game.target).all()
    assert ((a["scores"] >= game.target).sum(axis=1) == 1).all()
    assert (a["deals"] >= 1).all() and (a["actions"] > 0).all()
    assert set(np.unique(a["first_dealer"])) <= set(range(game.num_players()))
    if variant == "five-card":
        assert (a["three_for_last"].sum(axis=1) == 3).all()
    else:
        assert not a["three_for_last"].any()
    # returns as State.returns(): +1 for the winning side's players, -1/(sides-1) for the others.
    side_of = np.arange(game.num_players()) % sides
    won = side_of[None, :] == a["winner"][:, None]
    assert np.array_equal(a["returns"], np.where(won, 1.0, -1.0 / (sides - 1)))


def test_simulate_arguments():
    r = simulate(Game("six-card", target=31), 50, players=("first", "random"), seed=1)
    assert (r["scores"].max(axis=1) >= 31).all()
    six = Game()
    first = simulate(six, 50, players="first", seed=1)
    assert np.array_equal(first["scores"], simulate(six, 50, players=["first"], seed=1)["scores"])
    assert simulate(six, 0)["scores"].shape == (0, 2)
    assert simulate(six, 5, seed=-1)["scores"].shape == (5, 2)
    with pytest.raises(ValueError, match="1 or 3 policies"):
        simulate(Game("three-player"), 5, players=("random", "random"))
    with pytest.raises(ValueError, match="unknown player"):
        simulate(six, 5, players=("random", "nobody"))
    with pytest.raises(ValueError, match="n_games"):
        simulate(six, -1)
    with pytest.raises(MemoryError, match="simulate fewer"):
        simulate(six, 10**15)  # the output alone would not fit: refused before any game runs
    for huge in (10**30, -(10**30)):  # ValueError, not OverflowError
        with pytest.raises(ValueError, match="n_games"):
            simulate(six, huge)
        with pytest.raises(ValueError, match="target"):
            Game(target=huge)
        with pytest.raises(ValueError, match="threads"):
            simulate(six, 5, threads=huge if huge < 0 else 0)
    with pytest.raises(TypeError):
        Game(target="121")
    with pytest.raises(TypeError, match="n_games"):
        simulate(six, 5.0)
    with pytest.raises(TypeError, match="n_games"):
        simulate(six, True)
    with pytest.raises(TypeError, match="cribbage Game"):
        simulate(5, 6)
    with pytest.raises(TypeError, match="cribbage Game"):
        simulate(piquet.Game(), 6)
    with pytest.raises(ValueError):
        simulate(six, 5, threads=0)
    with pytest.raises(TypeError):
        simulate(six, 5, players=3)
    with pytest.raises(TypeError):
        simulate(six, 5, 6)  # everything but game and n_games is keyword-only


# ------------------------------------------------------- the lurch/skunk match extra (rules §4)


def test_lurch_scales_returns_by_the_losers_score():
    # rules §4: "lurch/skunk (win by 31+ counts double, by 61+ triple in 121-point games; in
    # 61-point games lurch = loser under 31)".
    import random

    rng = random.Random(3)
    seen = set()
    for variant, target in (("six-card", 121), ("five-card", 61)):
        game = cribbage.Game(variant, lurch=True)
        assert game.lurch and repr(game) == f"Game('{variant}', target={target}, lurch=True)"
        assert game.max_utility() == (3.0 if target == 121 else 2.0)
        for _ in range(150):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            loser = min(s.side_scores())
            short = target - loser
            k = 3 if short > 60 and target >= 121 else 2 if short > 30 else 1
            assert s.game_value == k
            w = s.winner
            assert s.returns() == [float(k) if p == w else -float(k) for p in range(2)]
            seen.add(k)
            again = game.deserialize_state(s.serialize())
            assert again.game_value == k and again.get_game().lurch
    assert {1, 2} <= seen
    plain = cribbage.Game()
    assert not plain.lurch and repr(plain) == "Game('six-card', target=121)"
    assert pickle.loads(pickle.dumps(cribbage.Game("five-card", lurch=True))).lurch

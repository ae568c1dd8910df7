"""The piquet game engine from Python: ``piquet.Game``, ``State`` and ``simulate``.

Scripted deals are driven action by action through the Python API; every expected score is
derived by hand in the comments (rules: the project's ``docs/rules/piquet.md``; card ids
``suit * 8 + rank``, rank 0 = 7 .. 7 = A, suits C D H S). The order of events follows the
engine (``rust/piquet/game/mod.rs``): each seat draws a card for deal, the lower rank deals;
12 cards each are dealt one at a time, elder first; elder then the dealer choose an exchange
size (``EXCHANGE_BASE + n``), discard ``n`` cards one at a time in ascending id order, and take
``n`` talon cards (chance); the declarations are automatic; under russian rules elder, then the
dealer, may announce an open capot; elder leads the first trick.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
from cribpiquet.piquet import (
    ANNOUNCE_CAPOT,
    CHANCE,
    EXCHANGE_BASE,
    NUM_DISTINCT_ACTIONS,
    PASS,
    POINT_SOURCES,
    TERMINAL,
    Game,
    Rules,
    State,
    simulate,
)

RULES = ("russian", "rubicon")


def cid(text: str) -> int:
    return piquet.Card(text).id


def ids(text: str) -> list[int]:
    return sorted(cid(t) for t in text.split())


def x(n: int) -> int:
    return EXCHANGE_BASE + n


def play(state: State, script: str) -> None:
    """Apply whitespace-separated action texts (``AH``, ``x3``, ``capot``, ``pass``)."""
    for token in script.split():
        state.apply_action(state.string_to_action(token))


def cut_and_deal(state: State, a: str, b: str, elder: str, dealer: str) -> None:
    """Seat 0 draws ``a`` and seat 1 ``b`` for deal; then ``elder``'s and ``dealer``'s 12 cards
    are dealt alternately, elder first."""
    play(state, f"{a} {b}")
    e, d = elder.split(), dealer.split()
    assert len(e) == len(d) == 12
    for i in range(12):
        play(state, f"{e[i]} {d[i]}")


def random_states(game: Game, n_games: int, seed: int):
    """Every state of ``n_games`` random games (chance included), as (state, next action)."""
    rng = random.Random(seed)
    for _ in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            yield s, a
            s.apply_action(a)
        yield s, None


# -------------------------------------------------------------------------------- constants


def test_constants_and_action_text():
    assert (CHANCE, TERMINAL) == (-1, -4)  # OpenSpiel's kChancePlayerId / kTerminalPlayerId
    # 32 cards, exchange sizes 0..8 (32..40), announce capot, pass.
    assert (EXCHANGE_BASE, ANNOUNCE_CAPOT, PASS, NUM_DISTINCT_ACTIONS) == (32, 41, 42, 43)
    assert cid("7C") == 0 and cid("AH") == 2 * 8 + 7 == 23 and cid("AS") == 31
    s = Game().new_initial_state()
    assert s.action_to_string(cid("AH")) == "AH"
    assert s.action_to_string(x(3)) == "exchange 3"
    assert s.action_to_string(0, ANNOUNCE_CAPOT) == "announce capot"  # (player, action) form
    assert s.action_to_string(PASS) == "pass"
    for a in range(NUM_DISTINCT_ACTIONS):
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("x5") == s.string_to_action(1, "Exchange 5") == x(5)
    assert s.string_to_action("capot") == ANNOUNCE_CAPOT
    assert s.string_to_action("10♥") == s.string_to_action("th") == cid("TH")
    with pytest.raises(ValueError):
        s.action_to_string(NUM_DISTINCT_ACTIONS)
    with pytest.raises(ValueError):
        s.action_to_string(-1)
    with pytest.raises(ValueError):
        s.string_to_action("AH KH")
    with pytest.raises(TypeError):
        s.string_to_action(5)
    assert set(POINT_SOURCES) == {"declarations", "repique", "play", "last_trick", "pique", "leza", "capot"}
    assert piquet.DECLARATION_CATEGORIES == ("carte blanche", "point", "sequences", "sets")


# ------------------------------------------------------------------------------------- Game


def test_game_basics():
    g = Game()
    assert g == Game(Rules.russian(), scope="partiya") == Game("russian") == Game(None)
    assert hash(g) == hash(Game("russian"))
    assert g != Game(scope="deal") and g != Game("rubicon")
    assert (g.rules, g.scope) == (Rules.russian(), "partiya")
    assert Game("rubicon", scope="deal").rules == Rules.rubicon()
    assert repr(Game(scope="deal")) == "Game(Rules.russian(), scope='deal')"
    assert repr(Game(Rules.rubicon())) == "Game(Rules.rubicon(), scope='partiya')"
    assert (g.num_players(), g.num_distinct_actions(), g.max_chance_outcomes()) == (2, 43, 32)
    assert g.utility_sum() == 0.0
    assert g.information_state_tensor_shape() == [1117] and g.information_state_tensor_size() == 1117
    assert g.observation_tensor_shape() == [401] and g.observation_tensor_size() == 401
    short = Game(Rules.russian().replace(koroliks_per_partiya=2))
    for game in (g, Game("rubicon", scope="deal"), short):
        assert pickle.loads(pickle.dumps(game)) == game
        assert repr(pickle.loads(pickle.dumps(game))) == repr(game)
    s = g.new_initial_state()
    assert s.get_game() == g and s.is_chance_node() and s.phase == "cut"


@pytest.mark.parametrize(
    "args, kwargs, error",
    [
        ((), {"scope": "rubber"}, ValueError),
        (("whist",), {}, ValueError),
        ((5,), {}, TypeError),
        ((Rules.russian().replace(koroliks_per_partiya=9),), {}, ValueError),  # > 8 koroliks
        ((Rules.russian(), "deal"), {}, TypeError),  # scope is keyword-only
    ],
)
def test_game_bad_arguments(args, kwargs, error):
    with pytest.raises(error):
        Game(*args, **kwargs)


# ------------------------------------------------------------------------- scripted deals

# rust/piquet/game/tests.rs `capot_deal`: elder holds all eight hearts and three aces, the
# dealer the low clubs, diamonds and spades.
CAPOT_ELDER = "7H 8H 9H TH JH QH KH AH AC KC AD AS"
CAPOT_DEALER = "7C 8C 9C TC JC QC 7D 8D 9D 7S 8S 9S"
# Elder leads every trick and wins it; the dealer follows suit when he can (clubs at the end).
CAPOT_PLAY = "AH 7C KH 7D QH 7S JH 8C TH 8D 9H 8S 8H 9C 7H 9D AS 9S AD TC AC JC KC QC"


def capot_deal(announce: str) -> State:
    """The russian deal up to the first lead: seat 1 draws the seven and deals (the lower
    rank), seat 0 is elder; both decline the exchange; then the announcements."""
    s = Game(scope="deal").new_initial_state()
    cut_and_deal(s, "KS", "7D", CAPOT_ELDER, CAPOT_DEALER)
    assert (s.dealer, s.elder, s.phase, s.current_player()) == (1, 0, "exchange", 0)
    assert s.hand(0) == ids(CAPOT_ELDER) and s.hand(1) == ids(CAPOT_DEALER)
    play(s, "x0")
    assert s.current_player() == 1 and s.exchange_size(0) == 0 and s.declarations() is None
    play(s, "x0")
    # Declarations (rules §3): elder's point of eight hearts scores 8, his huitième (8-card
    # sequence, russian) 18 and his fourteen aces 14: 40. The dealer's six clubs (point 6,
    # sixième 16) are beaten in both, and 7s, 8s and 9s make no sets: 0. Elder reaches 30 on
    # declarations alone with the dealer at 0: repique, +60 -> 100.
    assert s.declarations() == [[0, 8, 18, 14], [0, 0, 0, 0]]
    assert s.repique == 0 and not s.pique
    assert s.deal_scores() == [100, 0] and s.rewards() == [100.0, 0.0]
    assert s.phase == "announce" and s.legal_actions() == [ANNOUNCE_CAPOT, PASS]
    play(s, announce)
    assert s.phase == "play" and s.current_player() == 0
    return s


def test_repique_and_capot_deal():
    s = capot_deal("pass pass")
    assert s.open_capot is None
    play(s, "AH")
    assert s.deal_scores() == [101, 0] and s.rewards() == [1.0, 0.0]  # a lead scores 1
    play(s, "7C")
    assert s.deal_scores() == [102, 0]  # winning the trick scores 1
    assert s.tricks_won() == [1, 0] and s.plays() == [(0, cid("AH")), (1, cid("7C"))]
    assert not s.pique  # no pique after a repique, though elder passed 30 with the dealer at 0
    tokens = CAPOT_PLAY.split()
    play(s, " ".join(tokens[2:23]))
    # 11 tricks of 2 (lead + trick) and the last lead: 100 + 23.
    assert s.deal_scores() == [123, 0] and not s.is_terminal()
    play(s, "QC")
    # The last trick's point, and the capot's 40 instead of the last-trick extra (3) and the
    # leza (10): 100 + 24 + 40 = 164; the last card made 1 + 40.
    assert s.is_terminal() and s.current_player() == TERMINAL and s.phase == "game-over"
    assert s.deal_scores() == [164, 0] and s.scores() == [164, 0]
    assert s.rewards() == [41.0, 0.0]
    assert s.returns() == [164.0, -164.0] and s.player_return(1) == -164.0
    assert s.winner == 0 and s.tricks_won() == [12, 0]
    assert s.points_by_source() == {
        "declarations": [40, 0],
        "repique": [60, 0],
        "play": [24, 0],
        "last_trick": [0, 0],
        "pique": [0, 0],
        "leza": [0, 0],
        "capot": [40, 0],
    }
    # The same deal through the scoring core's score_game.
    tricks = list(zip(tokens[0::2], tokens[1::2]))
    g = piquet.score_game(CAPOT_ELDER, CAPOT_DEALER, tricks)
    assert tuple(g.totals) == (164, 0)
    # Undo all the way back to the initial state.
    n = s.move_number()
    assert n == 2 + 24 + 2 + 2 + 24
    while s.history():
        s.undo_action()
    assert s == Game(scope="deal").new_initial_state()


def test_open_capot_announced():
    # Elder announces and makes it: 80 instead of 40 -> 204. The dealer is not asked.
    s = capot_deal("capot")
    assert s.open_capot == 0
    play(s, CAPOT_PLAY)
    assert s.deal_scores() == [204, 0] and s.points_by_source()["capot"] == [80, 0]
    # The dealer announces (after elder passed) and cannot make it: it costs nothing, elder's
    # unannounced capot is the plain 40.
    s = capot_deal("pass capot")
    assert s.open_capot == 1
    play(s, CAPOT_PLAY)
    assert s.deal_scores() == [164, 0]
    assert "capot: P0 passed, P1 announced" in s.information_state_string(0)


# The source's play example (rust/piquet/game/tests.rs `exchange_then_the_sources_play_order`).
SOURCE_ELDER = "TH JH QH KH AH QC 7C 9C QD 8S JS KS"
SOURCE_DEALER = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC"


def test_exchange_discards_and_draws():
    s = Game(scope="deal").new_initial_state()
    cut_and_deal(s, "KS", "7D", SOURCE_ELDER, SOURCE_DEALER)
    # Russian: elder exchanges 0 or 3..5 of the five talon cards.
    assert s.legal_actions() == [x(0), x(3), x(4), x(5)]
    for n in (1, 2, 6, 8):
        with pytest.raises(ValueError, match="illegal action"):
            s.apply_action(x(n))
    play(s, "x3")
    assert s.phase == "discard" and s.current_player() == 0
    # Discards go in ascending id order, so the two highest cards (JS, KS) cannot come first.
    legal = s.legal_actions()
    assert cid("JS") not in legal and cid("KS") not in legal and cid("8S") in legal
    play(s, "8S")
    assert s.legal_actions() == [cid("JS")]  # above 8S, leaving one card above it: JS only
    play(s, "JS KS")
    assert s.discards(0) == ids("8S JS KS") and s.phase == "draw" and s.is_chance_node()
    # The talon card comes from the 8 cards nobody holds, uniformly.
    out = s.chance_outcomes()
    assert len(out) == 8 and all(p == 1 / 8 for _, p in out)
    assert [a for a, _ in out] == s.legal_actions()
    assert cid("8S") not in s.legal_actions()  # a discard does not go back into the pack
    play(s, "8D 7S 9S")
    assert s.drawn(0) == ids("8D 7S 9S")
    assert s.kept(0) == ids("TH JH QH KH AH QC 7C 9C QD 8D 7S 9S")
    assert s.dealt_hand(0) == ids(SOURCE_ELDER)
    # The dealer: 5 cards are left, he takes 0 or 3..5.
    assert s.current_player() == 1 and s.legal_actions() == [x(0), x(3), x(4), x(5)]
    play(s, "x0")
    # The dealer's six diamonds win the point (6); elder's quint major TH-AH (15) and three
    # queens (3): 18 against 6.
    assert s.declarations() == [[0, 0, 15, 3], [0, 6, 0, 0]]
    assert s.deal_scores() == [18, 6]
    play(s, "pass pass 9C")
    assert s.deal_scores() == [19, 6]  # elder's lead
    play(s, "TC")
    assert s.deal_scores() == [19, 7]  # the dealer takes the trick
    play(s, "JC")
    assert s.deal_scores() == [19, 8]  # and leads
    assert s.legal_actions() == ids("7C QC")  # elder must follow in clubs


@pytest.mark.parametrize("elder, dealer", [(0, [0, 3, 4, 5]), (3, [0, 3, 4, 5]), (4, [0, 3, 4]), (5, [0, 3])])
def test_russian_dealer_exchange_depends_on_what_elder_left(elder, dealer):
    rng = random.Random(elder)
    s = Game(scope="deal").new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    s.apply_action(x(elder))
    while s.current_player() == s.elder or s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == s.dealer
    assert s.legal_actions() == [x(n) for n in dealer]


def test_rubicon_exchange_is_mandatory_for_elder():
    s = Game("rubicon", scope="deal").new_initial_state()
    cut_and_deal(s, "KS", "7D", "7H 8H 9H TH JH QH KH AH AC KC AD 7S", "7C 8C 9C TC JC QC 7D 8D 9D 8S 9S TS")
    assert s.legal_actions() == [x(n) for n in range(1, 6)]  # elder must take 1..5
    with pytest.raises(ValueError):
        s.apply_action(x(0))
    play(s, "x1 7S AS")
    assert s.current_player() == 1
    assert s.legal_actions() == [x(n) for n in range(8)]  # the dealer may take all 7 left
    play(s, "x0")
    assert s.phase == "play"  # no open capot announcement in rubicon


def test_follow_suit_and_illegal_actions_leave_the_state_unchanged():
    s = capot_deal("pass pass")
    play(s, "AH")
    assert len(s.legal_actions()) == 12  # no hearts: the dealer may play anything
    play(s, "7C AC")
    assert s.legal_actions() == ids("8C 9C TC JC QC")  # clubs led: he must follow
    mask = s.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (43,) and list(np.flatnonzero(mask)) == s.legal_actions()
    assert not s.legal_actions_mask(0).any() and s.legal_actions(0) == []
    before, text, hist = s.clone(), s.serialize(), s.history()
    with pytest.raises(ValueError) as e:
        s.apply_action(cid("7D"))
    msg = str(e.value)
    assert "illegal action 8 (7D) in the play phase for player 1" in msg
    assert "legal actions: [1 (8C), 2 (9C), 3 (TC), 4 (JC), 5 (QC)]" in msg
    for bad in (PASS, x(0), 43, 999, -1, 10**30):
        with pytest.raises(ValueError):
            s.apply_action(bad)
    for bad in ("8C", 1.0, None, True):
        with pytest.raises(TypeError):
            s.apply_action(bad)
    with pytest.raises(ValueError):
        s.child(cid("7D"))
    assert s == before and s.serialize() == text and s.history() == hist
    # A terminal state accepts nothing.
    t = capot_deal("pass pass")
    play(t, CAPOT_PLAY)
    assert t.legal_actions() == [] and t.chance_outcomes() == []
    with pytest.raises(ValueError, match="game is over"):
        t.apply_action(0)


def test_draw_for_deal_redraws_on_equal_ranks():
    s = Game().new_initial_state()
    assert s.legal_actions() == list(range(32)) and len(s.chance_outcomes()) == 32
    play(s, "9H")
    assert s.current_player() == CHANCE and cid("9H") not in s.legal_actions()
    assert s.chance_outcomes()[0][1] == 1 / 31
    play(s, "9S")  # equal ranks: both draw again
    assert s.phase == "cut" and s.dealer is None and s.cut_cards() == [None, None]
    play(s, "AC 8D")  # the lower card deals: seat 1
    assert (s.dealer, s.elder, s.phase, s.deals) == (1, 0, "deal", 1)


# ------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("rules", RULES)
def test_round_trips(rules):
    game = Game(rules)  # the partiya: several deals, a new draw per korolik
    for i, (s, a) in enumerate(random_states(game, 3, seed=7)):
        if i % 5:
            continue
        assert game.deserialize_state(s.serialize()) == s
        c = s.clone()
        assert c == s and c.history() == s.history()
        assert copy.copy(s) == s and copy.deepcopy(s) == s
        p = pickle.loads(pickle.dumps(s))
        assert p == s and p.history() == s.history() and p.get_game() == game
        if a is None:
            continue
        child = s.child(a)
        assert child.history() == s.history() + [a] and c == s  # s unchanged by child
        c.apply_action(a)
        assert c == child
        assert c.undo_action() == a and c == s
        if p.history():
            last = p.history()[-1]
            p.undo_action()  # undo survives pickling
            p.apply_action(last)
            assert p == s


def test_undo_checks_and_clone_independence():
    s = capot_deal("pass pass")
    c = s.clone()
    play(c, "AH 7C")
    assert s.plays() == [] and c.plays() != []
    with pytest.raises(ValueError, match="the last action is"):
        c.undo_action(action=cid("AH"))
    with pytest.raises(ValueError, match="taken by"):
        c.undo_action(0, cid("7C"))
    assert c.undo_action(1, cid("7C")) == cid("7C")
    d = Game().deserialize_state(Game().new_initial_state().serialize())
    with pytest.raises(ValueError, match="no action to undo"):
        d.undo_action()
    with pytest.raises(ValueError):
        Game("rubicon").deserialize_state(Game().new_initial_state().serialize())  # another game
    with pytest.raises(ValueError):
        Game().deserialize_state("not a state")
    # A tampered pickle is rejected, not replayed blindly.
    _, (game, root, hist) = s.__reduce__()
    with pytest.raises(ValueError):
        State._restore(game, root, hist + [PASS])


def test_str_and_repr_are_readable():
    s = capot_deal("pass pass")
    play(s, "AH 7C")
    assert repr(s) == "<piquet.State russian deal, deal 1, play, to move P0, scores 102-0>"
    text = str(s)
    assert "dealer P1" in text and "P0 (elder): hand" in text and "repique P0" in text
    assert "play: P0 AH, P1 7C" in text
    assert "draw for deal" in str(Game().new_initial_state())


# -------------------------------------------------------------------------- information


def test_tensors_shapes_and_dtypes():
    s = capot_deal("pass pass")
    play(s, "AH")
    game = s.get_game()
    for p in (0, 1):
        info = s.information_state_tensor(p)
        obs = s.observation_tensor(p)
        assert info.dtype == np.float32 and info.shape == tuple(game.information_state_tensor_shape())
        assert obs.dtype == np.float32 and obs.shape == tuple(game.observation_tensor_shape())
    assert np.array_equal(s.information_state_tensor(), s.information_state_tensor(1))  # P1 to move
    assert not np.array_equal(s.information_state_tensor(0), s.information_state_tensor(1))
    chance = Game().new_initial_state()
    with pytest.raises(ValueError, match="pass the player"):
        chance.information_state_tensor()
    with pytest.raises(ValueError, match="no player 2"):
        s.information_state_string(2)


def test_information_differs_exactly_when_the_information_does():
    # Two deals that differ only in the dealer's hidden cards look the same to elder until
    # the declarations; elder's own discards are part of his information.
    a = Game(scope="deal").new_initial_state()
    b = Game(scope="deal").new_initial_state()
    cut_and_deal(a, "KS", "7D", SOURCE_ELDER, SOURCE_DEALER)
    cut_and_deal(b, "KS", "7D", SOURCE_ELDER, "7D 9D TD JD KD AD 7H 8H 9H 8C TC 7S")  # JC -> 7S
    assert a.information_state_string(0) == b.information_state_string(0)
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert a.information_state_string(1) != b.information_state_string(1)
    assert not np.array_equal(a.information_state_tensor(1), b.information_state_tensor(1))
    c, d = a.clone(), a.clone()
    play(c, "x3 8S")
    play(d, "x3 9C")
    assert c.information_state_string(0) != d.information_state_string(0)
    assert not np.array_equal(c.information_state_tensor(0), d.information_state_tensor(0))
    # The dealer sees how many cards elder discarded, not which.
    assert c.information_state_string(1) == d.information_state_string(1)
    assert np.array_equal(c.information_state_tensor(1), d.information_state_tensor(1))


@pytest.mark.parametrize("rules", RULES)
def test_resample_is_consistent_with_the_observer(rules):
    game = Game(rules, scope="deal")
    checked = 0
    for i, (s, _) in enumerate(random_states(game, 3, seed=11)):
        if i % 4 or s.phase in ("cut",):
            continue
        for p in (0, 1):
            r = s.resample_from_infostate(p, seed=i)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert np.array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
            assert r.hand(p) == s.hand(p) and r.history() == []
            assert r == s.resample_from_infostate(p, i)  # reproducible for a seed
            assert sorted(r.hand(0) + r.hand(1)) == sorted(set(r.hand(0) + r.hand(1)))
            checked += 1
    assert checked > 20
    s = capot_deal("pass pass")
    with pytest.raises(ValueError):
        s.resample_from_infostate(2, 0)
    with pytest.raises(TypeError):
        s.resample_from_infostate(0, "seed")


# ----------------------------------------------------------------------- random invariants


def _check_walk(game: Game, n_games: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    ends = []
    for _ in range(n_games):
        s = game.new_initial_state()
        prev_scores = [0, 0]
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == sorted(set(legal)) and legal
            assert s.is_chance_node() == (s.current_player() == CHANCE) != s.is_player_node()
            if s.is_chance_node():
                probs = [p for _, p in s.chance_outcomes()]
                assert abs(sum(probs) - 1) < 1e-9 and [a for a, _ in s.chance_outcomes()] == legal
            a = rng.choice(legal)
            s.apply_action(a)
            scores = s.scores()
            assert all(n >= o for n, o in zip(scores, prev_scores))  # scores never decrease
            assert [n - o for n, o in zip(scores, prev_scores)] == s.rewards()
            prev_scores = scores
            if not s.is_terminal():
                assert s.returns() == [0.0, 0.0]
        by_source = s.points_by_source()
        assert set(by_source) == set(POINT_SOURCES)
        assert [sum(v[p] for v in by_source.values()) for p in (0, 1)] == s.scores()
        r = s.returns()
        assert r[0] == -r[1]
        assert s.winner == (None if r[0] == 0 else (0 if r[0] > 0 else 1))
        ends.append(s)
    return ends


@pytest.mark.parametrize("rules", RULES)
def test_random_deals_invariants(rules):
    game = Game(rules, scope="deal")
    for s in _check_walk(game, 1500, seed=1):
        assert s.deals == 1 and len(s.games()) == 1
        assert s.returns()[0] == s.scores()[0] - s.scores()[1]
        assert sum(s.tricks_won()) == 12 and len(s.plays()) == 24
        assert sum(len(s.kept(p)) for p in (0, 1)) == 24


@pytest.mark.parametrize("rules", RULES)
def test_random_matches(rules):
    game = Game(rules)
    k, d = game.rules.koroliks_per_partiya, game.rules.deals_per_partie
    for s in _check_walk(game, 30, seed=2):
        if rules == "russian":  # each korolik is 2 deals, or 1 ended by a рефет (equal totals)
            assert s.koroliks == k and k <= s.deals <= 2 * k
        else:  # the partie's deals, extended in pairs while the scores are equal
            assert s.deals >= d and (s.deals - d) % 2 == 0
        assert sum(sum(g) for g in s.games()) == sum(s.scores())


# ---------------------------------------------------------------------------------- simulate

KEYS_BY_PLAYER = ("scores",) + POINT_SOURCES
KEYS_BY_GAME = ("winner", "first_dealer", "deals", "actions")


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("scope", ("deal", "partiya"))
def test_simulate_determinism_and_totals(rules, scope):
    n = 300
    game = Game(rules, scope=scope)
    a = simulate(game, n, seed=3, threads=1)
    b = simulate(game, n, seed=3, threads=2)
    c = simulate(game, n, seed=3)
    assert list(a) == ["scores", "returns", "winner", "first_dealer", "deals", "actions", *POINT_SOURCES]
    assert a["returns"].shape == (n, 2) and a["returns"].dtype == np.float64
    for key in KEYS_BY_PLAYER:
        assert a[key].shape == (n, 2) and a[key].dtype == np.int32, key
    for key in KEYS_BY_GAME:
        assert a[key].shape == (n,), key
    assert a["winner"].dtype == np.int8 and a["first_dealer"].dtype == np.int8
    for key in a:
        assert np.array_equal(a[key], b[key]) and np.array_equal(a[key], c[key]), key
    assert not np.array_equal(a["scores"], simulate(game, n, seed=4)["scores"])
    total = sum(a[k] for k in POINT_SOURCES)
    assert np.array_equal(total, a["scores"])
    assert (a["returns"][:, 0] == -a["returns"][:, 1]).all()
    won = a["winner"] >= 0
    assert (a["returns"][won, a["winner"][won]] > 0).all() and (a["returns"][~won] == 0).all()
    assert set(np.unique(a["first_dealer"])) <= {0, 1}
    if scope == "deal":
        assert (a["deals"] == 1).all()
        assert np.array_equal(a["returns"][:, 0], a["scores"][:, 0] - a["scores"][:, 1])
    else:
        assert (a["deals"] >= 2).all()
    assert (a["actions"] >= 2 + 24 + 24).all()


def test_simulate_policies():
    # Russian: every deal scores 12 leads and 12 tricks (the lead point and the trick point).
    deal = Game(scope="deal")
    r = simulate(deal, 200, players="first", seed=5)
    assert (r["play"].sum(axis=1) >= 12 + 12).all()
    assert np.array_equal(simulate(deal, 200, players=("first", "first"), seed=5)["scores"], r["scores"])
    mixed = simulate(deal, 200, players=["first", "random"], seed=5)
    assert not np.array_equal(mixed["scores"], r["scores"])


def test_simulate_arguments():
    deal = Game(scope="deal")
    assert simulate(deal, 0)["scores"].shape == (0, 2)
    assert simulate(Game(Rules.rubicon(), scope="deal"), 5, seed=-1)["scores"].shape == (5, 2)
    with pytest.raises(ValueError, match="1 or 2 policies"):
        simulate(deal, 5, players=("random", "random", "random"))
    with pytest.raises(ValueError, match="unknown player"):
        simulate(deal, 5, players=("random", "nobody"))
    with pytest.raises(ValueError):
        Game(scope="rubber")
    with pytest.raises(TypeError, match="scope"):
        Game(scope=5)
    with pytest.raises(TypeError, match="piquet Game"):
        simulate(cribbage.Game(), 5)
    for huge in (10**30, -(10**30), -1):
        with pytest.raises(ValueError, match="n_games"):
            simulate(deal, huge)
    with pytest.raises(ValueError, match="threads"):
        simulate(deal, 5, threads=0)
    with pytest.raises(TypeError, match="n_games"):
        simulate(deal, 5.0)
    with pytest.raises(TypeError):
        simulate(deal, 5, players=3)
    with pytest.raises(TypeError):
        simulate(deal, 5, "russian")  # everything but game and n_games is keyword-only

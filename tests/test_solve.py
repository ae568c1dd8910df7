"""cribpiquet.solve (the exact play solver) and bots.PIMC: hand-checked values, the principal
variation played on the engine, errors naming the phase, reprs, seeded PIMC decisions, PIMC as a
named player, Ctrl-C."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import cribpiquet
from cribpiquet import bots, cribbage, piquet


def ids(text):
    return [c.id for c in cribbage.parse_cards(text)]


def hand_checked_position():
    """Six-card, P1 deals. P0 keeps 5H KS 4C 6C, P1 keeps TC 5S 7C 2C, starter QH; after P0 4C,
    P1 TC, P0 KS, P1 7C (31) P0 leads a new count with 5H 6C against 5S 2C."""
    s = cribbage.Game("six-card", target=10_000).new_initial_state()
    for a in ids("KC AC"):
        s.apply_action(a)
    p0, p1 = ids("5H KS 2D 3D 4C 6C"), ids("TC 5S 9D 8D 7C 2C")
    for a, b in zip(p0, p1):
        s.apply_action(a)
        s.apply_action(b)
    s.apply_action(cribbage.pair_action(p0[2], p0[3]))
    s.apply_action(cribbage.pair_action(p1[2], p1[3]))
    for a in ids("QH 4C TC KS 7C"):
        s.apply_action(a)
    return s


def test_a_hand_checked_solution():
    s = hand_checked_position()
    before = s.serialize()
    sol = cribpiquet.solve(s)
    # Both leads peg 3 for P1 (5H: 5S pairs, 2C takes the last card; 6C: 2C, 5H, 5S pairs and
    # takes the last card) and the show is P0 9 against P1's 4 and crib 2: 0 either way.
    six_c, five_h = ids("6C 5H")
    assert sol.action_values == {six_c: 0.0, five_h: 0.0}
    assert sol.best_actions == (six_c, five_h)
    assert sol.value == 0.0
    assert sol.principal_variation == tuple(ids("5H 5S 6C 2C"))
    assert sol.objective == "points" and sol.nodes >= 1
    assert repr(sol) == (
        f"Solution(value=0.0, objective='points', best_actions=[6C 5H], principal_variation=[5H 5S 6C 2C], nodes={sol.nodes})"
    )
    assert s.serialize() == before
    with pytest.raises(AttributeError):
        sol.value = 1.0  # type: ignore[misc]


def random_play_states(game, n, seed):
    import random

    rng = random.Random(seed)
    out = []
    s = game.new_initial_state()
    while len(out) < n:
        if s.is_terminal():
            s = game.new_initial_state()
        if s.phase == "play" and not s.is_chance_node() and rng.random() < 0.3:
            out.append(s.clone())
        s.apply_action(rng.choice(s.legal_actions()))
    return out


@pytest.mark.parametrize("variant", ["six-card", "five-card", "three-player", "four-player"])
def test_the_principal_variation_is_worth_the_value(variant):
    game = cribbage.Game(variant, target=10_000)
    for s in random_play_states(game, 15, seed=1):
        sol = cribpiquet.solve(s, objective="points")
        assert sorted(sol.action_values) == s.legal_actions()
        assert sol.value == max(sol.action_values.values())
        assert list(sol.best_actions) == [a for a, v in sorted(sol.action_values.items()) if v == sol.value]
        mover = s.current_player()
        t = s.clone()
        start = t.scores()
        for a in sol.principal_variation:
            t.apply_action(a)
        assert t.phase != "play" or t.is_terminal()
        gain = [x - y for x, y in zip(t.scores(), start)]
        # The other side's players (four-player: partners share a score, so seat parity).
        others = [p for p in range(len(gain)) if (p - mover) % 2 != 0 or (variant != "four-player" and p != mover)]
        assert gain[mover] - max(gain[p] for p in others) == sol.value


def test_win_values_are_chances():
    for s in random_play_states(cribbage.Game("five-card"), 10, seed=2):
        sol = cribpiquet.solve(s, objective="win")
        assert all(0.0 <= v <= 1.0 for v in sol.action_values.values())
        assert sol.objective == "win"


def test_other_phases_and_bad_arguments_are_refused():
    s = cribbage.Game().new_initial_state()
    with pytest.raises(ValueError, match=r"not the cut phase \(a chance node\)"):
        cribpiquet.solve(s)
    while s.phase != "discard":
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(ValueError, match="not the discard phase"):
        cribpiquet.solve(s)
    play = hand_checked_position()
    with pytest.raises(ValueError, match="objective must be 'points' or 'win', got \"nope\""):
        cribpiquet.solve(play, objective="nope")
    with pytest.raises(TypeError, match="objective must be a str"):
        cribpiquet.solve(play, objective=3)
    with pytest.raises(TypeError, match="solve needs a cribbage or piquet State, got int 3"):
        cribpiquet.solve(3)


# -------------------------------------------------------------------------------------- PIMC


def decision_states(game, n, seed):
    import random

    rng = random.Random(seed)
    out = []
    s = game.new_initial_state()
    while len(out) < n:
        if s.is_terminal():
            s = game.new_initial_state()
        legal = s.legal_actions()
        if not s.is_chance_node() and len(legal) > 1 and rng.random() < 0.2:
            out.append(s.clone())
        s.apply_action(rng.choice(legal))
    return out


@pytest.mark.parametrize("variant", ["six-card", "five-card", "three-player", "four-player"])
def test_pimc_plays_legal_actions_and_is_seeded(variant):
    states = decision_states(cribbage.Game(variant), 6, seed=3)
    a = bots.PIMC(worlds=4, seed=7, inference=False)
    b = bots.PIMC(worlds=4, seed=7, inference=False, threads=2)
    first = [a.action_values(s) for s in states]
    assert first == [b.action_values(s) for s in states]  # the thread count changes nothing
    for s, values in zip(states, first):
        assert sorted(values) == s.legal_actions()
        assert all(0.0 <= v <= 1.0 for v in values.values())
    a.restart()
    assert [a.action_values(s) for s in states] == first
    for s in states:
        before = s.serialize()
        action = a.step(s)
        values = a.action_values(s)
        assert action in s.legal_actions()
        assert s.serialize() == before
    play = hand_checked_position()
    # One world in a position whose hidden cards change nothing of the play's points.
    assert bots.PIMC(worlds=3, objective="points", inference=False).step(play) in play.legal_actions()


def test_pimc_settings_repr_and_names():
    assert repr(bots.PIMC()) == (
        "PIMC(worlds=100, objective='win', threads=1, seed=0, time_limit=None, inference=True, before_play='exact')"
    )
    b = bots.PIMC(worlds=20, objective="points", threads=2, seed=3, time_limit=0.5, inference=False, before_play="worlds")
    assert repr(b) == (
        "PIMC(worlds=20, objective='points', threads=2, seed=3, time_limit=0.5, inference=False, before_play='worlds')"
    )
    assert repr(bots.PIMC(before_play=" Exact+Play ")).endswith("before_play='exact+play')")
    with pytest.raises(ValueError, match="before_play must be one of 'exact', 'exact\\+play', 'worlds', 'ismcts', got \"all\""):
        bots.PIMC(before_play="all")
    with pytest.raises(TypeError, match="before_play"):
        bots.PIMC(before_play=1)
    assert bots.PIMC(worlds=20).name == "pimc:20"
    assert isinstance(bots.PIMC(), bots.Bot)
    with pytest.raises(ValueError, match="worlds"):
        bots.PIMC(worlds=0)
    with pytest.raises(ValueError, match="objective must be 'points' or 'win'"):
        bots.PIMC(objective="draw")
    with pytest.raises(TypeError, match="inference must be a bool"):
        bots.PIMC(inference=1)
    with pytest.raises(ValueError, match="time_limit"):
        bots.PIMC(time_limit=-1.0)
    with pytest.raises(ValueError, match="chance node"):
        bots.PIMC().step(cribbage.Game().new_initial_state())


def test_pimc_values_a_discard_or_an_exchange_by_greedy_exactly_by_default():
    # "exact": Greedy's exact values (points), no worlds; "exact+play" adds the mean solved play
    # (a pegging or trick-play difference of a few points); "worlds" values each world's line.
    for game in [cribbage.Game("six-card"), cribbage.Game("five-card"), piquet.Game("russian", scope="deal")]:
        states = [s for s in decision_states(game, 40, seed=11) if s.phase in ("discard", "exchange")][:3]
        assert states, game
        for s in states:
            greedy = bots.Greedy().action_values(s)
            assert bots.PIMC(objective="points").action_values(s) == greedy
            best = max(greedy.values())
            assert greedy[bots.PIMC(objective="points").step(s)] == best
            assert bots.PIMC().step(s) == bots.PIMC(objective="points").step(s)
            if isinstance(game, cribbage.Game):
                with_play = bots.PIMC(worlds=4, objective="points", before_play="exact+play").action_values(s)
                assert sorted(with_play) == sorted(greedy)
                assert all(abs(with_play[a] - greedy[a]) < 20 for a in greedy)
                assert any(with_play[a] != greedy[a] for a in greedy)
                worlds = bots.PIMC(worlds=4, objective="points", before_play="worlds").action_values(s)
                assert sorted(worlds) == sorted(greedy) and worlds != greedy


def test_pimc_can_hand_the_decisions_before_the_play_to_ismcts():
    # before_play="ismcts": a discard or an exchange is IS-MCTS(2000)'s (same seed, same answer).
    for game in [cribbage.Game("five-card"), piquet.Game("russian", scope="deal")]:
        s = next(s for s in decision_states(game, 40, seed=12) if s.phase in ("discard", "exchange"))
        pimc, ismcts = bots.PIMC(before_play="ismcts", seed=5), bots.ISMCTS(iterations=2000, seed=5)
        assert pimc.step(s) == ismcts.step(s)
        assert pimc.action_values(s) == ismcts.action_values(s)


def test_pimc_plays_a_partiya_for_points_until_its_last_deal():
    # Early in a partiya the deal won is not the match: the worlds are solved for points
    # (shown on the win scale ½ + ½·tanh(x / 40)); the deal that ends it, for the match.
    import math

    game = piquet.Game("russian", scope="partiya")
    s = next(s for s in decision_states(game, 200, seed=13) if s.phase == "play" and len(s.legal_actions()) > 1)
    values = bots.PIMC(worlds=1, seed=3, inference=False).action_values(s)
    points = bots.PIMC(worlds=1, seed=3, inference=False, objective="points").action_values(s)
    for a, v in values.items():
        assert math.isclose(v, 0.5 + 0.5 * math.tanh(points[a] / 40), rel_tol=0, abs_tol=1e-12)


def test_pimc_by_name_in_simulate_and_the_arena():
    game = cribbage.Game("five-card")
    out = cribbage.simulate(game, 2, players=["pimc:3", "greedy"], seed=1)
    assert len(out["winner"]) == 2
    result = cribpiquet.arena(game, ["pimc:2", "random"], 2, seed=1)
    assert result.players == ("pimc:2", "random")
    with pytest.raises(ValueError, match="pimc:N needs a number of worlds"):
        cribbage.simulate(game, 1, players=["pimc:x", "random"])


def test_pimc_plays_piquet_with_the_double_dummy_solver():
    for rules, scope in [("russian", "deal"), ("rubicon", "partiya")]:
        for s in decision_states(piquet.Game(rules, scope=scope), 3, seed=4):
            bot = bots.PIMC(worlds=3, inference=False, objective="points", seed=2)
            values = bot.action_values(s)
            assert sorted(values) == s.legal_actions()
            action = bot.step(s)
            assert action in s.legal_actions()
            assert values[action] == max(values.values())
            one, two = (bots.PIMC(worlds=3, inference=False, objective="points", seed=2, threads=k) for k in (1, 2))
            assert one.step(s) == two.step(s)  # the same for a seed whatever the threads


def test_pimc_stops_on_ctrl_c():
    s = decision_states(cribbage.Game("six-card"), 1, seed=5)[0]
    bot = bots.PIMC(worlds=50_000_000, inference=False, before_play="worlds")  # hours of work
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        bot.step(s)
    elapsed = time.monotonic() - started
    timer.cancel()
    assert elapsed < 5, elapsed
    # The bot still works afterwards.
    assert bots.PIMC(worlds=2, inference=False).step(s) in s.legal_actions()


def first_leads(game, n, seed):
    """`n` states of `game` at a deal's first lead (random exchanges and announcements)."""
    import random

    rng = random.Random(seed)
    out = []
    s = game.new_initial_state()
    while len(out) < n:
        if s.is_terminal():
            s = game.new_initial_state()
        if s.phase == "play" and not s.plays() and s.current_player() >= 0:
            out.append(s.clone())
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return out


def all_points(state):
    by_source = state.points_by_source()
    return [sum(by_source[k][p] for k in by_source) for p in (0, 1)]


@pytest.mark.parametrize("rules", ["russian", "rubicon"])
@pytest.mark.parametrize("scope", ["deal", "partiya"])
def test_points_at_a_first_lead_are_the_principal_variation_played_out(rules, scope):
    """Issue 30, item 4: from a deal's first lead the points value is what the principal
    variation scores on the engine to the end of the deal — under the rubicon timing the
    dealer's declarations, credited after elder's lead, included — and every action's value is
    what it scores now plus the value after it."""
    pending = 0
    for s in first_leads(piquet.Game(rules, scope=scope), 12, seed=30):
        me = s.current_player()
        sol = cribpiquet.solve(s)
        end = s.clone()
        for a in sol.principal_variation:
            end.apply_action(a)
        before, after = all_points(s), all_points(end)
        assert sol.value == (after[me] - before[me]) - (after[1 - me] - before[1 - me])
        for a, v in list(sol.action_values.items())[:3]:
            t = s.clone()
            t.apply_action(a)
            now = all_points(t)
            r = (now[me] - before[me]) - (now[1 - me] - before[1 - me])
            rest = cribpiquet.solve(t).value
            assert v == (r + rest if t.current_player() == me else r - rest)
        t = s.clone()
        t.apply_action(sol.principal_variation[0])
        pending += all_points(t)[1 - me] != all_points(s)[1 - me]
    if rules == "rubicon":
        assert pending > 0  # some first leads had the dealer's declarations still to credit

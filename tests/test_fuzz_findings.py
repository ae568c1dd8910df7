"""What the fuzz suite (tests/test_fuzz.py) found beyond issue 8's list, each pinned by a direct
test: an `__index__` object beyond 64 bits, huge ints named as given, a lying `__len__`, long
reprs echoed whole, `round_record` at the 64-bit limits, and inclusive id ranges in messages."""

from __future__ import annotations

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
# Indexable: an int-like object (`operator.index` works on it); BadLen: a list whose `__len__`
# lies (a buffer sized from it would be 2**62 items).
from fuzz_values import BadLen, Indexable


GAMES = [cribbage.Game("six-card"), piquet.Game()]


@pytest.mark.parametrize("game", GAMES, ids=["cribbage", "piquet"])
def test_an_index_object_beyond_64_bits_is_a_value_error_naming_the_argument(game):
    state = game.new_initial_state()
    before = state.serialize()
    for method in ("hand", "kept", "discards", "player_return", "information_state_string"):
        with pytest.raises(ValueError, match=r"no player 2\*\*63 or more in (cribbage|piquet) \(players are 0\.\.1\)$"):
            getattr(state, method)(Indexable(2**64))
        with pytest.raises(TypeError, match=r"^player must be an int, got Indexable Indexable\(OverflowError"):
            getattr(state, method)(Indexable(OverflowError("index")))
    for method in ("apply_action", "child"):
        with pytest.raises(ValueError, match=r"illegal action 65-bit int 18446744073709551616"):
            getattr(state, method)(Indexable(2**64))
        with pytest.raises(TypeError, match=r"^action must be an int, got Indexable"):
            getattr(state, method)(Indexable(OverflowError("index")))
    assert state.serialize() == before


@pytest.mark.parametrize("game", GAMES, ids=["cribbage", "piquet"])
def test_undo_action_names_a_huge_action_as_given(game):
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(first)
    with pytest.raises(ValueError, match=rf"^undo_action: the last action is {first}, not less than -2\*\*63$"):
        state.undo_action(action=-(2**64))
    with pytest.raises(ValueError, match=r"^undo_action: player must be a player id, got 2\*\*63 or more$"):
        state.undo_action(player=2**70, action=first)
    assert state.history() == [first]
    assert state.undo_action(action=first) == first


def test_rules_replace_never_trusts_len():
    with pytest.raises(ValueError, match=r"^rule sequence_values needs 6 values \(lengths 3\.\.8\), got more than 6$"):
        piquet.Rules.russian().replace(sequence_values=BadLen([3, 4, 15, 16, 17, 18, 19]))
    # The same six values in a lying list are read by iteration, so they are accepted as given.
    r = piquet.Rules.russian().replace(sequence_values=BadLen([3, 4, 15, 16, 17, 18]))
    assert r.sequence_values == (3, 4, 15, 16, 17, 18)
    with pytest.raises(TypeError, match="rule sequence_values must be a sequence of 6 ints, got '345678'"):
        piquet.Rules.russian().replace(sequence_values="345678")


def test_long_reprs_are_cut_in_messages():
    huge = "5H " * 100_000
    for call in (
        lambda: piquet.Partiya().add_game(47, huge),
        lambda: piquet.Partie().add_deal([huge], 3),
        lambda: piquet.Partie.from_totals(huge),
        lambda: piquet.Game(rules=[huge]),
        lambda: piquet.Rules.russian().replace(deals_per_partie=huge),
    ):
        with pytest.raises(TypeError) as e:
            call()
        assert len(str(e.value)) < 200, str(e.value)[:300]
        assert "…" in str(e.value)


def test_round_record_at_the_64_bit_limits_is_exact_or_an_error():
    assert piquet.round_record(9_223_372_036_854_775_794) == 9_223_372_036_854_775_790
    assert piquet.round_record(-9_223_372_036_854_775_800) == -9_223_372_036_854_775_800
    # Halves up would give ...810, which is not a 64-bit int: an error, not a saturated ...800.
    with pytest.raises(ValueError, match=r"round_record\(9223372036854775806\) is 9223372036854775810"):
        piquet.round_record(9_223_372_036_854_775_806)
    with pytest.raises(ValueError, match="beyond the 64-bit range"):
        piquet.round_record(-(2**63))


def test_id_ranges_in_messages_are_inclusive():
    cs, ps = cribbage.Game().new_initial_state(), piquet.Game().new_initial_state()
    with pytest.raises(ValueError, match=r"no cribbage action 1379 \(ids are 0\.\.1378\)"):
        cs.action_to_string(1379)
    with pytest.raises(ValueError, match=r"no piquet action 43 \(ids are 0\.\.42\)"):
        ps.action_to_string(43)
    with pytest.raises(ValueError, match=r"not a two-card discard \(those are 52\.\.1377\)"):
        cribbage.action_pair(1378)


def test_batch_crib_flag_is_a_bool_named_in_the_error():
    import numpy as np

    hands, starters = np.array([[1, 2, 3, 4]]), np.array([5])
    for fn in (cribbage.score_hand_batch, cribbage.explain_hand_batch):
        with pytest.raises(TypeError, match=r"^crib must be a bool, got int 1$"):
            fn(hands, starters, crib=1)
    assert cribbage.score_hand_batch(hands, starters, crib=True).tolist() == [cribbage.score_hand([1, 2, 3, 4], 5, crib=True)]


# ------------------------------------------------------------ the newer surface (issue 19)


def test_distributed_reads_players_once_and_never_trusts_len():
    """distributed.simulate / arena checked a generator of players (using it up) and then sent
    the empty rest to the workers; a list with a lying ``__len__`` was a MemoryError."""
    pytest.importorskip("dask.array")
    from cribpiquet import distributed

    assert distributed._players_once((p for p in ["random", "first"])) == ["random", "first"]
    assert distributed._players_once(BadLen(["first", "random"])) == ["first", "random"]
    assert distributed._players_once("random") == "random"
    from itertools import count

    assert distributed._players_once(count()) == [0, 1, 2, 3, 4]  # an endless iterable: five read, the check refuses it
    six = cribbage.Game("six-card")
    # every argument checked, nothing submitted: with no client the call stops at the client
    for players in [(p for p in ["random", "first"]), BadLen(["first", "random"])]:
        with pytest.raises(ValueError, match="no Dask client"):
            distributed.arena(six, players, 10)
    with pytest.raises(ValueError, match="the arena needs 2 players"):
        distributed.arena(six, (p for p in ["random"] * 9), 10)


def test_openspiel_observer_type_is_checked():
    pyspiel = pytest.importorskip("pyspiel")
    from cribpiquet import openspiel

    openspiel.register()
    game = pyspiel.load_game(openspiel.CRIBBAGE, {"variant": "five-card"})
    with pytest.raises(TypeError, match=r"^iig_obs_type must be a pyspiel.IIGObservationType or None, got list$"):
        game.make_py_observer([1e300])
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.tensor.shape == (game.cribpiquet_game.information_state_tensor_size(),)
    assert game.make_py_observer(None).tensor.shape == (game.cribpiquet_game.observation_tensor_size(),)


def test_distributed_batches_refuse_object_data_before_dask_sees_it():
    """dask cannot chunk object data: a list of cards and text was a NotImplementedError."""
    pytest.importorskip("dask.array")
    import numpy as np

    from cribpiquet import distributed

    with pytest.raises(TypeError, match=r"^sequences must hold integer card ids, got dtype object$"):
        distributed.peg_points_batch([cribbage.Card(1), cribbage.Card(50), "x" * 100])
    with pytest.raises(TypeError, match=r"^hands must hold integer card ids, got dtype <U2$"):
        distributed.score_hand_batch([["5H", "5D", "5S", "JC"]], [4])
    with pytest.raises(ValueError, match=r"^elder must be a 2-d array of card ids, got list \[\[1, 2\], \[3\]\]$"):
        distributed.score_declarations_batch([[1, 2], [3]], np.zeros((2, 12), np.int64))
    lazy = distributed.peg_points_batch(np.array([[2, 1, 4, 0, 3], [4, 17, 30, -1, -1]]))
    assert lazy.compute(scheduler="synchronous").tolist() == [7, 8]


def test_distributed_counts_refuse_a_failing_index_with_a_type_error():
    pytest.importorskip("dask.array")
    from cribpiquet import distributed

    six = cribbage.Game("six-card")
    for bad in (Indexable(OverflowError("index")), Indexable(KeyError("x"))):
        with pytest.raises(TypeError, match=r"^n_games must be an int, got Indexable Indexable\("):
            distributed.arena(six, ["random", "first"], bad)
        with pytest.raises(TypeError, match=r"^chunk_games must be an int, got Indexable"):
            distributed.simulate(six, 5, chunk_games=bad)


def test_arena_combine_reads_item_by_item_and_progress_is_echoed_short():
    from cribpiquet import ArenaResult, arena

    five = cribbage.Game("five-card", target=31)
    r = arena(five, ["first", "random"], 3, progress=False)
    assert ArenaResult.combine(BadLen([r, r])).games == 6  # a lying __len__ is not trusted
    from itertools import count

    with pytest.raises(TypeError, match=r"^combine needs ArenaResult values, got int$"):
        ArenaResult.combine(count())  # garbage stops the read at once
    with pytest.raises(TypeError) as e:
        arena(five, ["first", "random"], 3, progress="x" * 100_000)
    assert len(str(e.value)) < 100 and str(e.value).startswith("progress must be a bool, got str 'xxx")


def test_env_arguments_are_checked_and_out_of_order_calls_are_clear():
    pytest.importorskip("pettingzoo")
    from cribpiquet.envs import _aec, cribbage_v0, piquet_v0

    with pytest.raises(TypeError, match=r"^game must be a cribbage.Game or a piquet.Game, got tuple \(1, 2\)$"):
        _aec.CribpiquetAEC((1, 2), name="x")
    with pytest.raises(ValueError) as e:
        piquet_v0.raw_env(reward="5H " * 100_000)
    assert len(str(e.value)) < 120
    with pytest.raises(TypeError, match=r"^env must be a CribpiquetAEC \(raw_env\(\)\), got int 5$"):
        _aec.wrap(5)
    env = cribbage_v0.raw_env(variant="five-card", target=31)
    assert env.num_agents == 0
    with pytest.raises(RuntimeError, match=r"^call reset\(\) before last\(\)"):
        env.last()
    for seed in (False, 1.5, "3"):
        with pytest.raises(TypeError, match="^seed must be an int"):
            env.reset(seed=seed)
    env.reset(seed=7)
    assert env.num_agents == 2
    # play to the end and let every agent leave: last() then says so
    rng = __import__("random").Random(1)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(list(np.flatnonzero(env.observe(agent)["action_mask"])))))
    with pytest.raises(ValueError, match=r"has left the game \(every agent is done\): call reset\(\) to play again$"):
        env.last()

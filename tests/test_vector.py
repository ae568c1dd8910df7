"""cribpiquet.vector.VectorGame: the same games as a sequential loop over ``State`` objects, the
batch's shapes and buffers, determinism whatever the threads, and errors that change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
from cribpiquet.vector import Batch, VectorGame

GAMES = {
    "five-card": cribbage.Game("five-card", target=31),
    "six-card": cribbage.Game("six-card", target=41),
    "four-player": cribbage.Game("four-player", target=31),
    "piquet-deal": piquet.Game(scope="deal"),
    "rubicon-partie": piquet.Game("rubicon", scope="partiya"),
}


def _tensor(state, mode: str, player: int) -> np.ndarray:
    if mode == "information_state":
        return state.information_state_tensor(player)
    return state.observation_tensor(player)


@pytest.mark.parametrize("auto_reset", [True, False], ids=["auto_reset", "no_reset"])
@pytest.mark.parametrize("mode", ["information_state", "observation"])
@pytest.mark.parametrize("name", list(GAMES))
def test_a_vector_steps_as_a_sequential_loop_of_states(name, mode, auto_reset):
    """Each row of the vector is what a plain loop over one ``State`` gives with the same actions
    (the chance outcomes are read from the vector's recorded history): state, player to move,
    mask, rewards (summed over the action and the chance events after it), termination, returns
    and the tensor."""
    game = GAMES[name]
    n, p = 9, game.num_players()
    v = VectorGame(game, n, seed=4, threads=2, observation=mode, auto_reset=auto_reset, record_history=True)
    b = v.reset()
    seq = [game.new_initial_state() for _ in range(n)]
    opening = [np.zeros(p, np.float32) for _ in range(n)]
    for i in range(n):
        for a in v.state(i).history():  # the deal, up to the first decision
            seq[i].apply_action(a)
            opening[i] += np.float32(seq[i].rewards())
        np.testing.assert_array_equal(b.rewards[i], opening[i])
        opening[i][:] = 0
    ended = 0
    for step in range(250 if name == "rubicon-partie" else 90):
        for i, s in enumerate(seq):
            assert v.state(i) == s
            assert b.current_player[i] == s.current_player()
            np.testing.assert_array_equal(b.legal_mask[i], s.legal_actions_mask())
            if s.is_terminal():
                assert not b.observation[i].any()
            else:
                np.testing.assert_array_equal(b.observation[i], _tensor(s, mode, s.current_player()))
        actions = v.sample_legal(seed=step)
        b = v.step(actions)
        for i, s in enumerate(seq):
            if s.is_terminal():  # over and kept (auto_reset=False): nothing moves
                assert actions[i] == -1 and b.terminated[i] and not b.rewards[i].any()
                continue
            rewards = opening[i].copy()
            opening[i][:] = 0
            before = len(s.history())
            s.apply_action(int(actions[i]))
            rewards += np.float32(s.rewards())
            recorded = v.state(i).history()
            # The chance outcomes the vector drew after the action (a new game's, if it ended).
            if not b.terminated[i] or not auto_reset:
                for a in recorded[before + 1 :]:
                    s.apply_action(a)
                    rewards += np.float32(s.rewards())
            else:
                while s.is_chance_node():  # finish the ended game's own chance events: none
                    raise AssertionError("a game ended at a chance node")
            assert b.terminated[i] == s.is_terminal()
            np.testing.assert_array_equal(b.rewards[i], rewards)
            np.testing.assert_array_equal(b.returns[i], np.float32(s.returns()))
            if s.is_terminal():
                ended += 1
                assert any(s.returns()) or name.startswith("piquet")
                if auto_reset:
                    seq[i] = s = game.new_initial_state()
                    for a in recorded:
                        s.apply_action(a)
                        opening[i] += np.float32(s.rewards())
    assert ended > 0


def test_batch_shapes_dtypes_and_reused_read_only_buffers():
    game = cribbage.Game("six-card")
    v = VectorGame(game, 5, seed=1)
    assert (len(v), v.n, v.num_players, v.num_actions) == (5, 5, 2, 1379)
    assert (v.observation, v.observation_shape, v.auto_reset, v.record_history, v.threads) == (
        "information_state",
        (1293,),
        True,
        False,
        None,
    )
    b = v.reset()
    assert isinstance(b, Batch)
    assert (b.current_player.shape, b.current_player.dtype) == ((5,), np.int32)
    assert (b.legal_mask.shape, b.legal_mask.dtype) == ((5, 1379), np.bool_)
    assert (b.rewards.shape, b.rewards.dtype) == ((5, 2), np.float32)
    assert (b.terminated.shape, b.terminated.dtype) == ((5,), np.bool_)
    assert (b.returns.shape, b.returns.dtype) == ((5, 2), np.float32)
    assert (b.observation.shape, b.observation.dtype) == ((5, 1293), np.float32)
    # Every row is at the discard: 15 two-card discards of six cards.
    assert b.legal_mask.sum(axis=1).tolist() == [15] * 5
    with pytest.raises(ValueError):
        b.legal_mask[0, 0] = True
    snapshot = b.copy()
    assert snapshot.legal_mask.flags.writeable
    mask_before = b.legal_mask.copy()
    b2 = v.step(v.sample_legal(seed=0))
    assert b2 is b  # the same views, rewritten in place
    assert not np.array_equal(b.legal_mask, mask_before)
    np.testing.assert_array_equal(snapshot.legal_mask, mask_before)
    assert "legal_mask=(5, 1379)" in repr(b)
    none = VectorGame(piquet.Game(), 3, observation=None).reset()
    assert none.observation is None and none.legal_mask.shape == (3, 43)
    assert repr(VectorGame(game, 2, observation=None)) == "VectorGame(Game('six-card', target=121), 2, observation=None, auto_reset=True)"


def _run(game, threads, steps=30, seed=9):
    v = VectorGame(game, 70, seed=seed, threads=threads, observation="observation")
    v.reset()
    out = []
    for _ in range(steps):
        out.append(v.step(v.sample_legal()).copy())
    return out


def test_the_games_are_the_same_whatever_the_threads_and_differ_by_seed():
    game = cribbage.Game("five-card")
    one, two = _run(game, 1), _run(game, 2)
    for a, b in zip(one, two):
        for field in ("current_player", "legal_mask", "rewards", "terminated", "returns", "observation"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    other = _run(game, 2, seed=10)
    assert not all(np.array_equal(a.observation, b.observation) for a, b in zip(one, other))


def test_reset_with_a_seed_replays_and_without_goes_on():
    v = VectorGame(piquet.Game(scope="deal"), 6, seed=3, record_history=True)
    v.reset()
    first = [v.state(i).history() for i in range(6)]
    v.reset()
    assert [v.state(i).history() for i in range(6)] != first
    v.reset(seed=3)
    assert [v.state(i).history() for i in range(6)] == first
    # Game i is seeded by (seed, i): a longer vector starts with the same games.
    w = VectorGame(piquet.Game(scope="deal"), 10, seed=3, record_history=True)
    w.reset()
    assert [w.state(i).history() for i in range(6)] == first


def test_sample_legal_is_uniform_legal_and_reproducible():
    v = VectorGame(cribbage.Game("six-card"), 2000, seed=0, observation=None)
    b = v.reset()
    a = v.sample_legal(seed=5)
    assert a.dtype == np.int64 and a.shape == (2000,)
    assert b.legal_mask[np.arange(2000), a].all()
    np.testing.assert_array_equal(a, v.sample_legal(seed=5))
    assert not np.array_equal(v.sample_legal(), v.sample_legal())
    # 15 discards, uniformly: each is chosen about 2000/15 = 133 times in row-relative order.
    legal = [np.flatnonzero(row) for row in b.legal_mask]
    ranks = np.array([np.searchsorted(legal[i], a[i]) for i in range(2000)])
    counts = np.bincount(ranks, minlength=15)
    assert counts.min() > 80 and counts.max() < 190, counts


def test_an_illegal_action_names_its_row_and_changes_no_game():
    v = VectorGame(cribbage.Game("six-card"), 50, seed=2, record_history=True)
    b = v.reset()
    actions = v.sample_legal(seed=1)
    states = [v.state(i) for i in range(50)]
    snapshot = b.copy()
    bad = actions.copy()
    bad[31] = cribbage.GO
    bad[40] = 10_000
    with pytest.raises(ValueError, match=r"^row 31: illegal action 1378 \(go\) in the discard phase for player \d; legal actions: \["):
        v.step(bad)
    assert [v.state(i) for i in range(50)] == states
    assert [v.state(i).history() for i in range(50)] == [s.history() for s in states]
    for field in ("current_player", "legal_mask", "observation"):
        np.testing.assert_array_equal(getattr(b, field), getattr(snapshot, field))
    bad[31] = actions[31]
    with pytest.raises(ValueError, match=r"^row 40: illegal action 10000 in the discard phase"):
        v.step(bad)
    v.step(actions)  # the good actions still apply


@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        (np.zeros(3, np.int64), ValueError, r"actions must have shape \(4,\), got \(3,\)"),
        (np.zeros((4, 1), np.int64), ValueError, r"actions must have shape \(4,\), got \(4, 1\)"),
        (np.zeros(4, np.float64), TypeError, "actions must be integers, got dtype float64"),
        (np.zeros(4, bool), TypeError, "actions must be integers, got dtype bool"),
        ("abcd", TypeError, "actions must be integers"),
    ],
)
def test_bad_actions_arguments(actions, error, message):
    v = VectorGame(cribbage.Game(), 4)
    v.reset()
    with pytest.raises(error, match=message):
        v.step(actions)


def test_actions_of_any_int_dtype_or_a_list():
    v = VectorGame(cribbage.Game(), 4, observation=None)
    v.reset()
    a = v.sample_legal(seed=0)
    w = VectorGame(cribbage.Game(), 4, observation=None)
    w.reset()
    np.testing.assert_array_equal(v.step(a.astype(np.uint16)).legal_mask, w.step(a.tolist()).legal_mask)


def test_bad_constructor_arguments_and_step_before_reset():
    game = cribbage.Game()
    with pytest.raises(TypeError, match="VectorGame needs a cribbage or piquet Game, got str"):
        VectorGame("six-card", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n must be in range\(1, "):
        VectorGame(game, 0)
    with pytest.raises(TypeError, match="n must be an int"):
        VectorGame(game, True)
    with pytest.raises(ValueError, match="observation must be .* got \"pixels\""):
        VectorGame(game, 3, observation="pixels")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="observation must be"):
        VectorGame(game, 3, observation=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"threads must be in range\(1, 1025\)"):
        VectorGame(game, 3, threads=0)
    with pytest.raises(TypeError, match="auto_reset must be a bool"):
        VectorGame(game, 3, auto_reset=1)  # type: ignore[arg-type]
    v = VectorGame(game, 3)
    with pytest.raises(ValueError, match=r"call reset\(\) before the first step"):
        v.step([0, 0, 0])
    with pytest.raises(ValueError, match=r"i must be in range\(0, 3\), got 3"):
        v.state(3)


def test_without_auto_reset_finished_games_wait():
    game = cribbage.Game("five-card", target=5)
    v = VectorGame(game, 20, seed=1, auto_reset=False)
    b = v.reset()
    for _ in range(200):
        b = v.step(v.sample_legal())
    assert b.terminated.all() and (b.current_player == cribbage.TERMINAL).all()
    assert not b.legal_mask.any() and not b.observation.any() and not b.rewards.any()
    np.testing.assert_array_equal(b.returns, np.float32([v.state(i).returns() for i in range(20)]))
    assert set(np.abs(b.returns).ravel().tolist()) == {1.0}
    b = v.step(np.full(20, -1))  # the actions of finished games are ignored
    assert b.terminated.all()


def test_the_python_modules_docstring_examples():
    import doctest

    import cribpiquet.vector

    modules = [cribpiquet.vector]
    try:
        import pettingzoo  # noqa: F401

        from cribpiquet.envs import cribbage_v0, piquet_v0

        modules += [cribbage_v0, piquet_v0]
    except ImportError:
        pass
    for module in modules:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_the_interpreter_is_released_while_stepping_and_a_busy_vector_says_so():
    """Another Python thread runs while a step runs (the interpreter is detached), and it gets a
    clear ``RuntimeError`` if it touches the busy vector meanwhile."""
    import threading
    import time

    v = VectorGame(piquet.Game(), 100_000, seed=0, observation=None, threads=1)
    v.reset()
    windows: list[tuple[float, float]] = []

    def stepper() -> None:
        for _ in range(6):
            actions = v.sample_legal()
            start = time.perf_counter()
            v.step(actions)
            windows.append((start, time.perf_counter()))

    t = threading.Thread(target=stepper)
    stamps, busy = [], []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
        try:
            v.state(0)
        except RuntimeError as e:
            busy.append(str(e))
    t.join()
    inside = [s for s in stamps if any(a < s < b for a, b in windows)]
    assert inside, "no Python ran while a step ran"
    assert busy and busy[0] == "this VectorGame is being used by another thread; use one vector per thread"

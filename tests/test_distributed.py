"""``cribpiquet.distributed``: the same results as the local calls, computed on a Dask cluster.

The first tests (``simulate(first_game=)``, the missing-Dask message) need no Dask; the rest run on
one module-scoped ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from cribpiquet import cribbage, piquet

# ------------------------------------------------------------------- simulate(first_game=)


@pytest.mark.parametrize(
    "game", [cribbage.Game("six-card"), cribbage.Game("four-player"), piquet.Game("rubicon", scope="deal")], ids=repr
)
def test_first_game_plays_the_rows_of_a_longer_run(game):
    sim = cribbage.simulate if isinstance(game, cribbage.Game) else piquet.simulate
    whole = sim(game, 500, seed=9, players="random")
    for a, n in [(0, 500), (0, 1), (137, 200), (499, 1), (500, 0)]:
        part = sim(game, n, seed=9, first_game=a)
        assert list(part) == list(whole)
        for key, column in whole.items():
            np.testing.assert_array_equal(part[key], column[a : a + n], err_msg=key)
    # Consecutive ranges concatenate to the whole run; another seed gives other games.
    pieces = [sim(game, 250, seed=9, first_game=a, threads=1) for a in (0, 250)]
    np.testing.assert_array_equal(np.concatenate([p["scores"] for p in pieces]), whole["scores"])
    assert not np.array_equal(sim(game, 200, seed=10, first_game=137)["scores"], whole["scores"][137:337])


def test_first_game_far_out_and_its_bad_values():
    six = cribbage.Game("six-card")
    far = cribbage.simulate(six, 3, seed=1, first_game=2**62)
    assert far["scores"].shape == (3, 2) and (far["scores"].max(axis=1) >= 121).all()
    assert cribbage.simulate(six, 1, seed=1, first_game=2**62 + 2)["actions"][0] == far["actions"][2]
    assert cribbage.simulate(six, 0, first_game=2**63 - 2)["scores"].shape == (0, 2)
    for bad in (-1, 2**63 - 1, 2**63, 2**70):
        with pytest.raises(ValueError, match="first_game must be in range"):
            cribbage.simulate(six, 1, first_game=bad)
    for bad in (True, 1.0, "3"):
        with pytest.raises(TypeError, match="first_game must be an int"):
            piquet.simulate(piquet.Game(), 1, first_game=bad)

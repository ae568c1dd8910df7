"""Many games stepped at once in Rust, for reinforcement learning: :class:`VectorGame`.

``VectorGame(game, n, *, seed=0, threads=None, observation="information_state",
auto_reset=True, record_history=False)`` holds ``n`` states of a ``cribbage.Game`` or a
``piquet.Game``. :meth:`VectorGame.reset` deals them, :meth:`VectorGame.step` applies one
action per game (chance events are sampled inside, from one generator per game seeded by
``(seed, i)``, so the result does not depend on ``threads``) and both return a :class:`Batch`
of numpy arrays: ``current_player`` (n,), ``legal_mask`` (n, A), ``rewards`` (n, P),
``terminated`` (n,), ``returns`` (n, P) and ``observation`` (n, T) or None.

**Buffers are reused**: the batch's arrays are read-only views that the next call overwrites in
place (``batch.copy()`` keeps a snapshot); :meth:`VectorGame.sample_legal` returns a new array.

>>> from cribpiquet import cribbage
>>> from cribpiquet.vector import VectorGame
>>> v = VectorGame(cribbage.Game("five-card"), 3, seed=7, observation=None)
>>> b = v.reset()
>>> b.rewards.sum(axis=1).tolist()        # five-card: three for last before the first discard
[3.0, 3.0, 3.0]
>>> for _ in range(100):
...     b = v.step(v.sample_legal())
>>> b.legal_mask.shape, b.legal_mask.flags.writeable
((3, 1379), False)
"""

from __future__ import annotations

from . import _core

#: See the module docstring.
VectorGame = _core.VectorGame
#: What :meth:`VectorGame.reset` and :meth:`VectorGame.step` return.
Batch = _core.VectorBatch

__all__ = ["Batch", "VectorGame"]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

"""PettingZoo environments of cribpiquet's games (the ``[rl]`` extra:
``pip install 'cribpiquet[rl]'``).

* :mod:`cribpiquet.envs.cribbage_v0` — ``env(variant="six-card", target=None, lurch=False, ...)``
* :mod:`cribpiquet.envs.piquet_v0` — ``env(rules="russian", scope="deal", ...)``

Both are AEC environments (turns follow the game: the player to move acts, chance events are
sampled inside), with agents ``player_0``, ``player_1``, …; see ``cribpiquet.envs._aec`` (the module the two environments share).
"""

from __future__ import annotations

__all__ = ["cribbage_v0", "piquet_v0"]

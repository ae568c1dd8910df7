"""How far the conditioned discard tables are from dealing the other hand too (issue 21).

``python benches/discard_tables_full_deal.py [deals]``: deals random six-card hands to both
players (and the starter from the 40 cards left), lets each throw by the tables' own rule (the
discard maximizing E[hand] ± the table value of the thrown kind, ``flushes=False`` tables), and
averages the real crib (no crib flush) per pone throw. The conditioned model's entries weigh the
other player's throw by kind among the cards left and leave its kept cards in the starter pool;
here both hands are dealt, so the difference, averaged over the throws as they occur, measures
that remaining simplification (with a sampling error printed alongside).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from cribpiquet import cribbage


def kinds(thrown: np.ndarray) -> np.ndarray:
    """Throw kinds of (..., 2) card ids: lo*13+hi off-suit or a pair, hi*13+lo suited."""
    r, s = thrown % 13, thrown // 13
    lo, hi = r.min(axis=-1), r.max(axis=-1)
    return np.where(s[..., 0] == s[..., 1], hi * 13 + lo, lo * 13 + hi)


def main(deals: int = 100_000) -> int:
    t = cribbage.discard_tables("six-card", flushes=False, progress=False)
    rng = np.random.default_rng(21)
    decks = np.argsort(rng.random((deals, 52)), axis=1)
    pone, dealer, starter = decks[:, :6], decks[:, 6:12], decks[:, 12]
    t0 = time.perf_counter()
    a = cribbage.analyze_discard_batch(pone, False)
    b = cribbage.analyze_discard_batch(dealer, True)
    kp, kd = kinds(a["thrown"]), kinds(b["thrown"])
    best_p = np.argmax(a["hand"] - t.values["pone"][kp], axis=1)
    best_d = np.argmax(b["hand"] + t.values["dealer"][kd], axis=1)
    rows = np.arange(deals)
    crib = np.concatenate([a["thrown"][rows, best_p], b["thrown"][rows, best_d]], axis=1).astype(np.int64)
    points = cribbage.score_hand_batch(crib, starter.astype(np.int64), crib=True).astype(float)
    flush = (crib // 13 == (starter // 13)[:, None]).all(axis=1)
    points -= 5 * flush
    kind_p = kp[rows, best_p]
    model = t.values["pone"][kind_p]
    diff = points - model
    print(f"{deals:,} deals in {time.perf_counter() - t0:.0f} s; tables: {t!r}")
    print(f"pone throws: dealt-hand crib − conditioned table entry = {diff.mean():+.3f} "
          f"± {diff.std() / np.sqrt(deals):.3f} (mean crib {points.mean():.3f}, table {model.mean():.3f})")
    dealer_model = t.values["dealer"][kd[rows, best_d]]
    diff = points - dealer_model
    print(f"dealer throws: dealt-hand crib − conditioned table entry = {diff.mean():+.3f} "
          f"± {diff.std() / np.sqrt(deals):.3f} (table {dealer_model.mean():.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))

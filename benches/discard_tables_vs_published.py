"""The six-card discard tables against published ones (issue 21), cell by cell.

``python benches/discard_tables_vs_published.py`` (needs the extension built with
``maturin develop --release``): computes ``cribbage.discard_tables("six-card", flushes=False)``
with both models and compares

* the pone table with Craig Hessel's table of discards to the opponent's crib (iterated optimal
  discards over the 18,395 rank-only six-card hands, crib flushes ignored), as printed by Michael
  Schell's *Cribbage Forum*, "Discarding to opponent's crib" (cribbageforum.com/OppCrib.htm);
* the dealer table with the *Cribbage Pro* blog's dealer discard table (averages over its
  players' real games, one decimal, 2012).

It prints, per comparison, the largest and mean absolute difference over the 91 rank pairs, the
mean signed difference (ours − theirs), the correlation and the five worst cells, as the
markdown rows of benches/README.md. The published numbers live here only, never in the library.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from cribpiquet import cribbage

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Hessel, discards to the opponent's crib (rows and columns A..K).
HESSEL_PONE = np.array([
    [6.07, 5.07, 5.17, 5.74, 6.06, 4.93, 4.95, 4.92, 4.66, 4.46, 4.72, 4.41, 4.34],
    [5.07, 6.43, 7.34, 5.44, 6.17, 5.13, 5.12, 5.03, 4.82, 4.64, 4.91, 4.60, 4.53],
    [5.17, 7.34, 6.78, 6.10, 6.85, 4.92, 5.16, 5.08, 4.82, 4.70, 4.97, 4.66, 4.59],
    [5.74, 5.44, 6.10, 6.59, 7.46, 5.47, 4.91, 5.02, 4.75, 4.55, 4.80, 4.49, 4.43],
    [6.06, 6.17, 6.85, 7.46, 9.39, 7.66, 7.08, 6.36, 6.22, 7.46, 7.75, 7.42, 7.31],
    [4.93, 5.13, 4.92, 5.47, 7.66, 7.17, 6.64, 6.05, 6.31, 4.41, 4.61, 4.29, 4.25],
    [4.95, 5.12, 5.16, 4.91, 7.08, 6.64, 7.25, 7.88, 5.46, 4.44, 4.73, 4.44, 4.38],
    [4.92, 5.03, 5.08, 5.02, 6.36, 6.05, 7.88, 6.76, 5.97, 5.02, 4.65, 4.38, 4.31],
    [4.66, 4.82, 4.82, 4.75, 6.22, 6.31, 5.46, 5.97, 6.44, 5.52, 4.98, 4.14, 4.13],
    [4.46, 4.64, 4.70, 4.55, 7.46, 4.41, 4.44, 5.02, 5.52, 6.11, 5.60, 4.65, 3.99],
    [4.72, 4.91, 4.97, 4.80, 7.75, 4.61, 4.73, 4.65, 4.98, 5.60, 6.56, 5.55, 4.89],
    [4.41, 4.60, 4.66, 4.49, 7.42, 4.29, 4.44, 4.38, 4.14, 4.65, 5.55, 5.89, 4.56],
    [4.34, 4.53, 4.59, 4.43, 7.31, 4.25, 4.38, 4.31, 4.13, 3.99, 4.89, 4.56, 5.72],
])

# Cribbage Pro, the dealer's discards to his own crib (real games, one decimal).
CRIBBAGE_PRO_DEALER = np.array([
    [5.2, 4.4, 4.6, 5.2, 5.2, 3.7, 3.7, 3.7, 3.3, 3.3, 3.5, 3.3, 3.3],
    [4.4, 5.8, 6.9, 4.6, 5.2, 3.9, 3.9, 3.7, 3.7, 3.6, 3.8, 3.6, 3.6],
    [4.6, 6.9, 5.9, 5.0, 5.9, 3.8, 3.8, 3.9, 3.7, 3.6, 3.9, 3.7, 3.7],
    [5.2, 4.6, 5.0, 5.5, 6.3, 3.9, 3.7, 3.9, 3.6, 3.4, 3.7, 3.5, 3.5],
    [5.2, 5.2, 5.9, 6.3, 8.5, 6.4, 5.8, 5.3, 5.1, 6.3, 6.7, 6.4, 6.3],
    [3.7, 3.9, 3.8, 3.9, 6.4, 5.6, 4.9, 4.6, 4.9, 3.0, 3.2, 3.0, 2.9],
    [3.7, 3.9, 3.8, 3.7, 5.8, 4.9, 5.8, 6.4, 4.0, 3.1, 3.3, 3.1, 3.1],
    [3.7, 3.7, 3.9, 3.9, 5.3, 4.6, 6.4, 5.3, 4.5, 3.7, 3.3, 3.1, 3.0],
    [3.3, 3.7, 3.7, 3.6, 5.1, 4.9, 4.0, 4.5, 4.9, 4.1, 3.7, 2.8, 2.8],
    [3.3, 3.6, 3.6, 3.4, 6.3, 3.0, 3.1, 3.7, 4.1, 4.6, 4.3, 3.3, 2.7],
    [3.5, 3.8, 3.9, 3.7, 6.7, 3.2, 3.3, 3.3, 3.7, 4.3, 5.1, 4.5, 3.8],
    [3.3, 3.6, 3.7, 3.5, 6.4, 3.0, 3.1, 3.1, 2.8, 3.3, 4.5, 4.5, 3.4],
    [3.3, 3.6, 3.7, 3.5, 6.3, 2.9, 3.1, 3.0, 2.8, 2.7, 3.8, 3.4, 4.4],
])


def compare(ours: np.ndarray, theirs: np.ndarray, worst: int = 5) -> dict[str, object]:
    """Differences over the 91 rank pairs (the upper triangle with the diagonal)."""
    iu = np.triu_indices(13)
    d = (ours - theirs)[iu]
    order = np.argsort(-np.abs(d))[:worst]
    cells = [f"{RANKS[iu[0][i]]}-{RANKS[iu[1][i]]} {ours[iu][i]:.2f} vs {theirs[iu][i]:.2f}" for i in order]
    return {
        "max": float(np.abs(d).max()),
        "mean_abs": float(np.abs(d).mean()),
        "mean": float(d.mean()),
        "corr": float(np.corrcoef(ours[iu], theirs[iu])[0, 1]),
        "worst": cells,
    }


def main() -> int:
    for model in ("thrown-only", "conditioned"):
        start = time.perf_counter()
        t = cribbage.discard_tables("six-card", flushes=False, model=model, progress=False)
        elapsed = time.perf_counter() - start
        print(f"\n{model}: {t.iterations} iterations, last change {t.changes[-1]:.1e}, {elapsed:.1f} s")
        for name, ours, theirs in (("pone vs Hessel", t.pone, HESSEL_PONE),
                                   ("dealer vs Cribbage Pro", t.dealer, CRIBBAGE_PRO_DEALER)):
            c = compare(ours, theirs)
            print(f"| {model}: {name} | {c['max']:.2f} | {c['mean_abs']:.3f} | {c['mean']:+.3f} | "
                  f"{c['corr']:.4f} | {'; '.join(c['worst'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The hint of ``cribpiquet play``: what a bot's action values mean, and the exact analyses shown
beside them (a cribbage discard's hand and crib, a piquet exchange's cards to lay out)."""

from __future__ import annotations

from typing import Any, Callable

from . import cribbage, piquet
from ._play_cards import YOU, cards_text, is_piquet
from ._play_input import _exchange_sizes

# ---------------------------------------------------------------------------------- hints


def value_unit(bot: str, state: Any) -> tuple[str, Callable[[float], str]]:
    """What the ``bot`` bot's ``action_values`` mean at ``state``, and how to print one. ``bot``
    is the name as typed: its setting (``ismcts:200``) and case do not change the scale."""
    signed = lambda v: f"{v + 0.0:+.3f}"  # noqa: E731
    crib = not is_piquet(state)
    kind = bot.split(":", 1)[0].strip().lower()
    if kind == "greedy":
        if crib:
            if state.phase == "discard":
                return "expected net points of the deal (your hand ± the crib, + heels as dealer)", signed
            return "points this card pegs now minus the opponent's expected best reply", signed
        return {"exchange": ("expected declaration points after the exchange (exact over every draw)", signed),
                "announce": ("1 to announce, 0 to pass (a failed announcement costs nothing)", signed),
                "play": ("a preference score of the trick heuristic (no unit: higher is better)", signed),
                }.get(state.phase, ("the greedy bot's score (higher is better)", signed))  # fmt: skip
    if kind == "ismcts":
        if crib:
            return "estimated chance to win the game", lambda v: f"{100 * v:5.1f}%"
        return "search value 0..1 of the deal's point difference, ½ + ½·tanh(Δ/40)", lambda v: f"{v:.3f}"
    if kind == "random":
        return "1/n for each of the n moves (the random bot prefers none)", signed
    if kind == "first":
        return "1 for the first legal move, 0 for the others", signed
    return f"the {bot} bot's own scale (higher is better)", signed


def _discard_split(state: Any) -> dict[int, str]:
    """Each two-player cribbage discard's expected hand and crib, as ``cribbage discard`` prints
    them (exact over every starter and the opponent's throws, all alike)."""
    if state.get_game().variant not in ("five-card", "six-card"):
        return {}
    dealer = state.dealer == YOU
    a = cribbage.analyze_discard(state.hand(YOU), dealer=dealer, variant=state.get_game().variant)
    whose = "yours" if dealer else "the bot's"
    out = {}
    for r in a.rows:
        action = cribbage.pair_action(*(int(c) for c in r.thrown))
        out[action] = f"hand {r.hand:.3f}, crib {r.crib:.3f} ({whose}), net {r.net:+.3f}"
    return out


def _best_layouts(state: Any, dealt: list[int], most: int) -> dict[int, str]:
    """For each exchange size up to ``most``, the cards of the dealt hand to lay out with the most
    expected declaration points after the exchange (exact, ``piquet.analyze_exchange``)."""
    role = "elder" if state.elder == YOU else "dealer"
    a = piquet.analyze_exchange(dealt, role=role, rules=state.get_game().rules, samples=0,
                                max_discard=most if role == "dealer" else None)
    best: dict[int, str] = {}
    for r in a.rows:  # best expected total first
        best.setdefault(len(r.discard), cards_text(state, [int(c) for c in r.discard]))
    return best


def _exchange_layouts(state: Any) -> dict[int, str]:
    sizes = [n for n in _exchange_sizes(state) if n]
    if not sizes:
        return {}
    best = _best_layouts(state, state.hand(YOU), max(sizes))
    return {piquet.EXCHANGE_BASE + n: f"lay out {best[n]}" for n in sizes if n in best}


#: The exact analysis a hint adds beside each move, by game and phase: a cribbage discard's hand
#: and crib, a piquet exchange's cards to lay out.
NOTES: dict[tuple[type, str], Callable[[Any], dict[int, str]]] = {
    (cribbage.State, "discard"): _discard_split,
    (piquet.State, "exchange"): _exchange_layouts,
}


def hint_notes(state: Any) -> dict[int, str]:
    """What the hint prints beside each move at ``state`` (:data:`NOTES`; nothing elsewhere)."""
    note = NOTES.get((type(state), state.phase))
    return note(state) if note is not None else {}

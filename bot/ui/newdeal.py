"""Telling a new deal from cards drawn: what a player's hand said before a new hand (deal,
round) was dealt belongs to the hand before, and their new cards are not marked as drawn."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import View
from bot.service import Snapshot
from bot.ui.tracker import Shown

FRESH_DEAL = 3  # more cards than this, all new at once: a new deal, not cards drawn


def hand_cards(seat_view: View) -> tuple[tuple[str, str], ...]:
    """The seat's cards, each as its group and its label: a Fair Maiden of burgundy is not
    the blue one."""
    return tuple((group.label, card) for group in seat_view.hand for card in group.cards)


def added_cards(before: Sequence[tuple[str, str]], cards: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The cards of ``cards`` that ``before`` did not hold (each copy counted)."""
    remaining, added = list(before), []
    for card in cards:
        if card in remaining:
            remaining.remove(card)
        else:
            added.append(card)
    return added


def new_deal(snap: Snapshot, seat: int, before: Shown | None) -> bool:
    """Whether a new hand (deal, round) was dealt since the hand ``before`` was shown: the
    seat's :attr:`~bot.games.base.View.last_deal` changed (a hand was scored and the next
    dealt). What the hand said before belongs to the hand before. (Cards alone do not tell:
    a Catapult swaps whole hands within one.)"""
    if before is None or snap.state is None or snap.seats[seat].left:
        return False
    last_deal = snap.view(seat).last_deal
    return bool(last_deal) and last_deal != before.deal


def new_cards(before: Shown | None, cards: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The cards to mark as new: those ``before`` did not show, unless more than a few came
    at once and none of the old ones is left (a new deal, or a swapped hand: none marked)."""
    if before is None:
        return []
    added = added_cards(before.cards, cards)
    return [] if len(added) == len(cards) > FRESH_DEAL else added

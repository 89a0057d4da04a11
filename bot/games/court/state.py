"""The state of a King's Court match: one frozen value, the random generator inside."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Rng
from bot.games.court.bids import BY_KEY
from bot.games.court.cards import suit
from bot.games.court.scoring import round_parts, round_points

PLAYERS = 4
BID, LEAD, FOLLOW, DUEL, PICK, AFTER, OVER = "bid", "lead", "follow", "duel", "pick", "after", "over"
TRICK_CAP = 40
LOSING_TOTAL = -200  # a match total that ends the match (as reaching the target does)

# Move kinds (a code's part before the first ":"), by the phase that offers them.
BID_KIND, LEAD_KIND, FOLLOW_KIND, DUEL_KIND, TAKE_KIND = "bid", "lead", "play", "duel", "take"
COURT_KIND, BAG_KIND, KNOCK, FLOP, DONE = "court", "bag", "knock", "flop", "done"
NO_BID = "none"
KINDS_BY_PHASE = {
    BID: (BID_KIND,),
    LEAD: (LEAD_KIND,),
    FOLLOW: (FOLLOW_KIND,),
    DUEL: (DUEL_KIND,),
    PICK: (TAKE_KIND,),
    AFTER: (COURT_KIND, BAG_KIND, KNOCK, FLOP, DONE),
}
NOBODY: tuple[tuple[str, ...], ...] = ((),) * PLAYERS  # no card in any seat's place


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The last trick completed, as the whole table saw it: what each seat played and laid in
    a duel (face up, so public), who led it (the play order starts there) and who won it."""

    leader: int
    winner: int
    cards: tuple[tuple[str, ...], ...]  # per seat, as played
    duel: tuple[tuple[str, ...], ...]  # per seat, the duel cards laid (none without a duel)

    def order(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % PLAYERS for i in range(PLAYERS))


@dataclass(frozen=True, slots=True)
class CourtState:
    rng: Rng
    target: int  # a total that ends the match (500 by the printed rules)
    going_board: int  # the round score a player needs to knock
    scores: tuple[int, ...]  # match totals
    round: int  # from 1
    dealer: int
    phase: str
    turn: int  # the seat to act (every phase has exactly one)
    kings: tuple[str, ...]  # each seat's secret King ("Kh"): its suit is theirs for the round
    hands: tuple[tuple[str, ...], ...]
    courted: tuple[tuple[str, ...], ...]  # each seat's one run, face down
    bags: tuple[tuple[str, ...], ...]  # sandbagged fours of a kind, face down
    flops: tuple[int, ...]  # Kings flopped this round
    bids: tuple[str, ...]  # bid keys ("" for none)
    leader: int  # who led the trick in progress
    trick: tuple[tuple[str, ...], ...]  # cards played per seat in this trick
    duel: tuple[tuple[str, ...], ...]  # duel cards laid per seat
    duelists: tuple[int, ...]  # seats still duelling (in play order)
    laid: tuple[str, ...]  # this duel round's cards, per duelist in order ("" = could not lay)
    winner: int  # the trick's winner once known (-1 before)
    played: tuple[tuple[str, ...], ...]  # a record: what each seat played in the last trick (duel included)
    pool: tuple[str, ...]
    owed: tuple[int, ...]  # cards each seat still takes from the pool
    tricks: int  # tricks finished this round
    streak: tuple[int, int]  # (seat, tricks won in a row)
    forced: bool  # the winner's third trick in a row: knock or flop before anything else
    courted_now: bool  # the winner courted this turn (one court per turn, no knock)
    bagged_now: bool  # the winner sandbagged this turn (no knock)
    last_round: tuple[int, ...] = ()  # each seat's points in the last round scored
    last_detail: tuple[str, ...] = ()  # each seat's last round in words (shown to that seat only)
    last_reason: str = ""  # why the last round scored ended ("{p1} knocked", "40 tricks")
    # The trick completed last this round, shown to the table until the next one completes
    # (added later: older saves load without it and show it from their next trick on).
    last_trick: LastTrick | None = None
    # Each seat's King in the last round scored, public once it is scored (added later: an
    # older save shows its round summary without the Kings until its next round is scored).
    last_kings: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def king_suit(self, seat: int) -> str:
        return suit(self.kings[seat])

    def blind(self, seat: int) -> bool:
        """The seat bid blind: its King is hidden from it for the round."""
        return bool(self.bids[seat]) and BY_KEY[self.bids[seat]].blind

    def score_so_far(self, seat: int) -> int:
        """The seat's round score if the round ended now, before any bid."""
        return round_points(
            self.hands[seat],
            self.king_suit(seat),
            self.courted[seat],
            len(self.bags[seat]) // 4,
            self.flops[seat],
        )

    def score_parts(self, seat: int) -> tuple[tuple[str, int], ...]:
        """:meth:`score_so_far` part by part, in words."""
        return round_parts(
            self.hands[seat],
            self.king_suit(seat),
            self.courted[seat],
            len(self.bags[seat]) // 4,
            self.flops[seat],
        )

    def can_knock(self, seat: int) -> bool:
        """The going board: the round score so far must reach it; a blind bidder, who
        cannot count theirs, is not bound by it."""
        return self.blind(seat) or self.score_so_far(seat) >= self.going_board

    def king_public(self, seat: int) -> bool:
        """A flopped King lies face up for the whole table (a blind bidder's does not: its
        owner would see it on the table; see :meth:`king_seen_by`)."""
        return self.flops[seat] > 0 and not self.blind(seat)

    def king_seen_by(self, owner: int, viewer: int) -> bool:
        """Whether ``viewer`` sees ``owner``'s King: their own unless they bid blind, and a
        flopped King face up, a blind bidder's for every other player only (the ruling)."""
        if owner == viewer:
            return not self.blind(owner)
        return self.flops[owner] > 0

    def play_order(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % PLAYERS for i in range(PLAYERS))


def with_seat(items: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """``items`` with the seat's entry replaced by ``value``."""
    return items[:seat] + (value,) + items[seat + 1 :]


def without(cards: Sequence[str], gone: Sequence[str]) -> tuple[str, ...]:
    """``cards`` less those ``gone`` (in their order)."""
    drop = set(gone)
    return tuple(c for c in cards if c not in drop)

"""A click on a hand drawn before the match moved on: it plays when the hand still shows
what it showed (another player's secret pick changed nothing of Ann's), and is refused as
out of date when the player's own move changed it (a click sent twice) or the match ended."""

from __future__ import annotations

from dataclasses import replace

from bot.games import GAMES
from bot.service import MatchStatus, Snapshot
from bot.ui.tracker import HandTracker, Shown, signature
from tests.snapshots import snapshot_of

CROWN = GAMES["crown"]
OPTIONS = {"variant": "tourney"}


def tracker_with(snap, seat: int) -> HandTracker:  # type: ignore[no-untyped-def]
    tracker = HandTracker(None, None)  # type: ignore[arg-type]  # only what it remembers is used
    tracker.remember(snap, seat, Shown(None, None, 0.0, signature(snap, seat), version=snap.version))
    return tracker


def test_a_hand_whose_offer_did_not_change_still_plays() -> None:
    state = CROWN.setup(2, 3, OPTIONS)
    before = snapshot_of(CROWN, state, ["ann", "bob"], options=OPTIONS, version=3)
    tracker = tracker_with(before, 0)
    bob_picked, _ = CROWN.apply(state, 1, CROWN.legal_moves(state, 1)[0])
    after = snapshot_of(CROWN, bob_picked, ["ann", "bob"], options=OPTIONS, version=4)
    assert tracker.still_shows(after, 0, 3), "Ann's buttons still mean the same picks"
    assert not tracker.still_shows(after, 0, 2), "a hand older than the one remembered is refused"


def test_a_hand_the_players_own_move_changed_is_refused() -> None:
    state = CROWN.setup(2, 3, OPTIONS)
    before = snapshot_of(CROWN, state, ["ann", "bob"], options=OPTIONS, version=3)
    tracker = tracker_with(before, 0)
    ann_picked, _ = CROWN.apply(state, 0, CROWN.legal_moves(state, 0)[0])
    after = snapshot_of(CROWN, ann_picked, ["ann", "bob"], options=OPTIONS, version=4)
    assert not tracker.still_shows(after, 0, 3), "a click sent again never plays twice"
    finished = replace(before.record, status=MatchStatus.FINISHED)
    assert not tracker.still_shows(Snapshot(finished, CROWN, state), 0, 3), "nothing plays after the end"

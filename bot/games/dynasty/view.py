"""What one seat (or the table) may see of a ``dynasty`` state."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View
from bot.games.dynasty.cards import CODE, NAME, SUIT, SUIT_CODES, SUIT_NAMES, hand_label
from bot.games.dynasty.legal import blocking, to_act_mask, waiting_text
from bot.games.dynasty.scoring import team_label
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    KEY_PICK,
    OVER,
    PHASE_NAMES,
    DynastyState,
)
from bot.games.dynasty.tables import p, tables_for
from bot.games.dynasty.working import NAME_OF_KIND

DECK_TITLES = {
    "classic": "King's Court (classic)",
    "dynasty": "King's Dynasty",
    "bonus": "King's Dynasty + Bonus",
}


def _codes(faces: tuple[int, ...]) -> list[str]:
    return [CODE[f] for f in faces]


SUIT_EMOJI: tuple[str, ...] = ("🟨", "🟩", "🟦", "🟥", "🟪", "⬜", "🟧")


def hand_groups(hand: tuple[int, ...]) -> tuple[CardGroup, ...]:
    """A hand grouped by suit (emoji and name), Kingdom cards (no suit) last."""
    groups: dict[int, list[str]] = {}
    for face in hand:
        groups.setdefault(SUIT[face], []).append(_short_name(face))
    out = []
    for suit in sorted(groups, key=lambda x: (x < 0, x)):
        label = "👑 Kingdom" if suit < 0 else f"{SUIT_EMOJI[suit]} {SUIT_NAMES[suit]}"
        out.append(CardGroup(label, tuple(groups[suit])))
    return tuple(out)


def _short_name(face: int) -> str:
    """The card's name without its suit when that is the group's suit ("7", not "7 (gold)")."""
    name = NAME[face]
    suit = SUIT[face]
    tail = f" ({SUIT_NAMES[suit]})" if suit >= 0 else ""
    return name[: -len(tail)] if tail and name.endswith(tail) else name


def build_view(s: DynastyState, seat: int | None) -> View:
    T = tables_for(s.cfg)
    cfg = s.cfg
    n = T.n
    ph = s.phase
    board: list[str] = []
    private: list[str] = []
    hand: tuple[CardGroup, ...] = ()
    length = f"hand {s.hand_no} of {cfg.hands}" if cfg.hands else f"hand {s.hand_no}"
    title = f"**{DECK_TITLES[cfg.deck]}** · {length} · ends above {cfg.limit}" + (" or after the last hand" if cfg.hands else "")
    if cfg.partners:
        title += " · partners"
    board.append(title)
    top = s.discard[-1] if s.discard else -1
    if ph == CUT:
        board.append("The cards are not dealt yet.")
    elif ph != OVER:
        top_text = NAME[top] if top >= 0 else "none"
        if top >= 0 and s.top_as >= 0:
            top_text += f" (as {NAME[s.top_as]})"
        suit = f"{SUIT_EMOJI[s.suit]} **{SUIT_NAMES[s.suit]}**" if s.suit >= 0 else "to be named"
        arrow = "→" if s.direction > 0 else "←"
        board.append(f"Top card: **{top_text}** · suit: {suit} · play passes {arrow}")
        board.append(f"Draw pile {len(s.draw)} · discard pile {len(s.discard)}")
    scores: list[ScoreLine] = []
    for x in range(n):
        count = len(s.hands[x])
        figures = [f"{count} card{'' if count == 1 else 's'}"]
        if not cfg.partners:
            figures.append(f"total {s.totals[x]}")
        marks: list[str] = []
        if cfg.partners:
            marks.append(f"team {'ABCD'[T.team[x]]}")
        if x == s.dealer:
            marks.append("dealer")
        if s.front[x]:
            marks.append("in front: " + ", ".join(NAME[f] for f in s.front[x]))
        if s.dungeon[x]:
            if (s.escape >> x) & 1:
                marks.append("in the Dungeon, may escape now")
            elif s.lost[x] > 0:
                marks.append(f"in the Dungeon ({s.lost[x]} lost turn{'s' if s.lost[x] > 1 else ''} to go)")
            else:
                marks.append("in the Dungeon (one more lost turn)")
        if s.guard[x] == 2:
            marks.append("On Guard")
        elif s.guard[x] == 1:
            marks.append("one card, On Guard not called")
        if (s.penalty >> x) & 1:
            marks.append("caught: draws 2 and loses the next turn")
        if s.played[x]:
            marks.append("played: " + ", ".join(NAME[f] for f in s.played[x]))
        scores.append(ScoreLine(x, tuple(figures), tuple(marks)))
    if cfg.partners:
        board.append("Totals: " + ", ".join(f"{team_label(T, t)} {s.totals[t]}" for t in range(T.nteams)))
    if ph == ANSWER:
        what = f"draw {s.dn}" if s.dn else ""
        if s.dd:
            what = (what + " and go to the Dungeon") if what else "go to the Dungeon"
        board.append(f"{p(s.turn)} must {what} (from {p(s.dsrc)}) or answer it.")
    elif (s.dn or s.dd) and ph != OVER:
        board.append(f"Pending for the next player: {s.dn} card{'' if s.dn == 1 else 's'}" + (" and the Dungeon" if s.dd else "") + ".")
    if ph == BATTLE:
        board.append(f"{NAME_OF_KIND(s.bat[0])} played by {p(s.bat[1])}: waiting for Defender answers.")
    if s.proxy >= 0:
        board.append(f"{p(s.proxy)} is playing {p(s.turn)}'s turn with the Warlord.")
    for x in range(n):
        if s.guard[x] == 1:
            board.append(f"{p(x)} is down to one card without calling On Guard: anyone may catch them before the next player acts.")
    for x in range(n):
        if (s.dkwin >> x) & 1:
            board.append(f"{p(x)} called On Guard: a Dark Knight may bet against them until the next player acts.")
    for h, o in s.bets:
        board.append(f"Dark Knight: {p(h)} bets {p(o)} will not go out this hand.")

    data: dict[str, Any] = {
        "phase": PHASE_NAMES[ph], "deck": cfg.deck, "limit": cfg.limit, "partners": cfg.partners,
        "hand_no": s.hand_no, "dealer": s.dealer, "turn": s.turn, "direction": s.direction,
        "top": CODE[top] if top >= 0 else None,
        "top_as": CODE[s.top_as] if s.top_as >= 0 else None,
        "suit": SUIT_CODES[s.suit] if s.suit >= 0 else None,
        "draw_pile": len(s.draw), "discard_pile": len(s.discard),
        "hand_sizes": [len(h) for h in s.hands],
        "front": [_codes(f) for f in s.front], "played": [_codes(f) for f in s.played],
        "dungeon": [_codes(d) for d in s.dungeon], "lost": list(s.lost),
        "escape": [bool((s.escape >> x) & 1) for x in range(n)],
        "guard": list(s.guard), "penalty": [bool((s.penalty >> x) & 1) for x in range(n)],
        "pending": {"draws": s.dn, "dungeon": len(s.dd), "from": s.dsrc},
        "battle": list(s.bat), "proxy": s.proxy, "bets": [list(b) for b in s.bets],
        "totals": list(s.totals), "teams": list(T.team),
        "to_act": [x for x in range(n) if (to_act_mask(s, T) >> x) & 1],
        "places": list(s.places), "log": list(s.log), "last_hand": list(s.last),
    }
    if seat is not None and 0 <= seat < n:
        hand = hand_groups(s.hands[seat])
        data["hand"] = _codes(s.hands[seat])
        if s.proxy == seat and ph != OVER:
            other = s.hands[s.turn]
            private.append(f"You are playing {p(s.turn)}'s turn. Their hand ({len(other)}): {hand_label(other)}")
            data["proxy_hand"] = _codes(other)
        if ph == KEY_PICK and (blocking(s, T) >> seat) & 1:
            private.append(f"Draw pile: {hand_label(tuple(sorted(s.draw)))}")
            data["draw_pile_cards"] = _codes(tuple(sorted(s.draw)))
        if ph == ASK and T.partner[s.turn] == seat:
            private.append(f"{p(s.turn)} asks you: may I go out? (After a Yes they must go out or draw 2.)")
    return View(seat, waiting_text(s, T), board=tuple(board), scores=tuple(scores), hand=hand,
                private=tuple(private), data=data)


__all__ = ["build_view"]

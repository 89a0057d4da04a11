"""What one seat (or the table) may see of a ``dynasty`` state."""

from __future__ import annotations

from typing import Any

from bot.games.base import View
from bot.games.dynasty.cards import CODE, NAME, SUIT_CODES, SUIT_NAMES, hand_label
from bot.games.dynasty.engine import NAME_OF_KIND, blocking, team_label, to_act_mask, waiting_text
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

DECK_TITLES = {
    "classic": "King's Court (classic)",
    "dynasty": "King's Dynasty",
    "bonus": "King's Dynasty + Bonus",
}


def _codes(faces: tuple[int, ...]) -> list[str]:
    return [CODE[f] for f in faces]


def build_view(s: DynastyState, seat: int | None) -> View:
    T = tables_for(s.cfg)
    cfg = s.cfg
    n = T.n
    ph = s.phase
    public: list[str] = []
    private: list[str] = []
    title = f"**{DECK_TITLES[cfg.deck]}** · hand {s.hand_no} · dealer {p(s.dealer)} · game ends above {cfg.limit}"
    if cfg.partners:
        title += " · partners"
    public.append(title)
    top = s.discard[-1] if s.discard else -1
    if ph == CUT:
        public.append("The cards are not dealt yet.")
    elif ph != OVER:
        top_text = NAME[top] if top >= 0 else "none"
        if top >= 0 and s.top_as >= 0:
            top_text += f" (as {NAME[s.top_as]})"
        suit = SUIT_NAMES[s.suit] if s.suit >= 0 else "to be named"
        arrow = "to the left (→)" if s.direction > 0 else "to the right (←)"
        public.append(f"Top card: {top_text} · suit: **{suit}** · play passes {arrow}")
        public.append(f"Draw pile: {len(s.draw)} · discard pile: {len(s.discard)}")
    for x in range(n):
        count = len(s.hands[x])
        bits = [f"{p(x)}: {count} card{'' if count == 1 else 's'}"]
        if not cfg.partners:
            bits.append(f"total {s.totals[x]}")
        if s.front[x]:
            bits.append("in front: " + ", ".join(NAME[f] for f in s.front[x]))
        if s.dungeon[x]:
            if (s.escape >> x) & 1:
                bits.append("in the Dungeon, may escape now")
            elif s.lost[x] > 0:
                bits.append(f"in the Dungeon ({s.lost[x]} lost turn{'s' if s.lost[x] > 1 else ''} to go)")
            else:
                bits.append("in the Dungeon (missed the escape: one more lost turn)")
        if s.guard[x] == 2:
            bits.append("On Guard")
        elif s.guard[x] == 1:
            bits.append("one card, On Guard not called")
        if (s.penalty >> x) & 1:
            bits.append("caught: draws 2 and loses the next turn")
        if s.played[x]:
            bits.append("played: " + ", ".join(NAME[f] for f in s.played[x]))
        if x == s.dealer:
            bits.append("dealer")
        if cfg.partners:
            bits.append(f"team {'ABCD'[T.team[x]]}")
        line = " · ".join(bits)
        if ph != OVER and ph != CUT and x == s.turn:
            line = "▶ " + line
        public.append(line)
    if cfg.partners:
        public.append("Totals: " + ", ".join(f"{team_label(T, t)} {s.totals[t]}" for t in range(T.nteams)))
    if ph == ANSWER:
        what = f"draw {s.dn}" if s.dn else ""
        if s.dd:
            what = (what + " and go to the Dungeon") if what else "go to the Dungeon"
        public.append(f"{p(s.turn)} must {what} (from {p(s.dsrc)}) or answer it.")
    elif (s.dn or s.dd) and ph != OVER:
        public.append(f"Pending for the next player: {s.dn} card{'' if s.dn == 1 else 's'}" + (" and the Dungeon" if s.dd else "") + ".")
    if ph == BATTLE:
        public.append(f"{NAME_OF_KIND(s.bat[0])} played by {p(s.bat[1])}: waiting for Defender answers.")
    if s.proxy >= 0:
        public.append(f"{p(s.proxy)} is playing {p(s.turn)}'s turn with the Warlord.")
    for x in range(n):
        if s.guard[x] == 1:
            public.append(f"{p(x)} is down to one card without calling On Guard: anyone may catch them before the next player acts.")
    for x in range(n):
        if (s.dkwin >> x) & 1:
            public.append(f"{p(x)} called On Guard: a Dark Knight may bet against them until the next player acts.")
    for h, o in s.bets:
        public.append(f"Dark Knight: {p(h)} bets {p(o)} will not go out this hand.")
    if ph == OVER:
        order = sorted(range(n), key=lambda x: (s.places[x], x))
        public.append("Final placings: " + ", ".join(f"{s.places[x]}. {p(x)}" for x in order))
    if s.last:
        public.append("")
        public.extend(s.last)
    if s.log:
        public.append("")
        public.extend(s.log)

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
        hand = s.hands[seat]
        private.append(f"Your hand ({len(hand)}): {hand_label(hand)}")
        data["hand"] = _codes(hand)
        if s.proxy == seat and ph != OVER:
            other = s.hands[s.turn]
            private.append(f"You are playing {p(s.turn)}'s turn. Their hand ({len(other)}): {hand_label(other)}")
            data["proxy_hand"] = _codes(other)
        if ph == KEY_PICK and (blocking(s, T) >> seat) & 1:
            private.append(f"Draw pile: {hand_label(tuple(sorted(s.draw)))}")
            data["draw_pile_cards"] = _codes(tuple(sorted(s.draw)))
        if ph == ASK and T.partner[s.turn] == seat:
            private.append(f"{p(s.turn)} asks you: may I go out? (After a Yes they must go out or draw 2.)")
    return View(seat, waiting_text(s, T), board=tuple(public), private=tuple(private), data=data)


__all__ = ["build_view"]

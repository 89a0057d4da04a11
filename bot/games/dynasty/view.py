"""What one seat (or the table) may see of a ``dynasty`` state."""

from __future__ import annotations

from typing import Any

from bot.games.base import CardGroup, ScoreLine, View, join_names, p, plural
from bot.games.dynasty.actions import CALL, CATCH, ESCAPE, RISK, WARLORD, Catch, Risk, action_of
from bot.games.dynasty.cards import CODE, DKN, KIND, KIND_NAME, NAME, SUIT, SUIT_CODES, SUIT_NAMES, hand_label
from bot.games.dynasty.catalogue import Tables, tables_for
from bot.games.dynasty.legal import awaited_mask, legal, to_act_mask
from bot.games.dynasty.scoring import hand_summary, seat_summary, team_label
from bot.games.dynasty.state import (
    ANSWER,
    ASK,
    BATTLE,
    CUT,
    DRAWN,
    ESCORT,
    EXTRA,
    FIRST,
    GUARD_CALLED,
    GUARD_UNCALLED,
    KEY_PICK,
    OVER,
    PHASE_NAMES,
    DynastyState,
)

DECK_TITLES = {
    "classic": "King's Dynasty (classic deck)",
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
    tables = tables_for(s.config)
    cfg = s.config
    n = tables.n
    ph = s.phase
    board: list[str] = []
    private: list[str] = []
    hand: tuple[CardGroup, ...] = ()
    length = f"hand {s.hand_number} of {cfg.hands}" if cfg.hands else f"hand {s.hand_number}"
    title = f"**{DECK_TITLES[cfg.deck]}** · {length} · ends above {cfg.limit}" + (
        " or after the last hand" if cfg.hands else ""
    )
    if cfg.partners:
        title += " · partners"
    board.append(title)
    top = s.discard_pile[-1] if s.discard_pile else -1
    if ph == CUT:
        board.append("The cards are not dealt yet.")
    elif ph != OVER:
        top_text = NAME[top] if top >= 0 else "none"
        if top >= 0 and s.top_acts_as >= 0:
            top_text += f" (as {NAME[s.top_acts_as]})"
        suit = f"{SUIT_EMOJI[s.suit]} **{SUIT_NAMES[s.suit]}**" if s.suit >= 0 else "to be named"
        arrow = "→" if s.direction > 0 else "←"
        board.append(f"Top card: **{top_text}** · suit: {suit} · play passes {arrow}")
        board.append(f"Draw pile {len(s.draw_pile)} · discard pile {len(s.discard_pile)}")
    scores: list[ScoreLine] = []
    for x in range(n):
        count = len(s.hands[x])
        figures = [plural(count, "card")]
        if not cfg.partners:
            figures.append(f"total {s.totals[x]}")
        marks: list[str] = []
        if cfg.partners:
            marks.append(f"team {'ABCD'[tables.team[x]]}")
        if x == s.dealer:
            marks.append("dealer")
        if s.in_front[x]:
            marks.append("in front: " + ", ".join(NAME[f] for f in s.in_front[x]))
        if s.dungeon[x]:
            if (s.may_escape >> x) & 1:
                marks.append("in the Dungeon, may escape now")
            elif s.lost_turns[x] > 0:
                marks.append(
                    f"in the Dungeon ({s.lost_turns[x]} lost turn{'s' if s.lost_turns[x] > 1 else ''} to go)"
                )
            else:
                marks.append("in the Dungeon (one more lost turn)")
        if s.on_guard[x] == GUARD_CALLED:
            marks.append("On Guard")
        elif s.on_guard[x] == GUARD_UNCALLED:
            marks.append("one card, On Guard not called")
        if (s.penalised >> x) & 1:
            marks.append("caught: draws 2 and loses the next turn")
        if s.set_aside[x]:
            marks.append("played: " + ", ".join(NAME[f] for f in s.set_aside[x]))
        scores.append(ScoreLine(x, tuple(figures), tuple(marks)))
    if cfg.partners:
        board.append(
            "Totals: " + ", ".join(f"{team_label(tables, t)} {s.totals[t]}" for t in range(tables.nteams))
        )
    if ph == ANSWER:
        what = f"draw {s.pending_draws}" if s.pending_draws else ""
        if s.pending_dungeons:
            what = (what + " and go to the Dungeon") if what else "go to the Dungeon"
        board.append(f"{p(s.turn)} must {what} (from {p(s.draw_source)}) or answer it.")
    elif (s.pending_draws or s.pending_dungeons) and ph != OVER:
        board.append(
            f"Pending for the next player: {plural(s.pending_draws, 'card')}"
            + (" and the Dungeon" if s.pending_dungeons else "")
            + "."
        )
    if ph == BATTLE:
        board.append(f"{KIND_NAME[s.battle[0]]} played by {p(s.battle[1])}: waiting for Defender answers.")
    if s.warlord >= 0:
        board.append(f"{p(s.warlord)} is playing {p(s.turn)}'s turn with the Warlord.")
    for x in range(n):
        if s.on_guard[x] == GUARD_UNCALLED:
            board.append(
                f"{p(x)} is down to one card without calling On Guard: anyone may catch them before the next player acts."
            )
    for x in range(n):
        if (s.dark_knight_open >> x) & 1:
            board.append(
                f"{p(x)} called On Guard: a Dark Knight may bet against them until the next player acts."
            )
    for h, o in s.dark_knight_bets:
        board.append(f"Dark Knight: {p(h)} bets {p(o)} will not go out this hand.")
    if ph != OVER and s.last_hand:  # how the hand before this one was scored
        board.append(hand_summary(s.last_hand))

    data: dict[str, Any] = {
        "phase": PHASE_NAMES[ph],
        "deck": cfg.deck,
        "limit": cfg.limit,
        "partners": cfg.partners,
        "hand_no": s.hand_number,
        "dealer": s.dealer,
        "turn": s.turn,
        "direction": s.direction,
        "top": CODE[top] if top >= 0 else None,
        "top_as": CODE[s.top_acts_as] if s.top_acts_as >= 0 else None,
        "suit": SUIT_CODES[s.suit] if s.suit >= 0 else None,
        "draw_pile": len(s.draw_pile),
        "discard_pile": len(s.discard_pile),
        "hand_sizes": [len(h) for h in s.hands],
        "front": [_codes(f) for f in s.in_front],
        "played": [_codes(f) for f in s.set_aside],
        "dungeon": [_codes(d) for d in s.dungeon],
        "lost": list(s.lost_turns),
        "escape": [bool((s.may_escape >> x) & 1) for x in range(n)],
        "guard": list(s.on_guard),
        "penalty": [bool((s.penalised >> x) & 1) for x in range(n)],
        "pending": {"draws": s.pending_draws, "dungeon": len(s.pending_dungeons), "from": s.draw_source},
        "battle": list(s.battle),
        "proxy": s.warlord,
        "bets": [list(b) for b in s.dark_knight_bets],
        "totals": list(s.totals),
        "teams": list(tables.team),
        "to_act": [x for x in range(n) if (to_act_mask(s, tables) >> x) & 1],
        "places": list(s.places),
        "log": list(s.log),
        "last_hand": list(s.last_hand),
    }
    if seat is not None and 0 <= seat < n:
        hand = hand_groups(s.hands[seat])
        data["hand"] = _codes(s.hands[seat])
        if s.warlord == seat and ph != OVER:
            other = s.hands[s.turn]
            private.append(
                f"You are playing {p(s.turn)}'s turn. Their hand ({len(other)}): {hand_label(other)}"
            )
            data["proxy_hand"] = _codes(other)
        if ph == KEY_PICK and (awaited_mask(s, tables) >> seat) & 1:
            private.append(f"Draw pile: {hand_label(tuple(sorted(s.draw_pile)))}")
            data["draw_pile_cards"] = _codes(tuple(sorted(s.draw_pile)))
        if ph == ASK and tables.partner[s.turn] == seat:
            private.append(f"{p(s.turn)} asks you: may I go out? (After a Yes they must go out or draw 2.)")
    return View(
        seat,
        waiting_text(s, tables),
        board=tuple(board),
        scores=tuple(scores),
        hand=hand,
        private=tuple(private),
        data=data,
        optional=optional_line(s, seat, tables) if seat is not None and 0 <= seat < n else "",
        last_deal=seat_summary(s.last_hand, seat)
        if seat is not None and 0 <= seat < n and ph != OVER
        else "",
    )


__all__ = ["build_view"]


def optional_line(s: DynastyState, seat: int, tables: Tables) -> str:
    """What ``seat``, which the game does not wait for, may do out of turn, said as optional
    ("Out of turn (optional): you may play Poison Garden now; ..."); empty if nothing."""
    if s.phase == OVER or (awaited_mask(s, tables) >> seat) & 1:
        return ""
    moves = legal(s, seat, tables)
    chances = [chance for move in moves if (chance := _chance(s, move.kind, move.code))]
    if not chances:
        return ""
    kinds = {move.kind for move in moves}
    line = (
        f"**Out of turn (optional):** you may {' or '.join(chances)} now; the game goes on if you do nothing."
    )
    if CALL in kinds:
        line += " Until you call, anyone may catch you (you would draw 2 and lose your next turn)."
    if ESCAPE in kinds:
        line += " Not escaping before the next player acts costs one more lost turn and a card."
    return line


def _chance(s: DynastyState, kind: str, code: str) -> str:
    """One out-of-turn move in a few words ("catch {p1}", "play King's Goblet")."""
    if kind == CALL:
        return "call On Guard"
    if kind == ESCAPE:
        return "escape the Dungeon"
    if kind == WARLORD:
        return "take over this turn with the Warlord"  # no name: the hand is not edited when only the turn moves on
    action = action_of(code) if kind in (CATCH, RISK) else None
    if isinstance(action, Catch):
        return f"catch {p(action.caught)}"
    if isinstance(action, Risk):
        if KIND[action.face] == DKN:
            return f"bet your Dark Knight against {p(action.bet_against)}"
        return f"play {KIND_NAME[KIND[action.face]]}"
    return ""  # letting the chance pass: doing nothing does that


def waiting_text(s: DynastyState, tables: Tables) -> str:
    ph = s.phase
    if ph == OVER:
        return "The match is over."
    t = s.turn
    bl = awaited_mask(s, tables)
    if ph == CUT:
        return f"Waiting for {p(t)} to cut for the dealing bonus or deal."
    if ph == FIRST:
        return f"Waiting for {p(t)} to make the choices for the table card."
    if ph == ANSWER:
        what = f"draw {s.pending_draws}" if s.pending_draws else ""
        if s.pending_dungeons:
            what = (what + " and go to the Dungeon") if what else "go to the Dungeon"
        return f"Waiting for {p(t)} to {what} or answer."
    if ph == BATTLE:
        names = join_names([p(x) for x in range(tables.n) if (bl >> x) & 1])
        return f"Waiting for {names} to answer the {KIND_NAME[s.battle[0]]} (Defender or let it happen)."
    if ph == ASK:
        return f"Waiting for {p(tables.partner[t])} to answer {p(t)}: Yes or No."
    who = p(t) if s.warlord < 0 else f"{p(s.warlord)} (Warlord, playing {p(t)}'s turn)"
    if ph == EXTRA:
        return f"Waiting for {who}: an extra card, or end the turn."
    if ph == ESCORT:
        return f"Waiting for {who} to play the Fair Maiden's escort."
    if ph == KEY_PICK:
        return f"Waiting for {who} to take a card with the Secret Key."
    if ph == DRAWN:
        return f"Waiting for {who}: play a card or pass."
    return f"Waiting for {who} to play or draw."

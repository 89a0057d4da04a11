"""The King at Court: what the Witch reveals reaches the table, and the Knight's look is
never wasted on the King.

A player found that the Witch's reveal showed only in the log (the table's last three
events had already moved past it), and that the former Knight was offered a look at the
King, whose card everyone has known since the start.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import IllegalMove, Rng
from bot.games.crown import BEGGAR, DECK, DRAGON, GAME, KING, KNIGHT, NAME, RULES, WITCH, CrownState

G = GAME


def court(cards: tuple[str, ...], seed: int = 5) -> CrownState:
    """A questioning state of The King at Court with this deal, one card a seat."""
    state = G.setup(len(cards), seed, {"variant": "atcourt"})
    return replace(state, cards=cards, aside=tuple(c for c in DECK if c not in cards), king=cards.index(KING))


def strike(state: CrownState) -> CrownState:
    after, _ = G.apply(state, state.cards.index(WITCH), "witch")
    return after


def board_text(state: CrownState, seat: int | None = None) -> str:
    return "\n".join(G.view(state, seat).board)


def test_the_table_shows_what_the_witch_revealed() -> None:
    """Every card as she showed it, and who she was, is on the board, not only in the log."""
    before = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    after = strike(before)
    board = board_text(after)
    assert "{p3}" in board, "the Witch is named"
    for seat, card in enumerate(before.cards):
        assert f"{{p{seat}}} {NAME[card]}" in board


def test_the_reveal_stays_on_the_board_after_more_moves() -> None:
    """Other players saying ready push events out of the last three; the board line stays,
    also through the accusation."""
    before = court((KNIGHT, WITCH, KING, DRAGON))
    s = strike(before)
    for seat in (0, 1, 3):
        s, _ = G.apply(s, seat, "ready")
    shown = ", ".join(f"{{p{t}}} {NAME[c]}" for t, c in enumerate(before.cards))
    assert shown in board_text(s)
    s, _ = G.apply(s, 2, "end")
    assert shown in board_text(s)


def test_the_board_line_does_not_tell_the_new_deal() -> None:
    """The table looks the same whatever the re-deal gave the non-King seats."""
    s = strike(court((DRAGON, KING, KNIGHT, WITCH, BEGGAR)))
    table = G.view(s, None)
    for k in range(10):
        other = G.resample(s, 1, Rng.from_seed(k))  # the King knows only his own card
        assert G.view(other, None).board == table.board


def test_the_reveal_is_kept_when_the_match_is_stored() -> None:
    """A match saved and loaded again still shows the reveal; an old save without it loads."""
    s = strike(court((DRAGON, KING, KNIGHT, WITCH)))
    assert G.view(G.load(G.dump(s)), None).board == G.view(s, None).board
    old = G.dump(s)
    del old["shown"]
    assert "Witch has struck" in board_text(G.load(old))


def test_the_reveal_is_among_the_public_events() -> None:
    """The reveal and the re-deal are one event, so the reveal is not pushed out of the
    table's last three by its own bookkeeping."""
    s = court((DRAGON, KING, KNIGHT, WITCH))
    _, events = G.apply(s, 3, "witch")
    public = [e.text for e in events if e.seat is None]
    assert len(public) == 2
    assert "reveals every card" in public[0] and "dealt again" in public[0]


def test_the_knight_cannot_look_at_the_king() -> None:
    """The King is revealed at the start: the look is offered only at the other seats."""
    for king in range(4):
        cards = [DRAGON, KNIGHT, WITCH]
        cards.insert(king, KING)
        s = strike(court(tuple(cards)))
        looks = {m.code for m in G.legal_moves(s, s.peeker) if m.code.startswith("peek:")}
        assert looks == {f"peek:{t}" for t in range(4) if t not in (s.peeker, king)}
        try:
            G.apply(s, s.peeker, f"peek:{king}")
        except IllegalMove as e:
            assert "King" in str(e)
        else:
            raise AssertionError("a look at the King was accepted")


def test_the_ai_never_looks_at_the_king() -> None:
    """The AI's former Knight picks among the looks it is offered: never the King."""
    s = strike(court((KNIGHT, KING, DRAGON, WITCH, BEGGAR)))
    for k in range(40):
        move = G.ai_move(s, s.peeker, Rng.from_seed(k))
        assert move.code.startswith("peek:") and move.code != "peek:1"


def test_the_rules_text_says_the_look_skips_the_king() -> None:
    """The bot's rulings say so, since RULES.md does not."""
    assert "cannot be at the King" in RULES

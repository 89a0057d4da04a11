"""King's Dynasty in players' words (QA audit): an out-of-turn chance reads as optional, the
end of a hand and of the match says how the last hand was scored, and a Risk card's cost is
said in the others' terms (in a lowest-total-wins game, what they deduct helps them)."""

from __future__ import annotations

from bot.games.dynasty import GAME
from bot.games.dynasty.actions import WAIT
from bot.games.dynasty.guide import situations
from bot.games.dynasty.rules import RULES
from bot.games.dynasty.state import ANSWER
from tests.engines.test_dynasty_rules import F, build, do

OPTIONAL_POISON = (
    "**Out of turn (optional):** you may play Poison Garden now; the game goes on if you do nothing."
)


def test_an_out_of_turn_chance_reads_as_optional_and_needs_no_click() -> None:
    """bob (seat 1) holds a Poison Garden while seat 0 plays: his view says the chance is
    optional, the game does not wait for him, and letting it pass is a move the hand need
    not offer (it comes last; the AI and /move may still make it)."""
    s = build(n=3, hands=[["7gd", "2gn"], ["2bl", "3bl"], ["4bl", "5bl"]], in_front=((), (F("POI"),), ()))
    assert GAME.awaited(s) == {0} and 1 in GAME.to_act(s)
    assert GAME.view(s, 1).optional == OPTIONAL_POISON
    assert GAME.view(s, 0).optional == "" and GAME.view(s, 2).optional == ""
    assert GAME.view(s, None).optional == ""
    moves = GAME.legal_moves(s, 1)
    assert [m.code for m in moves] == ["r:POI", WAIT] and WAIT in GAME.info.dismiss_kinds
    # The turn player's own out-of-turn chances are part of their move: no optional line.
    mine = build(n=3, hands=[["7gd", "2gn"], ["2bl", "3bl"], ["4bl"]], in_front=((F("GOB"),), (), ()))
    assert "r:GOB" in [m.code for m in GAME.legal_moves(mine, 0)] and GAME.view(mine, 0).optional == ""
    assert GAME.view(mine, 1).optional == ""
    # The guide and the rules say the same: nothing to click to let a chance pass.
    told = dict(situations(s, 1, moves))
    assert "optional" in told["window"] and "Let it pass" not in told["window"]
    assert "Let it pass" not in RULES and "play goes on if you do nothing" in RULES
    # A practice hint that the hard AI would let it pass says there is nothing to press.
    assert GAME.hint_reason(s, 1, moves[-1]) == "the game goes on without you, so there is nothing to press"


def test_an_optional_line_names_every_chance_and_what_waiting_costs() -> None:
    """A catch and an uncalled On Guard: each seat reads what it may do, and the one who has
    not called reads that anyone may catch them."""
    s = build(n=3, hands=[["7gd", "2gn", "3gn"], ["2bl"], ["4bl", "5bl"]], on_guard=(0, 1, 0))
    assert GAME.awaited(s) == {0}
    assert GAME.view(s, 2).optional.startswith("**Out of turn (optional):** you may catch {p1} now;")
    mine = GAME.view(s, 1).optional
    assert mine.startswith("**Out of turn (optional):** you may call On Guard now;"), mine
    assert "anyone may catch you" in mine
    # The Warlord's line names no player: the hand is edited only when its moves change.
    war = build(n=3, hands=[["7gd", "2gn"], ["2bl", "3bl"], ["4bl", "5bl"]], in_front=((), (), (F("WAR"),)))
    assert GAME.view(war, 2).optional.startswith(
        "**Out of turn (optional):** you may take over this turn with the Warlord now;"
    )


def test_the_last_hand_is_explained_on_the_next_hand_and_at_the_end() -> None:
    """Going out scores the hand: the next hand's table carries one line saying who went out
    and each player's hand points, and the end of the match says the same of its last hand."""
    s = build(hands=[["7gd"], ["2bl", "3bl"]], opts={"hands": "2"})
    s, _ = do(s, 0, "p:7gd")
    assert s.hand_number == 2
    assert "Hand 1: {p0} went out · hand points {p0} +0, {p1} +5" in GAME.view(s, None).board
    last = build(hands=[["7gd"], ["2bl", "3bl"]], opts={"hands": "1"})
    last, _ = do(last, 0, "p:7gd")
    outcome = GAME.outcome(last)
    assert outcome is not None
    assert outcome.details == ("Hand 1: {p0} went out · hand points {p0} +0, {p1} +5",)


def test_the_end_names_the_bets_that_changed_the_totals() -> None:
    """A Poison Garden ends the last hand with nobody out while a Dark Knight bets against
    seat 2: the end gives each player's hand points (the bet's 100 included) and the bet."""
    s = build(
        n=3,
        hands=[["7gd", "2gn"], ["2bl", "3bl"], ["4bl"]],
        in_front=((), (F("POI"),), ()),
        dark_knight_bets=((1, 2),),
        opts={"hands": "1"},
    )
    s, _ = do(s, 1, "r:POI")
    outcome = GAME.outcome(s)
    assert outcome is not None
    assert outcome.details == (
        "Hand 1: nobody went out · hand points {p0} +9, {p1} -95, {p2} +4",
        "Dark Knight: {p2} did not go out; {p1} wins the bet and deducts 100.",
    )


def test_a_risk_card_says_its_cost_helps_the_others() -> None:
    """Every other player deducts a Risk card's value, which helps them where the lowest total
    wins: buttons, the table's line, the guide and the rules say so in their terms."""
    s = build(
        n=3,
        hands=[["7gd", "2gn"], ["2bl", "3bl"], ["4bl", "5bl"]],
        in_front=((), (F("POI"), F("FIR"), F("GOB")), ()),
    )
    labels = [m.label for m in GAME.legal_moves(s, 1) if m.code.startswith("r:")]
    assert labels == [
        "Poison Garden: end the hand now (the others each take 75 off their totals)",
        "Castle Fire: all hands redealt (the others each take 75 off their totals)",
        "King's Goblet: everyone draws five (the others each take 50 off their totals)",
    ]
    assert all(len(label) <= 80 and "-75" not in label and "-50" not in label for label in labels)
    _, text = do(s, 1, "r:GOB")
    assert "everyone draws five; every other player takes 50 off their total." in text
    told = dict(situations(s, 1, GAME.legal_moves(s, 1)))
    assert "helps them (the lowest total wins)" in told["risk"] and "pays its cost" not in told["risk"]
    assert "takes its value off their total, which helps them" in RULES


def test_the_early_on_guard_call_says_it_comes_before_the_last_card() -> None:
    """The call is offered at two cards, for the play that leaves one: the button and the
    table's line say so, rather than "one card left" beside a count of 2. The move's code
    stays "og" (saved matches)."""
    s = build(hands=[["7gd", "2gd"], ["2gn", "3gd", "4gd"]])
    ahead = [m for m in GAME.legal_moves(s, 0) if m.code == "og"]
    assert [m.label for m in ahead] == ["Call On Guard before playing down to one card"]
    s1, text = do(s, 0, "og")
    assert "{p0} calls On Guard before playing down to one card." in text
    s2, _ = do(s1, 0, "p:7gd")
    assert s2.on_guard == (2, 0)
    # Down to one card without the call, the call is the plain one.
    late, _ = do(s, 0, "p:2gd")
    assert [m.label for m in GAME.legal_moves(late, 0) if m.code == "og"] == ["Call On Guard!"]
    _, said = do(late, 0, "og")
    assert "{p0} calls On Guard!" in said


def _reasons(s: object, seat: int = 0) -> dict[str, str | None]:
    return {m.code: GAME.hint_reason(s, seat, m) for m in GAME.legal_moves(s, seat)}  # type: ignore[arg-type]


def test_a_battle_card_s_hint_says_what_the_card_does() -> None:
    """The QA pass read "sheds your costliest card (35 points)" for a Catapult, whose effect
    is swapping hands (RULES.md): each battle card's reason is its own effect, with the hand
    sizes everyone sees."""
    s = build(
        n=3, hands=[["CAT", "ARR", "CAN", "9gd", "PRO"], ["2bl"], ["4bl", "5bl", "6bl"]], deck="dynasty"
    )
    why = _reasons(s)
    assert why["p:CAT:1"] == "you swap hands with {p1}: your other 4 cards for their 1 card"
    assert why["p:CAN"] == (
        "all hands are dealt out again, one card at a time: you hold 4 after playing it, the others 2 on average"
    )
    assert why["p:ARR:9gd:1"] == (
        "it sheds 44 points from your hand: the arrow, and your 9 (gold), which goes to {p1}"
    )
    assert not any("costliest" in (text or "") for code, text in why.items() if code != "p:9gd")
    seen = build(n=3, hands=[["SIE", "TAX", "2gd"], ["2bl"], ["4bl"]], deck="dynasty")
    assert _reasons(seen)["p:SIE:1"] == "it shows you {p1}'s hand, and it sheds a 35-point card"
    assert (
        _reasons(seen)["p:TAX"]
        == "each other player loses a random card and draws one, and it sheds a 35-point card"
    )


def test_other_hint_reasons_follow_the_rules_of_each_card() -> None:
    # A suit card kept back from nothing costly says why it is played: the card for any suit is kept.
    s = build(n=3, hands=[["3gd", "DUK", "9bl"], ["2bl"], ["4bl"]])
    assert _reasons(s)["p:3gd"] == "it keeps your Duke, which goes on any suit, for when nothing else plays"
    # The Magic Potion leaves only number cards counting: a 20-point scroll is not "costly" then.
    potion = build(n=3, hands=[["9gd", "FMgd", "3gd", "POT"], ["2bl"], ["4bl"]])
    assert _reasons(potion)["p:9gd"] == "it sheds your costliest card (9 points)"
    # Accepting a draw card names the answers kept; the answers say what they do to the draw.
    drawn = build(
        n=3, hands=[["PRO", "DEC", "3gd"], ["2bl"], ["4bl"]], phase=ANSWER, pending_draws=2, draw_source=2
    )
    why = _reasons(drawn)
    assert why["acc"] == "it keeps your Protector and Royal Decree for a later draw card"
    assert why["p:PRO"] == "it cancels the draw card: you draw nothing, and the suit before it stays"
    assert why["p:DEC"] == "the draw goes back to the player of the draw card, and the direction reverses"

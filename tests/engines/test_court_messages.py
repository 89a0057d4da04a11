"""King's Court (court) messages as players read them: each player sees their own round score
and why (the table shows only the last three events), the end of the match says why it
ended, the menus read as actions, and the round score so far says what it counts."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import Rng
from bot.games.court import GAME
from bot.games.court.cards import sorted_cards
from bot.games.court.scoring import round_points
from bot.games.court.state import LEAD, OVER, CourtState

KINGS_HSDC = ("Kh", "Ks", "Kd", "Kc")  # seat 0 hearts, 1 spades, 2 diamonds, 3 clubs


def table(hands: list[str], **changes: object) -> CourtState:
    """A round in progress, seat 0 to lead: ``hands`` are space-separated card codes per seat."""
    base = GAME.setup(4, 7, {"target": "120"})
    state = replace(
        base,
        phase=LEAD,
        turn=0,
        leader=0,
        dealer=3,
        kings=KINGS_HSDC,
        hands=tuple(sorted_cards(h.split()) for h in hands),
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def act(state: CourtState, *codes: str) -> tuple[CourtState, list[str]]:
    texts: list[str] = []
    for code in codes:
        state, events = GAME.apply(state, state.turn, code)
        texts += [e.text for e in events if e.public]
    return state, texts


def knocked(**changes: object) -> tuple[CourtState, list[str]]:
    """Seat 0 leads 7♦, wins, everyone takes their card back, and seat 0 knocks."""
    state = table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"], going_board=0, **changes)
    return act(state, "lead:7d", "play:2c", "play:2s", "play:3c", "take:7d", "take:2c", "take:2s", "knock")


# --- 1. every player sees their own round score, and why --------------------------------------------


def test_a_rounds_scores_are_one_short_public_event() -> None:
    state, texts = knocked()
    assert state.round == 2
    scored = [t for t in texts if t.startswith("Round 1 ({p0} knocked) scored: ")]
    assert len(scored) == 1, texts
    text = scored[0]
    for seat, points in enumerate(state.last_round):
        assert f"{{p{seat}}} " in text and f"{points:+d}" in text, text
    assert len(text) <= 120, text
    assert text in texts[-3:], "on the table right after the knock"


def test_each_player_sees_their_own_breakdown_privately_until_the_next_round_ends() -> None:
    state, _ = knocked()
    mine = [line for line in GAME.view(state, 0).private if line.startswith("Your last round:")]
    assert mine == ["Your last round: +10 — 3 ♥ in runs in hand +15; 1 off-suit in hand -5"], mine
    theirs = [line for line in GAME.view(state, 1).private if line.startswith("Your last round:")]
    assert theirs == ["Your last round: -10 — 2 off-suit in hand -10"], theirs
    public = "\n".join(GAME.view(state, None).public)
    assert "Your last round" not in public and "in runs" not in public
    # through the bids and into the next round's play, saved and loaded
    while state.phase != LEAD:
        state, _ = act(state, GAME.legal_moves(state, state.turn)[0].code)
    state = GAME.load(GAME.dump(state))
    assert any(line.startswith("Your last round: +10 — ") for line in GAME.view(state, 0).private)


def test_a_bid_shows_in_the_breakdown() -> None:
    state, texts = knocked(bids=("", "nil", "", ""))
    scored = next(t for t in texts if t.startswith("Round 1 ({p0} knocked) scored: "))
    assert "{p1} (K♠, Nil -30) -40" in scored, scored
    theirs = [line for line in GAME.view(state, 1).private if line.startswith("Your last round:")]
    assert theirs == ["Your last round: -40 — 2 off-suit in hand -10; bid Nil -30"], theirs


def test_the_parts_add_up_to_the_round_score() -> None:
    from bot.games.court.scoring import round_parts

    rnd = random.Random(4)
    for _ in range(300):
        state = GAME.setup(4, rnd.randrange(10**6), {})
        for _move in range(rnd.randrange(60)):
            if state.over:
                break
            state, _ = GAME.apply(
                state, state.turn, GAME.ai_move(state, state.turn, Rng.from_seed(rnd.randrange(10**6)))
            )
        if state.over or not any(state.hands):
            continue
        for seat in range(4):
            args = (
                state.hands[seat],
                state.king_suit(seat),
                state.courted[seat],
                len(state.bags[seat]) // 4,
                state.flops[seat],
            )
            assert sum(points for _what, points in round_parts(*args)) == round_points(*args)


# --- 2. the end of the match says why ---------------------------------------------------------------


def test_falling_to_minus_200_is_named_as_the_reason_the_match_ended() -> None:
    kings = ("Kh", "Ks", "Kc", "Kd")  # seat 3's clubs are off-suit: -10
    state, texts = knocked(scores=(0, 30, 15, -195), kings=kings)
    assert state.phase == OVER
    summary = GAME.outcome(state).summary  # type: ignore[union-attr]
    why = "{p1} wins the match with 20 points: {p3} fell to -205, and -200 or below ends the match."
    assert summary.startswith(why + " Last round ({p0} knocked): "), summary
    assert why in texts


def test_reaching_the_target_is_named_as_the_reason_the_match_ended() -> None:
    state, _ = knocked(scores=(115, 10, 10, 10))
    summary = GAME.outcome(state).summary  # type: ignore[union-attr]
    assert summary.startswith(
        "{p0} wins the match with 125 points: {p0} reached the target of 120. Last round "
    ), summary


def test_the_table_header_shows_both_ends_of_the_match() -> None:
    header = GAME.view(table(["7d", "2c", "2s", "3c"]), None).board[0]
    assert "to 120 or -200" in header, header


# --- 5. wording of the menus and of the score so far ----------------------------------------------


def test_a_chosen_lead_reads_as_a_lead_not_a_menu_title() -> None:
    state = table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"])
    (lead,) = GAME.legal_moves(state, 0)
    assert lead.choose(["7d"]).label == "Lead: 7♦"
    state, _ = act(state, "lead:7d")
    (follow,) = GAME.legal_moves(state, 1)
    assert follow.choose(["5c"]).label == "Follow: 5♣"


def test_the_round_score_so_far_says_what_it_counts() -> None:
    state = table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"])
    line = next(line for line in GAME.view(state, 0).private if "round ended now" in line)
    assert (
        line == "If the round ended now: +10 (3 ♥ in runs in hand +15; 1 off-suit in hand -5) · knock from 0"
    ), line


def test_three_or_four_seats_tying_are_named_as_a_list_not_with_and_after_and() -> None:
    """ "{p1}, {p2}, {p3} and {p0} tie with the best single", never "{p1} and {p2} and {p3}
    and {p0} tie": the kit's join_names, as every other list of players."""
    game = GAME
    seen: list[str] = []
    for seed in range(1, 6):
        state, rnd = game.setup(4, seed, {}), random.Random(seed)
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            state, events = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)).code)
            seen += [e.text for e in events if "tie " in e.text and e.text.count("{p") >= 4]
        if seen:
            break
    assert seen, "no tie of three or four seats was played"
    for text in seen:
        names = text.split(" tie ")[0]
        assert names.count(" and ") == 1 and ", " in names, text


# --- a card typed by name: the refusal says it is not in the hand ----------------------------------


def test_a_typed_card_not_held_is_refused_as_not_in_the_hand() -> None:
    """``/move 7♥`` from a player without the 7♥ names the card (any spelling), in the lead and
    when following, and the refusal says the card is not theirs; a King (never played) or a
    word that names no card stays unknown."""
    state = table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"])
    for typed, named in (("7h", "7♥"), ("7♥", "7♥"), ("10s", "10♠"), ("q♠", "Q♠"), ("QS", "Q♠")):
        code = GAME.typed_code(state, 0, (), typed)
        assert code is not None and code.startswith("lead:"), typed
        assert GAME.why_illegal(state, 0, code) == f"You don't hold {named}."
    assert GAME.typed_code(state, 0, (), "K♠") is None
    assert GAME.typed_code(state, 0, (), "zz") is None
    following, _ = act(state, "lead:7d")
    code = GAME.typed_code(following, 1, (), "9h")
    assert code == "play:9h", "the card is read as the kind the phase plays"
    assert GAME.why_illegal(following, 1, code) == "You don't hold 9♥."


def test_the_follow_refusal_counts_cards_in_words() -> None:
    state, _ = act(table(["7d 8h 9h Th", "2c 5c", "2s 5s", "3c 6c"]), "lead:7d")
    assert GAME.why_illegal(state, 1, "bid:nil") == "Play 1 card now, as many as the lead."

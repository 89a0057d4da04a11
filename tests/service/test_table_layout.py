"""The table and the hand of every registered game, rendered late in a match at the largest
player count, stay within Discord's limits and compact: a status line, a scoreboard, the
game's board and the latest move's events (within a character budget); no block repeated; about 20 lines for 8 players.

Every option configuration the property tests play (the defaults, then each value of each
option with the rest at default: every crown variant, dynasty's partners, deck and card
choices, four's wild cards, court's pool and target...) is rendered, each at the largest
player count it allows (dynasty with partners at 8), as options change what a table shows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import discord
import pytest

from bot.games import EXAMPLES, GAMES
from bot.games.base import Event, Game, player_counts
from bot.service import MatchStatus, Snapshot
from bot.service.snapshot import add_events
from bot.ui import render
from db.records import MatchRecord
from tests.configurations import option_sets
from tests.snapshots import snapshot_of

ALL_GAMES = {**GAMES, **EXAMPLES}

MAX_TABLE_LINES = 22  # for eight players: status, board, eight rows, three events, headers
RECENT_EVENTS = 3  # what MAX_TABLE_LINES counts for the events (those shown are within a budget)


def _layouts() -> list[Any]:
    """(game id, options, largest player count) for each configuration of each game, the
    same configurations as the property tests' (``tests/configurations.py``)."""
    params = []
    for game_id in sorted(ALL_GAMES):
        game = ALL_GAMES[game_id]
        for options in option_sets(game):
            counts = player_counts(game, options)
            if not counts:
                continue
            label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
            params.append(pytest.param(game_id, options, max(counts), id=f"{game_id}[{label}]"))
    return params


LAYOUTS = _layouts()


def test_every_game_and_option_is_laid_out() -> None:
    covered = {(p.values[0], key, value) for p in LAYOUTS for key, value in p.values[1].items()}
    for game_id, game in ALL_GAMES.items():
        for option in game.options:
            if not option.multi:
                for value, _label in option.choices:
                    assert (game_id, option.key, value) in covered, (
                        f"{game_id}: {option.key}={value} is never rendered"
                    )


def _late_position(
    game: Game, players: int, options: Mapping[str, str], seed: int
) -> tuple[Any, dict[str, Any]]:
    """A state well into a random match (the last running one before it ends, or move 400)."""
    rnd = random.Random(seed)
    state = game.setup(players, seed, options)
    notes: dict[str, Any] = {}
    for _ in range(400):
        actors = sorted(game.to_act(state))
        moves = [(s, m) for s in actors for m in game.legal_moves(state, s)]
        if not moves:
            break
        seat, move = rnd.choice(moves)
        after, events = game.apply(state, seat, move)
        if game.outcome(after) is not None:
            break
        state = after
        notes = add_events(notes, events)
    return state, notes


def _snapshot(
    game: Game, state: Any, notes: dict[str, Any], players: int, options: Mapping[str, str]
) -> Snapshot:
    names = ["Annabelle", "Bartholomew", "Cat", "Dmitri", "Eve", "Fitzgerald", "Gwendolyn", "Hu"]
    seated = [names[i % len(names)] for i in range(players)]
    return snapshot_of(
        game, state, seated, options=options, match_id=4242, version=137, notes=notes, turn_timer=60
    )


def _limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    fields = data.get("fields", [])
    assert len(fields) <= 25
    for f in fields:
        assert len(f["name"]) <= 256 and 0 < len(f["value"]) <= 1024
    assert len(embed) <= 6000


def _lines(embed: discord.Embed) -> list[str]:
    data = embed.to_dict()
    lines = [data.get("title", "")] + data.get("description", "").splitlines()
    for f in data.get("fields", []):
        lines.append(f["name"])
        lines.extend(f["value"].splitlines())
    return [line for line in lines if line.strip()]


@pytest.mark.parametrize(("game_id", "options", "players"), LAYOUTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_table_and_hands_fit_discord_and_stay_compact(
    game_id: str, options: dict[str, str], players: int, seed: int
) -> None:
    game = ALL_GAMES[game_id]
    state, notes = _late_position(game, players, options, seed)
    snap = _snapshot(game, state, notes, players, options)
    table = render.table_embed(snap)
    _limits(table)
    lines = _lines(table)
    # The events are every one of the latest move's, within a character budget (a count cut
    # a move's own events off); the rest of the table as compact as when three were shown.
    events = [line for line in lines if line.startswith("• ")]
    rest = len(lines) - len(events) + RECENT_EVENTS
    assert rest <= MAX_TABLE_LINES * max(players, 2) / 8 + 8, "\n".join(lines)
    assert rest <= MAX_TABLE_LINES, "\n".join(lines)
    repeated = {line for line in lines if lines.count(line) > 1}
    assert not repeated, f"repeated on the table: {repeated}"
    assert sum(len(line) + 1 for line in events) <= render.EVENTS_BUDGET
    for seat in range(players):
        hand = render.hand_embed(
            snap, seat, snap.view(seat), notice=["You chose: something."], has_moves=True
        )
        _limits(hand)
        hand_lines = [line for line in _lines(hand) if line not in ("",)]
        repeated = {line for line in hand_lines if hand_lines.count(line) > 1}
        assert not repeated, f"repeated in seat {seat}'s hand: {repeated}"
        assert len(hand_lines) <= 25, "\n".join(hand_lines)


@pytest.mark.parametrize(("game_id", "options", "players"), LAYOUTS)
def test_a_finished_table_says_who_won_first(game_id: str, options: dict[str, str], players: int) -> None:
    game = ALL_GAMES[game_id]
    rnd = random.Random(7)
    state = game.setup(players, 7, options)
    notes: dict[str, Any] = {}
    for _ in range(20000):
        if game.outcome(state) is not None:
            break
        actors = sorted(game.to_act(state))
        seat = rnd.choice(actors)
        state, events = game.apply(state, seat, game.ai_move(state, seat, game_rng(rnd)))
        notes = add_events(notes, events)
    assert game.outcome(state) is not None, game.id
    snap = _snapshot(game, state, notes, players, options)
    snap = Snapshot(_finished(snap.record), game, state)
    table = render.table_embed(snap)
    _limits(table)
    lines = _lines(table)
    assert len(lines) <= MAX_TABLE_LINES, "\n".join(lines)
    head = table.description.splitlines()[0]
    assert head.startswith("**🏆") and (" win" in head or "Tie" in head), head


def game_rng(rnd: random.Random) -> Any:
    from bot.games.base import Rng

    return Rng.from_seed(rnd.getrandbits(62))


def _finished(record: MatchRecord) -> MatchRecord:
    from dataclasses import replace

    return replace(record, status=MatchStatus.FINISHED, deadline=None, deadline_at=None)


__all__ = ["Event"]


async def test_cards_new_since_the_last_look_are_marked_once() -> None:
    """The hand's text marks with 🆕 each card that was not in the player's last look, and
    only on that look: the next look at the same cards marks none. A new deal (every card of
    more than three new at once) marks none: all twelve marked said nothing (an audit)."""
    from bot.ui.hand import hand_message

    marked: dict[str, int] = {}
    for game_id in sorted(GAMES):
        game = GAMES[game_id]
        players, options = (
            game.hints.players or game.min_players,
            {o.key: o.default_value for o in game.options},
        )
        rnd = random.Random(3)
        state = game.setup(players, 3, options)
        notes: dict[str, Any] = {}
        looks: dict[int, Any] = {}
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            snap = _snapshot(game, state, notes, players, options)
            for seat in range(players):
                before = looks.get(seat)
                look = hand_message(snap, seat, before)
                cards = [(group.label, c) for group in snap.view(seat).hand for c in group.cards]
                fresh = list(cards)
                for card in before.cards if before is not None else ():
                    if card in fresh:
                        fresh.remove(card)
                text = str(look.embed.to_dict())
                dealt = len(fresh) == len(cards) > 3  # a new deal of the whole hand: nothing marked
                expected = len(fresh) if before is not None and not dealt else 0
                assert text.count("🆕") == expected, (game_id, fresh, text)
                marked[game_id] = marked.get(game_id, 0) + text.count("🆕")
                again = hand_message(snap, seat, look.shown)
                assert "🆕" not in str(again.embed.to_dict()), "shown once: the next look marks nothing"
                looks[seat] = look.shown
            seat = rnd.choice(sorted(game.to_act(state)))
            state, events = game.apply(state, seat, game.ai_move(state, seat, game_rng(rnd)))
            notes = add_events(notes, events)
    assert marked.get("dynasty"), "a dynasty player drew cards, and saw them marked"


def test_a_multi_choice_option_left_empty_says_what_that_means() -> None:
    """The lobby reads an empty multi-choice option in the game's words, not a bare 'none'."""
    for game in ALL_GAMES.values():
        defaults = {o.key: o.default_value for o in game.options}
        for option, line in zip(game.options, render.option_summary(game, {**defaults})):
            if option.multi and not defaults[option.key]:
                assert line == f"{option.label}: **{option.empty}**", line
    dynasty = GAMES["dynasty"]
    assert "Card changes: **none (every expansion card in play, no Secret Key)**" in render.option_summary(
        dynasty, {}
    )


def test_an_empty_part_of_the_hand_leaves_no_double_gap() -> None:
    assert render.single_spaced(["", "You chose: x.", "", "", "*Waiting.*"]) == [
        "You chose: x.",
        "",
        "*Waiting.*",
    ]


def test_the_echo_of_a_move_names_it_once_and_ends_one_sentence() -> None:
    """The answer to a move starts "You chose: <label>": labels bring their own verb
    ("Pick ...", "Catch ..."), and a full stop is added only where the label has no end of
    sentence of its own (a dynasty "Call On Guard!" is not followed by a second stop)."""
    from bot.games.base import Move
    from bot.games.crown import NAME as card_names
    from bot.games.dynasty.catalogue import ASK_M, CALL, catch_move
    from bot.service.snapshot import MoveResult
    from bot.ui.hand import chosen_echo, played_notice

    game = GAMES["crown"]
    state = game.setup(2, 1, {})
    snap = _snapshot(game, state, {}, 2, {})
    pick = next(m for m in game.legal_moves(state, 0) if m.label == "Pick King (5)")
    events = (Event("{p0} has picked."), Event("Your secret pick is in.", 0))
    notice = played_notice(MoveResult(snap, 0, pick, events))
    assert notice == ["You chose: Pick King (5).", "Your secret pick is in."], notice

    # What the move caused stays, even where it names the player: only the table's first
    # line, the move itself, is left out.
    events = (
        Event("{p1} has picked."),
        Event("Round 2 reveal: {p0} Witch (2), {p1} Knight (3)."),
        Event("{p1} wins round 2 with the higher card."),
    )
    notice = played_notice(MoveResult(snap, 1, pick, events))
    assert notice == [
        "You chose: Pick King (5).",
        "Round 2 reveal: {p0} Witch (2), {p1} Knight (3).",
        "{p1} wins round 2 with the higher card.",
    ], notice

    # Crown's find: the answer to a reveal says which card it was.
    find = game.setup(2, 1, {"variant": "find"})
    vassal = next(iter(game.to_act(find)))
    reveal = game.legal_moves(find, vassal)[0]
    after, found = game.apply(find, vassal, reveal)
    notice = played_notice(MoveResult(_snapshot(game, after, {}, 2, {}), vassal, reveal, tuple(found)))
    card = find.spread[0]
    assert notice[0] == "You chose: Reveal place 1." and any(
        card_names[card] in line for line in notice[1:]
    ), notice

    assert chosen_echo(catch_move(1).label) == "You chose: Catch {p1}: no On Guard call."
    assert chosen_echo(CALL.label) == "You chose: Call On Guard!"
    assert chosen_echo(ASK_M.label) == "You chose: Ask your partner: may I go out?"
    assert chosen_echo(Move.simple("x", "Hold the line.").label) == "You chose: Hold the line."


def test_the_classic_deck_shows_no_expansion_card_changes() -> None:
    """With the classic deck the expansion's card changes do not apply: no 'every expansion
    card in play' line in the lobby, the options panel or a party's summary, and the select
    says why there is nothing to change (the Secret Key, which classic may add, still shows)."""
    from bot.ui.lobby import option_placeholder

    dynasty = GAMES["dynasty"]
    lines = render.option_summary(dynasty, {"deck": "classic"})
    assert not any(line.startswith("Card changes") for line in lines), lines
    assert "Card changes: **Add the Secret Key**" in render.option_summary(
        dynasty, {"deck": "classic", "cards": "key"}
    )
    cards = next(o for o in dynasty.options if o.key == "cards")
    assert "every expansion card" not in option_placeholder(cards, {"deck": "classic"})
    assert "every expansion card" in option_placeholder(cards, {"deck": "dynasty"})


def test_crown_rules_sections_are_named_after_the_variants() -> None:
    """/rules game:crown: the section select lists the variants by name, not by id."""
    from bot.games.crown.state import VARIANT_CHOICES
    from bot.ui.rules import rules_pages

    titles = [title for title, _text in rules_pages(GAMES["crown"])]
    for variant, label in VARIANT_CHOICES:
        assert variant not in titles, titles
        assert label.rsplit(" (", 1)[0] in titles, titles


def test_dynasty_labels_read_as_sentences() -> None:
    """The early On Guard call, the table card's choices and the Magician say what they do;
    a catch is told in the button's words."""
    from bot.games.dynasty import catalogue
    from bot.games.dynasty.cards import DRA, KIND
    from bot.games.dynasty.catalogue import C_FIRST, tables_for
    from bot.games.dynasty.options import parse_options

    assert catalogue.CALL_AHEAD.label == "Call On Guard before playing down to one card"
    tables = tables_for(parse_options(4, {"deck": "classic"}))
    dragon = next(f for f in range(len(KIND)) if KIND[f] == DRA)
    first = tables._build(C_FIRST, dragon, dragon, -1, ())
    assert first[0].label.startswith("Table card Dragon (next player draws 3): Name "), first[0].label
    magician = tables.magician(0)
    assert magician and magician[0][0].path[0] == "Magician (plays as a card you name)", magician[0][0].path
    assert "catch" in catalogue.catch_move(1).label.casefold()


def test_the_table_lists_every_event_of_the_latest_move_within_a_budget() -> None:
    """An Imperial Tax taking a card from each of three players, a King's Goblet's who-played-it
    before everyone's draws: every public event of the latest move is on the table, not the
    last three; a move's events beyond the budget are cut oldest first, with "…"."""
    game = GAMES["dynasty"]
    state = game.setup(4, 1, {})
    notes = add_events({}, [Event("{p0} played before.")])
    tax = [Event("{p0} plays the Imperial Tax.")] + [
        Event(f"{{p0}} takes a card from {{p{s}}}.") for s in (1, 2, 3)
    ]
    notes = add_events(notes, tax)
    snap = _snapshot(game, state, notes, 4, {})
    moves = next(f for f in render.table_embed(snap).to_dict()["fields"] if f["name"] == "Last moves")[
        "value"
    ]
    assert moves.splitlines() == [
        "• Annabelle plays the Imperial Tax.",
        "• Annabelle takes a card from Bartholomew.",
        "• Annabelle takes a card from Cat.",
        "• Annabelle takes a card from Dmitri.",
    ]
    # A player leaving between moves adds to the latest move's events.
    left = add_events(notes, [Event("{p3} left the match; the AI plays their seat.")], move=False)
    moves = render.recent_events(_snapshot(game, state, left, 4, {}))
    assert len(moves) == 5 and moves[0] == "• Annabelle plays the Imperial Tax."
    # What happened since the table was last shown (paced edits): more than the latest move.
    assert render.recent_events(snap, since=5)[0] == "• Annabelle played before."
    # Beyond the budget: the oldest cut, "…" first.
    long = add_events({}, [Event(f"{{p1}} event {i}: " + "x" * 80) for i in range(30)])
    cut = render.recent_events(_snapshot(game, state, long, 4, {}))
    assert cut[0] == "…" and cut[-1].startswith("• Bartholomew event 29")
    assert sum(len(line) + 1 for line in cut) <= render.EVENTS_BUDGET


def test_a_new_card_is_marked_in_its_own_group_not_on_a_same_named_card_of_another() -> None:
    """Drawing a Fair Maiden of burgundy while holding the blue one marks the burgundy one:
    a card is compared with its group (suit, colour), not by its label alone."""
    from bot.ui.hand import hand_message
    from bot.ui.tracker import Shown

    game = GAMES["dynasty"]
    options = {o.key: o.default_value for o in game.options}
    state = game.setup(3, 3, options)
    snap = _snapshot(game, state, {}, 3, options)
    groups = [g for g in snap.view(0).hand if g.cards]
    assert len(groups) >= 2
    new, other = groups[0], groups[1]
    card = new.cards[0]
    held = [(g.label, c) for g in groups for c in g.cards]
    held.remove((new.label, card))
    held.append((other.label, card))  # last look: the same label in another group
    before = Shown(None, None, 0.0, (), tuple(held), snap.notes_count(0))
    look = hand_message(snap, 0, before)
    assert look.new_cards == [(new.label, card)]
    lines = look.embed.description.split("\n")
    [marked] = [line for line in lines if "🆕" in line]
    assert marked.startswith(snap.name_text(new.label)), marked


def test_an_awaited_hand_shows_what_its_decision_depends_on() -> None:
    """Beside a decision the hand repeats the table's lines it depends on (dynasty's top card,
    suit and direction; court's trick and pool; four's field); a hand with nothing to decide
    does not (it is not edited when the table changes)."""
    from bot.ui.hand import hand_message

    shown: dict[str, str] = {}
    for game_id in ("dynasty", "court", "four"):
        game = GAMES[game_id]
        players = 4 if game_id == "court" else (game.hints.players or game.min_players)
        options = {o.key: o.default_value for o in game.options}
        rnd = random.Random(7)
        state = game.setup(players, 7, options)
        notes: dict[str, Any] = {}
        for _ in range(12):
            seat = rnd.choice(sorted(game.to_act(state)))
            state, events = game.apply(state, seat, game.ai_move(state, seat, game_rng(rnd)))
            notes = add_events(notes, events)
        snap = _snapshot(game, state, notes, players, options)
        context = snap.view(None).table_context
        assert context, game_id
        for seat in range(players):
            text = hand_message(snap, seat, None).embed.description or ""
            block = "\n".join(["**On the table**", *(snap.name_text(line) for line in context)])
            if seat in snap.awaited() and snap.legal_moves(seat):
                assert block in text, (game_id, text)
                shown[game_id] = text
            else:
                assert "**On the table**" not in text, (game_id, text)
    assert "Top card: " in shown["dynasty"] and "suit: " in shown["dynasty"], shown["dynasty"]
    assert "Trick: " in shown["court"] or "Pool: " in shown["court"], shown["court"]


def test_dynasty_tables_say_how_the_last_hand_was_scored() -> None:
    """QA audit: the end screen read "AI 1 wins after 3 hands (lowest total wins). Totals: AI 1
    12, ann 37, cat 85, bob 243." where bob had 125 a move before; who went out and each
    player's hand points were only in the Log. The next hand's table and the finished table
    say how the last hand was scored, in one line naming every player."""
    import re

    game = GAMES["dynasty"]
    options = {"deck": "dynasty", "hands": "3"}
    rnd = random.Random(3)
    state = game.setup(4, 3, options)
    notes: dict[str, Any] = {}
    between = ""
    while game.outcome(state) is None:
        seat = rnd.choice(sorted(game.to_act(state)))
        state, events = game.apply(state, seat, game.ai_move(state, seat, game_rng(rnd)))
        notes = add_events(notes, events)
        if state.hand_number == 2 and game.outcome(state) is None and not between:
            between = render.table_embed(_snapshot(game, state, notes, 4, options)).description or ""
    scored = r"Hand {n}: (\w+ went out|nobody went out) · hand points Annabelle [+-]\d+, Bartholomew [+-]\d+, Cat [+-]\d+, Dmitri [+-]\d+"
    assert re.search("^" + scored.format(n=1) + "$", between, re.MULTILINE), between
    snap = _snapshot(game, state, notes, 4, options)
    table = render.table_embed(Snapshot(_finished(snap.record), game, state))
    lines = (table.description or "").splitlines()
    assert lines[0].startswith("**🏆") and "after 3 hands" in lines[1], lines
    assert re.fullmatch(scored.format(n=3), lines[2]), lines


def test_a_new_deal_marks_no_card_new() -> None:
    """King's Court deals twelve new cards each round: marking all twelve 🆕 says nothing, so
    a look at a whole new hand marks none; a card drawn into a kept hand is still marked."""
    from dataclasses import replace

    from bot.ui.hand import hand_message
    from tests.snapshots import snapshot_of

    game = GAMES["court"]
    names = ["ann", "bob", "cat", "dan"]
    state = game.setup(4, 5, {})
    look = hand_message(snapshot_of(game, state, names), 0, None)
    others = tuple(h for h in state.hands[1:])
    dealt = replace(state, hands=(others[0], state.hands[0], *others[1:]))  # ann holds a new twelve
    again = hand_message(snapshot_of(game, dealt, names, version=2), 0, look.shown)
    assert "🆕" not in str(again.embed.to_dict())
    one_more = replace(state, hands=((*state.hands[0][:-1], others[0][0]), *state.hands[1:]))
    drawn = hand_message(snapshot_of(game, one_more, names, version=2), 0, look.shown)
    assert str(drawn.embed.to_dict()).count("🆕") == 1


def test_an_empty_hand_at_the_end_says_nothing() -> None:
    """A tourney ends with every card used: the last look at the hand shows the result, not
    "Your cards (0)" and "none" (an audit)."""
    from bot.service import MatchStatus
    from bot.ui.hand import hand_message
    from tests.snapshots import snapshot_of

    game = GAMES["crown"]
    options = {"variant": "tourney"}
    state = game.setup(2, 9, options)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    end = hand_message(
        snapshot_of(game, state, ["ann", "bob"], options=options, status=MatchStatus.FINISHED), 0, None
    )
    text = end.embed.description or ""
    assert "Your cards (0)" not in text and "The match is over" in text, text

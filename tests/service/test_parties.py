"""Parties: the seating rules (pure), standings, and whole parties through the service on
SQLite and PostgreSQL, including a restart after a round ended while the bot was down."""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
from dataclasses import replace
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.base import GameError, Rng
from bot.service import MatchService, errors, seating
from bot.service.seating import AI_FILL, SeatingError, TableResult
from bot.service.snapshot import PartySnapshot
from db.parties import PartyPlayer
from db.records import MatchStatus
from db.repository import Repository
from tests.postgres import postgres_server

__all__ = ["postgres_server"]

HOST, BOB, CAT = 100, 200, 300
QUICK = {"hands": "1", "deck": "classic"}


# --- seating rules --------------------------------------------------------------------------


def test_tables_are_as_even_as_possible() -> None:
    assert seating.table_sizes(7, 2) == [4, 3]
    assert seating.table_sizes(16, 3) == [6, 5, 5]
    assert seating.table_sizes(4, 2) == [2, 2]


def test_check_seating_refuses_what_cannot_be_seated() -> None:
    seating.check_seating(5, 2, game_min=2, game_max=8)
    with pytest.raises(SeatingError, match="4 to 16"):
        seating.check_seating(3, 2, game_min=2, game_max=8)
    with pytest.raises(SeatingError, match="at least 2"):
        seating.check_seating(5, 3, game_min=2, game_max=8)
    with pytest.raises(SeatingError, match="at most 4"):
        seating.check_seating(10, 2, game_min=2, game_max=4)
    with pytest.raises(SeatingError, match="Partners"):
        seating.check_seating(6, 2, game_min=2, game_max=8, partners=True)  # 3 and 3
    seating.check_seating(8, 2, game_min=2, game_max=8, partners=True)


def test_first_seating_seats_everyone_once() -> None:
    tables = seating.first_seating(7, 2, random.Random(1))
    assert [len(t) for t in tables] == [4, 3]
    assert sorted(itertools.chain(*tables)) == list(range(7))


def test_winners_move_to_the_next_table_and_the_last_to_the_first() -> None:
    moved = seating.move_winners([[0, 1, 2], [3, 4, 5], [6, 7]], [1, 5, 7])
    assert moved == [[0, 2, 7], [3, 4, 1], [6, 5]]


def test_uneven_tables_keep_their_sizes_and_a_table_without_winner_sends_nobody() -> None:
    moved = seating.move_winners([[0, 1, 2], [3, 4]], [2, None])
    assert moved == [[0, 1], [3, 4, 2]]
    moved = seating.move_winners([[0, 1, 2], [3, 4]], [2, 4])
    assert sorted(len(t) for t in moved) == [2, 3] and moved == [[0, 1, 4], [3, 2]]


def test_ai_fills_a_table_up_to_the_games_smallest_and_is_dropped_before_moving() -> None:
    filled = seating.fill_ai([[0, 1, 2], [3, 4]], game_min=4)
    assert filled == [[0, 1, 2, AI_FILL], [3, 4, AI_FILL, AI_FILL]]
    assert seating.move_winners(filled, [0, 3]) == [[1, 2, 3], [4, 0]]
    nxt = seating.next_seating(filled, [0, 3], random.Random(2), partners=False, game_min=4)
    assert nxt == [[1, 2, 3, AI_FILL], [4, 0, AI_FILL, AI_FILL]]


def test_partners_are_drawn_again_and_nobody_keeps_a_partner_where_possible() -> None:
    first = [[0, 1, 2, 3], [4, 5, 6, 7]]  # partners 0-2, 1-3, 4-6, 5-7
    before = seating.partner_pairs(first[0]) | seating.partner_pairs(first[1])
    assert before == {frozenset({0, 2}), frozenset({1, 3}), frozenset({4, 6}), frozenset({5, 7})}
    for seed in range(20):
        nxt = seating.next_seating(first, [0, 4], random.Random(seed), partners=True, game_min=2)
        assert sorted(nxt[0]) == [1, 2, 3, 4] and sorted(nxt[1]) == [0, 5, 6, 7]
        after = seating.partner_pairs(nxt[0]) | seating.partner_pairs(nxt[1])
        assert not after & before, (seed, nxt)


def test_a_partner_repeats_only_when_it_cannot_be_helped() -> None:
    # Two players at a table of two are partners however they sit.
    table = seating.draw_partners([0, 1], {frozenset({0, 1})}, random.Random(0))
    assert sorted(table) == [0, 1]


def test_table_winner_is_place_one_and_never_an_ai_fill_seat() -> None:
    results = [TableResult(0, 2, 30), TableResult(AI_FILL, 1, 0), TableResult(1, 3, 50)]
    assert seating.table_winner(results, low_score_wins=True) is None
    team = [TableResult(0, 1, 40), TableResult(1, 2, 60), TableResult(2, 1, 10), TableResult(3, 2, 5)]
    assert seating.table_winner(team, low_score_wins=True) == 2
    assert seating.table_winner(team, low_score_wins=False) == 0


def test_standings_add_up_rounds_and_rank_ai_then_leavers_after_people() -> None:
    rounds: list[dict[int, int | None]] = [{0: 10, 1: 0, 2: 5, 3: 50}, {0: 0, 1: 30, 2: 5, 3: None}]
    lines = seating.standings(
        4, rounds, left=[False, False, False, True], ai=[False, False, True, False], low_score_wins=True
    )
    assert [(s.player, s.total) for s in lines] == [(0, 10), (1, 30), (2, 10), (3, 50)]
    assert lines[0].rounds == (10, 0)
    assert seating.party_winners(lines, low_score_wins=True) == [0]
    high = seating.standings(2, [{0: 3, 1: 7}], left=[False, False], ai=[False, False], low_score_wins=False)
    assert seating.party_winners(high, low_score_wins=False) == [1]


def test_party_places_share_ties_and_skip_ai_and_players_with_no_score_yet() -> None:
    """As a match's final standings: a tie shares its place and the next place is skipped;
    AI players and people whose first table still plays have no place; a tie for first
    shares the win; leavers rank after every stayer."""
    rounds: list[dict[int, int | None]] = [{0: 20, 1: 20, 2: 5, 3: 40, 4: 99}]
    lines = seating.standings(
        6,
        rounds,
        left=[False, False, False, True, False, False],
        ai=[False, False, False, False, True, False],
        low_score_wins=False,
        playing=[False, False, False, False, False, True],
    )
    assert seating.places(lines, low_score_wins=False) == {0: 1, 1: 1, 2: 3, 3: 4}
    assert seating.party_winners(lines, low_score_wins=False) == [0, 1]
    assert [s.player for s in lines] == [0, 1, 2, 5, 4, 3]  # no score yet (5) after the scores


# --- through the service ----------------------------------------------------------------------


class Threads:
    """The tables' channels, as the Discord layer would open them (one id per table)."""

    def __init__(self) -> None:
        self.ids = itertools.count(10_000)
        self.opened: list[tuple[int, int, int]] = []

    async def table_channel(self, party: PartySnapshot, round_no: int, table_no: int) -> int:
        self.opened.append((party.id, round_no, table_no))
        return next(self.ids)


class Seen:
    def __init__(self) -> None:
        self.parties: list[PartySnapshot] = []

    async def party_changed(self, party: PartySnapshot) -> None:
        self.parties.append(party)


def service(repo: Repository, threads: Threads) -> MatchService:
    svc = MatchService(repo, ai_delay=0)
    svc.rounds.table_channels = threads
    return svc


async def people_play(
    svc: MatchService, party_id: int, people: dict[int, str], *, until_round: int | None = None
) -> PartySnapshot:
    """Every person makes a legal move whenever asked, until the party ends (or reaches a round)."""
    for _ in range(20_000):
        party = await svc.parties.get(party_id)
        if party.status.over or (until_round is not None and party.record.round >= until_round):
            return party
        moved = False
        for table in party.round_tables():
            if table.match_id is None or table.results is not None:
                continue
            snap = await svc.get(table.match_id)
            for user in people:
                seat = snap.seat_of(user)
                if seat is not None and seat in snap.to_act() and not snap.seats[seat].left:
                    try:
                        await svc.play(snap.id, user, snap.legal_moves(seat)[0], version=snap.version)
                        moved = True
                    except (errors.StaleVersion, errors.NotRunning, GameError):
                        pass  # the AI moved first, or the table ended: look again
                    break
        if not moved:
            await asyncio.sleep(0.01)
    raise AssertionError("the party did not end")


async def open_party(
    svc: MatchService, *, ais: int, people: dict[int, str], rounds: str = "2"
) -> PartySnapshot:
    party = await svc.parties.open(
        guild_id=1, channel_id=5, host_id=HOST, host_name="Host", game_id="dynasty"
    )
    for user, name in people.items():
        if user != HOST:
            party = await svc.parties.seating.join(party.id, user, name)
    for _ in range(ais):
        party = await svc.parties.seating.add_ai(party.id, HOST)
    for key, value in QUICK.items():
        party = await svc.parties.seating.set_option(party.id, HOST, key, value)
    return await svc.parties.seating.set_option(party.id, HOST, "rounds", rounds)


async def test_a_two_table_two_round_party_of_people_and_ai(repo: Repository) -> None:
    threads, seen = Threads(), Seen()
    svc = service(repo, threads)
    svc.add_party_listener(seen)
    people = {HOST: "Host", BOB: "Bob"}
    try:
        party = await open_party(svc, ais=3, people=people)
        with pytest.raises(errors.NotHost):
            await svc.parties.seating.start(party.id, BOB)
        party = await svc.parties.seating.start(party.id, HOST)
        assert party.status == MatchStatus.RUNNING and party.record.round == 1
        assert [len(t.seating) for t in party.round_tables()] == [3, 2]
        party = await people_play(svc, party.id, people)
        await svc.settle()
        assert party.status == MatchStatus.FINISHED
        assert len(threads.opened) == 4  # two tables, two rounds: a channel each
        assert {t.round for t in party.tables} == {1, 2}
        assert all(t.results is not None for t in party.tables)
        # The winner of each table of round 1 sits at the next table in round 2.
        for t, table in enumerate(party.round_tables(1)):
            winner = seating.table_winner(
                [TableResult(r.player, r.place, r.score) for r in table.results or ()], low_score_wins=True
            )
            if winner is not None:
                assert winner in party.round_tables(2)[(t + 1) % 2].seating
        lines = party.standings()
        assert {line.player for line in lines} == set(range(5))
        assert all(len(line.rounds) == 2 for line in lines)
        winners = party.winners()
        assert winners and all(party.players[w].user_id in people for w in winners)
        winner = winners[0]
        # Every match counted as usual; the party result is kept for /stats.
        for table in party.tables:
            assert table.match_id is not None and await repo.results(table.match_id)
        won = await svc.parties.stats(1, party.players[winner].user_id or 0)
        assert (won.played, won.won) == (1, 1)
        assert seen.parties and seen.parties[-1].status == MatchStatus.FINISHED
        # Nothing of the ended party is kept: its lock (a weak value) and its tables' matches.
        gc.collect()
        assert party.id not in svc.rounds.locks and not svc.rounds.party_of
        # A party's table is no ordinary match: no rematch of it (the party seats its rounds).
        table = party.round_tables(1)[0]
        assert table.match_id is not None and await svc.parties.of_match(table.match_id) == party.id
        with pytest.raises(errors.LobbyError, match="part of party"):
            await svc.rematch(table.match_id, HOST, "Host")
    finally:
        await svc.close()


async def test_a_player_who_leaves_is_replaced_by_the_ai_and_ranked_last(repo: Repository) -> None:
    threads = Threads()
    svc = service(repo, threads)
    people = {HOST: "Host", BOB: "Bob", CAT: "Cat"}
    try:
        party = await open_party(svc, ais=1, people=people)
        party = await svc.parties.seating.start(party.id, HOST)
        party = await svc.parties.leave(party.id, BOB)
        bob = party.player_of(BOB)
        assert bob is not None and party.players[bob].left
        party = await people_play(svc, party.id, {HOST: "Host", CAT: "Cat"})
        assert party.status == MatchStatus.FINISHED
        lines = party.standings()
        assert lines[-1].player == bob
        round_two = next(t for t in party.round_tables(2) if bob in t.seating)
        assert round_two.match_id is not None
        snap = await svc.get(round_two.match_id)
        assert snap.seats[round_two.seating.index(bob)].ai  # the AI plays Bob's seat from now on
        assert (await svc.parties.stats(1, BOB)).won == 0
    finally:
        await svc.close()


async def test_cancelling_a_party_cancels_its_running_matches(repo: Repository) -> None:
    svc = service(repo, Threads())
    try:
        party = await open_party(svc, ais=2, people={HOST: "Host", BOB: "Bob"})
        party = await svc.parties.seating.start(party.id, HOST)
        with pytest.raises(errors.NotHost):
            await svc.parties.cancel(party.id, BOB, is_admin=False)
        party = await svc.parties.cancel(party.id, BOB, is_admin=True)
        assert party.status == MatchStatus.ABANDONED
        for table in party.round_tables():
            assert table.match_id is not None
            assert (await svc.get(table.match_id)).status in (MatchStatus.ABANDONED, MatchStatus.FINISHED)
    finally:
        await svc.close()


async def test_a_round_that_ended_while_the_bot_was_down_advances_on_restore(repo: Repository) -> None:
    threads = Threads()
    people = {HOST: "Host", BOB: "Bob"}
    first = service(repo, threads)
    party = await open_party(first, ais=2, people=people)
    party = await first.parties.seating.start(party.id, HOST)
    # From here on the first process no longer hears of its tables' ends, as if it had
    # stopped: the matches are played to their end, the party is not told.
    first.rounds.party_of.clear()
    for table in party.round_tables():
        assert table.match_id is not None
        for _ in range(10_000):
            snap = await first.get(table.match_id)
            if snap.status.over:
                break
            for user in people:
                seat = snap.seat_of(user)
                if seat is not None and seat in snap.to_act():
                    try:
                        await first.play(snap.id, user, snap.legal_moves(seat)[0], version=snap.version)
                    except (errors.StaleVersion, errors.NotRunning):
                        pass
            await asyncio.sleep(0.01)
        assert (await first.get(table.match_id)).status.over
    await first.close()
    assert (await first.parties.get(party.id)).record.round == 1

    second = service(repo, threads)
    try:
        await second.restore()
        party = await second.parties.get(party.id)
        assert party.record.round == 2
        assert all(t.results is not None for t in party.round_tables(1))
        assert all(t.match_id is not None for t in party.round_tables(2))
        party = await people_play(second, party.id, people)
        assert party.status == MatchStatus.FINISHED
    finally:
        await second.close()


async def test_a_crash_between_opening_a_thread_and_creating_its_match_reuses_the_thread(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = Threads()
    people = {HOST: "Host", BOB: "Bob"}
    first = service(repo, threads)
    party = await open_party(first, ais=2, people=people)
    real_create = repo.create_match
    created = 0

    async def create_then_crash(**kwargs: Any) -> Any:
        nonlocal created
        created += 1
        if created == 2:  # the second table's thread is open; the process dies before its match exists
            raise RuntimeError("the process stopped")
        return await real_create(**kwargs)

    monkeypatch.setattr(repo, "create_match", create_then_crash)
    with pytest.raises(RuntimeError):
        await first.parties.seating.start(party.id, HOST)
    await first.close()
    monkeypatch.setattr(repo, "create_match", real_create)
    assert len(threads.opened) == 2
    stored = {t.table_no: t for t in await first.rounds.party_store.tables(party.id, 1)}
    assert stored[1].match_id is None and stored[1].channel_id is not None

    second = service(repo, threads)
    try:
        await second.restore()
        party = await second.parties.get(party.id)
        assert len(threads.opened) == 2, "no second thread for the same table"
        table = next(t for t in party.round_tables() if t.table_no == 1)
        assert table.match_id is not None
        assert (await second.get(table.match_id)).record.channel_id == stored[1].channel_id
    finally:
        await second.close()


@pytest.mark.parametrize("game_id", [g for g, game in GAMES.items() if game.parties is not None])
def test_every_party_game_gives_every_seat_a_total(game_id: str) -> None:
    """A party adds up SeatResult.score: a game that declares party options must give one."""
    game = GAMES[game_id]
    options = (
        {o.key: o.default_value for o in game.options}
        | dict(game.parties.options if game.parties else {})
        | dict(game.hints.quick)
    )
    players = game.hints.players or game.min_players
    state = game.setup(players, 7, options)
    rng = Rng.from_seed(7)
    for _ in range(200_000):
        outcome = game.outcome(state)
        if outcome is not None:
            break
        seat = min(game.to_act(state))
        move = game.ai_move(state, seat, rng)
        rng = Rng(rng.state + 1)
        state, _events = game.apply(state, seat, move)
    assert outcome is not None
    assert sorted(r.seat for r in outcome.results) == list(range(players))
    assert all(r.score is not None for r in outcome.results), outcome


async def test_partners_are_drawn_again_between_rounds(repo: Repository) -> None:
    svc = service(repo, Threads())
    people = {HOST: "Host", BOB: "Bob"}
    try:
        party = await open_party(svc, ais=6, people=people)
        party = await svc.parties.seating.set_option(party.id, HOST, "partners", "on")
        party = await svc.parties.seating.start(party.id, HOST)
        assert [len(t.seating) for t in party.round_tables()] == [4, 4]
        party = await people_play(svc, party.id, people)
        before: set[frozenset[int]] = set()
        for table in party.round_tables(1):
            before |= seating.partner_pairs(table.seating)
        for table in party.round_tables(2):
            assert not seating.partner_pairs(table.seating) & before, (
                party.round_tables(1),
                party.round_tables(2),
            )
        assert party.status == MatchStatus.FINISHED
    finally:
        await svc.close()


async def test_a_party_that_the_game_cannot_seat_is_refused_before_it_starts(repo: Repository) -> None:
    svc = service(repo, Threads())
    try:
        party = await open_party(svc, ais=4, people={HOST: "Host"})
        party = await svc.parties.seating.set_option(party.id, HOST, "partners", "on")
        with pytest.raises(errors.LobbyError, match="Partners need tables of 4, 6 or 8"):
            await svc.parties.seating.start(party.id, HOST)  # 5 players: tables of 3 and 2
        assert (await svc.parties.get(party.id)).status == MatchStatus.LOBBY
        with pytest.raises(errors.LobbyError, match="cannot be played as a party"):
            await svc.parties.open(guild_id=1, channel_id=6, host_id=HOST, host_name="Host", game_id="crown")
        with pytest.raises(errors.LobbyError, match="already has a party"):
            await svc.parties.open(guild_id=1, channel_id=5, host_id=BOB, host_name="Bob", game_id="dynasty")
    finally:
        await svc.close()


async def test_ai_players_play_at_their_level_at_every_table(repo: Repository) -> None:
    """Add easy / Add AI / Add hard AI in a party: the level is stored with the player (a
    party stored before levels reads as normal) and its seat plays at it at its table; the
    seats that fill a table play at the normal level, named after the party's AI players."""
    svc = service(repo, Threads())
    try:
        party = await svc.parties.open(
            guild_id=1, channel_id=5, host_id=HOST, host_name="Host", game_id="court"
        )
        with pytest.raises(errors.LobbyError, match="not an AI level"):
            await svc.parties.seating.add_ai(party.id, HOST, "expert")
        with pytest.raises(errors.NotHost):
            await svc.parties.seating.add_ai(party.id, BOB, "hard")
        for level in ("hard", "easy", "normal"):
            party = await svc.parties.seating.add_ai(party.id, HOST, level)
        party = await svc.parties.get(party.id)  # as stored
        assert [(p.name, p.ai, p.level) for p in party.players] == [
            ("Host", False, "normal"),
            ("AI 1", True, "hard"),
            ("AI 2", True, "easy"),
            ("AI 3", True, "normal"),
        ]
        assert PartyPlayer.from_json({"user_id": None, "name": "AI 1", "ai": True}).level == "normal"
        party = await svc.parties.seating.start(
            party.id, HOST
        )  # 4 players at 2 tables of 2, each filled up to court's 4
        levels: dict[str, str] = {}
        for table in party.round_tables():
            assert table.match_id is not None
            seats = (await svc.get(table.match_id)).seats
            names = [s.name for s in seats]
            assert len(names) == len(set(names)) == 4, names
            for player, seat in zip(table.seating, seats, strict=True):
                if player == AI_FILL:
                    assert seat.ai and seat.level == "normal" and seat.name in ("AI 4", "AI 5"), seat
                else:
                    levels[seat.name] = seat.level
        assert levels == {"Host": "normal", "AI 1": "hard", "AI 2": "easy", "AI 3": "normal"}
    finally:
        await svc.close()


def _party_of_five(status: MatchStatus, round_no: int, tables: tuple[Any, ...]) -> Any:
    from bot.games import GAMES
    from bot.service.snapshot import PartySnapshot
    from db.parties import PartyPlayer, PartyRecord

    players = (
        PartyPlayer(11, "ann"),
        PartyPlayer(12, "bob"),
        PartyPlayer(13, "cat"),
        PartyPlayer(14, "dan"),
        PartyPlayer(None, "AI 1", ai=True),
    )
    record = PartyRecord(
        1, 1, 100, None, 11, "dynasty", {"deck": "classic"}, 2, 2, round_no, status, players, 7, 1, 0.0
    )
    return PartySnapshot(record, GAMES["dynasty"], tables)


def test_mid_round_standings_rank_what_is_known_and_name_who_still_plays_once() -> None:
    """Round 1: ann's table (with the AI) has finished, ann scored 81; bob, cat and dan still
    play. Their 0 is no score yet: ann is first, the others are named once as still playing
    (no place, no 0), and the round is described once."""
    from bot.ui.partyview import party_embed
    from db.parties import PartyTableRecord, SeatOutcome

    done = PartyTableRecord(1, 1, 1, 1, (0, 4), 20, (SeatOutcome(4, 1, 0), SeatOutcome(0, 2, 81)), 201)
    busy = PartyTableRecord(2, 1, 1, 0, (2, 3, 1), 21, None, 202)
    party = _party_of_five(MatchStatus.RUNNING, 1, (busy, done))
    embed = party_embed(party)
    rows = embed.fields[0].value or ""
    assert embed.fields[0].name == "Party score"
    assert rows.splitlines() == [
        "1. ann · **81**",
        "· AI 1 (normal AI, not ranked) · **0**",
        "Still playing, no score yet: bob, cat, dan",
    ], rows
    assert embed.description == (
        "Round 1 is being played at 2 tables, each in its own thread. When every table has "
        "finished, each table's winner moves to the next table and round 2 starts."
    )
    # Before any table has finished there is no score at all: no ranks, only the tables.
    fresh = party_embed(_party_of_five(MatchStatus.RUNNING, 1, (busy, replace(done, results=None))))
    assert [f.name for f in fresh.fields] == ["Round 1 tables"], fresh.fields
    assert "Table 2 (opening…, playing): ann, AI 1" in (fresh.fields[0].value or ""), fresh.fields


def test_the_last_rounds_standings_add_what_is_known_and_share_tied_places() -> None:
    """Round 2 of 2 (dynasty: the lowest total wins): bob and cat, tied on 30, share third
    place; ann's and dan's table still plays (their round-1 scores count, their round 2
    reads "playing"); what ends the party is told once."""
    from bot.ui.partyview import party_embed
    from db.parties import PartyTableRecord, SeatOutcome

    r1 = (
        PartyTableRecord(1, 1, 1, 0, (0, 4), 20, (SeatOutcome(4, 1, 0), SeatOutcome(0, 2, 10)), 201),
        PartyTableRecord(
            2,
            1,
            1,
            1,
            (1, 2, 3),
            21,
            (SeatOutcome(2, 1, 5), SeatOutcome(3, 2, 13), SeatOutcome(1, 3, 25)),
            202,
        ),
    )
    r2 = (
        PartyTableRecord(3, 1, 2, 0, (0, 3), 22, None, 203),
        PartyTableRecord(
            4,
            1,
            2,
            1,
            (1, 2, 4),
            23,
            (SeatOutcome(4, 1, 0), SeatOutcome(1, 2, 5), SeatOutcome(2, 3, 25)),
            204,
        ),
    )
    embed = party_embed(_party_of_five(MatchStatus.RUNNING, 2, r1 + r2))
    rows = (embed.fields[0].value or "").splitlines()
    assert embed.fields[0].name == "Party score (round by round)"
    assert rows[:4] == [
        "1. ann · **10** (10 + playing)",
        "2. dan · **13** (13 + playing)",
        "3. bob · **30** (25 + 5)",
        "3. cat · **30** (5 + 25)",
    ], rows
    assert embed.description is not None and embed.description.startswith("This last round is being played")
    assert embed.description.endswith("When every table has finished, the lowest party score wins.")


def test_a_finished_party_marks_its_ai_players_not_ranked() -> None:
    from bot.ui.partyview import party_embed
    from db.parties import PartyTableRecord, SeatOutcome

    r1 = (
        PartyTableRecord(1, 1, 1, 0, (0, 4), 20, (SeatOutcome(4, 1, 0), SeatOutcome(0, 2, 81)), 201),
        PartyTableRecord(
            2,
            1,
            1,
            1,
            (1, 2, 3),
            21,
            (SeatOutcome(2, 1, 0), SeatOutcome(3, 2, 13), SeatOutcome(1, 3, 25)),
            202,
        ),
    )
    party = _party_of_five(MatchStatus.FINISHED, 1, r1)
    rows = (party_embed(party).fields[0].value or "").splitlines()
    assert rows[0].startswith("🥇 cat"), rows
    ai = next(x for x in rows if "AI 1" in x)
    assert "(normal AI, not ranked)" in ai and "🥇" not in ai and not ai[0].isdigit(), rows
    assert rows[-1] == ai, rows
    # Dynasty's lowest total wins, and its tables call it a total, not points.
    assert party_embed(party).description == "🏆 **cat** wins the party with a total of 0."
    # A tie for first shares the place and the win.
    tied = replace(r1[1], results=(SeatOutcome(2, 1, 0), SeatOutcome(3, 2, 13), SeatOutcome(1, 1, 0)))
    embed = party_embed(_party_of_five(MatchStatus.FINISHED, 1, (r1[0], tied)))
    assert embed.description == "🏆 **bob** and **cat** share the party win with a total of 0."
    assert (embed.fields[0].value or "").splitlines()[:3] == [
        "🥇 bob · **0**",
        "🥇 cat · **0**",
        "🥉 dan · **13**",
    ]


def test_a_table_threads_first_message_names_its_round_table_and_players() -> None:
    from bot.ui.party import table_intro
    from db.parties import PartyTableRecord

    tables = (
        PartyTableRecord(1, 1, 2, 0, (0, 4), None, None),
        PartyTableRecord(2, 1, 2, 1, (1, 2, 3), None, None),
    )
    party = _party_of_five(MatchStatus.RUNNING, 2, tables)
    text = table_intro(party, 2, 1)
    assert "Round 2 of 2 · table 2" in text and "<@12>, <@13> and <@14>" in text, text
    assert "<@11>" not in text
    assert "<@11> and AI 1" in table_intro(party, 2, 0)


def test_a_finished_tables_footer_says_where_the_party_goes_on() -> None:
    """A finished table's message may not be edited when the party moves on: round 1's
    points to the standings and round 2; the last round's to the final standings (once
    every table has finished, or now that the party is over). It never offers a rematch."""
    from bot.ui.partyview import table_footer
    from db.parties import PartyTableRecord, SeatOutcome

    r1 = PartyTableRecord(1, 1, 1, 0, (0, 4), 20, (SeatOutcome(4, 1, 0), SeatOutcome(0, 2, 81)), 201)
    r2 = PartyTableRecord(3, 1, 2, 0, (0, 4), 22, (SeatOutcome(4, 1, 0), SeatOutcome(0, 2, 5)), 203)
    running = _party_of_five(MatchStatus.RUNNING, 2, (r1, r2))
    assert table_footer(running, 20) == (
        "A table of party #1 (round 1 of 2): the party's message has the standings; "
        "round 2 starts in new threads once every table has finished"
    )
    assert table_footer(running, 22) == (
        "A table of party #1's last round: the party's message shows the final standings "
        "once every table has finished"
    )
    over = _party_of_five(MatchStatus.FINISHED, 2, (r1, r2))
    assert table_footer(over, 22) == (
        "A table of party #1, which is over: the party's message has the final standings"
    )


def test_the_tables_field_names_fill_seats_as_their_matches_do() -> None:
    """A table's AI fill seats were listed as a bare "AI" while its match calls them AI 2,
    AI 3 (numbered after the party's own AI 1); a player who left is marked so."""
    from bot.ui.partyview import party_embed
    from db.parties import PartyTableRecord

    tables = (
        PartyTableRecord(1, 1, 1, 0, (0, AI_FILL, AI_FILL), None, None),
        PartyTableRecord(2, 1, 1, 1, (1, 2, 3, 4), None, None),
    )
    party = _party_of_five(MatchStatus.RUNNING, 1, tables)
    party = replace(
        party,
        record=replace(
            party.record, players=(party.players[0], replace(party.players[1], left=True), *party.players[2:])
        ),
    )
    field = next(f for f in party_embed(party).fields if f.name == "Round 1 tables")
    assert (field.value or "").splitlines() == [
        "Table 1 (opening…, playing): ann, AI 2, AI 3",
        "Table 2 (opening…, playing): bob (left, ranked last), cat, dan, AI 1",
    ], field.value

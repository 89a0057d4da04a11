"""The match service without Discord: lobbies, moves, refusals, AI seats, deadlines, restarts."""

from __future__ import annotations

import asyncio
import gc
import threading
import time

import pytest

from bot.games import GAMES
from bot.games.base import SEAT_TOKEN_RE, GameError, IllegalMove, NotYourTurn, find_move
from bot.games.crown import atcourt
from bot.games.search import SearchResult
from bot.service import MatchService, Snapshot, ai_seats, errors
from db.repository import Repository
from tests.postgres import postgres_server

HOST, BOB, CAT = 100, 200, 300


async def lobby(svc: MatchService, variant: str = "defend", channel: int = 5):
    return await svc.open_lobby(
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="Host",
        game_id="crown",
        options={"variant": variant},
    )


async def wait_for(predicate, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if await predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


def host_plays_to_the_end(svc: MatchService, match_id: int):
    """A wait_for predicate: the host (seat 0) makes a legal move whenever asked."""

    async def done() -> bool:
        snap = await svc.get(match_id)
        if snap.status != "running":
            return True
        if 0 in snap.to_act():
            try:
                await svc.play(match_id, HOST, snap.legal_moves(0)[0], version=snap.version)
            except errors.StaleVersion:
                pass  # the AI moved first; look again
        return False

    return done


async def test_lobby_join_leave_and_host_handover(svc: MatchService) -> None:
    m = await lobby(svc)
    m = await svc.join(m.id, BOB, "Bob")
    with pytest.raises(errors.LobbyError, match="already seated"):
        await svc.join(m.id, BOB, "Bob")
    m = await svc.leave_lobby(m.id, HOST)
    assert m.record.host_id == BOB and [s.name for s in m.seats] == ["Bob"]
    m = await svc.leave_lobby(m.id, BOB)
    assert m.status == "abandoned"


async def test_only_one_active_match_per_channel(svc: MatchService) -> None:
    await lobby(svc)
    with pytest.raises(errors.ChannelBusy, match="already has an active match"):
        await lobby(svc)
    await lobby(svc, channel=6)


async def test_host_only_actions_and_player_counts(svc: MatchService) -> None:
    m = await lobby(svc, "find")
    await svc.join(m.id, BOB, "Bob")
    with pytest.raises(errors.NotHost):
        await svc.add_ai(m.id, BOB)
    with pytest.raises(errors.NotHost):
        await svc.start(m.id, BOB)
    with pytest.raises(errors.NotHost):
        await svc.set_option(m.id, BOB, "variant", "tourney")
    with pytest.raises(errors.LobbyError, match="not a choice"):
        await svc.set_option(m.id, HOST, "variant", "poker")
    with pytest.raises(errors.LobbyError, match=r"full \(2 players\)"):  # find seats exactly two
        await svc.join(m.id, CAT, "Cat")
    await svc.set_option(m.id, HOST, "variant", "atcourt")
    await svc.join(m.id, CAT, "Cat")
    await svc.set_option(m.id, HOST, "variant", "find")
    with pytest.raises(errors.LobbyError, match="exactly 2 players"):
        await svc.start(m.id, HOST)
    await svc.set_option(m.id, HOST, "variant", "atcourt")
    m = await svc.start(m.id, HOST)
    assert m.status == "running" and m.state is not None


async def test_cancel_needs_host_or_manage_server(svc: MatchService) -> None:
    m = await lobby(svc)
    await svc.join(m.id, BOB, "Bob")
    with pytest.raises(errors.NotHost):
        await svc.cancel(m.id, BOB, is_admin=False)
    m = await svc.cancel(m.id, BOB, is_admin=True)
    assert m.status == "abandoned"


async def test_moves_refusals_and_stale_versions(svc: MatchService, repo: Repository) -> None:
    m = await lobby(svc, "tourney")
    await svc.join(m.id, BOB, "Bob")
    m = await svc.start(m.id, HOST)
    with pytest.raises(errors.NotSeated):
        await svc.play(m.id, CAT, "pick:K")
    with pytest.raises(IllegalMove):
        await svc.play(m.id, HOST, "pick:X")
    r = await svc.play(m.id, HOST, "pick:K", version=m.version)
    assert r.private_for(0) == [] and "Your secret pick: **King (5)**" in r.snapshot.view(0).private
    with pytest.raises(NotYourTurn, match="already picked"):
        await svc.play(m.id, HOST, "pick:D")
    with pytest.raises(errors.StaleVersion):
        await svc.play(m.id, BOB, "pick:D", version=m.version)  # an old button
    assert (await svc.get(m.id)).version == m.version + 1
    assert [mv.code for mv in await repo.moves(m.id)] == ["pick:K"]


async def test_ai_seats_finish_a_match_and_results_are_stored(svc: MatchService, repo: Repository) -> None:
    m = await lobby(svc, "defend")
    await svc.add_ai(m.id, HOST)
    await svc.add_ai(m.id, HOST)
    m = await svc.start(m.id, HOST)

    await wait_for(host_plays_to_the_end(svc, m.id))
    results = await repo.results(m.id)
    assert len(results) == 3 and any(r.place == 1 for r in results)
    assert [r.is_ai for r in results] == [False, True, True]


async def test_a_finished_match_leaves_nothing_in_the_services_maps(repo: Repository) -> None:
    """The per-match state (cache, channel index, lock, timer, AI pause and task) is let go
    when the match ends: a long-running bot holds only what is being played."""
    svc = MatchService(repo, ai_delay=0.01)
    try:
        m = await lobby(svc, "tourney")
        await svc.add_ai(m.id, HOST)
        m = await svc.start(m.id, HOST)
        assert m.id in svc.store.cache and svc.store.in_channel[m.record.channel_id] == m.id
        await wait_for(host_plays_to_the_end(svc, m.id))
        await svc.settle()

        async def released() -> bool:
            gc.collect()  # the locks are weak values: gone with their last holder
            return not (
                m.id in svc.store.cache
                or m.id in svc.store.in_channel.values()
                or m.id in svc.store.locks
                or m.id in svc.deadlines.timers
                or m.id in svc.ai_seats.tasks
                or m.id in svc.ai_seats.pauses
            )

        await wait_for(released, timeout=3)
        assert (await svc.get(m.id)).status == "finished" and m.id not in svc.store.cache
    finally:
        await svc.close()


async def test_rule_deadline_fires_and_is_rearmed_after_restart(repo: Repository, monkeypatch) -> None:
    monkeypatch.setattr(atcourt, "QUESTIONING_SECONDS", 0.4)
    svc = MatchService(repo, ai_delay=0)
    m = await lobby(svc, "atcourt")
    await svc.join(m.id, BOB, "Bob")
    await svc.join(m.id, CAT, "Cat")
    m = await svc.start(m.id, HOST)
    assert m.record.deadline_at is not None and m.record.deadline["rule"]["move"] == "end"
    await svc.close()  # the bot stops before the deadline

    svc2 = MatchService(repo, ai_delay=0)
    await svc2.restore()

    async def accusing() -> bool:
        return (await svc2.get(m.id)).state.phase == "accuse"

    await wait_for(accusing, timeout=3)
    await svc2.close()


async def test_a_restore_with_freeze_keeps_the_restored_matches_out_of_the_collectors_way(
    repo: Repository,
) -> None:
    """``python -m bot`` restores with ``freeze``: the restored matches (and all else alive)
    go to the collector's permanent generation, the collector runs again afterwards, and the
    matches play on; without ``freeze`` nothing is frozen."""
    svc = MatchService(repo, ai_delay=0)
    m = await lobby(svc, "defend")
    await svc.join(m.id, BOB, "Bob")
    m = await svc.start(m.id, HOST)
    await svc.close()
    gc.unfreeze()
    try:
        plain = MatchService(repo, ai_delay=0)
        assert [s.id for s in await plain.restore()] == [m.id]
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        await plain.close()
        frozen = MatchService(repo, ai_delay=0)
        assert [s.id for s in await frozen.restore(freeze=True)] == [m.id]
        assert gc.get_freeze_count() > 0 and gc.isenabled()
        snap = await frozen.get(m.id)
        move = snap.legal_moves(snap.seat_of(HOST))[0]
        assert (await frozen.play(m.id, HOST, move)).snapshot.version == m.version + 1
        await frozen.close()
    finally:
        gc.unfreeze()


async def test_an_ai_seat_moves_after_its_visible_pause_and_a_restart_wakes_it_by_a_timer(
    repo: Repository,
) -> None:
    """An easy or normal AI seat waits ``ai_delay`` before its move, as a handle on the
    event loop's clock (its task starts when the pause ends: a restart wakes thousands); a
    restart wakes it the same way."""
    svc = MatchService(repo, ai_delay=0.4)
    m = await lobby(svc, "tourney")
    await svc.add_ai(m.id, HOST)
    started = time.monotonic()
    m = await svc.start(m.id, HOST)  # both pick at once: the AI seat is awaited from the start
    assert m.id in svc.ai_seats.pauses and m.id not in svc.ai_seats.tasks

    async def ai_picked() -> bool:
        return (await svc.get(m.id)).version > m.version

    await asyncio.sleep(0.2)
    assert not await ai_picked()
    await wait_for(ai_picked, timeout=3)
    assert time.monotonic() - started >= 0.4
    host_move = (await svc.get(m.id)).legal_moves(0)[0]
    after = await svc.play(m.id, HOST, host_move)  # the round ends; the AI is awaited again
    await svc.close()
    assert not svc.ai_seats.pauses

    later = MatchService(repo, ai_delay=60)
    await later.restore()
    assert after.snapshot.id in later.ai_seats.pauses and not later.ai_seats.tasks
    await later.close()
    assert not later.ai_seats.pauses


async def test_leaving_a_running_match_hands_the_seat_to_the_ai(svc: MatchService, repo: Repository) -> None:
    m = await lobby(svc, "tourney")
    await svc.join(m.id, BOB, "Bob")
    m = await svc.start(m.id, HOST)
    await svc.leave_match(m.id, BOB)
    with pytest.raises(errors.NotSeated, match="left this match"):
        await svc.play(m.id, BOB, "pick:K")

    await wait_for(host_plays_to_the_end(svc, m.id))
    results = await repo.results(m.id)
    assert results[1].left and not results[1].is_ai


async def test_ai_seats_without_a_pause_still_give_the_event_loop_a_turn_between_moves(
    svc: MatchService, repo: Repository
) -> None:
    """With no visible pause (``AI_DELAY=0``) a table of AI seats alone plays on at once. A
    move's write on SQLite may finish without suspending (db.writer), so the AI gives the
    event loop a turn for everyone else before each move, rather than holding it for the
    whole match (it did, on SQLite, before this was checked)."""
    m = await svc.open_lobby(  # turns one after another: one AI wake plays a run of moves
        guild_id=1,
        channel_id=5,
        host_id=HOST,
        host_name="Host",
        game_id="dynasty",
        options={"deck": "classic", "hands": "1"},
    )
    await svc.join(m.id, BOB, "Bob")
    m = await svc.start(m.id, HOST)
    ticks = 0  # turns the event loop gave a task beside the AI
    at_write: list[int] = []  # ``ticks`` as each move's write began
    apply_move = repo.apply_move

    async def counted(upd):  # type: ignore[no-untyped-def]
        at_write.append(ticks)
        return await apply_move(upd)

    async def ticking() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    repo.apply_move = counted  # type: ignore[method-assign]
    ticker = asyncio.create_task(ticking())
    await svc.leave_match(m.id, HOST)
    await svc.leave_match(m.id, BOB)  # both seats now AI: the match plays itself to its end

    async def over() -> bool:
        return (await svc.get(m.id)).status.over

    await wait_for(over)
    ticker.cancel()
    assert len(at_write) >= 4
    held = [i for i in range(1, len(at_write)) if at_write[i] == at_write[i - 1]]
    assert not held, f"AI moves written with no turn for anyone else between them: {held} of {len(at_write)}"


async def test_a_hard_ai_move_thought_on_an_older_version_is_not_applied(
    svc: MatchService, repo: Repository, monkeypatch
) -> None:
    """The hard AI thinks off the lock on one version; if a human moves meanwhile, its move
    is dropped and it thinks again on the new version (crown tourney: both pick at once)."""
    thinking, host_moved = threading.Event(), threading.Event()
    calls: list[tuple[object, str]] = []

    def search(game, state, seat, seed, rollouts, stop, moves=None):  # search_move's arguments
        legal = [m.code for m in game.legal_moves(state, seat)]
        if not calls:  # the first thought: the host moves while it lasts
            thinking.set()
            assert host_moved.wait(5)
            code = "pick:B"  # a legal move still on the new version: only the version tells it is stale
        else:
            code = "pick:D"
        calls.append((state, code))
        assert code in legal
        return SearchResult(find_move(game.legal_moves(state, seat), code), 1, 1, {})

    monkeypatch.setattr(ai_seats, "search_move", search)
    m = await lobby(svc, "tourney")
    await svc.add_ai(m.id, HOST, level="hard")
    m = await svc.start(m.id, HOST)
    assert await asyncio.to_thread(thinking.wait, 5)
    moved = await svc.play(m.id, HOST, "pick:K", version=m.version)
    host_moved.set()

    async def ai_moved() -> bool:
        return len(await repo.moves(m.id)) >= 2

    await wait_for(ai_moved)
    first, second = (await repo.moves(m.id))[:2]
    assert (first.code, second.code) == ("pick:K", "pick:D"), "the stale pick:B was dropped"
    assert len(calls) >= 2 and calls[1][0] == moved.snapshot.state, (
        "it thought again on the version after the host's move"
    )


class Reminders:
    def __init__(self) -> None:
        self.reminded: list[list[int]] = []

    async def match_changed(self, snap, events) -> None:
        pass

    async def remind(self, snap, seats, seconds_left) -> None:
        self.reminded.append(list(seats))


async def test_turn_timer_warns_then_plays_the_default_and_replaces_after_three(repo: Repository) -> None:
    svc = MatchService(repo, ai_delay=0, default_turn_seconds=1)
    listener = Reminders()
    svc.add_listener(listener)
    m = await lobby(svc, "defend")
    await svc.add_ai(m.id, HOST)
    await svc.add_ai(m.id, HOST)
    m = await svc.start(m.id, HOST)
    assert m.record.deadline["turn"]["seats"] == [0]

    async def replaced() -> bool:
        snap = await svc.get(m.id)
        return snap.status != "running" or snap.seats[0].left

    await wait_for(replaced, timeout=10)
    snap = await svc.get(m.id)
    assert [0] in listener.reminded
    moves = await repo.moves(m.id)
    timed_out = [mv for mv in moves if mv.seat == 0 and mv.user_id is None]
    assert timed_out, "the default move was made for the absent player"
    if snap.status == "running":
        assert snap.seats[0].left and len(timed_out) >= 3
    await svc.close()


async def test_turn_setting_needs_manage_server_and_is_stored(repo: Repository) -> None:
    svc = MatchService(repo, ai_delay=0)
    with pytest.raises(errors.NotHost):
        await svc.settings.set_turn_seconds(1, 60, is_admin=False)
    await svc.settings.set_turn_seconds(1, 0, is_admin=True)
    assert await MatchService(repo).settings.turn_seconds(1) == 0
    assert await svc.settings.turn_seconds(2) == svc.settings.default_turn_seconds


async def test_a_rule_timer_keeps_its_deadline_when_the_state_moves_on(svc: MatchService) -> None:
    """The 5-minute questioning does not start again when the Witch strikes."""
    m = await lobby(svc, "atcourt")
    for user, name in ((BOB, "Bob"), (CAT, "Cat"), (400, "Dan")):
        await svc.join(m.id, user, name)
    m = await svc.start(m.id, HOST)
    first = m.record.deadline["rule"]["at"]
    witch = m.state.cards.index("W")
    users = [HOST, BOB, CAT, 400]
    await asyncio.sleep(0.05)
    r = await svc.play(m.id, users[witch], "witch")
    assert r.snapshot.record.deadline["rule"]["at"] == first
    assert r.snapshot.record.deadline_at <= first


async def test_the_table_marks_only_awaited_seats(svc: MatchService) -> None:
    """In questioning the Witch may act, but the table must not point at her: it awaits
    every player but the King alike (each says when they are ready), whatever their card."""
    m = await lobby(svc, "atcourt")
    for user, name in ((BOB, "Bob"), (CAT, "Cat"), (400, "Dan")):
        await svc.join(m.id, user, name)
    m = await svc.start(m.id, HOST)
    witch, king = m.state.cards.index("W"), m.state.cards.index("K")
    assert witch in m.to_act()
    assert m.awaited() == frozenset(range(4)) - {king}


__all__ = ["postgres_server"]  # the session fixture, used through database_url


class Changes:
    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []

    async def match_changed(self, snap, events) -> None:
        self.seen.append((snap.id, snap.status))

    async def remind(self, snap, seats, seconds_left) -> None:
        pass


async def test_restore_shows_again_the_tables_of_matches_that_just_ended(repo: Repository) -> None:
    """A stop between a match's last change and its table edit must not leave the table
    showing a running match: restore publishes recently ended matches again, not old ones."""
    svc = MatchService(repo, ai_delay=0)
    recent = await lobby(svc, "defend", channel=41)
    await svc.add_ai(recent.id, HOST)
    await svc.start(recent.id, HOST)
    await svc.cancel(recent.id, HOST, is_admin=False)
    await svc.close()
    later = MatchService(repo, ai_delay=0, clock=lambda: time.time())
    changes = Changes()
    later.add_listener(changes)
    await later.restore()
    await later.settle()
    assert (recent.id, "abandoned") in changes.seen
    much_later = MatchService(repo, ai_delay=0, clock=lambda: time.time() + 3600)
    changes = Changes()
    much_later.add_listener(changes)
    await much_later.restore()
    await much_later.settle()
    assert all(match_id != recent.id for match_id, _ in changes.seen), "an old end is left alone"
    await later.close()
    await much_later.close()


async def test_a_slow_read_never_takes_the_cache_back_to_an_older_version(repo: Repository) -> None:
    """A read that started before a move was written and ended after it (a hand refreshed
    without the match lock) must not replace the newer snapshot: the next move would be
    refused as stale ("someone moved first") although nobody did."""
    svc = MatchService(repo, ai_delay=0)
    m = await lobby(svc, "tourney", channel=43)
    await svc.join(m.id, BOB, "Bob")
    before = await svc.start(m.id, HOST)
    after = (await svc.play(m.id, HOST, "pick:K")).snapshot
    svc.store.remember(before)  # the slow read lands now
    assert (await svc.get(m.id)).version == after.version
    await svc.play(m.id, BOB, "pick:K")
    await svc.close()


async def test_the_channels_match_comes_from_the_cache_and_follows_it(repo: Repository, monkeypatch) -> None:
    """Each /move looks up the channel's match: once it is cached, no database read; a match
    that ends leaves the channel to the next one, and the turn message id is kept current."""
    svc = MatchService(repo, ai_delay=0)
    m = await lobby(svc, "tourney", channel=44)
    await svc.join(m.id, BOB, "Bob")
    running = await svc.start(m.id, HOST)
    reads = 0
    read = repo.active_in_channel

    async def counted(channel_id: int):
        nonlocal reads
        reads += 1
        return await read(channel_id)

    monkeypatch.setattr(repo, "active_in_channel", counted)
    assert (await svc.active_in_channel(44)).version == running.version
    played = (await svc.play(m.id, HOST, "pick:K")).snapshot
    assert (await svc.active_in_channel(44)).version == played.version and reads == 0
    await svc.store.set_turn_message(m.id, 777)
    assert (await svc.active_in_channel(44)).record.turn_message_id == 777
    assert (await repo.get_match(m.id)).turn_message_id == 777, "written too"
    assert await svc.active_in_channel(45) is None and reads == 1, "another channel asks the database"
    await svc.cancel(m.id, HOST, is_admin=False)
    assert await svc.active_in_channel(44) is None
    nxt = await lobby(svc, channel=44)
    assert (await svc.active_in_channel(44)).id == nxt.id
    await svc.close()


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_refusal_names_players_never_a_seat_token(svc: MatchService, game_id: str) -> None:
    """A move out of turn is refused with the names of the players the table waits for ("It
    is not your turn: waiting for {p0}." in the engine): the player reads the names."""
    game = GAMES[game_id]
    players = game.hints.players or game.min_players
    m = await svc.open_lobby(
        guild_id=1, channel_id=9, host_id=HOST, host_name="Host", game_id=game_id, options={}
    )
    for i in range(1, players):
        await svc.join(m.id, HOST + i, f"Player {i + 1}")
    snap = await svc.start(m.id, HOST)
    for _ in range(players):  # where everyone acts at once (secret picks), one moves first
        acting = sorted(snap.to_act())
        idle = [s for s in range(players) if s not in acting]
        if idle:
            break
        user = snap.seats[acting[0]].user_id
        snap = (await svc.play(m.id, user, snap.game.legal_moves(snap.state, acting[0])[0].code)).snapshot
    assert acting and idle, f"{game_id}: nobody ever waits"
    code = snap.game.legal_moves(snap.state, acting[0])[0].code
    waiting = snap.seats[idle[0]].user_id
    assert waiting is not None
    with pytest.raises(GameError) as refused:
        await svc.play(m.id, waiting, code)
    text = str(refused.value)
    assert not SEAT_TOKEN_RE.search(text), text
    awaited = [snap.seats[s].name for s in acting]
    assert "waiting for" in text and any(name in text for name in awaited), (
        text
    )  # whoever is awaited, by name


async def test_a_snapshot_asks_its_engine_once_for_each_seats_moves_and_view(svc: MatchService) -> None:
    """An answer reads the same snapshot's moves and view several times (the command, the
    move, the hand, the tracker): the engine is asked once, and what the caller gets is its own."""
    m = await lobby(svc, "tourney")
    await svc.join(m.id, BOB, "Bob")
    snap = await svc.start(m.id, HOST)
    asked: list[str] = []

    class Counting:
        def __getattr__(self, name: str):
            return getattr(snap.game, name)

        def legal_moves(self, state, seat):
            asked.append(f"moves {seat}")
            return snap.game.legal_moves(state, seat)

        def view(self, state, seat):
            asked.append(f"view {seat}")
            return snap.game.view(state, seat)

    counted = Snapshot(snap.record, Counting(), snap.state)  # type: ignore[arg-type]
    first = counted.legal_moves(0)
    first.clear()
    assert counted.legal_moves(0) == snap.legal_moves(0) != []
    assert counted.view(1) is counted.view(1)
    counted.legal_moves(1)
    assert asked == ["moves 0", "view 1", "moves 1"]
    assert Snapshot(snap.record, snap.game, snap.state).view(1) == counted.view(1)


async def test_a_match_whose_players_all_left_ends_at_once(repo: Repository) -> None:
    """The AI's visible pause is for people to follow: once every player has left, the AI
    plays the match to its end without it (an audit watched about 115 AI moves, ten table
    edits, after the last person left), and the results rank the leavers."""
    svc = MatchService(repo, ai_delay=5)
    try:
        m = await lobby(svc, "tourney")
        await svc.join(m.id, BOB, "Bob")
        m = await svc.start(m.id, HOST)
        await svc.leave_match(m.id, BOB)
        started = time.monotonic()
        await svc.leave_match(m.id, HOST)

        async def over() -> bool:
            return (await svc.get(m.id)).status != "running"

        await wait_for(over, timeout=4)  # five rounds at a 5-second pause would take 50 s
        assert time.monotonic() - started < 4
        results = await repo.results(m.id)
        assert all(r.left for r in results)
    finally:
        await svc.close()

"""Replays: a finished match dealt and played again from its seed and moves shows, step by
step, the very table the live match showed."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.service import MatchService, Snapshot, errors
from bot.service.replays import CHECKPOINT, Replays, ago
from bot.ui import render
from bot.ui.replay import move_lines, replay_embed
from db.repository import Repository
from tests.played import play_out

HOST = 100


class Tables:
    """A listener keeping the table of every version the live match showed."""

    def __init__(self) -> None:
        self.shown: dict[int, Snapshot] = {}

    async def match_changed(self, snap: Snapshot, events) -> None:
        if snap.state is None:
            return  # the lobby
        # The countdown of a turn deadline is live-only; everything else must match.
        self.shown[snap.version] = Snapshot(replace(snap.record, deadline=None), snap.game, snap.state)

    async def remind(self, snap, seats, seconds_left) -> None:
        pass


@pytest.fixture
async def svc(tmp_path: Path):
    """SQLite only (the tier's ``svc`` in conftest.py also runs on PostgreSQL): a replay is
    read back from the stored moves, the same on either backend."""
    repo = Repository(f"sqlite:///{tmp_path / 'bot.db'}")
    await repo.migrate()
    s = MatchService(repo, ai_delay=0)
    yield s
    await s.close()
    await repo.close()


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_replay_shows_at_every_step_the_table_the_live_match_showed(
    svc: MatchService, game_id: str
) -> None:
    tables = Tables()
    svc.add_listener(tables)
    match_id = await play_out(svc, game_id, channel=7)
    await asyncio.sleep(0.05)  # the listener's last tasks
    replay = await Replays(svc.repo).get(match_id)
    assert replay.last == len(await svc.repo.moves(match_id)) > 0
    by_version = {replay.step(n).snapshot.version: n for n in range(replay.last + 1)}
    assert len(by_version) == replay.last + 1  # each step is one version of the match
    compared = 0
    for version, live in sorted(tables.shown.items()):
        step = replay.step(by_version[version])
        assert step.snapshot.status == live.status
        assert render.table_embed(step.snapshot).to_dict() == render.table_embed(live).to_dict(), version
        assert step.view == live.view(None)
        # What a replay message adds to that table without shown hands: the move's public
        # events and where it is; nothing of any hand.
        shown = replay_embed(replay, step, reveal=False).to_dict()
        table = render.table_embed(step.snapshot).to_dict()
        assert shown["description"] == table["description"]
        # The table's own "Last moves" are the move's events: shown once, in the first field.
        assert shown["fields"][1:] == [f for f in table["fields"] if f["name"] != "Last moves"]
        assert shown["fields"][0]["value"] == move_lines(replay, step)
        for f in table["fields"]:
            if f["name"] == "Last moves":
                assert all(line[2:] in shown["fields"][0]["value"] for line in f["value"].splitlines())
        assert all(f["name"] != "Last moves" for f in shown["fields"])
        assert " of " not in shown.get("footer", {}).get("text", ""), "where the step is, once"
        compared += 1
    assert compared >= min(replay.last, 3)
    assert max(tables.shown) == replay.step(replay.last).snapshot.version  # the end is compared


async def test_steps_between_checkpoints_are_played_forward_to_the_same_state(svc: MatchService) -> None:
    match_id = await play_out(svc, "court", channel=8)
    replay = await Replays(svc.repo).get(match_id)
    assert replay.last > CHECKPOINT + 1
    state = replay.state(0)
    for number, (_version, seat, code) in enumerate(replay.moves, start=1):
        state, _ = replay.game.apply(state, seat, code)
        if number in (1, CHECKPOINT - 1, CHECKPOINT, CHECKPOINT + 1, replay.last):
            assert replay.state(number) == state
    sections = replay.sections()
    assert sections[0].first == 0 and sections[-1].last == replay.last
    assert all(a.last + 1 == b.first for a, b in itertools.pairwise(sections))
    assert len(sections) > 1 and sections[1].label == "Round 2"  # court's word
    assert replay.section_of(sections[1].first) == sections[1]


async def test_only_a_finished_match_of_the_server_has_a_replay(svc: MatchService) -> None:
    replays = Replays(svc.repo)
    with pytest.raises(errors.MatchNotFound):
        await replays.get(999)
    m = await svc.open_lobby(
        guild_id=1, channel_id=9, host_id=HOST, host_name="Host", game_id="crown", options={}
    )
    with pytest.raises(errors.NotRunning, match="once the match is over"):
        await replays.get(m.id)
    await svc.cancel(m.id, HOST, is_admin=False)
    with pytest.raises(errors.NotRunning, match="cancelled"):
        await replays.get(m.id)
    done = await play_out(svc, "crown", channel=10)
    assert (await replays.get(done, guild_id=1)).id == done
    with pytest.raises(errors.MatchNotFound):
        await replays.get(done, guild_id=2)


async def test_a_game_that_searches_across_its_hands_still_files_its_replay_by_hand(
    svc: MatchService,
) -> None:
    match_id = await play_out(svc, "four", channel=11)
    replay = await Replays(svc.repo).get(match_id)
    hands = {replay.game.section(replay.state(n)) for n in range(replay.last + 1)}
    assert replay.game.stage(replay.state(replay.last // 2)) == 0  # the search's view: one stage
    assert len(hands) > 1 and len(replay.sections()) == len(hands)
    assert [s.label for s in replay.sections()] == [f"Hand {i}" for i in range(1, len(hands) + 1)]


async def test_the_channels_finished_matches_are_offered_newest_first_by_what_they_were(
    svc: MatchService,
) -> None:
    first = await play_out(svc, "crown", channel=12)
    second = await play_out(svc, "dreams", channel=12)
    await play_out(svc, "crown", channel=13)  # another channel's
    running = await svc.open_lobby(
        guild_id=1, channel_id=12, host_id=HOST, host_name="Host", game_id="four", options={}
    )
    choices = await svc.replays.choices(12, "")
    assert [mid for mid, _ in choices] == [second, first] and running.id not in dict(choices)
    text = dict(choices)[second]
    assert text.startswith(f"#{second} · Kingdom of Dreams · Host and 1 AI · ")
    assert text.endswith(("just finished", "minute ago"))
    assert [mid for mid, _ in await svc.replays.choices(12, "crown")] == [first]
    assert [mid for mid, _ in await svc.replays.choices(12, f"#{first}")] == [first]
    assert await svc.replays.choices(12, "nothing like this") == []


def test_how_long_ago_reads() -> None:
    assert [ago(s) for s in (0, 59, 60, 150, 3600, 7300, 86_400 * 3)] == [
        "just finished",
        "just finished",
        "finished 1 minute ago",
        "finished 2 minutes ago",
        "finished 1 hour ago",
        "finished 2 hours ago",
        "finished 3 days ago",
    ]


@pytest.mark.parametrize("game_id", ["dynasty", "court"])
async def test_a_practice_match_plays_and_replays_like_any_other(svc: MatchService, game_id: str) -> None:
    """The practice flag is the platform's: the engine never sees it (dynasty refuses an
    option it does not know), in the deal or in the replay."""
    match_id = await play_out(svc, game_id, channel=14, options={"practice": "on"})
    replay = await Replays(svc.repo).get(match_id)
    assert replay.step(replay.last).snapshot.status == "finished"
    assert replay.game.outcome(replay.state(replay.last)) is not None
    assert await svc.repo.results(match_id) == []  # unrated


async def test_king_and_crown_files_its_replay_by_round_of_picks(svc: MatchService) -> None:
    match_id = await play_out(svc, "crown", channel=15, options={"variant": "tourney"})
    replay = await Replays(svc.repo).get(match_id)
    labels = [s.label for s in replay.sections()]
    assert labels[:2] == ["Round 1", "Round 2"] and len(labels) >= 5  # tourney: five rounds

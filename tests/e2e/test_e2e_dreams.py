"""End to end: a whole Kingdom of Dreams match through the fake Discord, with an attack.

Two people (ann, bob) play from ``/play game:dreams`` to the finished table, pressing the real
Discord surface only: ``/dreams ...`` slash commands with the values their autocomplete offers,
and every third move the table's **My hand** button and the hand's buttons or selects (walking
the move's ``path``). Which move they make is decided by the engine's own AI on the in-process
bot's state, except that the first attack and the first peek that become possible are made at
once, so that both happen in every run; the match seed is fixed.

Checked along the way: answers are ephemeral; the defender is the awaited player during an
attack and answers with ``/dreams counter``; the table shows the attack and then the last
attack's result; a peek's order is told only in the peeker's ephemeral reply, never on the
table; the end leads with the winner (the King's buyer) and offers Rematch; results are
stored; no unknown route, no ERROR log record.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any, cast

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.games.base import Move, Rng
from bot.games.dreams import GAME
from bot.games.dreams.combat import trump_text
from bot.service import Snapshot
from bot.ui.render import clip
from tests.e2e_support import World, answer_text, error_records, make_bot, open_match, quiet, world
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

SEED = 20261124
HAND_EVERY = 3  # every third move goes through the hand's buttons, the rest by slash command
OPTION_OF = {"buy": "card", "sell": "card", "attack": "with", "counter": "card"}
MAX_MOVES = 600


def choose(snap: Snapshot, seat: int, attacked: bool, peeked: bool) -> Move:
    """The engine's AI, except that the first possible attack and peek are made at once."""
    moves = snap.legal_moves(seat)
    if not attacked:
        attack = next((m for m in moves if m.kind == "attack"), None)
        if attack is not None:
            return attack
    if not peeked and any(m.code == "peek" for m in moves):
        return next(m for m in moves if m.code == "peek")
    return GAME.ai_move(snap.state, seat, Rng.from_seed(snap.version))


async def by_command(world: World, user: FakeUser, move: Move) -> InteractionResult:
    fake = world.fake
    command = f"dreams {move.kind}"
    option = OPTION_OF.get(move.kind)
    if option is None:
        return await fake.slash(user, world.channel, command)
    choices = await fake.autocomplete(user, world.channel, command, focused=option, **{option: move.code})
    assert move.code in [c["value"] for c in choices], (move.code, choices)
    return await fake.slash(user, world.channel, command, **{option: move.code})


async def by_hand(
    world: World, user: FakeUser, table: FakeMessage, snap: Snapshot, move: Move
) -> InteractionResult:
    fake = world.fake
    result = await fake.click(user, table, label="My hand")
    assert result.ephemeral and "Your hand: Kingdom of Dreams" in result.text, result.text
    for step in move.path:
        label = snap.name_text(step)
        message = result.response
        assert message is not None
        if any(b.label == clip(label, 80) for b in message.buttons):
            result = await result.click(clip(label, 80), user=user)
        else:
            select = next(s for s in message.selects if any(o.label == clip(label, 100) for o in s.options))
            value = next(o.value for o in select.options if o.label == clip(label, 100))
            result = await fake.select(user, message, select.custom_id, [value])
        assert result.ephemeral, result.text
    return result


async def test_two_people_play_a_whole_match_with_an_attack(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    import bot.service.lobby as lobby_module

    monkeypatch.setattr(lobby_module.secrets, "randbits", lambda bits: SEED)
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        assert "dreams" in [c["name"] for c in fake.commands]
        table = await open_match(world, ann, [bob], game="dreams")
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        assert "Kingdom of Dreams" in table.text and "piles: coins 24, trump 5, attack 12" in table.text
        users = {}
        snap = await bot.service.get(match_id)
        for user in (ann, bob):
            seat = snap.seat_of(user.id)
            assert seat is not None
            users[seat] = user
        attacked = peeked = False
        seen: dict[str, Any] = {}
        for count in range(MAX_MOVES):
            await quiet(fake, bot)
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            (seat,) = snap.to_act()
            user = users[seat]
            move = choose(snap, seat, attacked, peeked)
            if move.kind == "counter":
                # The defender is the one awaited, and the table says so.
                assert snap.state.defender == seat and snap.game.awaited(snap.state) == {seat}
                assert f"Waiting for {user.name} to counter" in table.text, table.text
                assert "⚔️" in table.text and "attacks" in table.text
                pings = [m for m in fake.messages(world.channel) if m.id != table.id]
                assert pings and f"<@{user.id}>" in pings[-1].text, "the defender is pinged"
                move = next(
                    m for m in snap.legal_moves(seat) if m.code == GAME.default_move(snap.state, seat).code
                )
            if count % HAND_EVERY == 0 and move.kind != "counter":
                result = await by_hand(world, user, table, snap, move)
            else:
                result = await by_command(world, user, move)
            # what the answer said (the hand may have updated itself since: at the end the echo goes)
            said = answer_text(result.record) or result.text
            assert result.ephemeral and "You chose" in said, said
            if move.kind == "attack":
                attacked = True
                seen["attack"] = move.code
            if move.kind == "counter":
                seen["counter"] = move.code
                await quiet(fake, bot)
                assert "Last attack:" in table.text and "counters" in table.text, table.text
            if move.code == "peek":
                peeked = True
                order = trump_text(snap.state.trump_pile)
                assert order in said, "the peeker is told the order, privately"
                await quiet(fake, bot)
                assert order not in table.text and "peeks at the trump pile" in table.text
                seen["peek"] = order
        else:
            pytest.fail(f"no end after {MAX_MOVES} moves")
        await quiet(fake, bot)
        final = await bot.service.get(match_id)
        assert final.status == "finished"
        assert {"attack", "counter", "peek"} <= set(seen), seen
        outcome = GAME.outcome(final.state)
        assert outcome is not None and "buys the King and wins" in outcome.summary
        winner = users[final.state.winner]
        await fake.wait_for(lambda: "finished" in table.text, what="the finished table")
        headline = table.text.splitlines()[1]
        assert headline.startswith("**🏆") and winner.name in headline, table.text
        assert [b.label for b in table.buttons] == ["Rematch", "Replay", "Log"]
        assert len(await bot.repo.results(match_id)) == 2
        for message in fake.messages(world.channel):
            assert not message.ephemeral
            assert seen["peek"] not in message.text
    fake.assert_clean()
    assert error_records(caplog.records) == []

"""End to end: a whole Kingdom Four match through the fake Discord.

Three people (ann, bob, cat) and one AI seat play a short match (each player deals once)
with the wild cards, from ``/play game:four`` to the final table and the stored results.
The people press the real Discord surface only: the table's **My hand** button and the
buttons or selects of their ephemeral hand (walking a move's steps: the card, then which
match it takes), or ``/four play card:`` and ``/four take card:`` with the value their
autocomplete offers. Which move they make is the engine's AI choice, except that the first
time a card could take one of two or more matches, it is played through the hand, its match
chosen there (the match's seed is random: the choice is steered, not left to luck).

Checked along the way: every answer is ephemeral and for its user alone, the table is one
public message edited in place that shows the field by colour, everyone's captured cards
and scores; choosing a match happens in the hand; the end leads with the winner.
"""

from __future__ import annotations

import logging
import re

import pytest

from bot.games.base import Rng
from bot.games.four import GAME, FourState
from bot.ui.render import clip
from tests.e2e_support import World, answer_text, error_records, make_bot, open_match, quiet, world
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

OPTIONS = {"deals": "1", "wild": "on"}


async def _by_hand(fake: object, user: FakeUser, table: FakeMessage, steps: list[str]) -> InteractionResult:
    result: InteractionResult = await fake.click(user, table, label="My hand")  # type: ignore[attr-defined]
    assert result.ephemeral and "Your hand" in result.text, result.text
    for step, want in enumerate(steps):
        message = result.response
        assert message is not None and message.ephemeral and message.visible_to == user.id
        if step:  # the card is chosen: the hand now asks which match it takes
            offered = [b.label for b in message.buttons if (b.custom_id or "").startswith("kg:m:")]
            offered += [o.label for s in message.selects for o in s.options]
            assert sum(label.startswith("take ") for label in offered) >= 2, offered
        button = next(
            (
                b
                for b in message.buttons
                if (b.custom_id or "").startswith("kg:m:") and b.label == clip(want, 80)
            ),
            None,
        )
        if button is not None:
            result = await fake.click(user, message, button.custom_id)  # type: ignore[attr-defined]
        else:
            found = [(s, o) for s in message.selects for o in s.options if o.label == clip(want, 100)]
            assert found, f"step {want!r} is not offered: {[b.label for b in message.buttons]}"
            select, option = found[0]
            result = await fake.select(user, message, select.custom_id, [option.value])  # type: ignore[attr-defined]
        assert result.ephemeral, result.text
    return result


async def test_a_whole_match_of_kingdom_four(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    fake = world.fake
    ann, bob, cat = world.users[:3]
    people = {0: ann, 1: bob, 2: cat}
    async with fake.bot_running(make_bot(world)) as bot:
        assert "four" in [c["name"] for c in fake.commands]
        table = await open_match(world, ann, [bob, cat], game="four", options=OPTIONS, ais=1)
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        assert "Kingdom Four" in table.text and "Hand 1 of 4" in table.text
        assert re.search(r"(🟨 yellow|🟥 red|🟩 green|🟦 blue): ", table.text), "the field, by colour"
        moves = by_command = choices_in_hand = flips_told = 0
        while True:
            await quiet(fake, bot)
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            state = snap.state
            assert isinstance(state, FourState)
            seat = state.turn
            if seat not in people:
                continue  # the AI seat moves by itself
            user = people[seat]
            move = GAME.ai_move(state, seat, Rng.from_seed(snap.version))
            by_hand = moves % 3 != 2
            choice = next((m for m in GAME.legal_moves(state, seat) if len(m.path) > 1), None)
            if choice is not None and not choices_in_hand:
                # Until a match has been chosen in the hand, the first card that matches two or
                # more goes by hand (in 3,000 seeds of AI play every match offered one).
                move, by_hand = choice, True
            label = snap.name_text(move.label)
            if not by_hand:
                command = "four take" if move.kind == "take" else "four play"
                typed = label[:30]
                offered = await fake.autocomplete(user, world.channel, command, focused="card", card=typed)
                assert move.code in [c["value"] for c in offered], (typed, offered)
                result = await fake.slash(user, world.channel, command, card=move.code)
                by_command += 1
            else:
                result = await _by_hand(fake, user, table, [snap.name_text(step) for step in move.path])
                choices_in_hand += len(move.path) > 1
            # what the answer said (the hand may have updated itself since: at the end the echo goes)
            said = answer_text(result.record) or result.text
            assert result.ephemeral and f"You chose: {label}" in said, said
            flips_told += move.kind == "play" and f"{user.name} flips" in said
            moves += 1
            assert moves < 400, "the match must end"
        await fake.wait_for(
            lambda: "🏆" in table.text and "Rematch" in [b.label for b in table.buttons], what="the end"
        )
        assert moves > 60 and by_command > 20
        assert flips_told > 20, "the answer to a play tells what its flip did"
        assert choices_in_hand > 0, (
            "a card matching two or more was played through the hand, its match chosen there"
        )
        outcome = GAME.outcome(snap.state)
        assert outcome is not None
        winners = [r.seat for r in outcome.results if r.place == 1]
        headline = table.text.splitlines()[1]
        assert "🏆" in headline, "the result leads the finished table"
        assert "Final scores" in table.text and "after 4 hands" in table.text
        assert (await bot.repo.results(match_id)) and len(await bot.repo.results(match_id)) == 4
        names = {0: "ann", 1: "bob", 2: "cat", 3: "AI 1"}
        if len(winners) == 1:  # the match's seed is random: now and then two share the first place
            assert f"🏆 {names[winners[0]]}" in headline, headline
        else:
            assert "Tie for first place" in headline and all(names[w] in headline for w in winners), headline
    fake.assert_clean()
    assert error_records(caplog.records) == []

"""End to end: a slash command naming a card or move that is not legal now answers with the
engine's reason (one sentence), not the generic "not one of your moves"; only text that names
nothing gets the generic sentence."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.games.court.cards import DECK, label
from bot.games.dynasty.cards import CODE, NAME
from tests.e2e_support import World, make_bot, open_match, said, world

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

GENERIC = "That is not one of your moves now"


async def test_dynasty_play_names_why_a_card_cannot_be_played(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        await open_match(world, ann, [bob], game="dynasty", options={"deck": "classic", "hands": "1"})
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap is not None and snap.state is not None
        seat = next(iter(snap.awaited()))
        user = (ann, bob)[seat]
        held = set(snap.state.hands[seat])
        legal = {m.code.split(":")[1] for m in snap.legal_moves(seat) if m.code.startswith("p:")}
        # A name the seat holds none of (a deck has several) and no move of theirs names
        # (a Magician is played as a Wizard: "Wizard" then names those moves).
        held_names = {NAME[f] for f in held}
        labels = " ".join(m.label for m in snap.legal_moves(seat))
        missing = next(
            (
                f
                for f in range(len(CODE))
                if NAME[f] in {"Magician", "Wizard", "Royal Decree"} - held_names and NAME[f] not in labels
            ),
            None,
        )
        if missing is not None:
            answer = await fake.slash(user, world.channel, "dynasty play", card=NAME[missing])
            assert answer.ephemeral and f"You do not hold a {NAME[missing]}." in answer.text, answer.text
        stuck = [f for f in held if CODE[f] not in legal and NAME[f][0].isdigit()]
        if stuck:
            answer = await fake.slash(user, world.channel, "dynasty play", card=NAME[stuck[0]])
            assert answer.ephemeral and GENERIC not in answer.text, answer.text
            assert NAME[stuck[0]] in answer.text, answer.text  # the engine's reason, about that card
        nonsense = await fake.slash(user, world.channel, "dynasty play", card="banana")
        assert GENERIC in nonsense.text, nonsense.text


async def test_dreams_buy_says_what_the_card_costs(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        await open_match(world, ann, [bob], game="dreams")
        snap = await bot.service.active_in_channel(world.channel.id)
        assert snap is not None
        user = (ann, bob)[next(iter(snap.awaited()))]
        answer = await fake.slash(user, world.channel, "dreams buy", card="King")
        assert answer.ephemeral and "You have 0 coins; the King costs 40." in answer.text, answer.text
        # A command none of whose moves are possible now, with text that names nothing: the
        # refusal says what the player may do instead of pointing them to /hand.
        zebra = await fake.slash(user, world.channel, "dreams buy", card="Zebra")
        assert zebra.ephemeral and zebra.text == (
            "You cannot do that right now; it is your turn to take a coin or shuffle the trump pile."
        ), zebra.text
        assert (await bot.service.get(snap.id)).version == snap.version  # nothing changed


async def test_court_play_explains_a_card_typed_twice(world: World) -> None:
    fake = world.fake
    users = world.users[:4]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        await open_match(world, users[0], list(users[1:]), game="court")
        for _ in range(40):  # past any bids, to the first lead
            snap = await bot.service.active_in_channel(world.channel.id)
            assert snap is not None
            seat = next(iter(snap.awaited()))
            lead = [m for m in snap.legal_moves(seat) if m.pick is not None]
            if lead:
                break
            await bot.service.play(snap.id, users[seat].id, snap.legal_moves(seat)[-1])
        card = lead[0].pick.items[0][0]  # type: ignore[union-attr]
        answer = await fake.slash(users[seat], world.channel, "court play", cards=f"{card} {card} {card}")
        assert answer.ephemeral and GENERIC not in answer.text, answer.text


async def test_court_commands_at_the_wrong_time_or_with_cards_not_there_say_what_is_wrong(
    world: World,
) -> None:
    """The audit's court refusals: /court knock, sandbag and flop out of the winner's turn,
    a pool pick of a card not in the pool, a court of cards not held. Each answer says what
    is wrong in one sentence, never "That is not one of your moves now" nor "You cannot do
    that right now"."""
    fake = world.fake
    users = world.users[:4]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        await open_match(world, users[0], list(users[1:]), game="court")

        async def state_now() -> tuple[Any, int]:
            snap = await bot.service.active_in_channel(world.channel.id)
            assert snap is not None and snap.state is not None
            return snap, next(iter(snap.awaited()))

        async def answer(seat: int, command: str, **options: str) -> str:
            text = said(await fake.slash(users[seat], world.channel, f"court {command}", **options))
            assert "not one of your moves" not in text and "cannot do that right now" not in text, text
            return text

        snap, seat = await state_now()
        while snap.state.phase == "bid":
            await bot.service.play(snap.id, users[seat].id, "bid:none")
            snap, seat = await state_now()
        assert snap.state.phase == "lead"
        assert await answer(seat, "knock") == "Only the trick's winner may knock, right after the trick."
        assert (
            await answer(seat, "sandbag", rank="A")
            == "Only the trick's winner may sandbag, right after the trick."
        )
        assert (
            await answer(seat, "flop")
            == "You flop your King only when you win a third trick in a row, right after it."
        )
        while snap.state.phase != "pick":  # one card each: the trick is won and its pool forms
            await bot.service.play(snap.id, users[seat].id, snap.legal_moves(seat)[0])
            snap, seat = await state_now()
        missing = next(card for card in DECK if card not in snap.state.pool)
        assert await answer(seat, "pick", cards=missing) == f"{label(missing)} is not in the pool."
        while snap.state.phase == "pick":
            await bot.service.play(snap.id, users[seat].id, snap.legal_moves(seat)[0])
            snap, seat = await state_now()
        assert snap.state.phase == "after"
        absent = [card for card in DECK if card not in snap.state.hands[seat]][:3]
        held = await answer(seat, "court", cards=" ".join(absent))
        assert held == f"You don't hold {' '.join(label(c) for c in absent)}.", held

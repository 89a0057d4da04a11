"""Card pictures through the fake Discord: the hand's picture comes with the ephemeral hand,
the table's with the public table (replaced at each edit, never piled up), and the text-only
settings (per player, per server) leave them out."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.ui import render
from tests.e2e_support import World, bot_lacks, make_bot, open_match, said, world
from tests.fakediscord import Perm

pytestmark = pytest.mark.asyncio
__all__ = ["world"]


def names(message) -> list[str]:  # type: ignore[no-untyped-def]
    return [a["filename"] for a in message.attachments]


MOVE_STEPS = ("kg:m:", "kg:ms:", "kg:mp:")


def offers_a_move(message) -> bool:  # type: ignore[no-untyped-def]
    """Whether a hand shows a move step: a button, or a select when the choices are many."""
    return any(c.custom_id.startswith(MOVE_STEPS) for c in [*message.buttons, *message.selects])


async def play_first_move(fake, mover, hand):  # type: ignore[no-untyped-def]
    """Take the first choice at each step of ``hand``'s move tree (a card, then its suit, an
    escort...), whether the step is a button or a select, until the move is played; the last
    answer."""
    for _step in range(6):
        message = hand.response
        button = next(
            (b for b in message.buttons if b.custom_id.startswith("kg:m:") and b.label != "Back"), None
        )
        if button is not None:
            hand = await fake.click(mover, message, button.custom_id)
        else:
            select = next(s for s in message.selects if s.custom_id.startswith(MOVE_STEPS))
            values = [o.value for o in select.options[: max(1, select.min_values)]]
            hand = await fake.select(mover, message, select.custom_id, values)
        if "You chose" in said(hand):
            break
    else:
        raise AssertionError(f"no move was played: {hand.text}")
    return hand


async def test_pictures_reach_players_and_text_only_turns_them_off(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    options = dict(GAMES["dynasty"].hints.quick)
    async with fake.bot_running(make_bot(world)):
        table = await open_match(world, ann, [bob], game="dynasty", options=options)
        await fake.settle()
        assert names(table) == ["table.png"], "the public table carries its picture"
        assert not table.ephemeral
        before = table.edits
        hand = await fake.click(ann, table, label="My hand")
        assert hand.ephemeral and hand.response.visible_to == ann.id
        # The answer comes at once; its picture follows by an edit.
        await fake.wait_for(lambda: names(hand.response) == ["hand.png"], what="the hand's picture")
        assert "Your cards" in hand.text, "the text is always there beside the picture"
        # A move edits the table: still exactly one picture on it.
        mover = ann if offers_a_move(hand.response) else bob
        mine = hand if mover is ann else await fake.click(bob, table, label="My hand")
        mine = await play_first_move(fake, mover, mine)
        await fake.wait_for(lambda: table.edits > before, what="the table after a move")
        await fake.settle()
        assert names(table) in (["table.png"], []), "one picture at most, replaced at each edit"
        # ann chooses text only for herself: her hands come without a picture, bob's still with.
        saved = await fake.slash(ann, world.channel, "settings", pictures=False)
        assert saved.ephemeral and "Card pictures\n**off**" in saved.text, saved.text
        plain = await fake.slash(ann, world.channel, "hand")
        assert plain.ephemeral and names(plain.response) == [] and "Your cards" in plain.text
        other = await fake.slash(bob, world.channel, "hand")
        await fake.wait_for(lambda: names(other.response) == ["hand.png"], what="bob's picture")
        await fake.settle()
        assert names(plain.response) == [], "text only stays text only"
    fake.assert_clean()


async def test_a_server_that_did_not_grant_attach_files_gets_the_text_table(world: World) -> None:
    """The invite may leave out Attach Files: the table stays text, and is never refused."""
    fake = world.fake
    ann, bob = world.users[:2]
    with bot_lacks(world, Perm.ATTACH_FILES):
        async with fake.bot_running(make_bot(world)):
            table = await open_match(
                world, ann, [bob], game="dynasty", options=dict(GAMES["dynasty"].hints.quick)
            )
            await fake.settle()
            assert names(table) == [] and "Dynasty" in table.text, table.text
            before = table.edits
            for user in (ann, bob):
                choices = await fake.autocomplete(user, world.channel, "move", focused="move", move="")
                if choices:
                    played = await fake.slash(user, world.channel, "move", move=choices[0]["value"])
                    assert played.ephemeral and "You chose" in said(played), said(played)
                    break
            await fake.wait_for(lambda: table.edits > before, what="the table after a move")
            await fake.settle()
            assert names(table) == []
    assert fake.rejections == [], "no post or edit was refused"
    fake.assert_clean()


async def test_a_text_only_server_gets_no_pictures_and_all_the_text(world: World) -> None:
    """/config pictures:False (Manage Server): neither the table nor any hand carries a
    picture, whatever the players chose for themselves; the text is all there."""
    fake = world.fake
    ann, bob = world.users[:2]
    fake.set_permissions(ann, manage_guild=True)
    async with fake.bot_running(make_bot(world)) as bot:
        refused = await fake.slash(bob, world.channel, "config", pictures=False)
        assert refused.ephemeral and "Manage Server" in refused.text, refused.text
        saved = await fake.slash(ann, world.channel, "config", pictures=False)
        assert saved.ephemeral and "Card pictures\n**off**" in saved.text, saved.text
        table = await open_match(
            world, ann, [bob], game="dynasty", options=dict(GAMES["dynasty"].hints.quick)
        )
        await fake.settle()
        snap = await bot.service.active_in_channel(world.channel.id)
        assert names(table) == [] and not any("image" in e for e in table.embeds), "no picture on the table"
        for user in (ann, bob):  # the status line, the scoreboard, the board and the events, in text
            assert user.name in table.text
        assert "Waiting for" in table.text
        shown = render.table_embed(snap).to_dict()
        lines = shown["description"].splitlines() + [
            v for f in shown.get("fields", []) for v in f["value"].splitlines()
        ]
        assert len(lines) >= 4
        for line in lines:  # every line of the text table, none held back for the picture
            assert line in table.text, line
        hands = {user: await fake.click(user, table, label="My hand") for user in (ann, bob)}
        await fake.settle()
        for user, hand in hands.items():
            assert hand.ephemeral and names(hand.response) == [], "no picture with the hand"
            view = snap.view(snap.seat_of(user.id))
            cards = [card for group in view.hand for card in group.cards]
            assert cards and "Your cards" in hand.text and all(card in hand.text for card in cards), hand.text
        # A move edits the table: still text only.
        before = table.edits
        mover = next(u for u, h in hands.items() if offers_a_move(h.response))
        mine = hands[mover]
        mine = await play_first_move(fake, mover, mine)
        await fake.wait_for(lambda: table.edits > before, what="the table after a move")
        await fake.settle()
        assert names(table) == [] and names(mine.response) == []
        # Pictures on again: the next edit brings the table's picture back.
        again = await fake.slash(ann, world.channel, "config", pictures=True)
        assert again.ephemeral and "Card pictures\n**on**" in again.text, again.text
        fresh = await fake.slash(ann, world.channel, "hand")
        await fake.wait_for(lambda: names(fresh.response) == ["hand.png"], what="ann's picture again")
    fake.assert_clean()

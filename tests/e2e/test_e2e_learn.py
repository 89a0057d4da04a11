"""/learn and Hint through the fake Discord: a guided practice match whose explanations show
in the player's hand only, a Hint answered only to the one who asked, a table that says it is
practice, and a rated match whose hand offers no Hint."""

from __future__ import annotations

import re

from bot.games import GAMES
from bot.games.base import Move
from bot.games.search import Hint
from bot.service import practice
from bot.ui.hand import hint_text
from bot.ui.handview import LEARN_NOTICE
from tests.e2e_support import World, make_bot, world
from tests.snapshots import snapshot_of

__all__ = ["world"]

MOVE_LABELS_TO_SKIP = {"Hint", "Back"}


async def test_learn_explains_once_in_the_hand_and_hint_answers_privately(world: World) -> None:
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)) as bot:
        assert "learn" in [c["name"] for c in fake.commands]
        started = await fake.slash(ann, world.channel, "learn", game="crown")
        hand = started.response
        assert started.ephemeral and hand.visible_for(ann.id) and not hand.visible_for(bob.id)
        assert "practice match" in hand.text and practice.GUIDE_MARK.strip() in hand.text, hand.text
        assert "Hint" in [b.label for b in hand.buttons]
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        await fake.wait_for(
            lambda: any(practice.UNRATED in m.text for m in fake.messages(world.channel)), what="the table"
        )
        hinted = await fake.click(ann, hand, label="Hint")
        assert hinted.ephemeral and "Hint:" in hinted.text, hinted.text
        assert hinted.response.visible_for(ann.id) and not hinted.response.visible_for(bob.id)
        for _ in range(40):
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            moves = [b for b in hand.buttons if b.label not in MOVE_LABELS_TO_SKIP]
            if 0 in snap.to_act() and moves:
                await fake.click(ann, hand, moves[0].custom_id)
            else:
                await fake.wait_for(
                    lambda: any(b.label not in MOVE_LABELS_TO_SKIP for b in hand.buttons), 10, "a move"
                )
        await fake.wait_for(
            lambda: "finished" in " ".join(m.text for m in fake.messages(world.channel)), 30, "the end"
        )
        done = await bot.service.get(match_id)
        keys = done.record.notes[practice.EXPLAINED]["0"]
        assert keys and len(keys) == len(set(keys)), "each situation is explained once"
        public = fake.messages(world.channel, include_deleted=True)
        assert public and not any(practice.GUIDE_MARK.strip() in m.text for m in public), "never in public"
        assert any(f"finished · {practice.UNRATED}" in m.text for m in public), "the end screen says so"
        assert await bot.repo.results(match_id) == []
        # A rated match: its hand offers no Hint.
        lobby = await fake.slash(ann, world.channel, "play", game="crown")
        assert "Practice (unrated)" in [b.label for b in lobby.response.buttons]
        await fake.click(ann, lobby.response, label="Add AI")
        await fake.click(ann, lobby.response, label="Start")
        await fake.wait_for(lambda: "My hand" in [b.label for b in lobby.response.buttons], what="the table")
        rated = await fake.slash(ann, world.channel, "hand")
        assert "Hint" not in [b.label for b in rated.response.buttons]
        await fake.slash(ann, world.channel, "cancel")
    fake.assert_clean()


async def test_hints_asked_again_replace_one_line_of_the_hand(world: World) -> None:
    """Hint twice: the hand itself says the hint, once, and still says what it said before
    (no message piles up for each click); the line goes with the player's move."""
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world)):
        started = await fake.slash(ann, world.channel, "learn", game="crown")
        hand = started.response
        assert hand is not None and "Hint" in [b.label for b in hand.buttons]
        said = [line for line in hand.text.splitlines() if "practice match" in line]
        assert said, hand.text

        def private() -> list[int]:
            return [m.id for m in fake.messages(world.channel, for_user=ann) if m.ephemeral]

        before = private()
        for _ in range(2):
            hinted = await fake.click(ann, hand, label="Hint")
            assert hinted.callback_type == 7 and hinted.response is hand, "the hand is edited"
        assert private() == before, "no message per hint"
        assert hand.text.count("Hint:") == 1, hand.text
        lines = hand.text.splitlines()
        [line] = [n for n, text in enumerate(lines) if "Hint:" in text]
        assert lines[line].startswith("👉 Hint: **") and " — " in lines[line], lines[line]
        assert lines[line + 1] == "**Your move:** choose below.", "the hint sits beside the moves"
        assert all(line in hand.text for line in said), "what the hand said stays"
        assert hand.visible_for(ann.id) and not hand.visible_for(bob.id)
        move = next(b for b in hand.buttons if b.label not in MOVE_LABELS_TO_SKIP)
        await fake.click(ann, hand, move.custom_id)
        assert "Hint:" not in hand.text, hand.text
        await fake.slash(ann, world.channel, "cancel")
    fake.assert_clean()


def test_a_hint_reads_as_one_phrase_and_its_reason_follows_a_dash() -> None:
    """A move of several steps reads as one phrase, with no colons stacked on the reason,
    and the hint's mark is not the guide's 💡."""
    game = GAMES["dynasty"]
    snap = snapshot_of(game, game.setup(2, 1, {}), ["ann", "bob"])
    dragon = Move("x", ("Dragon: next player draws 3", "Name gold"))
    assert hint_text(snap, Hint(dragon, "makes the next player draw")) == (
        "👉 Hint: **Dragon (next player draws 3), naming gold** — makes the next player draw."
    )
    assert hint_text(snap, Hint(Move("y", ("3 (green)",)), None)) == (
        "👉 Hint: **3 (green)** — the hard AI's choice from what you can see."
    )
    arrow = Move("z", ("Flaming Arrow: burn a card", "Burn 5 (blue)", "Give it to {p1}"))
    assert hint_text(snap, Hint(arrow, "it hurts bob.")) == (
        "👉 Hint: **Flaming Arrow (burn a card), burn 5 (blue), give it to bob** — it hurts bob."
    )


async def test_the_learn_notice_stays_until_the_player_s_first_move(world: World) -> None:
    """In Kingdom Four an AI seat may move first: the hand updates itself when the player's
    turn comes, and still says what a practice match is (it used to drop it then, before a
    new player had read it); the player's first move replaces it."""
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)) as bot:
        for _ in range(6):  # a fresh seed each time: find a match in which an AI seat moved first
            started = await fake.slash(ann, world.channel, "learn", game="four")
            hand = started.response
            match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
            await fake.wait_for(
                lambda hand=hand: any(b.label not in MOVE_LABELS_TO_SKIP for b in hand.buttons),
                10,
                "the player's turn",
            )
            if any(move.seat != 0 for move in await bot.repo.matches.moves(match_id)):
                break
            await fake.slash(ann, world.channel, "cancel")
        else:  # pragma: no cover - the AI deals and moves first in most matches
            raise AssertionError("the learner moved first in six matches")
        assert 0 in (await bot.service.get(match_id)).to_act()
        assert LEARN_NOTICE in hand.text, hand.text
        move = next(b for b in hand.buttons if b.label not in MOVE_LABELS_TO_SKIP)
        await fake.click(ann, hand, move.custom_id)
        assert LEARN_NOTICE not in hand.text, hand.text
        await fake.slash(ann, world.channel, "cancel")
    fake.assert_clean()


# A Kingdom Four hint's reason says what the move does with the cards (guide.hint_reason):
# points, a set on its way, how few unseen cards take a card left, or that a capture was passed up.
FOUR_REASONS = re.compile(
    r"(it makes .+, and your captures would score \d+ instead of \d+"
    r"|you would hold \d of the four .+"
    r"|\S+ and \S+ start a \w+ straight .+"
    r"|your \S+ numbers would add up to \d+ .+"
    r"|it builds no set yet, but every card you take is one the others cannot score"
    r"|it takes a wild card, .+"
    r"|none of your cards captures, and .+"
    r"|it captures nothing: in the hard AI's play-outs from what you can see, .+"
    r"|the hard AI's choice from what you can see)\."
)


async def test_a_kingdom_four_hint_gives_a_reason_from_the_cards(world: World) -> None:
    """The QA pass read a fixed reason ("it captures nothing, but leaves the field nothing you
    would rather keep") beside three captures on offer: a hint's reason is one of the facts
    the guide works out."""
    fake = world.fake
    ann = world.users[0]
    async with fake.bot_running(make_bot(world)):
        started = await fake.slash(ann, world.channel, "learn", game="four")
        hand = started.response
        await fake.wait_for(
            lambda: any(b.label not in MOVE_LABELS_TO_SKIP for b in hand.buttons), 10, "the player's turn"
        )
        await fake.click(ann, hand, label="Hint")
        [line] = [text for text in hand.text.splitlines() if "Hint:" in text]
        reason = line.partition("** — ")[2]
        assert FOUR_REASONS.fullmatch(reason), line
        assert "rather keep" not in line and "step toward a set" not in line
        await fake.slash(ann, world.channel, "cancel")
    fake.assert_clean()


async def test_a_court_lesson_s_first_decision_says_what_the_game_is_about(world: World) -> None:
    """King's Court's hand explains the goal at the learner's first decision, and it stays
    while they decide (a Hint does not take it away)."""
    fake = world.fake
    ann = world.users[0]
    goal = "💡 Your King is secret and its suit is yours this round"
    async with fake.bot_running(make_bot(world)):
        hand = (await fake.slash(ann, world.channel, "learn", game="court")).response
        await fake.wait_for(lambda: "**Your move:**" in hand.text, 10, "the learner's turn")
        assert LEARN_NOTICE in hand.text and goal in hand.text and "reaches 120" in hand.text, hand.text
        await fake.click(ann, hand, label="Hint")
        assert goal in hand.text, hand.text
        public = fake.messages(world.channel, include_deleted=True)
        assert not any("Your King is secret" in m.text for m in public), "never in public"
        await fake.slash(ann, world.channel, "cancel")
    fake.assert_clean()

"""The King at Court with people and AI seats at one table.

A QA session (two people, two AI seats) found the match over before anyone could act: the
AI King ended questioning and accused at once, the AI Witch struck before anyone had looked
at their card, nobody was pinged, and the finished table never said who was accused. These
tests hold the fixes: everyone but the King says when they are ready, an AI King (and an AI
Witch) holds back until then (``ai_waits``), questioning awaits and pings those people, and
the accusation is the match's public summary.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.base import Rng
from bot.games.crown import BEGGAR, DECK, DRAGON, KING, KNIGHT, WITCH, CrownState
from bot.games.crown import GAME as G
from bot.service import lobby as lobby_module
from tests.e2e_support import World, make_bot, open_match, quiet, world

__all__ = ["world"]

SEED_AI_KING_AND_WITCH = 5  # four seats: ann Dragon, bob Knight, AI 1 King, AI 2 Witch


def court(cards: tuple[str, ...]) -> CrownState:
    """A state in questioning with this deal, one card per seat."""
    state = G.setup(len(cards), 3, {"variant": "atcourt"})
    return replace(state, cards=cards, aside=tuple(c for c in DECK if c not in cards), king=cards.index(KING))


def ready_all(state: CrownState, seats: tuple[int, ...]) -> CrownState:
    for seat in seats:
        state, _ = G.apply(state, seat, "ready")
    return state


# --- the engine -------------------------------------------------------------------------


def test_an_ai_king_holds_back_until_everyone_else_is_ready() -> None:
    """The service plays an AI seat only when ``ai_waits`` is False. An AI King that ended
    questioning at once left the people no time to look at their cards or ask anything."""
    s = court((DRAGON, KING, KNIGHT))
    assert G.ai_waits(s, 1)
    s = ready_all(s, (0,))
    assert G.ai_waits(s, 1), "one player is still questioning"
    s = ready_all(s, (2,))
    assert not G.ai_waits(s, 1)
    assert G.ai_move(s, 1, Rng.from_seed(1)).code == "end"


def test_a_person_as_king_may_still_end_questioning_early() -> None:
    """The rules let the King end questioning early; holding back is the AI's manners only."""
    s = court((DRAGON, KING, KNIGHT))
    assert {m.code for m in G.legal_moves(s, 1)} == {"end"}
    s, _ = G.apply(s, 1, "end")
    assert s.phase == "accuse"


def test_an_ai_witch_strikes_only_once_the_others_are_ready() -> None:
    """She used to strike before anyone had looked at their card. She now waits for the
    others (not for herself or the King), then strikes or says she is ready."""
    s = court((DRAGON, KING, KNIGHT, WITCH))
    assert G.ai_waits(s, 3)
    s = ready_all(s, (0, 2))
    assert not G.ai_waits(s, 3)
    choices = {G.ai_move(s, 3, Rng.from_seed(seed)).code for seed in range(40)}
    assert choices == {"witch", "ready"}
    # Others with nothing special to hold back for do not wait.
    assert not any(G.ai_waits(court((DRAGON, KING, KNIGHT, WITCH)), seat) for seat in (0, 2))


def test_the_strike_asks_everyone_to_say_ready_again() -> None:
    """After the re-deal everyone holds a new card to look at, so the AI King waits again."""
    s = ready_all(court((DRAGON, KING, KNIGHT, WITCH)), (0, 2))
    s, _ = G.apply(s, 3, "witch")
    assert s.ready == () and G.ai_waits(s, 1)
    assert G.awaited(s) == {0, 2, 3}


def test_questioning_awaits_the_people_who_must_say_ready_then_the_king() -> None:
    """The table pings and shows the countdown for the awaited seats; nobody was awaited in
    questioning, so nobody was pinged and no ⏳ showed. Every player but the King has the
    same decision, so awaiting them names no role."""
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    assert G.awaited(s) == {0, 2, 3, 4}
    assert "then say you are ready" in G.view(s, None).waiting
    s = ready_all(s, (0, 2, 3, 4))
    assert G.awaited(s) == {1}
    assert "waiting for {p1} to end questioning" in G.view(s, None).waiting
    table = G.view(s, None)
    assert sum("ready ✓" in line for line in table.public) == 4


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ai_only_matches_end_when_ai_seats_hold_back(players: int) -> None:
    """Played as the service plays AI seats (only those not holding back), every match ends,
    and the Witch still strikes in some of them."""
    strikes = 0
    for seed in range(150):
        s = G.setup(players, seed, {"variant": "atcourt"})
        rng = Rng.from_seed(seed)
        for _ in range(40):
            if G.outcome(s) is not None:
                break
            seats = sorted(t for t in G.to_act(s) if not G.ai_waits(s, t))
            assert seats, f"every AI seat holds back: the match would stall (seed {seed})"
            move_seed, rng = rng.next64()
            s, events = G.apply(s, seats[0], G.ai_move(s, seats[0], Rng.from_seed(move_seed)))
            strikes += any("reveals every card" in e.text for e in events)
        assert G.outcome(s) is not None, seed
    assert players == 3 or strikes > 10


def test_the_summary_says_who_was_accused_and_what_they_held() -> None:
    """The finished table shows the outcome's summary; it said only who won and the cards."""
    s = court((DRAGON, KING, KNIGHT, WITCH))
    s, _ = G.apply(s, 1, "end")
    s, events = G.apply(s, 1, "accuse:2")
    outcome = G.outcome(s)
    assert outcome is not None
    assert outcome.summary.startswith(
        "{p1} (King) accused {p2} of being the Dragon: {p2} is the Knight. The Wicked win."
    )
    # The accusation and its result are public events, as at a real table.
    public = [e.text for e in events if e.seat is None]
    assert "{p1} accuses {p2} of being the Dragon." in public
    assert any(t.startswith("{p1} (King) accused {p2}") for t in public)


def test_the_summary_names_a_beggar_who_joined() -> None:
    s = court((DRAGON, KING, KNIGHT, WITCH, BEGGAR))
    s, _ = G.apply(s, 1, "end")
    s, _ = G.apply(s, 1, "accuse:0")
    s, _ = G.apply(s, 4, "join")
    outcome = G.outcome(s)
    assert outcome is not None
    assert "{p0} is the Dragon. {p4} joined the Wicked as the Beggar. The Wise win." in outcome.summary


# --- the bot ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_people_take_part_when_an_ai_is_king(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """ann and bob with two AI seats, AI 1 the King and AI 2 the Witch: the table stays in
    questioning, both people are pinged with a countdown, and the AI King ends it only after
    they have said they are ready; the finished table names the accused."""
    monkeypatch.setattr(lobby_module.secrets, "randbits", lambda bits: SEED_AI_KING_AND_WITCH)
    fake = world.fake
    ann, bob = world.users[:2]
    async with fake.bot_running(make_bot(world, turn_seconds=180)) as bot:
        table = await open_match(world, ann, [bob], game="crown", options={"variant": "atcourt"}, ais=2)
        await quiet(fake, bot)
        match = await bot.repo.latest_in_channel(world.channel.id)
        snap = await bot.service.get(match.id)
        assert snap.status == "running" and snap.state.phase == "question", table.text
        assert snap.state.king == 2 and not snap.state.witch_used, "neither AI acted before the people"
        assert "finished" not in table.text and "⏳" in table.text
        pings = [m for m in fake.messages(world.channel) if m.id != table.id]
        assert len(pings) == 1 and {ann.id, bob.id} <= set(pings[0].mention_ids)

        ready = await fake.slash(ann, world.channel, "crown ready")
        assert ready.ephemeral and "You chose" in ready.text
        await quiet(fake, bot)
        snap = await bot.service.get(match.id)
        assert snap.state.phase == "question", "bob has not said he is ready"
        # bob says ready (again after a strike, if the Witch struck) until questioning ends.
        for _ in range(4):
            snap = await bot.service.get(match.id)
            if snap.status != "running" or snap.state.phase != "question":
                break
            for user in (ann, bob):
                seat = snap.seat_of(user.id)
                if "ready" in {m.code for m in snap.legal_moves(seat)}:
                    await fake.slash(user, world.channel, "crown ready")
            await quiet(fake, bot)
        await fake.wait_for(lambda: "finished" in table.text, what="the AI King's accusation")
        assert "(King) accused" in table.text and "of being the Dragon" in table.text
    fake.assert_clean()


def test_the_seed_deals_the_ai_seats_king_and_witch() -> None:
    """The seed of the test above deals AI 1 the King and AI 2 the Witch (seats 2 and 3)."""
    s = G.setup(4, SEED_AI_KING_AND_WITCH, {"variant": "atcourt"})
    assert (s.cards[2], s.cards[3]) == (KING, WITCH)

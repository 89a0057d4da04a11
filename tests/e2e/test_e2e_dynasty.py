"""End to end: a whole King's Court match (classic deck) through the fake Discord.

Three people (ann, bob, cat) and one AI seat play a match from ``/play game:dynasty`` to the
final table and the stored results. The people press the real Discord surface only: the
table's **My hand** button and the buttons/selects of their ephemeral hand (walking a move's
``path``), and ``/dynasty ...`` slash commands with the values their autocomplete offers. Which
move they make is decided by the engine's own AI (``ai_move``) on the in-process bot's state,
so the match is deterministic and ends in reasonable time.

Test set-up, so that the rare things happen on cue (everything after it is ordinary play):

* the match seed is fixed (``secrets.randbits`` as the service calls it), and
* the first hand is dealt from a prepared deck order (:func:`rigged_first_hand`, wrapped around
  the engine's own ``setup``): the AI holds a Drawbridge that is its only playable card and aims
  it at ann, who holds the deck's single Royal Decree and sends the draw back; once cat and bob
  have played, ann plays her next-to-last card without calling On Guard and bob catches her with
  ``/dynasty catch``. A real AI seat waits ``AI_DELAY`` before each move; with the delay at 0
  here, the AI seat is held back for that one window so that bob, not the AI, catches her.

Checked along the way: every hand and every answer is ephemeral and only for its user, cards a
player draws are told to that player alone, the table is one public message edited in place
that always shows the current top card, suit and hand sizes, the catch and the Decree are on
the table, the outcome is on the table and in the results table; no unknown route, no late or
double acknowledgement, no ERROR log record.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.app import KingBot
from bot.games.base import Event, Move, Rng
from bot.games.dynasty import GAME
from bot.games.dynasty.cards import DB, DEC, DUKE, MATCH_KEY, NAME, NUM, SUIT_NAMES, face_of
from bot.games.dynasty.state import PLAY, DynastyState
from bot.service import Snapshot
from bot.ui.render import clip
from tests.e2e_support import World, error_records, make_bot, quiet, said, world
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.models import text_of

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

SEED = 20  # found offline: from the prepared first hand, the default five hands in about 140 moves
OPTIONS = {
    "deck": "classic",
    "limit": "300",
}  # the smallest deck and limit the lobby offers; the length stays the default
ANN, BOB, CAT, AI = 0, 1, 2, 3  # seats: the host, two who join, then the AI added by the host
GOLD, GREEN, BLUE, BURGUNDY = 0, 1, 2, 3
SLASH_EVERY = 3  # every third move of a person goes through a /dynasty command, the rest by buttons

DRAWBRIDGE = face_of(DB, GOLD)
DECREE = face_of(DEC)
DUKE_CARD = face_of(DUKE)


def state_of(snap: Snapshot) -> DynastyState:
    assert isinstance(snap.state, DynastyState)
    return snap.state


def num(suit: int, rank: int) -> int:
    return face_of(NUM, suit, rank)


# The prepared first hand. Dealer ann; bob starts on the 5 (gold). bob and cat hold gold
# numbers only, so gold stays the suit; the AI's only playable card is the Drawbridge (no
# other gold card, none of cat's ranks), so it plays it at ann; ann holds the Royal Decree.
TOP = num(GOLD, 5)
DEAL: dict[int, tuple[int, ...]] = {
    ANN: (DECREE, DUKE_CARD, num(BLUE, 10)),
    BOB: (num(GOLD, 1), num(GOLD, 2), num(GOLD, 4), num(GOLD, 8)),
    CAT: (num(GOLD, 1), num(GOLD, 3), num(GOLD, 7), num(GOLD, 8)),
    AI: (
        DRAWBRIDGE,
        num(GREEN, 2),
        num(BLUE, 4),
        num(GREEN, 5),
        num(BLUE, 6),
        num(BURGUNDY, 9),
        num(GREEN, 10),
    ),
}


def rigged_first_hand(state: DynastyState, seed: int) -> DynastyState:
    """The engine's freshly set-up match with the first hand replaced by :data:`DEAL` (every
    other card, shuffled by ``seed``, in the draw pile). The totals, RNG and options stay."""
    n = state.config.players
    pool = Counter(state.draw_pile) + Counter(state.discard_pile)
    for hand in state.hands:
        pool.update(hand)
    wanted = Counter([TOP, *(f for hand in DEAL.values() for f in hand)])
    assert not wanted - pool, "the prepared deal needs cards this deck does not have"
    rest = sorted((pool - wanted).elements())
    random.Random(seed).shuffle(rest)
    return replace(
        state,
        phase=PLAY,
        dealer=ANN,
        turn=BOB,
        direction=1,
        hands=tuple(tuple(sorted(DEAL[s])) for s in range(n)),
        draw_pile=tuple(rest),
        discard_pile=(TOP,),
        match_key=MATCH_KEY[TOP],
        suit=GOLD,
        top_acts_as=-1,
        in_front=((),) * n,
        set_aside=((),) * n,
        dungeon=((),) * n,
        lost_turns=(0,) * n,
        on_guard=(0,) * n,
        may_escape=0,
        penalised=0,
        dark_knight_open=0,
        dark_knight_bets=(),
        escorting_first_card=False,
        skips=0,
        cards_played=0,
        pending_draws=0,
        pending_dungeons=(),
        drawbridge_may_stack=False,
        draw_source=-1,
        draw_target=-1,
        suit_before_draw=-1,
        warlord=-1,
        partner_asked=0,
        called_ahead=False,
        battle=(),
        battle_waiting=0,
        battle_defended=0,
        waived=0,
        stalled_turns=0,
        log=("Hand 1: {p0} deals (a deal prepared by the test).", f"First card: {NAME[TOP]}."),
    )


def human_move(state: DynastyState, seat: int, version: int) -> Move | None:
    """What a person in ``seat`` does now: the engine's AI choice, None for "let it pass"."""
    if seat not in GAME.to_act(state):
        return None
    move = GAME.ai_move(state, seat, Rng.from_seed(version))
    return None if move.code == "wait" else move


def next_human(state: DynastyState, version: int, humans: Sequence[int]) -> tuple[int, Move] | None:
    """The person who acts next: out-of-turn chances first (they close when the game moves
    on), then the one the game waits for."""
    awaited = GAME.awaited(state)
    chosen = [
        (seat in awaited, seat, m) for seat in humans if (m := human_move(state, seat, version)) is not None
    ]
    if not chosen:
        return None
    _, seat, move = min(chosen, key=lambda c: (c[0], c[1]))
    return seat, move


# --- what the bot tells whom ---------------------------------------------------------------


@dataclass
class Recorder:
    """A service listener (the real bot calls it after every change): every public event and
    every private one with the seat it was told to."""

    public: list[tuple[int, str]] = field(default_factory=list)  # (version, text)
    private: list[tuple[int, int, str]] = field(default_factory=list)  # (version, seat, text)

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None:
        for e in events:
            text = snap.name_text(e.text)
            if e.seat is None:
                self.public.append((snap.version, text))
            else:
                self.private.append((snap.version, e.seat, text))

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        raise AssertionError("the turn timer is off in this test")

    def told(self, seat: int) -> set[str]:
        return {text for _v, s, text in self.private if s == seat}


@dataclass
class Table:
    """The players, the bot and the one public table message of the match."""

    world: World
    bot: KingBot
    message: FakeMessage
    match_id: int
    users: dict[int, FakeUser]  # seat -> user (people only)
    recorder: Recorder
    moves_by_button: int = 0
    moves_by_command: int = 0
    selected: int = 0  # steps taken in a select (a node with more than 20 choices)
    autocompleted: int = 0
    draws_seen: int = 0  # drawn cards told to the player who drew them
    draws_asked: int = 0  # draws a person chose, answered with the drawn card
    looked: dict[int, int] = field(default_factory=dict)  # seat -> version of its last hand

    @property
    def fake(self) -> Any:
        return self.world.fake

    async def snap(self) -> Snapshot:
        return await self.bot.service.get(self.match_id)

    async def settled(self) -> Snapshot:
        """Wait until the AI seat has nothing left to do and the table edit went out."""
        deadline = time.monotonic() + 20
        while True:
            await quiet(self.fake, self.bot)
            snap = await self.snap()
            if snap.status != "running" or not any(snap.seats[s].played_by_ai for s in snap.to_act()):
                await quiet(self.fake, self.bot)
                return await self.snap()
            assert time.monotonic() < deadline, f"the AI seat did not move at v{snap.version}"
            await asyncio.sleep(0.002)

    def check_hand_reply(self, result: InteractionResult, seat: int) -> None:
        """An answer to a person: ephemeral, for them alone, about their own seat."""
        user = self.users[seat]
        assert result.ephemeral, result.text
        message = result.response
        assert message is not None and message.ephemeral and message.visible_to == user.id
        answer = said(result)  # its own text: the hand may have updated itself since
        assert f"Seat {seat + 1} ·" in answer, "a hand goes to its own seat only"
        assert "out of date" not in answer and "Someone moved first" not in answer, answer

    # --- moves ---------------------------------------------------------------------------

    async def open_hand(self, seat: int) -> InteractionResult:
        result = await self.fake.click(self.users[seat], self.message, label="My hand")
        self.check_hand_reply(result, seat)
        # What the game told this seat since its last look (cards drawn when it could not
        # play, penalty draws...) reached the player: in this hand, or in their hand message
        # that updated itself in the meantime.
        news = [text for v, s, text in self.recorder.private if s == seat and v > self.looked.get(seat, 0)]
        for line in news[-4:]:
            assert line in result.text or self.seen_by(seat, line), (line, result.text)
            self.draws_seen += bool(DREW.fullmatch(line))
        self.looked[seat] = (await self.snap()).version
        return result

    def seen_by(self, seat: int, line: str) -> bool:
        """Whether ``line`` was shown to this seat's player in an ephemeral message (any version)."""
        user = self.users[seat].id
        return any(
            m.ephemeral and m.visible_to == user and any(line in body for body in texts(m))
            for m in list(self.fake._messages.values())
        )

    async def by_buttons(
        self, seat: int, move: Move, hand: InteractionResult | None = None
    ) -> InteractionResult:
        """My hand, then one button (or select value) per step of the move's path."""
        snap = await self.snap()
        result = hand or await self.open_hand(seat)
        steps = [snap.name_text(step) for step in move.path]
        for depth in range(len(steps) + 1):
            if "You chose" in said(result):
                break
            message = result.response
            assert message is not None
            want = steps[depth] if depth < len(steps) else "Just this"
            buttons = [
                b for b in message.buttons if (b.custom_id or "").startswith("kg:m:") and b.label != "Back"
            ]
            button = next((b for b in buttons if b.label == clip(want, 80)), None)
            if button is not None:
                result = await self.fake.click(self.users[seat], message, button.custom_id)
            else:
                found = [
                    (s, o)
                    for s in message.selects
                    if s.custom_id.startswith("kg:ms:")
                    for o in s.options
                    if o.label == clip(want, 100)
                ]
                assert found, (
                    f"step {want!r} of {move.label!r} is not offered: {[b.label for b in buttons]} {result.text}"
                )
                select, option = found[0]
                result = await self.fake.select(self.users[seat], message, select.custom_id, [option.value])
                self.selected += 1
            self.check_hand_reply(result, seat)
        assert "You chose: " + snap.name_text(move.label) in said(result), said(result)
        self.moves_by_button += 1
        return result

    async def by_command(self, seat: int, move: Move, *, autocomplete: bool = True) -> InteractionResult:
        """The ``/dynasty`` command for the move; its option value taken from autocomplete."""
        user, channel = self.users[seat], self.world.channel
        snap = await self.snap()
        code = move.code
        op = code.split(":")[0]
        if op in ("p", "t", "c"):
            command, option = ("dynasty play", "card") if op != "c" else ("dynasty catch", "player")
            value = code
            if autocomplete:
                typed = snap.name_text(move.label)[:40]
                choices = await self.fake.autocomplete(
                    user, channel, command, focused=option, **{option: typed}
                )
                mine = {c["value"]: c["name"] for c in choices}
                assert code in mine, f"{code!r} not among the choices for {typed!r}: {choices}"
                assert mine[code] == clip(snap.name_text(move.label), 100)
                self.autocompleted += 1
            result = await self.fake.slash(user, channel, command, **{option: value})
        else:
            command = {
                "d": "dynasty draw",
                "pass": "dynasty pass",
                "x": "dynasty pass",
                "og": "dynasty onguard",
                "acc": "dynasty accept",
                "esc": "dynasty escape",
                "wait": "dynasty wait",
            }[op]
            result = await self.fake.slash(user, channel, command)
        self.check_hand_reply(result, seat)
        assert "You chose: " + snap.name_text(move.label) in said(result), said(result)
        self.moves_by_command += 1
        return result

    async def play(self, seat: int, move: Move, *, command: bool) -> InteractionResult:
        """Make ``move`` for ``seat`` the way a person would; a draw must tell the drawn card."""
        before = await self.snap()
        if command:
            result = await self.by_command(seat, move, autocomplete=self.moves_by_command % 2 == 0)
        else:
            result = await self.by_buttons(seat, move)
        if move.code == "d":
            after = await self.snap()
            drawn: Counter[int] = Counter(state_of(after).hands[seat]) - Counter(state_of(before).hands[seat])
            assert len(list(drawn.elements())) == 1, drawn
            (card,) = drawn
            assert f"You drew {NAME[card]}." in result.text, result.text
            self.draws_asked += 1
        return result

    # --- the public table ----------------------------------------------------------------

    def check_table(self, snap: Snapshot) -> None:
        """The table message shows this version: top card, suit, every hand size."""
        text = self.message.text
        assert f"· move {snap.version}" in text, f"the table is not at v{snap.version}:\n{text}"
        state = state_of(snap)
        if snap.status != "running":
            return
        top = NAME[state.discard_pile[-1]]
        assert f"Top card: **{top}" in text, text
        suit = (
            f"**{SUIT_NAMES[state.suit]}**" if state.suit >= 0 else "to be named"
        )  # a first card not yet chosen
        assert f"{suit} · play passes" in text, text
        for seat, hand in enumerate(state.hands):
            name = re.escape(snap.seats[seat].name)
            assert re.search(rf"\b{name}\**(?: \([^)]*\))? · {len(hand)} cards?\b", text), text


# --- the match ---------------------------------------------------------------------------------

PENALTY = "ann draws 2 cards for the On Guard penalty and loses the turn."
DREW = re.compile(r"You drew [^.]+\.")


def texts(message: FakeMessage) -> list[str]:
    """The text of every version a message has shown."""
    return [text_of(v.get("content"), v.get("embeds"), v.get("components")) for v in message.versions]


async def open_lobby(world: World, bot: KingBot) -> tuple[FakeMessage, int]:
    """/play, the host's Options panel (classic deck, 300 points), Join x2, Add AI, Start."""
    fake = world.fake
    ann, bob, cat = world.users[:3]
    lobby = await fake.slash(ann, world.channel, "play", game="dynasty")
    assert lobby.callback_type == 4 and not lobby.ephemeral, lobby.text
    table = lobby.response
    assert table is not None and "King's Dynasty: lobby" in table.text
    assert not any(s.custom_id.startswith("kg:opt:") for s in table.selects), (
        "five options: behind the Options button"
    )
    not_host = await fake.click(bob, table, label="Options")
    assert not_host.ephemeral and "Only the host can change the options" in not_host.text
    opened = await fake.click(ann, table, label="Options")
    assert opened.ephemeral and opened.response is not None and opened.response.visible_to == ann.id
    panel = opened.response
    for key, value in OPTIONS.items():
        select = next(s for s in panel.selects if s.custom_id.endswith(f":{key}"))
        chosen = await fake.select(ann, panel, select.custom_id, [value])
        assert chosen.callback_type == 7 and chosen.response is panel, chosen.text  # the panel, edited
    assert "Classic deck only (108 cards)" in panel.text and "300 points" in panel.text
    for user in (bob, cat):
        joined = await fake.click(user, table, label="Join")
        assert joined.callback_type == 6, joined.text
    added = await fake.click(ann, table, label="Add AI")
    assert added.callback_type == 6, added.text
    await fake.wait_for(
        lambda: "AI 1" in table.text and "300 points" in table.text, what="the lobby with its options"
    )
    assert all(f"{i + 1}. {u.name}" in table.text for i, u in enumerate((ann, bob, cat)))
    started = await fake.click(ann, table, label="Start")
    assert started.callback_type == 6, started.text
    await fake.wait_for(lambda: "My hand" in [b.label for b in table.buttons], what="the table after Start")
    snap = await bot.service.active_in_channel(world.channel.id)
    assert snap is not None and snap.status == "running"
    return table, snap.id


async def test_three_people_and_an_ai_play_a_whole_match(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    began = time.monotonic()
    fake = world.fake
    ann, bob, cat = world.users[:3]
    # Test set-up: a fixed seed and the prepared first hand (see the module docstring).
    import bot.service.lobby as lobby_module

    monkeypatch.setattr(lobby_module.secrets, "randbits", lambda bits: SEED)
    engine_setup = type(GAME).setup

    def prepared_setup(game: Any, players: int, seed: int, options: Mapping[str, str]) -> DynastyState:
        return rigged_first_hand(engine_setup(game, players, seed, options), seed)

    monkeypatch.setattr(type(GAME), "setup", prepared_setup)

    async with fake.bot_running(make_bot(world, turn_seconds=0)) as client:
        bot = cast(KingBot, client)
        recorder = Recorder()
        bot.service.add_listener(recorder)
        fake.quiet, fake.busy_quiet = 0.01, 0.05  # every step below waits for the bot explicitly
        message, match_id = await open_lobby(world, bot)
        t = Table(world, bot, message, match_id, {ANN: ann, BOB: bob, CAT: cat}, recorder)
        humans = [ANN, BOB, CAT]
        snap = await t.settled()
        assert snap.record.seed == SEED
        assert state_of(snap).hands[AI] == tuple(sorted(DEAL[AI])) and GAME.card_count(state_of(snap)) == 108
        assert "Waiting for" in message.text and "King's Dynasty (classic deck)" in message.text
        t.check_table(snap)
        edits_at_start = message.edits
        count = 0

        async def step(expect: int | None = None) -> tuple[int, Move, InteractionResult]:
            nonlocal count
            snap = await t.settled()
            t.check_table(snap)
            chosen = next_human(state_of(snap), snap.version, humans)
            assert chosen is not None, f"nobody to act at v{snap.version}: {snap.view(None).waiting}"
            seat, move = chosen
            assert expect is None or seat == expect, (seat, move, snap.view(None).waiting)
            count += 1
            result = await t.play(seat, move, command=count % SLASH_EVERY == 0)
            return seat, move, result

        # bob and cat open on gold; the AI's only play is its Drawbridge, at ann.
        await step(BOB)
        await step(CAT)
        snap = await t.settled()
        assert (state_of(snap).turn, state_of(snap).pending_draws, state_of(snap).draw_source) == (
            ANN,
            2,
            AI,
        ), snap.view(None).waiting
        assert "AI 1 plays Drawbridge (gold)." in message.text
        assert "ann must draw 2 (from AI 1) or answer it." in message.text
        t.check_table(snap)

        # ann sees her answers privately; bob's hand shows none of her cards.
        hand = await t.open_hand(ANN)
        labels = [b.label for b in hand.buttons]
        assert "Royal Decree: send it back" in labels and "Draw 2 and lose the turn" in labels, labels
        assert "Your cards (3)" in hand.text and "Royal Decree" in hand.text
        other = await t.open_hand(BOB)
        assert "Royal Decree" not in other.text and "Nothing for you to do right now" in other.text
        assert [b.label for b in other.buttons] == [], "no moves for bob now"
        # ... and answers with the Royal Decree through /dynasty play (value from autocomplete).
        decree = next(m for m in snap.legal_moves(ANN) if m.code == "p:DEC")
        played = await t.by_command(ANN, decree, autocomplete=True)
        assert "You chose: Royal Decree: send it back." in said(played), said(played)
        snap = await t.settled()
        t.check_table(snap)
        assert state_of(snap).direction == -1 and state_of(snap).turn == CAT
        for line in (
            "ann answers with Royal Decree: the draw goes back to AI 1 and the direction reverses.",
            "AI 1 draws 2 cards and loses the turn.",
            "play passes ←",
        ):
            assert line in message.text, f"{line!r} not on the table:\n{message.text}"
        assert any(s == AI and DREW.fullmatch(text) for _v, s, text in recorder.private), (
            "the AI's draw is told to it"
        )

        # cat and bob play on; then ann plays her next-to-last card without calling On Guard.
        await step(CAT)
        await step(BOB)
        snap = await t.settled()
        assert state_of(snap).turn == ANN and len(state_of(snap).hands[ANN]) == 2
        duke = next(m for m in snap.legal_moves(ANN) if m.code == "p:DUK:gd")
        wake_ai = bot.service._wake_ai
        held: list[Snapshot] = []
        monkeypatch.setattr(bot.service, "_wake_ai", held.append)  # the AI seat is held back (see above)
        played = await t.by_buttons(ANN, duke)
        assert "You chose: Duke: Name gold." in said(played), said(played)
        assert "Call On Guard!" in [b.label for b in played.buttons], "ann could still call; she does not"
        await fake.wait_for(
            lambda: (
                re.search(
                    r"ann\** · 1 card · total 0 · (?:[^\n]* · )?one card, On Guard not called", message.text
                )
                is not None
                and "ann is down to one card without calling On Guard: anyone may catch them" in message.text
            ),
            what="the table showing ann's missing call",
        )
        watcher = await t.open_hand(CAT)
        assert "Catch ann: no On Guard call" in [b.label for b in watcher.buttons]
        snap = await t.snap()
        catch = next(m for m in snap.legal_moves(BOB) if m.code == f"c:{ANN}")
        caught = await t.by_command(BOB, catch, autocomplete=True)
        assert "You chose: Catch ann: no On Guard call." in said(caught), said(caught)
        await fake.wait_for(
            lambda: (
                "bob catches ann: no On Guard call. ann will draw 2 and lose their next turn." in message.text
                and "caught: draws 2 and loses the next turn" in message.text
            ),
            what="the catch on the table",
        )
        late = await fake.slash(ann, world.channel, "dynasty onguard")
        assert late.ephemeral and "You chose" not in said(late), said(late)
        assert (await t.snap()).version == snap.version + 1, "the late call changed nothing"
        assert held, "the AI seat was due to move"
        monkeypatch.setattr(bot.service, "_wake_ai", wake_ai)
        wake_ai(await t.snap())

        # Ordinary play to the end of the match.
        penalty_seen = False
        while True:
            snap = await t.settled()
            t.check_table(snap)
            if not penalty_seen and any(text == PENALTY for _v, text in recorder.public):
                penalty_seen = True
                version = next(v for v, text in recorder.public if text == PENALTY)
                drawn = [text for v, s, text in recorder.private if v == version and s == ANN]
                assert drawn and DREW.fullmatch(drawn[0]), drawn
                own = await fake.slash(ann, world.channel, "hand")  # /hand: the same view as My hand
                t.check_hand_reply(own, ANN)
                assert drawn[0] in own.text or t.seen_by(ANN, drawn[0]), own.text
            if snap.status != "running":
                break
            turn = state_of(snap).turn
            draw = (
                next((m for m in snap.legal_moves(turn) if m.code == "d"), None) if turn in humans else None
            )
            if not t.draws_asked and draw is not None and turn in snap.awaited():
                # Once, a person draws instead of playing (/dynasty draw): the reply names the card.
                await t.play(turn, draw, command=True)
                continue
            await step()

        # The end: outcome on the table, results stored.
        assert penalty_seen, "ann's penalty draw"
        assert snap.status == "finished"
        outcome = GAME.outcome(state_of(snap))
        assert outcome is not None
        text = message.text
        assert "finished" in text and "🏆" in text and " win" in text and "Final scores" in text
        assert [b.label for b in message.buttons] == ["Rematch", "Replay", "Log"], (
            "no hand button after the end"
        )
        results = await bot.repo.results(match_id)
        assert len(results) == 4
        for r in results:
            placed = next(o for o in outcome.results if o.seat == r.seat)
            assert (r.place, r.score) == (placed.place, placed.score)
            assert r.is_ai == (r.seat == AI) and r.user_id == (
                t.users[r.seat].id if r.seat in t.users else None
            )
            name = snap.seats[r.seat].name
            assert any(name in line and f"· {r.score}" in line for line in text.splitlines()), text
        final = state_of(snap)
        assert max(final.totals) > 300 or final.hand_number == final.config.hands == 5, (
            "the limit, or the default 5 hands"
        )
        # The move log holds every move a person made through Discord, once, and replays the match.
        log = await bot.repo.moves(match_id)
        by_people = [m for m in log if m.user_id is not None]
        assert len(by_people) == t.moves_by_button + t.moves_by_command
        assert all(m.seat == AI for m in log if m.user_id is None)
        assert all(m.user_id == t.users[m.seat].id for m in by_people)
        replay = prepared_setup(GAME, 4, SEED, snap.record.options)
        for m in log:
            replay, _events = GAME.apply(replay, m.seat, m.code)
        assert GAME.dump(replay) == GAME.dump(state_of(snap))

        # What each player received.
        assert message.edits > edits_at_start + count, "the table is edited in place after the moves"
        public = fake.messages(world.channel)
        assert [p.id for p in public] == [message.id], "one table, and no turn message left after the end"
        for shown in public:
            assert not shown.ephemeral
            for body in texts(shown):
                assert "You drew" not in body and "Your hand" not in body, body
        assert any(PENALTY in body for body in texts(message)), "the penalty draw was on the table"
        told = {seat: recorder.told(seat) for seat in t.users}
        seat_of = {user.id: seat for seat, user in t.users.items()}
        private_seen = 0
        for stored in list(fake._messages.values()):  # every message, ephemeral ones included
            for body in texts(stored):
                for line in DREW.findall(body):
                    where = stored.visible_to
                    assert stored.ephemeral and where in seat_of, (
                        f"a drawn card outside an ephemeral reply: {line!r}"
                    )
                    assert line in told[seat_of[where]], f"{line!r} shown to someone it was not told to"
                    private_seen += 1
        assert private_seen and t.draws_seen and t.draws_asked == 1, "draws were told"
        assert t.moves_by_button > t.moves_by_command > 0 and t.autocompleted > 0
    fake.assert_clean()
    assert error_records(caplog.records) == [], error_records(caplog.records)[:10]
    elapsed = time.monotonic() - began
    print(
        f"dynasty e2e: {t.moves_by_button + t.moves_by_command} moves by people ({t.moves_by_button} by buttons, "
        f"{t.selected} select steps, {t.moves_by_command} by commands), {snap.version} versions, "
        f"{state_of(snap).hand_number} hands, {elapsed:.1f} s"
    )

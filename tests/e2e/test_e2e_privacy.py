"""Privacy end to end: full matches of every registered game (every choice of its lobby
options) are played through the fake Discord, humans with the hand buttons and the rest by AI
seats, and no public message, custom id or select value may ever show a card that only one
seat may see at that moment.

What "only one seat may see" means comes from the engine itself: at every version of the
match (a test listener records each one), a seat's secrets are the parts of its private view
that change when the game re-deals what another seat cannot see (``game.resample``).
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from bot.games import GAMES
from bot.games.base import Event, Rng
from bot.images import table_png
from bot.service import Snapshot
from bot.ui.table import table_message
from tests.e2e_support import (
    World,
    custom_id_is_safe,
    fits,
    leave_for_good,
    make_bot,
    open_match,
    players_for,
    quiet,
    said,
    world,
)
from tests.fakediscord import FakeMessage, FakeUser
from tests.fakediscord.models import text_of, walk_components

pytestmark = pytest.mark.asyncio
__all__ = ["world"]

RESAMPLES = 2  # re-deals per (seat, other seat) when looking for a seat's secrets
OTHERS = 3  # other seats whose point of view is re-dealt
MAX_RENDERED_PER_CHECK = 150
HUMAN_MOVES = 16  # then the humans /leave and the AI plays their seats to the end
FOOTER_VERSION = re.compile(r"· move (\d+)")
ITEM_SPLIT = re.compile(r"[:,;·|]\s*|\s+-\s+")


def configurations() -> list[tuple[str, dict[str, str]]]:
    """Every game with its default options made short by its ``hints.quick``, and with each
    choice of the options its ``hints.vary`` names (default: its first option)."""
    out: list[tuple[str, dict[str, str]]] = []
    for game_id, game in GAMES.items():
        seen: set[tuple[tuple[str, str], ...]] = set()
        defaults = {o.key: o.default_value for o in game.options if not o.multi}
        defaults.update(game.hints.quick)
        vary = game.hints.vary or ((game.options[0].key,) if game.options else ())
        varied = [o for o in game.options if not o.multi and o.key in vary]
        variants = [dict(defaults)] + [
            {**defaults, o.key: value} for o in varied for value, _label in o.choices
        ]
        for options in variants:
            key = tuple(sorted(options.items()))
            if key not in seen:
                seen.add(key)
                out.append((game_id, options))
    return out


@dataclass
class Recorder:
    """A service listener keeping every version of every match (the real bot calls it)."""

    versions: dict[tuple[int, int], Snapshot] = field(default_factory=dict)
    public_events: dict[int, list[str]] = field(default_factory=dict)
    private_events: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    events_at: dict[tuple[int, int], int] = field(default_factory=dict)  # public events told by then

    def recent_events(self, match_id: int, version: int, count: int = 40) -> list[str]:
        told = self.public_events.get(match_id, [])
        end = self.events_at.get((match_id, version), len(told))
        return told[max(0, end - count) : end]

    async def match_changed(self, snap: Snapshot, events: Sequence[Event]) -> None:
        self.versions[(snap.id, snap.version)] = snap
        self.events_at[(snap.id, snap.version)] = len(self.public_events.get(snap.id, [])) + sum(
            1 for e in events if e.seat is None
        )
        for e in events:
            if e.seat is None:
                self.public_events.setdefault(snap.id, []).append(snap.name_text(e.text))
            else:
                self.private_events.setdefault(snap.id, []).append((e.seat, snap.name_text(e.text)))

    async def remind(self, snap: Snapshot, seats: Sequence[int], seconds_left: float) -> None:
        pass


def _items(line: str) -> list[str]:
    return [part.strip(" *.") for part in ITEM_SPLIT.split(line) if part.strip(" *.")]


_SECRETS: dict[tuple[int, int, int], dict[int, set[str]]] = {}


def secrets_of(snap: Snapshot) -> dict[int, set[str]]:
    """For each seat: the parts of its private view another seat cannot know."""
    key = (id(snap.game), snap.id, snap.version)
    if key in _SECRETS and _SECRETS[key][-1] is snap:  # type: ignore[index]
        return _SECRETS[key][0]  # type: ignore[index]
    game, state = snap.game, snap.state
    n = len(snap.seats)
    out: dict[int, set[str]] = {}
    for seat in range(n):
        mine = [snap.name_text(line) for line in game.view(state, seat).private]
        found: set[str] = set()
        if not mine:
            out[seat] = found
            continue
        others = [(seat + d) % n for d in range(1, n)][:OTHERS]
        for other in others:
            for k in range(RESAMPLES):
                alt = game.resample(state, other, Rng.from_seed(7919 * k + 104729 * other + snap.version))
                theirs = [snap.name_text(line) for line in game.view(alt, seat).private]
                for a, b in zip(mine, theirs):
                    if a == b:
                        continue
                    alt_items = set(_items(b))
                    for item in _items(a):
                        if item in alt_items or not re.search(r"[A-Za-z]", item):
                            continue
                        found.add(item)
                        bare = re.sub(r"\s*\([^)]*\)$", "", item)
                        if len(bare) >= 3:
                            found.add(bare)
        out[seat] = found
    _SECRETS[key] = (out, snap)  # type: ignore[assignment]
    return out


def engine_lines(snap: Snapshot, events: list[str]) -> set[str]:
    """Lines the engine itself declares public at this version (checked separately)."""
    view = snap.game.view(snap.state, None)
    lines = {snap.name_text(line) for line in view.public} | {snap.name_text(view.waiting)} | set(events)
    outcome = snap.game.outcome(snap.state)
    if outcome is not None:
        lines.add(snap.name_text(outcome.summary))
    return {line.strip(" *▶") for line in lines if line.strip(" *▶")}


def has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None


@dataclass
class Checker:
    world: World
    recorder: Recorder
    checked: set[tuple[Any, int]] = field(default_factory=set)
    seen_versions: set[tuple[int, int]] = field(default_factory=set)
    secrets_seen: int = 0

    def check_engine_view(self, snap: Snapshot) -> None:
        """The table view of this version cannot tell it from a re-deal of anything hidden."""
        key = (snap.id, snap.version)
        if key in self.seen_versions or snap.state is None:
            return
        self.seen_versions.add(key)
        table = snap.game.view(snap.state, None)
        picture = table_png(snap.game.id, table)
        for other in range(len(snap.seats)):
            for k in range(1):
                alt = snap.game.resample(snap.state, other, Rng.from_seed(31 * k + other))
                alt_view = snap.game.view(alt, None)
                assert alt_view == table, (
                    f"match {snap.id} v{snap.version}: the table depends on hidden cards"
                )
                # The table's picture too: drawn from a re-deal, it is the same image, byte for byte.
                assert table_png(snap.game.id, alt_view) == picture, (
                    f"match {snap.id} v{snap.version}: the picture"
                )

    def check_message(self, message: FakeMessage, match_id: int) -> None:
        """Every version a public message has shown, against the match version it shows."""
        new = [(i, v) for i, v in enumerate(message.versions) if (message.id, i) not in self.checked]
        stride = max(1, len(new) // MAX_RENDERED_PER_CHECK)  # a long AI-only ending is sampled
        for n, (index, version) in enumerate(new):
            self.checked.add((message.id, index))
            if n % stride and n != len(new) - 1:
                continue
            text = text_of(version.get("content"), version.get("embeds"), version.get("components"))
            components = list(walk_components(version.get("components") or []))
            found = FOOTER_VERSION.search(text)
            snap = None
            if found:  # a table; lobbies, reminders and refusals have no game state behind them
                snap = self.recorder.versions.get((match_id, int(found.group(1))))
                assert snap is not None, f"no recorded version {found.group(1)} of match {match_id}"
            self.check_public(text, components, snap, match_id)

    def check_rendered(self, match_id: int) -> None:
        """The table as the bot renders it at every recorded version, published or not (a
        newer state often replaces an older one before the edit goes out)."""
        new = sorted(
            (version, snap)
            for (mid, version), snap in self.recorder.versions.items()
            if mid == match_id and ("rendered", version) not in self.checked
        )
        # Every version while humans play; a long AI-only ending is sampled evenly.
        stride = max(1, len(new) // MAX_RENDERED_PER_CHECK)
        for i, (version, snap) in enumerate(new):
            self.checked.add(("rendered", version))
            if i % stride and i != len(new) - 1:
                continue
            embed, view = table_message(snap)
            rows = view.to_components()
            components = list(walk_components(rows))
            text = text_of(None, [embed.to_dict()], rows)
            self.check_public(text, components, snap, match_id)

    def check_public(
        self, text: str, components: list[dict[str, Any]], snap: Snapshot | None, match_id: int
    ) -> None:
        for comp in components:
            cid = comp.get("custom_id")
            if cid:
                assert custom_id_is_safe(cid), f"custom id {cid!r} carries more than numbers"
            for option in comp.get("options") or []:
                assert option["value"].isdigit() or option["value"].isidentifier(), option
        if snap is None or snap.state is None:
            return
        self.check_engine_view(snap)
        secrets = secrets_of(snap)
        self.secrets_seen += sum(len(v) for v in secrets.values())
        explained = engine_lines(snap, self.recorder.recent_events(match_id, snap.version))
        private_texts = [t for _seat, t in self.recorder.private_events.get(match_id, [])]
        values = [o.get("value", "") for c in components for o in (c.get("options") or [])]
        labels = [o.get("label", "") for c in components for o in (c.get("options") or [])]
        for seat, hidden in secrets.items():
            name = snap.seats[seat].name
            for cid in [c.get("custom_id") or "" for c in components] + values:
                leaked = [h for h in hidden if has_word(cid, h)]
                assert not leaked, f"a custom id or value shows {name}'s {leaked}: {cid!r}"
            for line in text.splitlines() + labels:
                bare = line.strip(" *▶•")
                if not bare or bare in explained or any(bare in e for e in explained):
                    continue
                if has_word(bare, name):
                    leaked = [h for h in hidden if has_word(bare, h)]
                    assert not leaked, f"v{snap.version}: public line shows {name}'s {leaked}: {line!r}"
        for private in private_texts:
            if len(private) > 12:
                assert private not in text, f"a private event reached a public message: {private!r}"

    def check_channel(self, match_id: int) -> None:
        fake = self.world.fake
        for message in fake.messages(self.world.channel):
            assert not message.ephemeral
            self.check_message(message, match_id)
        self.check_rendered(match_id)


async def play_human_move(world: World, user: FakeUser, table: FakeMessage, seat: int) -> bool:
    """Open the hand and press buttons (or pick select values) down the move tree to a move."""
    fake = world.fake
    result = await fake.click(user, table, label="My hand")
    assert result.ephemeral, result.text
    assert f"Seat {seat + 1} ·" in said(result), "a hand goes to its own seat only"
    for _step in range(12):
        if "You chose" in said(result):
            return True
        message = result.response
        buttons = [b for b in message.buttons if b.custom_id.startswith("kg:m:") and b.label != "Back"]
        selects = [s for s in message.selects if s.custom_id.startswith("kg:ms:")]
        picks = [s for s in message.selects if s.custom_id.startswith("kg:mp:")]
        if picks and not (buttons and hash((message.id, _step)) % 2):
            pick = picks[0]  # a multi-select: as many options as it needs, from a varying start
            start = hash((message.id, _step)) % len(pick.options)
            values = [
                o.value for o in (pick.options[start:] + pick.options[:start])[: max(1, pick.min_values)]
            ]
            result = await fake.select(user, message, pick.custom_id, values)
        elif selects:
            select = selects[0]
            choice = select.options[hash((message.id, _step)) % len(select.options)].value
            result = await fake.select(user, message, select.custom_id, [choice])
        elif buttons:
            button = buttons[hash((message.id, _step)) % len(buttons)]
            result = await fake.click(user, message, button.custom_id)
        else:
            return False
        assert result.ephemeral, result.text
    return "You chose" in said(result)


@pytest.mark.parametrize(
    ("game_id", "options"), configurations(), ids=lambda v: v if isinstance(v, str) else "-".join(v.values())
)
async def test_no_public_message_or_custom_id_shows_a_private_card(
    world: World, game_id: str, options: dict[str, str]
) -> None:
    fake = world.fake
    players = players_for(game_id, options)
    wanted = GAMES[game_id].hints.players or players
    if wanted > players and fits(game_id, wanted, options):
        players = wanted
    humans = world.users[: min(2, players)]
    async with fake.bot_running(make_bot(world, turn_seconds=0)) as bot:
        recorder = Recorder()
        bot.service.add_listener(recorder)
        table = await open_match(
            world, humans[0], list(humans[1:]), game=game_id, options=options, ais=players - len(humans)
        )
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        checker = Checker(world, recorder)
        fake.quiet, fake.busy_quiet = 0.01, 0.05  # every step below waits for the bot explicitly
        moves = 0
        idle_since: float | None = None
        while True:
            await quiet(fake, bot)
            checker.check_channel(match_id)
            snap = await bot.service.get(match_id)
            if snap.status != "running":
                break
            if moves >= HUMAN_MOVES:
                for user in humans:
                    if not snap.seats[snap.seat_of(user.id)].left:
                        left = await leave_for_good(fake, user, world.channel)
                        assert left.ephemeral, left.text
                        if "AI plays your seat" not in left.text:  # the AI seats ended the match first
                            assert (await bot.service.get(match_id)).status != "running", left.text
                await fake.wait_for(lambda: "finished" in table.text, 240, "the AI to finish the match")
                continue
            waiting = [
                u
                for u in humans
                if snap.seat_of(u.id) in snap.to_act() and not snap.seats[snap.seat_of(u.id)].left
            ]
            if not waiting:  # AI seats are moving; a loaded machine may take a while
                idle_since = idle_since or time.monotonic()
                stuck = time.monotonic() - idle_since
                assert stuck < 60, f"{game_id} {options}: stuck with nobody to act at v{snap.version}"
                await asyncio.sleep(0.02)
                continue
            idle_since = None
            for user in waiting:
                if await play_human_move(world, user, table, snap.seat_of(user.id)):
                    moves += 1
                    break
        await quiet(fake, bot)
        checker.check_channel(match_id)
        final = await bot.service.get(match_id)
        assert final.status == "finished", f"{game_id} {options}: not finished after {moves} human moves"
        # The end says who won, first, and offers no hand any more (issue: the table and the hand).
        headline = table.text.splitlines()[1]
        assert headline.startswith(("**🏆", "**Nobody wins")), table.text
        assert "My hand" not in [b.label for b in table.buttons] and "Rematch" in [
            b.label for b in table.buttons
        ]
        turn_messages = [m for m in fake.messages(world.channel) if m.id != table.id]
        assert not turn_messages, "no turn message is left after the end"
        assert len(recorder.versions) >= 3
        has_secrets = any(
            any(secrets_of(v).values()) for v in recorder.versions.values() if v.state is not None
        )
        assert checker.secrets_seen > 0 or not has_secrets, "the checks never met a secret"
        choices = {value for o in GAMES[game_id].options for value, _label in o.choices}
        # Custom ids of every message, ephemeral hands included, in every version: numbers only.
        for message in list(fake._messages.values()):
            for version in message.versions:
                for comp in walk_components(version.get("components") or []):
                    if comp.get("custom_id"):
                        assert custom_id_is_safe(comp["custom_id"]), comp["custom_id"]
                    for option in comp.get("options") or []:
                        assert option["value"].isdigit() or option["value"] in choices, option
    fake.assert_clean()


async def test_a_player_who_left_sees_nothing_of_the_seat_the_ai_plays_now(world: World) -> None:
    """King and Crown (defend, three players): ann picks the King in secret, opens her hand
    and leaves at once. Her open hand is edited to say that the AI plays her seat (a picture
    still being drawn for it does not land after that), and never again; /hand and My hand say
    only that: no card, no secret pick, no move, no picture."""
    fake = world.fake
    ann, bob, cat = world.users[:3]
    async with fake.bot_running(make_bot(world)) as bot:
        table = await open_match(world, ann, [bob, cat], game="crown", options={"variant": "defend"})
        match_id = (await bot.repo.latest_in_channel(world.channel.id)).id
        hand = await fake.click(ann, table, label="My hand")
        assert hand.response is not None
        await hand.click("Pick King (5)", user=ann)
        hand = await fake.click(ann, table, label="My hand")  # its picture is being drawn as she leaves
        assert hand.response is not None
        assert "King (5)" in hand.response.text, hand.response.text  # her secret, while she plays
        left = await leave_for_good(fake, ann, world.channel)
        assert left.ephemeral and "AI plays your seat" in left.text, left.text
        sentence = f"You left match #{match_id}; the AI plays your seat."
        await fake.wait_for(lambda: sentence in hand.response.text, what="ann's open hand to say she left")
        await quiet(fake, bot)
        for message in (hand.response, (await fake.slash(ann, world.channel, "hand")).response):
            assert message is not None and message.ephemeral
            body = message.text.split("\n", 1)[1].strip()
            assert body.startswith(sentence), message.text
            for word in ("King", "Dragon", "Knight", "Witch", "Beggar", "Nothing for you to do", "secret"):
                assert word not in body, (word, message.text)
            assert not message.buttons and not message.selects and not message.attachments
        again = await fake.click(ann, table, label="My hand")
        assert again.response is not None and sentence in again.response.text
        edits = hand.response.edits
        version = (await bot.service.get(match_id)).version
        await fake.slash(bob, world.channel, "crown pick", card="D")  # the round resolves
        await fake.slash(cat, world.channel, "crown pick", card="W")
        await quiet(fake, bot)
        assert (await bot.service.get(match_id)).version >= version + 2, "play went on"
        assert hand.response.edits == edits, "her old hand is not updated any more"
        assert sentence in hand.response.text
    fake.assert_clean()

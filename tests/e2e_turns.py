"""Turn messages in the fake Discord's record: which match each one is for, who it mentions,
and how many of one match the channel ever held at the same time (the issue's "at most one
per match besides the table", checked over every create and delete the fake saw, not only
at the moments a test looks)."""

from __future__ import annotations

import re

from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage

# "<@1>, <@2>: your turn in King and Crown #4. ..." and "⏰ <@1>: 2 minutes left to decide in King and Crown #4, ..."
TURN_TEXT = re.compile(r"(?:your turn in|left to decide in) [^#\n]*#(\d+)")


def turn_match(message: FakeMessage) -> int | None:
    """The match a turn message or reminder is for (None: not one)."""
    if message.ephemeral or message.embeds:
        return None
    found = TURN_TEXT.search(message.content or "")
    return int(found[1]) if found else None


def turn_messages(fake: FakeDiscord, channel: FakeChannel, match_id: int | None = None) -> list[FakeMessage]:
    """Every turn message ever posted in the channel (deleted ones too), oldest first."""
    return [
        m
        for m in fake.messages(channel, include_deleted=True)
        if (found := turn_match(m)) is not None and (match_id is None or found == match_id)
    ]


def most_turn_messages_at_once(fake: FakeDiscord, channel: FakeChannel) -> dict[int, int]:
    """For each match, the most turn messages of it the channel held at any one time."""
    live: dict[int, set[int]] = {}
    most: dict[int, int] = {}
    for event in fake._events:  # every create and delete, in order
        message = fake.message(event.message_id)
        if message.channel_id != channel.id:
            continue
        match_id = turn_match(message)
        if match_id is None:
            continue
        held = live.setdefault(match_id, set())
        if event.kind == "create":
            held.add(message.id)
        elif event.kind == "delete":
            held.discard(message.id)
        most[match_id] = max(most.get(match_id, 0), len(held))
    return most


def assert_one_turn_message_at_most(fake: FakeDiscord, channel: FakeChannel) -> None:
    most = most_turn_messages_at_once(fake, channel)
    assert all(n <= 1 for n in most.values()), f"two turn messages of one match at once: {most}"

"""A fake Discord (gateway + REST on 127.0.0.1) that drives a real, unmodified discord.py.

In-process (same event loop as the test)::

    from tests.fakediscord import FakeDiscord

    async def test_play() -> None:
        async with FakeDiscord() as fake:  # starts the server and patches discord.py (undone on exit)
            guild = fake.add_guild("Card Club")
            channel = fake.add_channel(guild, "tables")
            alice = fake.add_user("alice", manage_guild=True)  # member of every guild
            bob = fake.add_user("bob")
            async with fake.bot_running(make_bot()):  # client.start(fake.token), waits for on_ready
                result = await fake.slash(bob, channel, "play", game="crown")
                assert result.callback_type == 4 and not result.ephemeral
                assert "lobby" in result.text
                joined = await result.click("Join", user=alice)  # or fake.click(alice, msg, custom_id)
                assert joined.edited == [result.response] and result.response.edits == 1
                picked = await fake.slash(alice, channel, "crown pick", card="K")  # subcommand (groups too)
                choices = await fake.autocomplete(alice, channel, "crown pick", focused="card", card="")
            fake.assert_clean()  # no unknown route, refused payload, late or double acknowledgement

``FakeDiscord.start()`` / ``stop()`` and the ``fake.patch_discord()`` context manager can be used
instead of ``async with``. A bot needs no special settings; the patch also makes clients default to a
0.05 s ``guild_ready_timeout`` so ``on_ready`` is quick.

Driving (each waits for the initial callback, then until the bot is quiet, and returns an
``InteractionResult``; ``InteractionTimeout`` if the bot never answers within ``fake.timeout``):

* ``await fake.slash(user, channel, "group sub", option=value, ...)`` (or ``options={...}``): option
  types come from the synced command (``PermissionError`` if ``default_member_permissions`` hides it,
  ``ValueError``/``LookupError`` for bad choices, ranges, unknown or missing options); without a sync
  they are inferred (bool, int, float, str, FakeUser, FakeChannel, FakeRole).
* ``await fake.autocomplete(user, channel, "cmd", focused="name", name="K")`` -> ``[{"name", "value"}]``.
* ``await fake.click(user, message, custom_id)`` (or ``label=...``), ``await fake.select(user, message,
  custom_id, values)``, ``await fake.submit_modal(user, result_that_opened_it, {custom_id: value})``.
  ``message`` is a stored ``FakeMessage`` (or id); the user must be able to see it (ephemeral ones only
  by their recipient) and the component must exist and be enabled.
* ``await fake.say(user, channel, "text")``: a plain user message (MESSAGE_CREATE; content hidden from
  bots without the message content intent unless they are mentioned).

``InteractionResult``: ``callback_type`` (4 message, 5 deferred, 6 deferred update, 7 update,
8 autocomplete, 9 modal), ``response`` (the ``@original`` message: new for 4/5, the clicked one for 6/7),
``followups``, ``created`` / ``edited`` / ``deleted`` (during this interaction), ``ephemeral``, ``text``
(content + embed author/title/description/fields/footer + v2 text), ``all_text``, ``buttons`` /
``selects`` / ``find_button(label)``, ``choices``, ``modal``, ``late``, ``elapsed``, ``record`` (raw
payloads), and ``await result.click("Label")`` / ``result.select([...])`` / ``result.submit_modal({...})``.

Store: ``fake.messages(channel, for_user=None)`` (public in order; a user's ephemerals with
``for_user``), ``fake.last_message(channel)``, ``fake.message(id)``, ``fake.dm_channel(user)``,
``fake.channel(id)`` (threads share their starter message's id). ``FakeMessage`` objects are live:
``edits`` counts edits, ``versions`` keeps every version, ``visible_to`` marks ephemerals. Messages,
users and guilds persist across bot restarts (close a client, start a new one, click old buttons).

Checks and logs: ``fake.requests`` (every REST call), ``fake.unknown_routes`` (answered 404, logged as
errors), ``fake.rejections`` (every 4xx: validation 50035, 10008 Unknown Message, ...),
``fake.late_interactions`` (initial callback after ``fake.interaction_deadline`` = 3 s: answered
10062 Unknown interaction like Discord), ``fake.double_acks`` (40060), ``fake.assert_clean()``.
Waiting: ``await fake.wait_for(lambda: ..., timeout, "what")``, ``await fake.settle()``,
``await fake.wait_for_session()``; ``fake.force_reconnect()`` sends op 7 (the client RESUMEs).
Timing knobs: ``timeout``, ``interaction_deadline``, ``quiet``, ``busy_quiet``, ``external_quiet``.

Bot in a subprocess (so a test can SIGKILL and restart it)::

    proc = await fake.start_bot_process("bot", env={"DATABASE_URL": f"sqlite:///{tmp_path}/t.db"})
    await fake.wait_for(lambda: fake.active_session is not None and bool(fake.commands), 30, "bot up")
    ...
    await proc.kill()            # SIGKILL; proc.terminate() for SIGTERM; proc.output() for its log
    proc = await fake.start_bot_process("bot")

This runs ``python -m tests.fakediscord.run_bot bot``, which reads ``FAKE_DISCORD_URL``, applies the
same patches and runs the module as ``__main__`` (``runpy``). ``fake.env()`` gives that environment
(``FAKE_DISCORD_URL``, ``DISCORD_TOKEN`` = ``FAKE_DISCORD_TOKEN`` = ``fake.token``) for other launchers.
"""

from __future__ import annotations

from .gateway import GatewaySession
from .interactions import InteractionRecord, InteractionResult, InteractionTimeout
from .models import (
    BareId,
    Button,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    Perm,
    Select,
    SelectOption,
)
from .patch import apply_patches, patched_discord
from .process import BotProcess
from .server import FakeDiscord, RequestRecord

__all__ = [
    "BareId",
    "BotProcess",
    "Button",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "GatewaySession",
    "InteractionRecord",
    "InteractionResult",
    "InteractionTimeout",
    "Perm",
    "RequestRecord",
    "Select",
    "SelectOption",
    "apply_patches",
    "patched_discord",
]

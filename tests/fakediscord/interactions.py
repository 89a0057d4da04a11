"""Interaction bookkeeping and the results handed back to tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .models import (
    Button,
    FakeChannel,
    FakeMessage,
    FakeRole,
    FakeUser,
    Select,
    buttons_of,
    find_button_in,
    selects_of,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types
CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9

ALLOWED_CALLBACKS: dict[int, set[int]] = {
    APPLICATION_COMMAND: {CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_MODAL, 12},
    MESSAGE_COMPONENT: {
        CALLBACK_MESSAGE,
        CALLBACK_DEFERRED_MESSAGE,
        CALLBACK_DEFERRED_UPDATE,
        CALLBACK_UPDATE,
        CALLBACK_MODAL,
        12,
    },
    AUTOCOMPLETE: {CALLBACK_AUTOCOMPLETE},
    MODAL_SUBMIT: {CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE},
}


class InteractionTimeout(AssertionError):
    """The bot did not answer an interaction (in time)."""


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    description: str
    source_message_id: int | None = None  # component / modal-from-component interactions
    dispatched_at: float = 0.0
    callback_type: int | None = None
    callback: dict[str, Any] | None = None
    callback_at: float | None = None
    late: bool = False
    late_callback: dict[str, Any] | None = None
    double_acks: int = 0
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    event_start: int = 0

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def elapsed(self) -> float | None:
        if self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at


class InteractionResult:
    """What the bot did in answer to one interaction.

    Message objects are live (later edits show up in them); the ``created`` /
    ``edited`` / ``deleted`` lists cover what happened between the dispatch and
    the moment the bot went quiet.
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord, event_end: int) -> None:
        self.fake = fake
        self.record = record
        self._event_end = event_end

    # -- basic facts --------------------------------------------------------
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def user(self) -> FakeUser:
        return self.record.user

    @property
    def channel(self) -> FakeChannel:
        return self.record.channel

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.record.callback_type

    type = callback_type

    @property
    def late(self) -> bool:
        """True when the initial callback came after the deadline (Discord would have refused it)."""
        return self.record.late

    @property
    def elapsed(self) -> float | None:
        """Seconds between dispatch and the initial callback."""
        return self.record.elapsed

    @property
    def deferred(self) -> bool:
        return self.record.callback_type in (5, 6)

    # -- messages -------------------------------------------------------------
    @property
    def response(self) -> FakeMessage | None:
        """The message addressed by ``@original``: the new message for types 4/5,
        the clicked message for 6/7."""
        mid = self.record.original_message_id
        return self.fake._messages.get(mid) if mid is not None else None

    message = response

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake._messages[m] for m in self.record.followup_ids if m in self.fake._messages]

    def _events(self, kind: str) -> list[FakeMessage]:
        seen: dict[int, FakeMessage] = {}
        for event in self.fake._events[self.record.event_start : self._event_end]:
            if event.kind == kind and event.message_id not in seen:
                msg = self.fake._messages.get(event.message_id)
                if msg is not None:
                    seen[event.message_id] = msg
        return list(seen.values())

    @property
    def created(self) -> list[FakeMessage]:
        """Messages created (anywhere) while the bot handled this interaction."""
        return self._events("create")

    @property
    def edited(self) -> list[FakeMessage]:
        """Messages edited (anywhere) while the bot handled this interaction."""
        return self._events("edit")

    @property
    def deleted(self) -> list[FakeMessage]:
        return self._events("delete")

    @property
    def messages(self) -> list[FakeMessage]:
        """Response, follow-ups, created and edited messages, without duplicates."""
        out: dict[int, FakeMessage] = {}
        for msg in ([self.response] if self.response else []) + self.followups + self.created + self.edited:
            out.setdefault(msg.id, msg)
        return list(out.values())

    @property
    def ephemeral(self) -> bool:
        return bool(self.response and self.response.ephemeral)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (``[{"name":..., "value":...}]``)."""
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def text(self) -> str:
        """Text of the response message (content, embeds, v2 text displays)."""
        return self.response.text if self.response else ""

    @property
    def all_text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    @property
    def buttons(self) -> list[Button]:
        return buttons_of(self.response.components) if self.response else []

    @property
    def selects(self) -> list[Select]:
        return selects_of(self.response.components) if self.response else []

    def find_button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        return find_button_in(self.buttons, label, custom_id, f"response of {self.record.description}")

    # -- chaining -------------------------------------------------------------
    async def click(
        self,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        user: FakeUser | None = None,
        message: FakeMessage | None = None,
    ) -> InteractionResult:
        """Click a button of the response (or ``message``) as the same user (or ``user``)."""
        target = message or self.response
        if target is None:
            raise LookupError(f"{self.record.description} has no response message to click on")
        button = target.find_button(label, custom_id=custom_id)
        assert button.custom_id is not None
        return await self.fake.click(user or self.user, target, button.custom_id)

    async def select(
        self, values: list[str], custom_id: str | None = None, *, user: FakeUser | None = None
    ) -> InteractionResult:
        target = self.response
        if target is None:
            raise LookupError(f"{self.record.description} has no response message")
        sel = target.find_select(custom_id)
        return await self.fake.select(user or self.user, target, sel.custom_id, values)

    async def submit_modal(
        self, values: dict[str, Any], *, user: FakeUser | None = None
    ) -> InteractionResult:
        return await self.fake.submit_modal(user or self.user, self, values)

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.record.description} callback={self.callback_type} late={self.late} "
            f"response={self.response!r} followups={len(self.record.followup_ids)}>"
        )


# ---------------------------------------------------------------------------
# Building application command options
# ---------------------------------------------------------------------------

OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_USER = 6
OPTION_CHANNEL = 7
OPTION_ROLE = 8
OPTION_MENTIONABLE = 9
OPTION_NUMBER = 10


def infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return OPTION_BOOLEAN
    if isinstance(value, int):
        return OPTION_INTEGER
    if isinstance(value, float):
        return OPTION_NUMBER
    if isinstance(value, FakeUser):
        return OPTION_USER
    if isinstance(value, FakeChannel):
        return OPTION_CHANNEL
    if isinstance(value, FakeRole):
        return OPTION_ROLE
    if isinstance(value, str):
        return OPTION_STRING
    raise TypeError(f"cannot infer an option type for {value!r}")


def convert_option_value(name: str, opt_type: int, value: Any, *, focused: bool) -> Any:
    """Convert a Python value to the JSON value Discord would send for this option type."""
    if focused:
        # Discord sends whatever the user typed so far, as a string.
        return value if isinstance(value, str) else str(value)
    if opt_type == OPTION_STRING:
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} is a string option, got {value!r}")
        return value
    if opt_type == OPTION_INTEGER:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise TypeError(f"option {name!r} is an integer option, got {value!r}")
        return int(value)
    if opt_type == OPTION_NUMBER:
        if isinstance(value, bool):
            raise TypeError(f"option {name!r} is a number option, got {value!r}")
        return float(value)
    if opt_type == OPTION_BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} is a boolean option, got {value!r}")
        return value
    if opt_type in (OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE):
        if isinstance(value, (FakeUser, FakeChannel, FakeRole)):
            return str(value.id)
        if isinstance(value, int):
            return str(value)
        raise TypeError(f"option {name!r} needs a user/channel/role, got {value!r}")
    raise TypeError(f"option type {opt_type} of {name!r} is not supported by the fake")

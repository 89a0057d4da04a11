"""The one seating lobby of matches and parties: joining, leaving, AI seats, options, start.

A match's lobby seats its players in the match record, a party's in the party record; the
rules are the same and live here once. Each kind of lobby is a :class:`LobbyBook`, which
reads and writes its own records, says its own sentences and does its own start
(:mod:`bot.service.lobby` for matches, :mod:`bot.service.parties` for parties).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from bot.games.base import Game
from bot.games.search import LEVELS
from bot.service import errors, practice
from db.parties import PartyPlayer
from db.records import Seat

Lobby = TypeVar("Lobby")  # what a lobby's book reads and writes: a match's or a party's snapshot
Sitter = TypeVar("Sitter", Seat, PartyPlayer)  # who sits in it: a match's seat or a party's player


@dataclass(frozen=True, slots=True)
class LobbyWords:
    """The sentences that differ between a match's lobby and a party's."""

    noun: str  # "lobby" or "party": "This lobby is full (4 players)."
    already_in: str
    not_in: str
    no_ai: str
    start: str  # what only the host may do: "start the match"


class LobbyBook(Protocol[Lobby, Sitter]):
    """A kind of lobby as the seating flow sees it: its records, its sentences, its start."""

    words: LobbyWords

    def lock(self, lobby_id: int) -> asyncio.Lock: ...

    async def open(self, lobby_id: int) -> Lobby:
        """The lobby, refused with a sentence unless it is still open. Lock held."""
        ...

    def seated(self, lobby: Lobby) -> tuple[Sitter, ...]: ...

    def host_id(self, lobby: Lobby) -> int: ...

    def capacity(self, lobby: Lobby) -> int: ...

    def person(self, user_id: int, name: str) -> Sitter: ...

    def robot(self, name: str, level: str) -> Sitter: ...

    async def seat(
        self, lobby: Lobby, seated: tuple[Sitter, ...], *, host_id: int | None = None, closed: bool = False
    ) -> Lobby:
        """Write the lobby's new seats (and host, or its closing). Lock held."""
        ...

    async def set_option(self, lobby: Lobby, key: str, value: str) -> Lobby: ...

    async def begin(self, lobby: Lobby) -> Lobby:
        """Start what the lobby gathered for. Lock held."""
        ...

    async def begun(self, lobby: Lobby) -> None:
        """Tell of the start (after the lock)."""
        ...

    async def announce(self, lobby: Lobby, text: str | None) -> None:
        """Tell of a change (``text``: the sentence for the table's log, if any)."""
        ...


class SeatingLobby(Generic[Lobby, Sitter]):
    """The lobby rules, for one kind of lobby; owns nothing but its book."""

    def __init__(self, book: LobbyBook[Lobby, Sitter]) -> None:
        self.book: LobbyBook[Lobby, Sitter] = book

    def _index_of(self, lobby: Lobby, user_id: int) -> int | None:
        for index, sitter in enumerate(self.book.seated(lobby)):
            if sitter.user_id == user_id and not sitter.ai:
                return index
        return None

    def _only_host(self, lobby: Lobby, user_id: int, what: str) -> None:
        if user_id != self.book.host_id(lobby):
            raise errors.NotHost(what)

    def _room_left(self, lobby: Lobby) -> None:
        capacity = self.book.capacity(lobby)
        if len(self.book.seated(lobby)) >= capacity:
            raise errors.LobbyError(f"This {self.book.words.noun} is full ({capacity} players).")

    async def join(self, lobby_id: int, user_id: int, name: str) -> Lobby:
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            if self._index_of(lobby, user_id) is not None:
                raise errors.LobbyError(self.book.words.already_in)
            self._room_left(lobby)
            seated = self.book.seated(lobby) + (self.book.person(user_id, name),)
            lobby = await self.book.seat(lobby, seated)
        await self.book.announce(lobby, f"{name} joined.")
        return lobby

    async def leave(self, lobby_id: int, user_id: int) -> Lobby:
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            index = self._index_of(lobby, user_id)
            if index is None:
                raise errors.NotSeated(self.book.words.not_in)
            lobby, text = await self.drop(lobby, index, "left")
        await self.book.announce(lobby, text)
        return lobby

    async def drop(self, lobby: Lobby, index: int, verb: str) -> tuple[Lobby, str]:
        """Remove a person from a lobby; the next person hosts, or the lobby closes. Lock held.
        Returns the lobby and the sentence that says so."""
        before = self.book.seated(lobby)
        seated = before[:index] + before[index + 1 :]
        people = [sitter for sitter in seated if not sitter.ai]
        name = before[index].name
        if not people:
            lobby = await self.book.seat(lobby, seated, closed=True)
            return lobby, f"{name} {verb}; the {self.book.words.noun} is closed."
        if before[index].user_id == self.book.host_id(lobby):
            new_host = people[0].user_id
            assert new_host is not None
            lobby = await self.book.seat(lobby, seated, host_id=new_host)
            return lobby, f"{name} {verb}; {people[0].name} is the host now."
        lobby = await self.book.seat(lobby, seated)
        return lobby, f"{name} {verb}."

    async def add_ai(self, lobby_id: int, user_id: int, level: str = "normal") -> Lobby:
        """Seat an AI playing at ``level``: easy (random legal moves), normal (the game's own
        AI) or hard (the search of bot.games.search)."""
        check_level(level)
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            self._only_host(lobby, user_id, "add AI players")
            self._room_left(lobby)
            number = 1 + sum(1 for sitter in self.book.seated(lobby) if sitter.ai)
            seated = self.book.seated(lobby) + (self.book.robot(f"AI {number}", level),)
            lobby = await self.book.seat(lobby, seated)
        await self.book.announce(lobby, f"AI {number} ({level}) joined.")
        return lobby

    async def remove_ai(self, lobby_id: int, user_id: int) -> Lobby:
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            self._only_host(lobby, user_id, "remove AI players")
            before = self.book.seated(lobby)
            robots = [index for index, sitter in enumerate(before) if sitter.ai]
            if not robots:
                raise errors.LobbyError(self.book.words.no_ai)
            last = robots[-1]
            lobby = await self.book.seat(lobby, before[:last] + before[last + 1 :])
        await self.book.announce(lobby, None)
        return lobby

    async def set_option(self, lobby_id: int, user_id: int, key: str, value: str) -> Lobby:
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            self._only_host(lobby, user_id, "change the options")
            lobby = await self.book.set_option(lobby, key, value)
        await self.book.announce(lobby, None)
        return lobby

    async def start(self, lobby_id: int, user_id: int) -> Lobby:
        async with self.book.lock(lobby_id):
            lobby = await self.book.open(lobby_id)
            self._only_host(lobby, user_id, self.book.words.start)
            lobby = await self.book.begin(lobby)
        await self.book.begun(lobby)
        return lobby


def check_level(level: str) -> None:
    """An AI's level (a match's seat or a party's player) must be one of ``LEVELS``."""
    if level not in LEVELS:
        raise errors.LobbyError(f"{level!r} is not an AI level; the levels are {', '.join(LEVELS)}.")


def check_option(game: Game, key: str, value: str) -> None:
    """``value`` must be a choice of the game's option ``key`` (several, comma-separated, if it
    takes several)."""
    for option in (*game.options, practice.OPTION):  # practice: every game's, from the platform
        if option.key == key:
            allowed = dict(option.choices)
            parts = [part for part in value.split(",") if part] if option.multi else [value]
            for part in parts:
                if part not in allowed:
                    raise errors.LobbyError(f"{part!r} is not a choice for {option.label}.")
            return
    raise errors.LobbyError(f"{game.name} has no option called {key!r}.")


def default_options(game: Game, chosen: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
    """The game's options at their defaults, with ``chosen`` checked and applied."""
    options = {option.key: option.default_value for option in game.options}
    for key, value in chosen:
        check_option(game, key, value)
        options[key] = value
    return options

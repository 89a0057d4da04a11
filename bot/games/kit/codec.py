"""One state codec for every game, driven by the state dataclasses' type hints.

``StateCodec(FourState).dump(state)`` gives a JSON-ready dict of the state's fields and
``load`` gives the state back (``load(dump(s)) == s``). Field types the codec knows: ``int``,
``float``, ``str``, ``bool``, ``None``, ``Any`` (kept as it is), enums (their value),
:class:`Rng` (its integer), nested dataclasses, ``tuple[X, ...]`` and ``tuple[X, Y]``,
``list[X]``, ``frozenset[X]``, ``dict``/``Mapping[K, V]`` (integer keys written as text) and
unions (``X | None``; a union of several dataclasses is written with a ``"type"`` tag). A game
with several state classes (one per variant family) passes them all, and each dump names its
class. The converters are built once per type, so a dump costs about what a hand-written one
does.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from bot.games.kit.rng import Rng

Convert = Callable[[Any], Any]
TYPE_TAG = "type"


def _same(value: Any) -> Any:
    return value


def _sorted(items: Any) -> list[Any]:
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=repr)


class StateCodec:
    """Dumps and loads the states of one game (one dataclass, or several tagged by name)."""

    def __init__(self, *state_types: type) -> None:
        if not state_types or not all(dataclasses.is_dataclass(cls) for cls in state_types):
            raise TypeError("a StateCodec needs one or more dataclasses")
        self.types = {cls.__name__: cls for cls in state_types}
        self.tagged = len(state_types) > 1
        self._to: dict[Any, Convert] = {}
        self._from: dict[Any, Convert] = {}

    def dump(self, state: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.writer(type(state))(state)
        if self.tagged:
            out[TYPE_TAG] = type(state).__name__
        return out

    def load(self, data: Mapping[str, Any]) -> Any:
        cls = self.types[data[TYPE_TAG]] if self.tagged else next(iter(self.types.values()))
        return self.reader(cls)(data)

    # -- converters, built once per type -------------------------------------------------

    def writer(self, hint: Any) -> Convert:
        if hint not in self._to:
            self._to[hint] = self._build(hint, writing=True)
        return self._to[hint]

    def reader(self, hint: Any) -> Convert:
        if hint not in self._from:
            self._from[hint] = self._build(hint, writing=False)
        return self._from[hint]

    def _build(self, hint: Any, *, writing: bool) -> Convert:
        convert = self.writer if writing else self.reader
        if hint is Any or hint in (int, str, bool, type(None)) or typing.get_origin(hint) is typing.Literal:
            return _same
        if hint is float:
            return _same if writing else float
        if hint is Rng:
            return (lambda rng: rng.state) if writing else Rng
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return (lambda member: member.value) if writing else hint
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._dataclass(hint, writing=writing)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            return self._union(args, writing=writing)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = convert(args[0])
                return (
                    (lambda seq: [item(x) for x in seq])
                    if writing
                    else (lambda seq: tuple(item(x) for x in seq))
                )
            items = tuple(convert(arg) for arg in args)
            if writing:
                return lambda seq: [conv(x) for conv, x in zip(items, seq, strict=True)]
            return lambda seq: tuple(conv(x) for conv, x in zip(items, seq, strict=True))
        if origin is list:
            item = convert(args[0]) if args else _same
            return lambda seq: [item(x) for x in seq]
        if origin in (frozenset, set):
            item = convert(args[0]) if args else _same
            made = frozenset if origin is frozenset else set
            return (
                (lambda seq: [item(x) for x in _sorted(seq)])
                if writing
                else (lambda seq: made(item(x) for x in seq))
            )
        if origin in (dict, Mapping, typing.Mapping) or hint in (dict, Mapping):
            key_type, value_type = args if args else (str, Any)
            value = convert(value_type)
            key: Convert
            if writing:
                key = str if key_type is not str else _same
            else:
                key = int if key_type is int else convert(key_type)
            return lambda mapping: {key(k): value(v) for k, v in mapping.items()}
        raise TypeError(f"the state codec cannot store a field of type {hint!r}")

    def _dataclass(self, cls: type, *, writing: bool) -> Convert:
        hints = typing.get_type_hints(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if writing:
            parts = [(f.name, self.writer(hints[f.name])) for f in fields]
            return lambda obj: {name: conv(getattr(obj, name)) for name, conv in parts}
        readers = [(f.name, self.reader(hints[f.name])) for f in fields]

        def read(data: Mapping[str, Any]) -> Any:
            # a field missing from an older save takes its default
            return cls(**{name: conv(data[name]) for name, conv in readers if name in data})

        return read

    def _union(self, args: tuple[Any, ...], *, writing: bool) -> Convert:
        arms = [arg for arg in args if arg is not type(None)]
        if len(arms) == 1:
            inner = self.writer(arms[0]) if writing else self.reader(arms[0])
            return lambda value: None if value is None else inner(value)
        classes = [arm for arm in arms if isinstance(arm, type) and dataclasses.is_dataclass(arm)]
        if not classes:
            return _same  # a union of plain values (int | str) is stored as it is
        by_name = {cls.__name__: cls for cls in classes}
        if writing:

            def write(value: Any) -> Any:
                if type(value).__name__ in by_name:
                    return {TYPE_TAG: type(value).__name__, **self.writer(type(value))(value)}
                return value

            return write

        def read(value: Any) -> Any:
            if isinstance(value, Mapping) and value.get(TYPE_TAG) in by_name:
                return self.reader(by_name[value[TYPE_TAG]])(value)
            return value

        return read

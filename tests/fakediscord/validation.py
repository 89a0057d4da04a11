"""Checks Discord applies to message, autocomplete and modal payloads.

Each checker returns a list of ``(path, message)`` problems; the server turns
them into a 400 "Invalid Form Body" (code 50035) error like Discord's.
"""

from __future__ import annotations

from typing import Any

from .models import FLAG_COMPONENTS_V2, walk_components

Problem = tuple[str, str]

BUTTON_STYLES_WITH_CUSTOM_ID = {1, 2, 3, 4}
SELECT_TYPES = {3, 5, 6, 7, 8}


def _len_check(problems: list[Problem], path: str, value: Any, maximum: int, minimum: int = 0) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        problems.append((path, "Must be a string."))
        return
    if len(value) > maximum:
        problems.append((path, f"Must be {maximum} or fewer in length."))
    if len(value) < minimum:
        problems.append((path, f"Must be {minimum} or more in length."))


def check_embeds(embeds: Any) -> list[Problem]:
    problems: list[Problem] = []
    if embeds is None:
        return problems
    if not isinstance(embeds, list):
        return [("embeds", "Must be an array.")]
    if len(embeds) > 10:
        problems.append(("embeds", "Must be 10 or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        p = f"embeds.{i}"
        if not isinstance(embed, dict):
            problems.append((p, "Must be an object."))
            continue
        _len_check(problems, f"{p}.title", embed.get("title"), 256)
        _len_check(problems, f"{p}.description", embed.get("description"), 4096)
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{p}.fields", "Must be 25 or fewer in length."))
        for j, fld in enumerate(fields):
            _len_check(problems, f"{p}.fields.{j}.name", fld.get("name"), 256, 1)
            _len_check(problems, f"{p}.fields.{j}.value", fld.get("value"), 1024, 1)
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer = embed.get("footer") or {}
        _len_check(problems, f"{p}.footer.text", footer.get("text"), 2048)
        total += len(footer.get("text") or "")
        author = embed.get("author") or {}
        _len_check(problems, f"{p}.author.name", author.get("name"), 256)
        total += len(author.get("name") or "")
    if total > 6000:
        problems.append(("embeds", "Embed size exceeds maximum size of 6000"))
    return problems


def _check_button(problems: list[Problem], p: str, comp: dict[str, Any]) -> None:
    style = comp.get("style")
    if style in BUTTON_STYLES_WITH_CUSTOM_ID:
        if not comp.get("custom_id"):
            problems.append((f"{p}.custom_id", "A custom id is required"))
        if comp.get("url"):
            problems.append((f"{p}.url", "A url cannot be specified"))
    elif style == 5:
        if not comp.get("url"):
            problems.append((f"{p}.url", "A url is required"))
        if comp.get("custom_id"):
            problems.append((f"{p}.custom_id", "A custom id cannot be specified"))
    elif style != 6:
        problems.append((f"{p}.style", f"Value must be one of {{1, 2, 3, 4, 5, 6}}. (got {style!r})"))
    _len_check(problems, f"{p}.label", comp.get("label"), 80)
    if not comp.get("label") and not comp.get("emoji") and style != 6:
        problems.append((p, "A button needs a label or an emoji"))


def _check_select(problems: list[Problem], p: str, comp: dict[str, Any]) -> None:
    _len_check(problems, f"{p}.placeholder", comp.get("placeholder"), 150)
    min_values = comp.get("min_values", 1)
    max_values = comp.get("max_values", 1)
    if not 0 <= min_values <= 25:
        problems.append((f"{p}.min_values", "Must be between 0 and 25."))
    if not 1 <= max_values <= 25:
        problems.append((f"{p}.max_values", "Must be between 1 and 25."))
    if min_values > max_values:
        problems.append((f"{p}.min_values", "Must be less than or equal to max_values."))
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append((f"{p}.options", "Must be between 1 and 25 in length."))
        if max_values > len(options) and options:
            problems.append((f"{p}.max_values", f"Must be less than or equal to {len(options)}."))
        seen: set[str] = set()
        for k, opt in enumerate(options):
            _len_check(problems, f"{p}.options.{k}.label", opt.get("label"), 100, 1)
            _len_check(problems, f"{p}.options.{k}.value", opt.get("value"), 100, 1)
            _len_check(problems, f"{p}.options.{k}.description", opt.get("description"), 100)
            if opt.get("value") in seen:
                problems.append((f"{p}.options.{k}.value", "Select option values must be unique"))
            seen.add(opt.get("value"))


def check_components(components: Any, flags: int) -> list[Problem]:
    problems: list[Problem] = []
    if components is None:
        return problems
    if not isinstance(components, list):
        return [("components", "Must be an array.")]
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if not v2:
        if len(components) > 5:
            problems.append(("components", "Must be 5 or fewer in length."))
        for i, row in enumerate(components):
            p = f"components.{i}"
            if row.get("type") != 1:
                problems.append((f"{p}.type", "Top-level components must be action rows (type 1)"))
                continue
            children = row.get("components") or []
            if not children:
                problems.append((f"{p}.components", "Must be between 1 and 5 in length."))
            kinds = {c.get("type") for c in children}
            if kinds & SELECT_TYPES and len(children) != 1:
                problems.append((f"{p}.components", "A select menu must be alone in its action row"))
            if len(children) > 5:
                problems.append((f"{p}.components", "Must be 5 or fewer in length."))
    elif sum(1 for _ in walk_components(components)) > 40:
        problems.append(("components", "Must be 40 or fewer in total."))

    custom_ids: set[str] = set()
    for idx, comp in enumerate(walk_components(components)):
        p = f"components[{idx}]"
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            _len_check(problems, f"{p}.custom_id", custom_id, 100, 1)
            if custom_id in custom_ids:
                problems.append(
                    (f"{p}.custom_id", f"Component custom id cannot be duplicated ({custom_id!r})")
                )
            custom_ids.add(custom_id)
        if comp.get("type") == 2:
            _check_button(problems, p, comp)
        elif comp.get("type") in SELECT_TYPES:
            _check_select(problems, p, comp)
    return problems


def check_message(payload: dict[str, Any], *, flags: int) -> list[Problem]:
    """Validate the parts of a message create/edit payload that are present."""
    problems: list[Problem] = []
    content = payload.get("content")
    if content is not None:
        _len_check(problems, "content", content, 2000)
    problems += check_embeds(payload.get("embeds"))
    problems += check_components(payload.get("components"), flags)
    if flags & FLAG_COMPONENTS_V2 and (payload.get("content") or payload.get("embeds")):
        problems.append(("content", "Cannot send content or embeds with the IS_COMPONENTS_V2 flag"))
    return problems


def is_empty_message(
    content: str | None, embeds: Any, components: Any, attachments: Any, extra: dict[str, Any]
) -> bool:
    return not (
        content or embeds or components or attachments or extra.get("sticker_ids") or extra.get("poll")
    )


def check_choices(choices: Any) -> list[Problem]:
    problems: list[Problem] = []
    if not isinstance(choices, list):
        return [("data.choices", "Must be an array.")]
    if len(choices) > 25:
        problems.append(("data.choices", "Must be 25 or fewer in length."))
    for i, choice in enumerate(choices):
        _len_check(problems, f"data.choices.{i}.name", choice.get("name"), 100, 1)
        value = choice.get("value")
        if isinstance(value, str):
            _len_check(problems, f"data.choices.{i}.value", value, 100)
    return problems


def check_modal(data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    _len_check(problems, "data.title", data.get("title"), 45, 1)
    _len_check(problems, "data.custom_id", data.get("custom_id"), 100, 1)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        problems.append(("data.components", "Must be between 1 and 5 in length."))
    for idx, comp in enumerate(walk_components(comps)):
        if comp.get("type") == 4:
            _len_check(problems, f"data.components[{idx}].label", comp.get("label"), 45)
        if comp.get("type") == 18:
            _len_check(problems, f"data.components[{idx}].label", comp.get("label"), 45, 1)
    return problems


def form_error(problems: list[Problem]) -> dict[str, Any]:
    """Render problems as Discord's nested ``errors`` object."""
    errors: dict[str, Any] = {}
    for path, message in problems:
        node = errors
        for part in path.replace("[", ".").replace("]", "").split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "INVALID_FORM_BODY", "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}

"""Discord's validation rules for what the bot sends: message payloads (content, embeds,
components, allowed mentions, files), modals, autocomplete choices and application command
definitions, each rule as Discord's documentation states it, and Discord's error body for a
breach."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from .protocol import (
    IS_COMPONENTS_V2,
    MAX_ACTION_ROWS,
    MAX_BUTTONS_PER_ROW,
    MAX_CHOICES,
    MAX_CONTENT,
    MAX_CUSTOM_ID,
    MAX_EMBED_TOTAL,
    MAX_EMBEDS,
    MAX_FILES,
    MAX_V2_COMPONENTS,
    SELECT_TYPES,
)
from .records import Upload


class Problem(NamedTuple):
    """One breach of Discord's rules in a payload.

    ``kind`` names the violation for tests (``components``, ``custom_id``,
    ``content_length``, ``embeds``, ``mentions`` ...); ``detail`` says what is
    wrong; ``path`` is where, as Discord's error body names it (``components.0.
    components.1.custom_id``); ``code`` and ``message`` are Discord's own error
    code and sentence for it (``BASE_TYPE_MAX_LENGTH``, ``COMPONENT_CUSTOM_ID_DUPLICATED``).
    """

    kind: str
    detail: str
    path: tuple[str | int, ...] = ()
    code: str = "BASE_TYPE_INVALID"
    message: str = "Invalid Form Body"


def _too_long(
    kind: str, path: tuple[str | int, ...], what: str, value: Any, limit: int, least: int = 0
) -> list[Problem]:
    """Discord's length rule for a string: ``least``..``limit`` characters."""
    if value is None and least == 0:
        return []
    if value is None:
        return [
            Problem(
                kind, f"{what} is missing", path, "BASE_TYPE_REQUIRED", "This field is required"
            )
        ]
    if not isinstance(value, str):
        return [Problem(kind, f"{what} is not a string", path, "STRING_TYPE_CONVERT")]
    if len(value) > limit:
        return [
            Problem(
                kind,
                f"{what} has {len(value)} characters (max {limit}): {value[:30]!r}",
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer in length.",
            )
        ]
    if len(value) < least:
        return [
            Problem(
                kind,
                f"{what} has {len(value)} characters (min {least})",
                path,
                "BASE_TYPE_MIN_LENGTH" if least > 1 else "BASE_TYPE_REQUIRED",
                f"Must be {least} or more in length." if least > 1 else "This field is required",
            )
        ]
    return []


def _count(
    kind: str, path: tuple[str | int, ...], what: str, n: int, least: int, most: int
) -> list[Problem]:
    """Discord's length rule for a list: ``least``..``most`` items."""
    if least <= n <= most:
        return []
    sentence = (
        f"Must be {most} or fewer in length."
        if least == 0
        else f"Must be between {least} and {most} in length."
    )
    return [
        Problem(
            kind, f"{what}: {n} (allowed {least}..{most})", path, "BASE_TYPE_BAD_LENGTH", sentence
        )
    ]


def check_embeds(embeds: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """Check Discord's embed limits (10 embeds; title 256, description 4,096, 25 fields of
    name 256 and value 1,024, footer 2,048, author 256; 6,000 characters in all)."""
    problems = _count("embeds", ("embeds",), "embeds", len(embeds), 0, MAX_EMBEDS)
    total = 0

    def measure(
        path: tuple[str | int, ...], what: str, value: Any, limit: int, least: int = 0
    ) -> None:
        nonlocal total
        if value is not None:
            total += len(str(value))
        problems.extend(_too_long("embeds", path, what, value, limit, least))

    for i, embed in enumerate(embeds):
        at: tuple[str | int, ...] = ("embeds", i)
        measure((*at, "title"), f"embed {i} title", embed.get("title"), 256)
        measure((*at, "description"), f"embed {i} description", embed.get("description"), 4096)
        fields_ = embed.get("fields") or []
        problems.extend(_count("embeds", (*at, "fields"), f"embed {i} fields", len(fields_), 0, 25))
        for j, fld in enumerate(fields_):
            here = (*at, "fields", j)
            measure((*here, "name"), f"embed {i} field {j} name", fld.get("name"), 256, 1)
            measure((*here, "value"), f"embed {i} field {j} value", fld.get("value"), 1024, 1)
        footer = (embed.get("footer") or {}).get("text")
        measure((*at, "footer", "text"), f"embed {i} footer", footer, 2048)
        author = (embed.get("author") or {}).get("name")
        measure((*at, "author", "name"), f"embed {i} author", author, 256)
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                "embeds",
                f"embeds total {total} characters (max {MAX_EMBED_TOTAL})",
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return problems


def _check_row(row: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """An action row: 1..5 buttons, or one select alone."""
    children = row.get("components") or []
    where = "action row " + ".".join(str(p) for p in at)
    problems = _count(
        "components",
        (*at, "components"),
        f"{where} components",
        len(children),
        1,
        MAX_BUTTONS_PER_ROW,
    )
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    others = [c.get("type") for c in children if c.get("type") not in SELECT_TYPES | {2}]
    if others:
        problems.append(
            Problem(
                "components",
                f"{where} holds component types {others}",
                (*at, "components"),
                "COMPONENT_TYPE_INVALID",
                "Component type not allowed in an action row",
            )
        )
    if selects and len(children) > 1:
        problems.append(
            Problem(
                "components",
                f"{where} mixes a select with other components",
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        )
    return problems


def _check_button(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """A button: a known style; a label (<= 80) or an emoji; a custom_id, or for a link button
    a url (<= 512) and no custom_id, or for a premium button only a sku_id."""
    style = comp.get("style")
    label = comp.get("label")
    problems = _too_long("components", (*at, "label"), "button label", label, 80)
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(
            Problem(
                "components",
                f"button style {style!r}",
                (*at, "style"),
                "ENUM_TYPE_COERCE",
                f'Value "{style}" is not a valid enum value.',
            )
        )
    if style == 6:
        if not comp.get("sku_id") or any(
            comp.get(k) for k in ("custom_id", "url", "label", "emoji")
        ):
            problems.append(
                Problem(
                    "components",
                    "premium button needs a sku_id and nothing else",
                    at,
                    "BUTTON_COMPONENT_INVALID_PREMIUM",
                    "A premium button takes only a sku_id",
                )
            )
        return problems
    if not label and not comp.get("emoji"):
        problems.append(
            Problem(
                "components",
                "button without label or emoji",
                at,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )
    if style == 5:
        if comp.get("custom_id") is not None:
            problems.append(
                Problem(
                    "components",
                    "link button with a custom_id",
                    (*at, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
            )
        problems += _too_long(
            "components", (*at, "url"), "link button url", comp.get("url"), 512, 1
        )
    elif comp.get("custom_id") is None:
        problems.append(
            Problem(
                "custom_id",
                f"button {label!r} has no custom_id",
                (*at, "custom_id"),
                "BASE_TYPE_REQUIRED",
                "This field is required",
            )
        )
    elif comp.get("url") is not None:
        problems.append(
            Problem(
                "components",
                "a url on a button that is not a link",
                (*at, "url"),
                "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                "Only a link button has a url",
            )
        )
    return problems


def _check_options(comp: Mapping[str, Any], at: tuple[str | int, ...], most: int) -> list[Problem]:
    """A string select's options: 1..25, labels and values 1..100, descriptions <= 100, values
    unique, no more preselected than may be chosen."""
    options = comp.get("options") or []
    problems = _count("components", (*at, "options"), "string select options", len(options), 1, 25)
    seen: set[str] = set()
    for k, opt in enumerate(options):
        here = (*at, "options", k)
        problems += _too_long(
            "components", (*here, "label"), "select option label", opt.get("label"), 100, 1
        )
        problems += _too_long(
            "components", (*here, "value"), "select option value", opt.get("value"), 100, 1
        )
        problems += _too_long(
            "components",
            (*here, "description"),
            "select option description",
            opt.get("description"),
            100,
        )
        value = opt.get("value")
        if value in seen:
            problems.append(
                Problem(
                    "components",
                    f"string select has the option value {value!r} twice",
                    (*here, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique",
                )
            )
        seen.add(value)
    defaults = sum(1 for o in options if o.get("default"))
    if defaults > most:
        problems.append(
            Problem(
                "components",
                f"{defaults} options preselected but max_values is {most}",
                (*at, "options"),
                "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                "More default values than max_values",
            )
        )
    return problems


def _check_select(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    """A select: a custom_id, placeholder <= 150, 0 <= min_values <= max_values <= 25, and for a
    string select its options (within min and max values)."""
    problems: list[Problem] = []
    if comp.get("custom_id") is None:
        problems.append(
            Problem(
                "custom_id",
                "select without custom_id",
                (*at, "custom_id"),
                "BASE_TYPE_REQUIRED",
                "This field is required",
            )
        )
    problems += _too_long(
        "components", (*at, "placeholder"), "select placeholder", comp.get("placeholder"), 150
    )
    min_v, max_v = comp.get("min_values", 1), comp.get("max_values", 1)
    if not (
        isinstance(min_v, int)
        and isinstance(max_v, int)
        and 0 <= min_v <= 25
        and 1 <= max_v <= 25
        and min_v <= max_v
    ):
        problems.append(
            Problem(
                "components",
                f"select min_values={min_v} max_values={max_v} invalid",
                (*at, "min_values"),
                "BASE_TYPE_BAD_INT",
                "min_values must be 0..25, max_values 1..25 and not below min_values",
            )
        )
        return problems
    if comp.get("type") == 3:
        n = len(comp.get("options") or [])
        if max_v > n or min_v > n:
            problems.append(
                Problem(
                    "components",
                    f"select min_values {min_v} / max_values {max_v} > {n} options",
                    (*at, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                    "max_values exceeds the number of options",
                )
            )
        problems += _check_options(comp, at, max_v)
    else:
        defaults = comp.get("default_values") or []
        problems += _count(
            "components",
            (*at, "default_values"),
            "select default values",
            len(defaults),
            min_v if defaults else 0,
            max_v,
        )
    return problems


def _check_item(comp: Mapping[str, Any], at: tuple[str | int, ...]) -> list[Problem]:
    ctype = comp.get("type")
    if ctype == 2:
        return _check_button(comp, at)
    if ctype in SELECT_TYPES:
        return _check_select(comp, at)
    if ctype == 4:
        return [
            Problem(
                "components",
                "text inputs are only allowed in modals",
                at,
                "COMPONENT_TYPE_INVALID",
                "Text inputs are only allowed in modals",
            )
        ]
    return []


def _walk(
    components: Sequence[Mapping[str, Any]], at: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    """Every component with its path, depth first (as :func:`iter_components` orders them)."""
    for i, comp in enumerate(components):
        here = (*at, i)
        yield here, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from _walk(children, (*here, "components"))
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from _walk([child], (*here, key))


def check_components(components: Sequence[Mapping[str, Any]], flags: int = 0) -> list[Problem]:
    """Check Discord's component rules for a message: <= 5 action rows (components v2: <= 40
    components), each with 1..5 buttons or one select alone, every button and select as
    :func:`_check_button` / :func:`_check_select` say, custom_ids of 1..100 characters and
    unique in the message, numeric component ids unique."""
    problems: list[Problem] = []
    everything = list(_walk(components, ("components",)))
    if flags & IS_COMPONENTS_V2:
        problems += _count(
            "components", ("components",), "components", len(everything), 0, MAX_V2_COMPONENTS
        )
        for at, comp in everything:
            if comp.get("type") == 1:
                problems += _check_row(comp, at)
    else:
        problems += _count(
            "components", ("components",), "action rows", len(components), 0, MAX_ACTION_ROWS
        )
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(
                    Problem(
                        "components",
                        f"top-level component {i} is type {row.get('type')}, not an action row",
                        ("components", i, "type"),
                        "UNION_TYPE_CHOICES",
                        "Top-level components of a message must be action rows",
                    )
                )
            else:
                problems += _check_row(row, ("components", i))
    seen: set[str] = set()
    ids: set[int] = set()
    for at, comp in everything:
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                problems.append(
                    Problem(
                        "custom_id",
                        f"custom_id of {len(str(custom_id))} characters (1..{MAX_CUSTOM_ID}): {str(custom_id)[:40]!r}",
                        (*at, "custom_id"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {MAX_CUSTOM_ID} in length.",
                    )
                )
            elif custom_id in seen:
                problems.append(
                    Problem(
                        "custom_id",
                        f"duplicate custom_id {custom_id!r}",
                        (*at, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(str(custom_id))
        number = comp.get("id")
        if number is not None:
            if number in ids:
                problems.append(
                    Problem(
                        "components",
                        f"duplicate component id {number}",
                        (*at, "id"),
                        "COMPONENT_ID_DUPLICATED",
                        "Component id cannot be duplicated",
                    )
                )
            ids.add(number)
        problems += _check_item(comp, at)
    return problems


def check_allowed_mentions(mentions: Any) -> list[Problem]:
    """``allowed_mentions``: ``parse`` of users/roles/everyone, at most 100 user and 100 role
    ids, and never ``parse: users`` together with a ``users`` list (nor roles with roles)."""
    if mentions is None:
        return []
    at: tuple[str | int, ...] = ("allowed_mentions",)
    if not isinstance(mentions, Mapping):
        return [
            Problem(
                "mentions",
                "allowed_mentions is not an object",
                at,
                "DICT_TYPE_CONVERT",
                "Must be an object",
            )
        ]
    problems: list[Problem] = []
    parse = mentions.get("parse") or []
    bad = [p for p in parse if p not in ("users", "roles", "everyone")]
    if bad:
        problems.append(
            Problem(
                "mentions",
                f"allowed_mentions.parse has {bad}",
                (*at, "parse"),
                "ENUM_TYPE_COERCE",
                f'Value "{bad[0]}" is not a valid enum value.',
            )
        )
    for key in ("users", "roles"):
        listed = mentions.get(key) or []
        problems += _count("mentions", (*at, key), f"allowed_mentions.{key}", len(listed), 0, 100)
        if listed and key in parse:
            problems.append(
                Problem(
                    "mentions",
                    f"allowed_mentions parses {key} and lists {key}",
                    at,
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{key}"] and {key}: [ids] are mutually exclusive.',
                )
            )
    return problems


def check_message_payload(
    payload: Mapping[str, Any],
    uploads: Sequence[Upload],
    *,
    size_limit: int,
    creating: bool,
) -> list[Problem]:
    """Check a message create/edit payload against Discord's limits."""
    content = payload.get("content")
    problems = _too_long("content_length", ("content",), "content", content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    problems += check_embeds(embeds)
    flags = payload.get("flags") or 0
    components = payload.get("components") or []
    if components:
        problems += check_components(components, flags)
    problems += check_allowed_mentions(payload.get("allowed_mentions"))
    if flags & IS_COMPONENTS_V2 and (content or embeds):
        problems.append(
            Problem(
                "components",
                "an IS_COMPONENTS_V2 message cannot have content or embeds",
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    if len(uploads) > MAX_FILES:
        problems.append(
            Problem(
                "attachments",
                f"{len(uploads)} files (max {MAX_FILES})",
                ("attachments",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be {MAX_FILES} or fewer in length.",
            )
        )
    for up in uploads:
        if len(up.data) > size_limit:
            problems.append(
                Problem(
                    "attachments", f"{up.filename} is {len(up.data)} bytes (limit {size_limit})"
                )
            )
    if creating and not (
        content
        or embeds
        or uploads
        or components
        or payload.get("poll")
        or payload.get("sticker_ids")
    ):
        problems.append(Problem("empty_message", "Cannot send an empty message"))
    return problems


def check_modal(data: Mapping[str, Any]) -> list[Problem]:
    """Check a modal (callback type 9)."""
    problems = _too_long("modal", ("title",), "modal title", data.get("title") or "", 45, 1)
    problems += _too_long(
        "custom_id",
        ("custom_id",),
        "modal custom_id",
        data.get("custom_id") or "",
        MAX_CUSTOM_ID,
        1,
    )
    top = data.get("components") or []
    problems += _count("modal", ("components",), "modal top-level components", len(top), 1, 5)
    for at, comp in _walk(top, ("components",)):
        if comp.get("type") == 4:
            problems += _too_long(
                "custom_id",
                (*at, "custom_id"),
                "text input custom_id",
                comp.get("custom_id"),
                MAX_CUSTOM_ID,
            )
            problems += _too_long(
                "modal", (*at, "label"), "text input label", comp.get("label"), 45
            )
            problems += _too_long(
                "modal", (*at, "value"), "text input value", comp.get("value"), 4000
            )
            problems += _too_long(
                "modal",
                (*at, "placeholder"),
                "text input placeholder",
                comp.get("placeholder"),
                100,
            )
        if comp.get("type") == 18:
            problems += _too_long("modal", (*at, "label"), "label", comp.get("label"), 45)
    return problems


def check_choices(choices: Any) -> list[Problem]:
    """Check autocomplete choices (callback type 8): at most 25, names 1..100, string values <= 100."""
    if not isinstance(choices, list):
        return [
            Problem(
                "autocomplete",
                f"choices must be a list, got {type(choices).__name__}",
                ("choices",),
            )
        ]
    problems = _count("autocomplete", ("choices",), "choices", len(choices), 0, MAX_CHOICES)
    for i, choice in enumerate(choices):
        problems += _too_long(
            "autocomplete", ("choices", i, "name"), "choice name", choice.get("name") or "", 100, 1
        )
        value = choice.get("value")
        if isinstance(value, str):
            problems += _too_long(
                "autocomplete", ("choices", i, "value"), "choice value", value, 100
            )
    return problems


def errors_body(problems: Sequence[Problem], prefix: tuple[str | int, ...] = ()) -> dict[str, Any]:
    """Discord's ``errors`` object for ``problems``: nested by path, ``_errors`` at each leaf
    (``{"components": {"0": {"components": {"1": {"custom_id": {"_errors": [...]}}}}}}``);
    interaction callbacks put it under ``data``."""
    body: dict[str, Any] = {}
    for p in problems:
        node = body
        for part in (*prefix, *p.path):
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return body


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def check_command_definition(cmd: Mapping[str, Any]) -> list[str]:
    """Check an application command definition the way Discord does on sync."""
    problems: list[str] = []
    ctype = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if ctype == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"command name {name!r} must be 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(cmd.get("description") or "") <= 100:
            problems.append(f"/{name}: description must be 1-100 characters")
        problems += _check_option_list(cmd.get("options") or [], f"/{name}", depth=0)
    elif not 1 <= len(name) <= 32:
        problems.append(f"context menu name {name!r} must be 1-32 characters")
    return problems


def _check_option_list(options: Sequence[Mapping[str, Any]], where: str, depth: int) -> list[str]:
    """A list of options: at most 25, subcommands not mixed with values, names unique, each
    option well named and described, required values before optional ones."""
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (max 25)")
    subs = [o for o in options if o.get("type") in (1, 2)]
    if subs and len(subs) != len(options):
        problems.append(f"{where}: mixes subcommands with plain options")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names")
    seen_optional = False
    for opt in options:
        name = opt.get("name") or ""
        here = f"{where} {name}"
        otype = opt.get("type")
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"{here}: option name must be 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"{here}: description must be 1-100 characters")
        if otype == 2:
            if depth > 0:
                problems.append(f"{here}: subcommand groups cannot be nested")
            if any(o.get("type") != 1 for o in opt.get("options") or []):
                problems.append(f"{here}: a subcommand group may only hold subcommands")
            problems += _check_option_list(opt.get("options") or [], here, depth + 1)
        elif otype == 1:
            problems += _check_option_list(opt.get("options") or [], here, depth + 1)
        else:
            if opt.get("required") and seen_optional:
                problems.append(f"{here}: required options must come before optional ones")
            seen_optional = seen_optional or not opt.get("required")
            problems += _check_value_choices(opt, here)
    return problems


def _check_value_choices(opt: Mapping[str, Any], here: str) -> list[str]:
    """A value option's choices: at most 25, not with autocomplete, names 1..100 characters,
    string values at most 100."""
    problems: list[str] = []
    choices = opt.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(f"{here}: {len(choices)} choices (max 25)")
    if choices and opt.get("autocomplete"):
        problems.append(f"{here}: autocomplete and choices are mutually exclusive")
    for choice in choices:
        if not 1 <= len(choice.get("name") or "") <= 100:
            problems.append(f"{here}: choice name must be 1-100 characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"{here}: choice value longer than 100")
    return problems

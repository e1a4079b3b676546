"""Decoding of Vassal piece definitions: the trait chain and its states.

A piece's *type* is a chain of traits, outermost first, joined by tabs with the
sequence encoding (each level escaping the one it wraps); the innermost is the
basic piece ``piece;cloneKey;deleteKey;image;name``. Its *state* has the same
shape, one state per trait. Each trait starts with an identifier such as
``emb2;`` (layer) or ``mark;`` (marker); the identifier is followed by the
trait's own fields, usually ``;``-separated.

Traits this module knows get named fields; every other trait (custom classes
included) is kept whole with its identifier and text, never dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rulebook2game.vassal.sequence import SequenceDecoder, decode, split_nested

FieldValue = str | list[str]
"""A decoded field: one string, or a list (images, level names, property names)."""


@dataclass(frozen=True)
class Trait:
    """One trait of a piece, outermost first in a chain."""

    kind: str
    """The identifier without its separator: ``piece``, ``emb2``, ``mark``, ``prototype``..."""
    label: str
    """A human name for the kind: "Layer", "Marker", ...; "Unknown trait" when not known."""
    known: bool
    """Whether the kind was recognised and its fields named."""
    raw: str
    """The trait's own type text, exactly as stored."""
    fields: dict[str, FieldValue] = field(default_factory=dict)
    """Named fields with a value (empty ones are left out)."""
    state: str | None = None
    """The trait's own state text, when a state was given."""
    via: str | None = None
    """For a trait that came from a prototype, the prototype names from the piece down."""


# Identifier -> (label, names of the leading ';'-separated fields). Fields after the
# named ones stay in ``raw``. Kinds with a layout of their own are decoded below.
_SIMPLE_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "label": (
        "Text label",
        (
            "key",
            "command",
            "font_size",
            "background",
            "foreground",
            "vertical_position",
            "vertical_offset",
            "horizontal_position",
            "horizontal_offset",
            "vertical_justify",
            "horizontal_justify",
            "format",
            "font_family",
            "font_style",
            "rotate",
            "property_name",
            "description",
        ),
    ),
    "report": (
        "Report action",
        ("keys", "format", "cycle_down_keys", "cycle_formats", "description"),
    ),
    "PROP": ("Dynamic property", ("name", "constraints", "commands", "description")),
    "calcProp": ("Calculated property", ("name", "expression", "description")),
    "setprop": ("Set global property", ("name", "constraints", "commands", "description")),
    "setpieceprop": ("Set piece property", ("name", "constraints", "commands", "description")),
    "hide": (
        "Invisible",
        ("key", "command", "background", "access", "transparency", "description"),
    ),
    "obs": (
        "Mask",
        (
            "key",
            "image",
            "command",
            "display_style",
            "mask_name",
            "access",
            "peek_command",
            "description",
        ),
    ),
    "delete": ("Delete", ("command", "key", "description")),
    "clone": ("Clone", ("command", "key", "description")),
    "sendto": (
        "Send to location",
        (
            "command",
            "key",
            "map",
            "board",
            "x",
            "y",
            "back_command",
            "back_key",
            "x_index",
            "y_index",
            "x_offset",
            "y_offset",
            "description",
            "destination",
            "zone",
            "region",
            "property_filter",
            "grid_location",
        ),
    ),
    "macro": (
        "Trigger action",
        ("name", "command", "key", "property_match", "watch_keys", "action_keys"),
    ),
    "rotate": ("Can rotate", ("angles",)),
    "pivot": (
        "Can pivot",
        ("command", "key", "pivot_x", "pivot_y", "fixed_angle", "angle", "description"),
    ),
    "propertysheet": ("Property sheet", ("definition", "command")),
    "restrict": (
        "Restricted access",
        ("sides", "restrict_by_player", "restrict_movement", "description"),
    ),
    "placemark": (
        "Place marker",
        (
            "command",
            "key",
            "marker_spec",
            "marker_text",
            "x_offset",
            "y_offset",
            "match_rotation",
            "after_key",
            "description",
        ),
    ),
    "replace": (
        "Replace with other",
        (
            "command",
            "key",
            "marker_spec",
            "marker_text",
            "x_offset",
            "y_offset",
            "match_rotation",
            "after_key",
            "description",
        ),
    ),
    "return": ("Return to deck", ("command", "key", "deck", "prompt", "description")),
    "basicName": ("Basic name", ("name",)),
    "cmt": ("Comment", ("comment",)),
    "markmoved": (
        "Mark when moved",
        ("image", "x_offset", "y_offset", "command", "key", "description"),
    ),
    "globalkey": (
        "Global key command",
        (
            "command",
            "key",
            "global_key",
            "filter",
            "restrict_range",
            "range",
            "report_single",
            "fixed_range",
            "range_property",
            "description",
        ),
    ),
    "globalhotkey": ("Global hotkey", ("command", "key", "hotkey", "description")),
    "translate": (
        "Move fixed distance",
        (
            "command",
            "key",
            "x_distance",
            "y_distance",
            "move_stack",
            "x_index",
            "y_index",
            "x_offset",
            "y_offset",
            "description",
        ),
    ),
    "nonRect2": ("Non-rectangular", ("scale", "shape")),
    "hideCmd": ("Restrict commands", ("name", "action", "property_match", "watch_keys")),
    "submenu": ("Sub-menu", ("command", "commands", "description")),
    "menuSeparator": ("Menu separator", ("description",)),
    "table": ("Spreadsheet", ("rows", "columns", "command", "key", "description")),
    "AreaOfEffect": (
        "Area of effect",
        (
            "color",
            "transparency",
            "radius",
            "always_active",
            "command",
            "key",
            "shader",
            "fixed_radius",
            "radius_marker",
            "description",
            "name",
        ),
    ),
    "footprint": ("Movement trail", ("key", "command")),
    "mat": ("Mat", ("name", "description")),
    "matPiece": ("Mat cargo", ("description",)),
    "locmsg": ("Translatable message", ("key", "description", "message")),
    "playSound": ("Play sound", ("sound", "command", "key", "send_to_others", "description")),
    "button": ("Action button", ("key", "x", "y", "width", "height", "description")),
    "deselect": ("Deselect", ("command", "key", "description")),
    "border": ("Border outline", ("property_name", "description", "thickness", "color")),
    "attach": ("Attachment", ("name", "description", "command", "key")),
    "locCommand": (
        "Multi-location command",
        ("description", "location_type", "filter", "command", "key"),
    ),
}

_COMMAND_FIELDS = ("command", "back_command")


def split_chain(text: str) -> list[str]:
    """Split a piece's type (or state) into one text per trait, outermost first.

    Mirrors Vassal: the first token is this trait, the second is everything it
    wraps, unescaped one level; a chain without a tab is the innermost piece.
    """
    return split_nested(text, "\t")


def parse_chain(type_text: str, state_text: str | None = None) -> list[Trait]:
    """Decode a piece's type, with its state when given, into traits, outermost first."""
    types = split_chain(type_text)
    states: list[str | None] = list(split_chain(state_text)) if state_text is not None else []
    states += [None] * (len(types) - len(states))
    return [parse_trait(t, s) for t, s in zip(types, states, strict=False)]


def parse_trait(raw: str, state: str | None = None) -> Trait:
    """Decode one trait's type text (and its state, when given)."""
    kind, _, body = raw.partition(";")
    special = _SPECIAL_KINDS.get(kind)
    if special is not None:
        label, fields = special(body, state)
        return Trait(kind, label, True, raw, _drop_empty(fields), state)
    if kind in _SIMPLE_KINDS:
        label, names = _SIMPLE_KINDS[kind]
        values = decode(body, ";") if body else []
        return Trait(
            kind, label, True, raw, _drop_empty(dict(zip(names, values, strict=False))), state
        )
    return Trait(kind or raw, "Unknown trait", False, raw, {}, state)


def resolve_prototypes(
    traits: list[Trait], prototypes: Mapping[str, list[Trait]], via: str | None = None
) -> list[Trait]:
    """Expand every prototype reference into the prototype's traits, recursively.

    The reference itself stays in the chain (so the piece's own definition can
    be read back) and is followed by the prototype's traits, each marked with
    ``via``. A prototype's placeholder basic piece is left out. A missing
    prototype, or one that refers to itself through others, is flagged on the
    reference (field ``unresolved``) instead of failing.
    """
    resolved: list[Trait] = []
    for trait in traits:
        if trait.kind != "prototype":
            resolved.append(trait)
            continue
        name = str(trait.fields.get("name", ""))
        path = f"{via} > {name}" if via else name
        seen = via.split(" > ") if via else []
        if name in seen:
            resolved.append(_flag(trait, "refers to itself"))
        elif name not in prototypes:
            resolved.append(_flag(trait, "no such prototype"))
        else:
            resolved.append(trait)
            inner = [t for t in prototypes[name] if t.kind != "piece"]
            expanded = resolve_prototypes(inner, prototypes, path)
            resolved.extend(t if t.via else replace(t, via=path) for t in expanded)
    return resolved


def basic_piece(traits: list[Trait]) -> Trait | None:
    """The innermost basic piece of a chain, if it has one."""
    for trait in reversed(traits):
        if trait.kind == "piece":
            return trait
    return None


def display_name(traits: list[Trait]) -> str:
    """The name Vassal shows for a chain in its current state.

    Starts from the basic piece (or a Basic Name trait) and lets each active
    layer with a level name replace it, or add to it: a level name ``+ x``
    appends, ``x +`` prepends.
    """
    name = ""
    for trait in reversed(traits):
        if trait.kind in ("piece", "deck"):
            name = str(trait.fields.get("name", ""))
        elif trait.kind == "basicName":
            name = str(trait.fields.get("name", name))
        elif trait.kind in ("emb2", "emb"):
            name = _layer_name(trait, name)
    return name


def _layer_name(trait: Trait, inner: str) -> str:
    level_text = str(trait.fields.get("level", ""))
    names = trait.fields.get("level_names", [])
    try:
        level = int(level_text)
    except ValueError:
        return inner
    if not isinstance(names, list) or not 0 < level <= len(names) or not names[level - 1]:
        return inner
    parts = decode(names[level - 1], "+")
    if len(parts) == 1:
        return parts[0]
    return inner + parts[1] if parts[0] == "" else parts[0] + inner


def piece_images(traits: list[Trait]) -> list[str]:
    """Every image a chain can show: the basic piece's, then each layer's."""
    images: list[str] = []
    basic = basic_piece(traits)
    if basic and basic.fields.get("image"):
        images.append(str(basic.fields["image"]))
    for trait in traits:
        value = trait.fields.get("images")
        if isinstance(value, list):
            images.extend(i for i in value if i and i not in images)
    return images


def piece_properties(traits: list[Trait]) -> dict[str, str]:
    """Named properties a chain declares (markers, dynamic properties) with their values."""
    properties: dict[str, str] = {}
    for trait in traits:
        if trait.kind == "mark":
            keys = trait.fields.get("properties", [])
            values = decode(trait.state, ",") if trait.state else []
            for i, key in enumerate(keys if isinstance(keys, list) else []):
                properties.setdefault(key, values[i] if i < len(values) else "")
        elif trait.kind in ("PROP", "calcProp") and trait.fields.get("name"):
            value = trait.state if trait.kind == "PROP" else trait.fields.get("expression", "")
            properties.setdefault(str(trait.fields["name"]), str(value or ""))
    return properties


def piece_commands(traits: list[Trait]) -> list[str]:
    """The right-click menu commands a chain offers, in menu order, without repeats."""
    commands: list[str] = []
    for trait in traits:
        for name in _COMMAND_FIELDS:
            value = trait.fields.get(name)
            if isinstance(value, str) and value and value not in commands:
                commands.append(value)
        levels = trait.fields.get("layer_commands")
        if isinstance(levels, list):
            commands.extend(c for c in levels if c and c not in commands)
    return commands


def _basic(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    values = decode(body, ";") if body else []
    names = ("clone_key", "delete_key", "image", "name")
    fields: dict[str, FieldValue] = dict(zip(names, values, strict=False))
    if state is not None:
        place = SequenceDecoder(state, ";")
        fields["map"] = place.next("null")
        fields["x"] = place.next("0")
        fields["y"] = place.next("0")
    return "Basic piece", fields


def _layer(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    d = SequenceDecoder(body, ";")
    commands = [d.next("")]
    for index in range(1, 15):
        token = d.next("")
        if index in (3, 6, 9):  # up, down and reset commands sit between key fields
            commands.append(token)
    images = decode(d.next(""), ",")
    level_names = decode(d.next(""), ",")
    d.next("")  # loop levels
    name = d.next("")
    fields: dict[str, FieldValue] = {
        "name": name,
        "images": images,
        "level_names": level_names,
        "layer_commands": commands,
    }
    if state is not None:
        fields["level"] = state.split(";", 1)[0]
    return "Layer", fields


def _old_layer(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    d = SequenceDecoder(body, ";")
    d.next("")  # activate key, reset command, key and level
    activate = d.next("").lstrip("_")
    d.next("")
    up = d.next("")
    d.next("")
    down = d.next("")
    d.next("")
    d.next("")
    images: list[str] = []
    level_names: list[str] = []
    for level in d.rest():
        pair = decode(level, ",")
        images.append(pair[0])
        level_names.append(pair[1] if len(pair) > 1 else "")
    fields: dict[str, FieldValue] = {
        "images": images,
        "level_names": level_names,
        "layer_commands": [activate, up, down],
    }
    if state is not None:
        fields["level"] = state.split(";", 1)[0]
    return "Layer", fields


def _marker(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    keys = decode(body, ",") if body else []
    fields: dict[str, FieldValue] = {"properties": keys}
    if state is not None:
        fields["values"] = decode(state, ",")
    return "Marker", fields


def _prototype(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    d = SequenceDecoder(body, ";")
    fields: dict[str, FieldValue] = {"name": d.next("")}
    if d.has_more():
        fields["parameters"] = d.next()
    return "Prototype", fields


def _immobilized(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    # Flags are letters, not sequence-encoded: select;move;stack;description.
    select, _, rest = body.partition(";")
    move, _, rest = rest.partition(";")
    stack, _, description = rest.partition(";")
    names = ("select", "move", "stack", "description")
    return "Does not stack", dict(zip(names, (select, move, stack, description), strict=True))


def _shape(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    return "Non-rectangular", {"shape": body}


def _stack(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    return "Stack", {}


def _deck(body: str, state: str | None) -> tuple[str, dict[str, FieldValue]]:
    # A deck in a saved game: outline, colour, size, face-down and shuffle options,
    # ..., then its name (13th field); its state ends with the ids of its cards.
    values = decode(body, ";") if body else []
    fields: dict[str, FieldValue] = {"name": values[12] if len(values) > 12 else ""}
    fields.update(zip(("face_down", "shuffle"), values[4:6], strict=False))
    if state is not None:
        parts = decode(state, ";")
        fields["cards"] = decode(parts[4], ",") if len(parts) > 4 and parts[4] else []
    return "Deck", fields


_SPECIAL_KINDS = {
    "piece": _basic,
    "emb2": _layer,
    "emb": _old_layer,
    "mark": _marker,
    "prototype": _prototype,
    "immob": _immobilized,
    "nonRect": _shape,
    "stack": _stack,
    "deck": _deck,
}


def _flag(trait: Trait, problem: str) -> Trait:
    return replace(trait, fields={**trait.fields, "unresolved": problem})


def _drop_empty(fields: dict[str, FieldValue]) -> dict[str, FieldValue]:
    return {k: v for k, v in fields.items() if v not in ("", []) and v != [""]}

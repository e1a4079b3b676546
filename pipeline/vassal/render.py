"""A compact text view of a module inventory, for a person or a prompt.

One line per piece kind (with counts and where the pieces sit), then boards,
decks, prototypes, properties, dice and turn levels. Long lists are cut with
an explicit "... and N more" so the text stays bounded.
"""

from __future__ import annotations

from collections import Counter

from rulebook2game.vassal.models import Grid, MapModel, ModuleInventory, PieceKind, PieceModel

MAX_LIST = 40
"""Items shown in a one-line list before it is cut."""
MAX_PROPERTIES = 6
"""Properties shown on a piece kind's line."""


def render_inventory(inventory: ModuleInventory) -> str:
    """The inventory as compact text, one line per piece kind."""
    head = f"Vassal module: {inventory.name}"
    if inventory.version:
        head += f" {inventory.version}"
    if inventory.vassal_version:
        head += f" (Vassal {inventory.vassal_version})"
    lines = [head]
    if inventory.description:
        lines.append(f"Description: {inventory.description}")
    if inventory.sides:
        lines.append(f"Sides: {_cut(inventory.sides)}")
    lines += _maps(inventory.maps)
    lines += _decks(inventory)
    lines += _kinds(inventory)
    lines += _rest(inventory)
    return "\n".join(lines) + "\n"


def _maps(maps: list[MapModel]) -> list[str]:
    lines = [f"Maps ({len(maps)}):"] if maps else []
    for m in maps:
        boards = "; ".join(
            f"{b.name}" + (f" [{b.image}]" if b.image else "") + _grids(b.grids) for b in m.boards
        )
        line = f"  {m.name} ({m.kind})"
        if boards:
            line += f": {boards}"
        if m.setup_stacks:
            line += f"; {m.setup_stacks} at-start stacks"
        if m.decks:
            line += f"; decks: {_cut(m.decks)}"
        lines.append(line)
    return lines


def _grids(grids: list[Grid]) -> str:
    parts: list[str] = []
    for grid in grids:
        text = grid.kind
        size = ",".join(grid.attributes[k] for k in ("dx", "dy") if k in grid.attributes)
        if size:
            text += f" {size}"
        if grid.regions:
            text += f" {len(grid.regions)} regions"
        if grid.zones:
            zones = [
                z.name + (f"({len(z.grid.regions)} regions)" if z.grid and z.grid.regions else "")
                for z in grid.zones
            ]
            text += f" zones: {_cut(zones, 12)}"
        parts.append(text + _grids(grid.grids).replace(" — ", " + "))
    return f" — {'; '.join(parts)}" if parts else ""


def _decks(inventory: ModuleInventory) -> list[str]:
    lines = [f"Decks ({len(inventory.decks)}):"] if inventory.decks else []
    for deck in inventory.decks:
        settings = ", ".join(
            f"{k}={deck.attributes[k]}"
            for k in ("shuffle", "faceDown", "reshufflable")
            if k in deck.attributes
        )
        counts = Counter(deck.cards)
        cards = [f"{n} x{c}" if c > 1 else n for n, c in counts.items()]
        line = f"  {deck.name} on {deck.map or '?'}: {len(deck.cards)} cards"
        if settings:
            line += f" ({settings})"
        if cards:
            line += f": {_cut(cards, 20)}"
        lines.append(line)
    return lines


def _kinds(inventory: ModuleInventory) -> list[str]:
    first: dict[tuple[str, str], PieceModel] = {}
    for piece in inventory.pieces:
        first.setdefault((piece.slot, piece.name), piece)
    total = sum(k.count for k in inventory.kinds)
    lines = [f"Pieces ({len(inventory.kinds)} kinds, {total} slots):"] if inventory.kinds else []
    for kind in inventory.kinds:
        lines.append(_kind_line(kind, first[(kind.slot, kind.name)]))
    return lines


def _kind_line(kind: PieceKind, sample: PieceModel) -> str:
    line = f"  {kind.slot} {kind.name or '(unnamed)'} x{kind.count}"
    if kind.image:
        line += f" [{kind.image}]"
    line += " — " + "; ".join(
        f"{place} x{n}" if n > 1 else place for place, n in kind.places.items()
    )
    shown = [f"{k}={v}" for k, v in sample.properties.items() if _plain(v)][:MAX_PROPERTIES]
    if shown:
        line += " {" + ", ".join(shown) + "}"
    if sample.prototypes:
        line += f" <{_cut([p for p in sample.prototypes if ' > ' not in p], 6)}>"
    return line


def _rest(inventory: ModuleInventory) -> list[str]:
    lines: list[str] = []
    if inventory.prototypes:
        names = [p.name for p in inventory.prototypes]
        lines.append(f"Prototypes ({len(names)}): {_cut(names)}")
    if inventory.global_properties:
        values = [f"{p.name}={p.initial_value}" for p in inventory.global_properties]
        lines.append(f"Global properties ({len(values)}): {_cut(values)}")
    for dice in inventory.dice:
        if dice.faces:
            faces = "; ".join(f"{n}: {'/'.join(f)}" for n, f in dice.faces.items())
            lines.append(f"Dice {dice.name}: {faces}")
        else:
            plus = f"+{dice.plus}" if dice.plus else ""
            lines.append(f"Dice {dice.name}: {dice.dice}d{dice.sides}{plus}")
    for level in inventory.turn_levels:
        lines.append(f"Turn level {level.name} ({level.kind}): {_cut(level.values)}")
    setups = [
        c.attributes.get("name", "")
        for c in inventory.other_components
        if c.class_name.endswith(".PredefinedSetup") and c.attributes.get("useFile") == "true"
    ]
    if setups:
        lines.append(f"Predefined setups ({len(setups)}): {_cut(setups)}")
    if inventory.other_components:
        counts = Counter(c.class_name.rsplit(".", 1)[-1] for c in inventory.other_components)
        listed = [f"{n} x{c}" if c > 1 else n for n, c in counts.most_common()]
        lines.append(f"Other components ({len(inventory.other_components)}): {_cut(listed)}")
    for warning in inventory.warnings:
        lines.append(f"Warning: {warning}")
    return lines


def _plain(value: str) -> bool:
    """A property value worth showing: set, short, and neither an expression nor markup."""
    return bool(value) and len(value) <= 40 and not value.startswith("{") and "<" not in value


def _cut(items: list[str], limit: int = MAX_LIST) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... and {len(items) - limit} more" if len(items) > limit else "")

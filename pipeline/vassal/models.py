"""The JSON written by ``extract``: a module's inventory and a game log's events.

Pydantic models, the boundary of this package; everything is plain data so the
files can be read back with :meth:`ModuleInventory.model_validate_json` and
:meth:`GameLog.model_validate_json`.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from rulebook2game.vassal.traits import Trait

INVENTORY_FORMAT: Final = "rulebook2game-vassal-module/1"
LOG_FORMAT: Final = "rulebook2game-vassal-log/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TraitModel(_Model):
    """One decoded trait (see :class:`rulebook2game.vassal.traits.Trait`)."""

    kind: str
    label: str
    known: bool
    fields: dict[str, str | list[str]] = Field(default_factory=dict)
    raw: str
    state: str | None = None
    via: str | None = None

    @classmethod
    def of(cls, trait: Trait) -> TraitModel:
        """The model of a decoded trait."""
        return cls(
            kind=trait.kind,
            label=trait.label,
            known=trait.known,
            fields=dict(trait.fields),
            raw=trait.raw,
            state=trait.state,
            via=trait.via,
        )


class Region(_Model):
    """A named point of a region grid."""

    name: str
    x: int
    y: int


class Zone(_Model):
    """A named polygon of a zoned grid, with the grid inside it if any."""

    name: str
    path: list[tuple[int, int]] = Field(default_factory=list)
    grid: Grid | None = None


class Grid(_Model):
    """A board's grid: hex, square, region or zoned, with its settings."""

    kind: str
    """The short class name: ``HexGrid``, ``SquareGrid``, ``RegionGrid``, ``ZonedGrid``..."""
    attributes: dict[str, str] = Field(default_factory=dict)
    numbering: dict[str, str] = Field(default_factory=dict)
    regions: list[Region] = Field(default_factory=list)
    zones: list[Zone] = Field(default_factory=list)
    grids: list[Grid] = Field(default_factory=list)
    """Grids nested directly (a zoned grid's background grid)."""


class Board(_Model):
    """A board of a map."""

    name: str
    image: str = ""
    width: int | None = None
    height: int | None = None
    grids: list[Grid] = Field(default_factory=list)


class MapModel(_Model):
    """A map window (main map, private map, player hand) and its boards."""

    name: str
    kind: str
    boards: list[Board] = Field(default_factory=list)
    setup_stacks: int = 0
    decks: list[str] = Field(default_factory=list)


class PieceModel(_Model):
    """One piece or card slot of the module, where it sits, and what it is."""

    slot: Literal["piece", "card"]
    name: str
    entry_name: str = ""
    gpid: str = ""
    image: str = ""
    images: list[str] = Field(default_factory=list)
    place: Literal["palette", "setup", "deck", "other"]
    container: str = ""
    """The palette path, ``map / stack name``, or the deck name."""
    map: str | None = None
    x: int | None = None
    y: int | None = None
    location: str = ""
    prototypes: list[str] = Field(default_factory=list)
    """Every prototype the piece uses, resolved; nested ones as ``outer > inner``, in order."""
    properties: dict[str, str] = Field(default_factory=dict)
    """Properties declared by the piece and its prototypes (markers, dynamic properties)."""
    commands: list[str] = Field(default_factory=list)
    """Menu commands offered by the piece and its prototypes."""
    traits: list[TraitModel] = Field(default_factory=list)
    """The slot's own trait chain, outermost first; each prototype's chain is in ``prototypes``
    of the inventory. Name, images, properties and commands above come from the resolved chain."""


class PieceKind(_Model):
    """All slots sharing a name and slot type, counted."""

    name: str
    slot: Literal["piece", "card"]
    count: int
    image: str = ""
    places: dict[str, int] = Field(default_factory=dict)
    """How many sit in each place ("palette: ...", "setup: ...", "deck: ...")."""


class DeckModel(_Model):
    """A draw pile and the cards set up in it."""

    name: str
    map: str
    attributes: dict[str, str] = Field(default_factory=dict)
    cards: list[str] = Field(default_factory=list)


class PrototypeModel(_Model):
    """A prototype definition with its own (unexpanded) traits."""

    name: str
    description: str = ""
    traits: list[TraitModel] = Field(default_factory=list)
    uses: list[str] = Field(default_factory=list)
    """Prototypes it refers to itself."""


class GlobalPropertyModel(_Model):
    """A global property, module-wide or attached to a map or zone."""

    name: str
    initial_value: str = ""
    scope: str = "module"
    description: str = ""
    numeric: bool = False
    min: str = ""
    max: str = ""


class DiceModel(_Model):
    """A dice button: ``dice`` dice of ``sides`` sides, or special dice with faces."""

    name: str
    dice: int = 1
    sides: int | None = None
    plus: int = 0
    faces: dict[str, list[str]] = Field(default_factory=dict)


class TurnLevel(_Model):
    """One level of a turn tracker: a counter or a list of phases."""

    name: str
    kind: str
    values: list[str] = Field(default_factory=list)


class Component(_Model):
    """An element the inventory does not model, kept with its class and attributes."""

    class_name: str
    path: str
    attributes: dict[str, str] = Field(default_factory=dict)
    text: str = ""


class ModuleInventory(_Model):
    """The components of a Vassal module."""

    format: Literal["rulebook2game-vassal-module/1"] = INVENTORY_FORMAT
    source: str
    build_file: str
    name: str
    version: str = ""
    vassal_version: str = ""
    description: str = ""
    sides: list[str] = Field(default_factory=list)
    maps: list[MapModel] = Field(default_factory=list)
    decks: list[DeckModel] = Field(default_factory=list)
    kinds: list[PieceKind] = Field(default_factory=list)
    pieces: list[PieceModel] = Field(default_factory=list)
    prototypes: list[PrototypeModel] = Field(default_factory=list)
    global_properties: list[GlobalPropertyModel] = Field(default_factory=list)
    dice: list[DiceModel] = Field(default_factory=list)
    turn_levels: list[TurnLevel] = Field(default_factory=list)
    other_components: list[Component] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


class _Event(_Model):
    step: int
    """0 for the state the file starts from; 1, 2, ... for each logged step."""
    summary: str
    """One readable line."""


class PieceEvent(_Event):
    """A piece added, removed, changed or moved."""

    kind: Literal["add", "remove", "change", "move"]
    piece_id: str
    piece: str
    """The piece's name (from its own definition, else the module), or its id."""
    map: str | None = None
    x: int | None = None
    y: int | None = None
    from_map: str | None = None
    from_x: int | None = None
    from_y: int | None = None
    player: str | None = None
    changes: list[str] = Field(default_factory=list)
    properties: dict[str, str] = Field(default_factory=dict)


class StackEvent(_Event):
    """A stack of pieces set at a place (stacks carry no definition of their own)."""

    kind: Literal["stack"] = "stack"
    stack_id: str
    map: str | None = None
    x: int | None = None
    y: int | None = None
    pieces: list[str] = Field(default_factory=list)


class ChatEvent(_Event):
    """A line shown in the chat window (reports of actions, dice rolls, players' text)."""

    kind: Literal["chat"] = "chat"
    text: str


class PropertyEvent(_Event):
    """A global property set to a value."""

    kind: Literal["property"] = "property"
    name: str
    value: str
    container: str = ""


class MarkerEvent(_Event):
    """Structure of the file: start or end of the saved state, start of a log step."""

    kind: Literal["setup"] = "setup"
    marker: str


class OtherEvent(_Event):
    """A command this decoder does not interpret, kept whole."""

    kind: Literal["other"] = "other"
    command: str
    raw: str


Event = Annotated[
    PieceEvent | StackEvent | ChatEvent | PropertyEvent | MarkerEvent | OtherEvent,
    Field(discriminator="kind"),
]


class GameLog(_Model):
    """The decoded commands of a saved game or log, in order."""

    format: Literal["rulebook2game-vassal-log/1"] = LOG_FORMAT
    source: str
    file_kind: Literal["log", "save"]
    module_name: str = ""
    module_version: str = ""
    vassal_version: str = ""
    description: str = ""
    steps: int = 0
    pieces: int = 0
    events: list[Event] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


Zone.model_rebuild()
Grid.model_rebuild()

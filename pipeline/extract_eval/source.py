"""Structured rulebook sources: the ground truth the extraction fixtures are rendered from.

Each source is a small, invented rulebook written for these fixtures: numbered sections
(``1``, ``1.1``, ``3.2.1``), unnumbered ones, paragraphs, numbered rules, bullet and numbered
lists, tables, sidebars, diagrams and their captions. Every block keeps its sentences
separately, so the expected sentence ledger never depends on the sentence splitter under test.

The held-out rulebooks live apart, in :mod:`rulebook2game.extract_eval.held_out`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

SourceKind = Literal["paragraph", "rule", "list_item", "table", "sidebar", "caption", "diagram"]


@dataclass(frozen=True)
class SourceBlock:
    """One block of a source rulebook, in reading order."""

    kind: SourceKind
    sentences: tuple[str, ...] = ()
    """The block's sentences, exactly as printed (empty for tables and diagrams)."""
    label: str | None = None
    """Rule number (``3.2.1``), list marker (``•``, ``1.``) or ``None``."""
    rows: tuple[tuple[str, ...], ...] = ()
    """Table rows (the first is the header row), or a diagram's grid of labels."""

    @property
    def text(self) -> str:
        """The block's text as the extractor should report it (no list marker or number)."""
        if self.kind == "table":
            return "\n".join(" | ".join(row) for row in self.rows)
        if self.kind == "diagram":
            return " ".join(cell for row in self.rows for cell in row if cell)
        return " ".join(self.sentences)

    @property
    def ledger(self) -> tuple[str, ...]:
        """The sentences this block contributes to the sentence ledger."""
        if self.kind == "table":
            return tuple(" | ".join(row) for row in self.rows)
        if self.kind == "diagram":
            return ()
        return self.sentences


@dataclass(frozen=True)
class SourceSection:
    """A section: its printed number (or ``None``), title, level and blocks."""

    number: str | None
    title: str
    level: int
    blocks: tuple[SourceBlock, ...]

    @property
    def heading(self) -> str:
        """The heading line as printed."""
        return f"{self.number} {self.title}" if self.number else self.title


@dataclass(frozen=True)
class ExpectedSection:
    """A section as the extractor should report it."""

    id: str
    title: str
    level: int
    parent: str | None
    blocks: tuple[SourceBlock, ...]


@dataclass(frozen=True)
class SourceRulebook:
    """A whole source rulebook."""

    name: str
    title: str
    intro: tuple[SourceBlock, ...]
    sections: tuple[SourceSection, ...]
    header: str = field(default="")
    """Running header text (the renderers add the page number)."""

    def expected_sections(self) -> list[ExpectedSection]:
        """The sections with the ids the extractor must assign (see ``slug_id``)."""
        out: list[ExpectedSection] = []
        if self.intro:
            out.append(ExpectedSection("front", self.title, 0, None, self.intro))
        stack: list[ExpectedSection] = []
        seen: set[str] = set()
        for sec in self.sections:
            while stack and stack[-1].level >= sec.level:
                stack.pop()
            parent = stack[-1].id if stack else None
            ident = sec.number or slug_id(parent, sec.title, seen)
            seen.add(ident)
            item = ExpectedSection(ident, sec.title, sec.level, parent, sec.blocks)
            out.append(item)
            stack.append(item)
        return out


def slug_id(parent: str | None, title: str, taken: set[str]) -> str:
    """The id of an unnumbered section: ``parent/slug-of-title``, ``-2`` on a clash."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"
    base = f"{parent}/{slug}" if parent else slug
    ident, n = base, 1
    while ident in taken:
        n += 1
        ident = f"{base}-{n}"
    return ident


# -- constructors -------------------------------------------------------------------------


def para(*sentences: str) -> SourceBlock:
    """A paragraph."""
    return SourceBlock("paragraph", sentences)


def rule(number: str, *sentences: str) -> SourceBlock:
    """A numbered rule such as ``3.2.1``."""
    return SourceBlock("rule", sentences, label=number)


def bullet(*sentences: str) -> SourceBlock:
    """A bulleted list item."""
    return SourceBlock("list_item", sentences, label="•")


def step(number: int, *sentences: str) -> SourceBlock:
    """A numbered list item."""
    return SourceBlock("list_item", sentences, label=f"{number}.")


def table(*rows: tuple[str, ...]) -> SourceBlock:
    """A ruled table; the first row is the header."""
    return SourceBlock("table", rows=rows)


def sidebar(*sentences: str) -> SourceBlock:
    """A boxed sidebar paragraph."""
    return SourceBlock("sidebar", sentences)


def caption(*sentences: str) -> SourceBlock:
    """A caption under a diagram."""
    return SourceBlock("caption", sentences)


def diagram(*rows: tuple[str, ...]) -> SourceBlock:
    """A board diagram: a grid of mostly empty squares with a few labels."""
    return SourceBlock("diagram", rows=rows)


def section(number: str | None, title: str, *blocks: SourceBlock, level: int = 0) -> SourceSection:
    """A section; its level is the depth of its number unless given."""
    depth = level or (number.count(".") + 1 if number else 1)
    return SourceSection(number, title, depth, blocks)


def board(size: int, marks: dict[tuple[int, int], str]) -> SourceBlock:
    """A square board diagram with labels on the given (row, column) squares."""
    return diagram(*(tuple(marks.get((r, c), "") for c in range(size)) for r in range(size)))


# -- rulebooks ------------------------------------------------------------------------------

HARBOR = SourceRulebook(
    name="harbor",
    title="Harbor Lights",
    header="Harbor Lights — Rules of Play",
    intro=(
        para(
            "Harbor Lights is a game of cargo, tides and reputation for two to four players.",
            "Each player runs a small shipping company on a foggy coast and tries to "
            "deliver the most valuable goods before the lighthouse keeper retires.",
            "A game takes about 45 minutes.",
        ),
    ),
    sections=(
        section(
            "1",
            "Introduction",
            para(
                "These rules are written to be read once from beginning to end.",
                "Numbered rules such as 3.2.1 are referred to by their number, e.g. "
                "\u201csee 3.2.1\u201d means the rule with that number.",
                "Where a card contradicts the rules, the card wins.",
            ),
            para(
                "Every ship has a hold of 4 spaces, i.e. it can carry at most four goods "
                "at the same time.",
                "A ship that is full may still move but cannot load.",
            ),
        ),
        section(
            "1.1",
            "Components",
            para("Before the first game, check that the box contains the following:"),
            bullet("One double-sided harbor board."),
            bullet("Four ships, one in each player color, and 16 matching dock markers."),
            bullet("Sixty goods cubes in five colors (fish, salt, wool, timber and oil)."),
            bullet("Thirty contract cards and twelve fog tiles."),
            table(
                ("Component", "Count", "Used in"),
                ("Ships", "4", "every game"),
                ("Goods cubes", "60", "every game"),
                ("Fog tiles", "12", "advanced game"),
                ("Lighthouse pawn", "1", "every game"),
            ),
        ),
        section(
            "2",
            "Setup",
            para("Set up the game in the following order."),
            step(1, "Place the harbor board in the middle of the table with the day side up."),
            step(2, "Shuffle the contract cards and deal three to each player."),
            step(
                3,
                "Each player takes a ship and puts it on the dock of the same color.",
                "The oldest player becomes the first captain.",
            ),
            step(4, "Put the lighthouse pawn on space 1 of the tide track."),
            sidebar(
                "Example: In a three-player game, Ana, Ben and Cleo each receive three contracts.",
                "Ben is the oldest, so he takes the first turn.",
            ),
        ),
        section(
            "3",
            "Playing a Turn",
            para(
                "Players take turns in clockwise order.",
                "On your turn you perform exactly two actions, which may be the same action twice.",
                "After your second action, check whether the tide changes (see 3.3).",
            ),
        ),
        section(
            "3.1",
            "Actions",
            rule(
                "3.1.1",
                "Sail: move your ship up to three spaces along the sea lanes.",
                "Fog tiles cost two spaces to enter.",
            ),
            rule(
                "3.1.2",
                "Load: take one goods cube from the port your ship is in and place it in "
                "your hold.",
                "You may not load goods of a color you are already carrying.",
            ),
            rule(
                "3.1.3",
                "Deliver: remove all goods from your hold that match one of your contracts "
                "and score them.",
                "A delivery of 2.5 tons or more counts as a large delivery.",
            ),
        ),
        section(
            "3.2",
            "Movement",
            para(
                "Ships move from space to space along the printed lanes.",
                "Two ships may share a space, but a ship may never end its move on a "
                "lighthouse space.",
            ),
            rule(
                "3.2.1",
                "A ship that starts its move in fog may move only one space.",
                "This applies even if the fog tile is removed during the move.",
            ),
            rule(
                "3.2.2",
                "Ships may not pass through a reef space.",
                "Reefs are the dark spaces along the northern edge of the board.",
            ),
            board(5, {(0, 0): "P1", (2, 2): "L", (4, 3): "R", (1, 4): "F"}),
            caption("Figure 1: A ship in port P1 may reach the fog space F in three moves."),
        ),
        section(
            "3.3",
            "The Tide",
            para(
                "At the end of every second turn, the lighthouse pawn advances one space on "
                "the tide track.",
                "When it reaches an even-numbered space, high tide begins and all ships in "
                "port may load one extra cube.",
                "When it reaches space 10, the game ends at once.",
            ),
        ),
        section(
            "4",
            "Scoring",
            para(
                "Contracts score the points printed on them when they are fulfilled.",
                "Unfulfilled contracts score nothing at the end of the game.",
            ),
            table(
                ("Delivery", "Points", "Bonus"),
                ("One cube", "1", "none"),
                ("Two cubes", "3", "none"),
                ("Three cubes", "6", "one fog tile"),
                ("Four cubes", "10", "two fog tiles"),
            ),
            sidebar(
                "Designer's note: Large deliveries are worth much more than small ones.",
                "Plan your route so that you can fill your hold before you sail home.",
            ),
        ),
        section(
            "5",
            "End of the Game",
            para(
                "The game ends when the lighthouse pawn reaches space 10 or when the contract "
                "deck runs out.",
                "The player with the most points wins.",
                "Ties are broken in favor of the player with more goods left in the hold.",
            ),
        ),
        section(
            None,
            "Credits",
            para(
                "Game design and rules by the Harbor Lights team.",
                "Thanks to every playtester who sailed into the fog with us.",
            ),
        ),
    ),
)

RIDGE = SourceRulebook(
    name="ridge",
    title="Ridge Runners",
    header="Ridge Runners Rulebook",
    intro=(
        para(
            "In Ridge Runners, two to five mountaineers race to plant their flag on the "
            "highest summit of the range.",
            "The first climber to reach the summit does not always win, because the "
            "descent is scored as well.",
        ),
    ),
    sections=(
        section(
            "1",
            "Overview",
            para(
                "The mountain is built from hexagonal terrain tiles at the start of every game.",
                "Each climber has a hand of effort cards, a stamina track and a flag.",
                "Climbers spend effort to cross terrain and stamina to climb cliffs.",
            ),
            para(
                "The game is played over a number of rounds.",
                "In every round each climber plays one effort card face down, then all cards "
                "are revealed at the same time.",
                "Higher effort moves first, but tires the climber more.",
            ),
        ),
        section(
            "1.1",
            "Goal of the Game",
            para(
                "Score the most summit points.",
                "You score for the highest altitude you reach, for planting your flag and for "
                "returning safely to base camp.",
                "A climber who is still on the mountain when the storm arrives scores only half "
                "of his or her altitude points.",
            ),
        ),
        section(
            "2",
            "Terrain",
            para(
                "Every tile shows one terrain type.",
                "Entering a tile costs effort as shown in the table below.",
                "Effort that is not spent is lost at the end of the round.",
            ),
            table(
                ("Terrain", "Effort", "Stamina", "Special"),
                ("Meadow", "1", "0", "none"),
                ("Forest", "2", "0", "blocks sight"),
                ("Scree", "2", "1", "may slide"),
                ("Glacier", "3", "1", "needs crampons"),
                ("Cliff", "3", "2", "needs rope"),
            ),
            para(
                "A climber who cannot pay the full cost of a tile may not enter it.",
                "Costs are never reduced below 1.",
            ),
        ),
        section(
            "2.1",
            "Weather",
            para(
                "At the start of each round, reveal the top weather card.",
                "Fog raises the effort cost of every tile by 1, wind prevents all movement "
                "onto cliffs and sunshine has no effect.",
            ),
            rule(
                "2.1.1",
                "If two fog cards are revealed in a row, the storm arrives at the end of the "
                "round.",
                "Shuffle the storm marker into the weather deck only in the advanced game.",
            ),
            rule(
                "2.1.2",
                "Weather effects last until the next weather card is revealed.",
                "They apply to all climbers equally.",
            ),
        ),
        section(
            "3",
            "A Round of Play",
            para("Each round consists of four phases, played in this order:"),
            step(1, "Weather: reveal a weather card and apply its effect."),
            step(2, "Effort: every climber chooses an effort card and places it face down."),
            step(3, "Movement: climbers move in order of effort, highest first."),
            step(4, "Rest: every climber regains one stamina, up to the maximum of 6."),
        ),
        section(
            "3.1",
            "Effort Cards",
            para(
                "Effort cards show values from 1 to 6.",
                "A played card goes to your discard pile.",
                "When your hand is empty, take your discard pile back into your hand.",
            ),
            rule(
                "3.1.1",
                "Ties in effort are broken by altitude: the lower climber moves first.",
                "If altitude is also tied, the climber who arrived first moves first.",
            ),
        ),
        section(
            "3.2",
            "Movement",
            para(
                "Move your climber from tile to tile, paying the effort cost of every tile "
                "you enter.",
                "You may stop at any time.",
            ),
            board(6, {(0, 5): "S", (3, 2): "C", (5, 0): "B", (2, 4): "H"}),
            caption(
                "Figure 2: The route from base camp B to the summit S passes the hut H and "
                "the cliff C."
            ),
        ),
        section(
            "3.2.1",
            "Climbing Cliffs",
            para(
                "To enter a cliff tile you must also spend 2 stamina and have a rope.",
                "Ropes are found in the supply huts marked on the map.",
                "A climber without stamina may not climb, even with a rope.",
            ),
        ),
        section(
            "3.2.2",
            "Sliding",
            para(
                "After you enter a scree tile, roll the die.",
                "On a 1 you slide one tile downhill and your movement ends.",
                "Sliding never costs effort.",
            ),
        ),
        section(
            "4",
            "Scoring",
            table(
                ("Achievement", "Points"),
                ("Each altitude level reached", "2"),
                ("Planting the flag on the summit", "8"),
                ("Returning to base camp", "5"),
                ("Unused rope", "1"),
            ),
            para(
                "Add up your points at the end of the game.",
                "The climber with the most points wins; in a tie, the climber with more "
                "stamina left wins.",
            ),
        ),
        section(
            None,
            "Quick Reference",
            bullet("Fog: every tile costs 1 more effort."),
            bullet("Wind: no movement onto cliffs."),
            bullet("Storm: the game ends after this round."),
        ),
    ),
)

QUARRY = SourceRulebook(
    name="quarry",
    title="Crown & Quarry",
    header="Crown & Quarry",
    intro=(
        para(
            "Crown & Quarry is a worker placement game for one to four players.",
            "You are a master builder hired by the crown to raise a cathedral, and every "
            "stone must be cut, carried and set in place by your workers.",
        ),
        sidebar(
            "New to worker placement?",
            "Read sections 1 and 2 first and start with the introductory setup.",
            "The advanced rules in section 5 can wait until your second game.",
        ),
    ),
    sections=(
        section(
            "1",
            "Components",
            bullet("A main board with twelve action spaces."),
            bullet("Four player boards and 24 worker figures."),
            bullet("Stone, timber, glass and gold tokens."),
            bullet("Forty blueprint cards and eight royal favor tiles."),
            sidebar(
                "Tip: Sort the tokens into the tray before your first game.",
                "It shortens setup to about five minutes.",
            ),
        ),
        section(
            "2",
            "Setting Up",
            step(1, "Lay out the main board and shuffle the blueprint cards."),
            step(2, "Give each player a player board and six workers in one color."),
            step(3, "Each player takes two stone, two timber and one gold."),
            step(
                4,
                "Reveal five blueprints next to the board.",
                "These form the blueprint market.",
            ),
            para(
                "The player who most recently held a hammer is the first player and takes "
                "the crown marker.",
            ),
        ),
        section(
            "3",
            "Placing Workers",
            para(
                "Starting with the first player and going clockwise, players place one worker "
                "at a time on an empty action space.",
                "Placement continues until every player has placed all workers or passed.",
            ),
            rule(
                "3.1",
                "An action space holds one worker unless it shows a larger number.",
                "The quarry, for instance, holds up to three workers.",
            ),
            rule(
                "3.2",
                "You may place a worker on a space that already holds one of your own workers "
                "only if you pay one gold to the bank.",
            ),
            sidebar(
                "Example: Dana places her second worker on the quarry, where her first worker "
                "already stands.",
                "She pays one gold and takes two more stone.",
            ),
            rule(
                "3.3",
                "Passing is permanent.",
                "A player who passes takes no further part in the placement phase.",
            ),
        ),
        section(
            "4",
            "Resolving Actions",
            para(
                "Actions are resolved in board order, from space 1 to space 12.",
                "Each worker on a space performs the action once.",
                "Resources taken from the general supply are unlimited; if a type runs out, "
                "use a substitute.",
            ),
            table(
                ("Space", "Action", "Yield"),
                ("1", "Quarry", "2 stone"),
                ("2", "Forest", "2 timber"),
                ("3", "Glassworks", "1 glass"),
                ("4", "Market", "1 gold"),
                ("5", "Drafting hall", "1 blueprint"),
            ),
            sidebar(
                "Remember: glass is rare.",
                "Only the glassworks and the royal favor tiles provide it.",
            ),
        ),
        section(
            "4.1",
            "Building",
            para(
                "To build, pay the costs shown on one of your blueprints and place it face up "
                "in front of you.",
                "Built blueprints score their points at the end of the game.",
            ),
            rule(
                "4.1.1",
                "Each blueprint can be built only once.",
                "A built chapel, tower or nave counts for the cathedral bonus.",
            ),
            rule(
                "4.1.2",
                "You may build at most two blueprints per round.",
                "Royal favor tiles may raise this limit to three.",
            ),
        ),
        section(
            "5",
            "Advanced Rules",
            para(
                "In the advanced game each player also receives a secret commission.",
                "Commissions score 4 to 9 points if their condition is met at the end.",
            ),
            sidebar(
                "Variant: For a shorter game, remove the ten most expensive blueprints.",
                "Play ends after six rounds instead of eight.",
            ),
        ),
        section(
            "6",
            "Game End",
            para(
                "The game ends after the eighth round.",
                "Score your built blueprints, your royal favor tiles and one point for every "
                "three leftover resources.",
                "The builder with the highest total wins the crown's commission.",
            ),
        ),
    ),
)

TUNED: tuple[SourceRulebook, ...] = (HARBOR, RIDGE, QUARRY)
"""The rulebooks the tuned layout variants are rendered from."""

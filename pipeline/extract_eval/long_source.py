"""Two long rulebooks written for the extraction fixtures, with their expected ledgers.

*Jackal Run* is a dice race on one column over four pages, with a board drawn as a text
diagram, a table of numbers, bulleted lists whose continuation lines start under the
bullet, worked examples and an introduction. *Marsh Draughts* is a two-column draughts
variant with coordinate diagrams drawn in text, numbered rules that run from the foot
of one column to the head of the next, bold leads in list items, an italic subtitle and
example boxes.

Each block knows the role of its sentences in the ledger (``rule``, ``example``,
``framing`` or ``figure``); a figure is one ledger entry holding the whole diagram.
Both are rendered by groff (``pipeline/extract_eval/render_groff.py``); the PDFs are
committed under ``tests/data/extract/long/`` together with their groff sources.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rulebook2game.extract_eval.source import slug_id

Role = Literal["rule", "example", "framing", "figure"]
Form = Literal["para", "rule", "bullet", "step", "figure", "tabbed", "caption", "example"]


@dataclass(frozen=True)
class LongBlock:
    """One block: its printed form, its sentences (or figure rows) and their role."""

    form: Form
    sentences: tuple[str, ...] = ()
    role: Role = "rule"
    label: str | None = None
    """Rule number (``5.1``) or list number (``2.``)."""
    rows: tuple[str, ...] = ()
    """A figure's lines, exactly as printed in a fixed-width font (for a table set with
    tab stops in the body font: its cells separated by tabs)."""
    lead: str | None = None
    """A bold lead printed before the first sentence (``Player 2:``), part of its text."""
    lead_alone: bool = False
    """The lead is printed on a line of its own, the text starting on the next line."""

    @property
    def ledger(self) -> tuple[str, ...]:
        """The ledger entries the block contributes: one per sentence, one per figure."""
        if self.form == "figure":
            return ("\n".join(self.rows),)
        if self.form == "tabbed":
            return ("\n".join(" ".join(row.split("\t")) for row in self.rows),)
        if self.lead and self.sentences:
            return (f"{self.lead} {self.sentences[0]}", *self.sentences[1:])
        return self.sentences


@dataclass(frozen=True)
class LongSection:
    """A section: printed number or ``None``, title, level and blocks."""

    number: str | None
    title: str
    level: int
    blocks: tuple[LongBlock, ...]


@dataclass(frozen=True)
class ExpectedSentence:
    """One entry of the expected ledger."""

    section: str
    role: Role
    text: str


@dataclass(frozen=True)
class LongRulebook:
    """A long rulebook and how to lay it out."""

    name: str
    title: str
    subtitle: str
    columns: int
    sections: tuple[LongSection, ...]
    intro: tuple[LongBlock, ...] = ()

    @property
    def front(self) -> tuple[LongBlock, ...]:
        """The blocks before the first heading: the italic subtitle, then the introduction."""
        lead = (para(self.subtitle, role="framing"),) if self.subtitle else ()
        return lead + self.intro

    def section_ids(self) -> list[tuple[str, str, int, str | None]]:
        """(id, title, level, parent) of every section the extractor must report."""
        out: list[tuple[str, str, int, str | None]] = []
        if self.front:
            out.append(("front", self.title, 0, None))
        stack: list[tuple[str, int]] = []
        taken: set[str] = set()
        for sec in self.sections:
            while stack and stack[-1][1] >= sec.level:
                stack.pop()
            parent = stack[-1][0] if stack else None
            ident = sec.number or slug_id(parent, sec.title, taken)
            taken.add(ident)
            out.append((ident, sec.title, sec.level, parent))
            stack.append((ident, sec.level))
        return out

    def expected_ledger(self) -> list[ExpectedSentence]:
        """Every sentence with its section id and role, in reading order."""
        ids = [s[0] for s in self.section_ids()]
        groups = ([self.front] if self.front else []) + [s.blocks for s in self.sections]
        return [
            ExpectedSentence(ident, b.role, text)
            for ident, blocks in zip(ids, groups, strict=True)
            for b in blocks
            for text in b.ledger
        ]


def para(
    *sentences: str, role: Role = "rule", lead: str | None = None, lead_alone: bool = False
) -> LongBlock:
    """A paragraph (its role defaults to ``rule``)."""
    return LongBlock("para", sentences, role, lead=lead, lead_alone=lead_alone)


def rule(label: str, *sentences: str, role: Role = "rule") -> LongBlock:
    """A numbered rule such as ``5.1``."""
    return LongBlock("rule", sentences, role, label=label)


def bullet(*sentences: str, role: Role = "rule", lead: str | None = None) -> LongBlock:
    """A bulleted item whose continuation lines start under the bullet."""
    return LongBlock("bullet", sentences, role, label="•", lead=lead)


def step(number: int, *sentences: str, role: Role = "rule") -> LongBlock:
    """A numbered list item."""
    return LongBlock("step", sentences, role, label=f"{number}.")


def figure(*rows: str) -> LongBlock:
    """A text diagram in a fixed-width font."""
    return LongBlock("figure", role="figure", rows=rows)


def tabbed(*rows: str) -> LongBlock:
    """A table without rules, set in the body font with tab stops (cells split by tabs)."""
    return LongBlock("tabbed", role="figure", rows=rows)


def caption(*sentences: str) -> LongBlock:
    """A figure's caption."""
    return LongBlock("caption", sentences, "figure")


def example(*sentences: str) -> LongBlock:
    """A worked example set apart in an indented block opened by "Example:"."""
    return LongBlock("example", sentences, "example")


# -- Jackal Run: a dice race, one column ----------------------------------------------------

_TRACK = (
    "  +----+----+----+----+----+----+----+----+",
    "  | 1  | 2  | 3  | 4* | 5  | 6  | 7  | 8  |",
    "  +----+----+----+----+----+----+----+----+",
    "                                     | 9  |",
    "  +----+----+----+----+----+----+----+----+",
    "  | 17 | 16 | 15 | 14 | 13*| 12 | 11 | 10 |",
    "  +----+----+----+----+----+----+----+----+",
    "  | 18 |",
    "  +----+----+----+----+----+----+----+----+",
    "  | 19 | 20 | 21 | 22*| 23 | 24 | 25 | 26 |",
    "  +----+----+----+----+----+----+----+----+",
    "                                     | 27 |",
    "  +----+----+----+----+----+----+----+----+",
    "  | 35 | 34 | 33 | 32 | 31*| 30 | 29 | 28 |",
    "  +----+----+----+----+----+----+----+----+",
    "  | 36 |",
    "  +----+",
    "  | OASIS |",
    "  +-------+",
)

JACKAL_RUN = LongRulebook(
    name="jackal-run",
    title="Jackal Run",
    subtitle="A dice race across the dunes for two to four players",
    columns=1,
    intro=(
        para(
            "Jackal Run is a race game for two to four players aged eight and up.",
            "A game lasts about thirty minutes.",
            role="framing",
        ),
    ),
    sections=(
        LongSection(
            None,
            "Introduction",
            1,
            (
                para(
                    "Caravan drivers on the old salt roads told of a race that was run "
                    "every spring between the wells of the southern desert.",
                    "Each tribe sent its fastest jackal, and the tribe whose jackal reached "
                    "the oasis first drank before the others for a whole year.",
                    "This game retells that race with dice, sand storms and a little luck.",
                    role="framing",
                ),
                para(
                    "The rules below are short, but read them once from start to end before "
                    "the first game.",
                    "Examples are set apart and indented, and the diagrams show the board "
                    "as it is printed.",
                    role="framing",
                ),
            ),
        ),
        LongSection(
            None,
            "Components",
            1,
            (
                bullet(
                    "One board with thirty six desert squares arranged in four rows of nine "
                    "squares, joined at their ends into a single winding track."
                ),
                bullet(
                    "Four jackal pawns in four colours, one for each player, and four "
                    "matching water tokens."
                ),
                bullet(
                    "Two six sided dice, and twelve storm cards that are shuffled into a "
                    "face down deck beside the board."
                ),
            ),
        ),
        LongSection(
            None,
            "Setup",
            1,
            (
                step(
                    1,
                    "Lay the board in the middle of the table so that every player can reach "
                    "the oasis at the end of the track.",
                ),
                step(
                    2,
                    "Each player chooses a colour, takes the jackal pawn and the water token "
                    "of that colour, and places the pawn beside square 1.",
                ),
                step(
                    3,
                    "Shuffle the storm cards and place them face down within reach of all players.",
                ),
                step(
                    4,
                    "Every player rolls both dice, and the player with the highest total "
                    "takes the first turn.",
                    "Players who tie for the highest total roll again until the tie is broken.",
                ),
            ),
        ),
        LongSection(
            None,
            "The board",
            1,
            (
                para(
                    "The track runs from square 1 to square 36 and ends at the oasis.",
                    "Squares marked with a star are storm squares.",
                ),
                figure(*_TRACK),
                caption("Figure 1: The track from square 1 to the oasis, storm squares starred."),
            ),
        ),
        LongSection(
            None,
            "Playing a turn",
            1,
            (
                para(
                    "Players take turns in clockwise order, starting with the first player.",
                    "On your turn you roll both dice once and then move your jackal.",
                ),
                bullet(
                    "If the two dice show different numbers, move your jackal forward by the "
                    "higher of the two numbers."
                ),
                bullet(
                    "If the two dice show the same number, you have rolled a double and you "
                    "move your jackal forward by the sum of both dice."
                ),
                bullet(
                    "If you roll a double for the third time in a row, your jackal is "
                    "exhausted and moves back to square 1 instead."
                ),
                tabbed(
                    "dice\tsquares moved",
                    "2 and 5\t5",
                    "4 and 4\t8",
                    "6 and 6, third time\tback to 1",
                ),
                caption("Figure 2: How far a jackal moves."),
                example(
                    "Example: Amira rolls a 2 and a 5.",
                    "She moves her jackal five squares, from square 7 to square 12.",
                    "On her next turn she rolls two 4s, a double, and moves 4 + 4 = 8 "
                    "squares to square 20.",
                ),
            ),
        ),
        LongSection(
            None,
            "Storm squares",
            1,
            (
                para(
                    "A jackal that ends its move on a storm square draws the top card of the "
                    "storm deck and follows it at once.",
                    "The card is then placed face up on a discard pile, and the deck is "
                    "reshuffled when it runs out.",
                ),
                para(
                    "The storm deck holds the following cards, and each card tells how many "
                    "squares the jackal is blown back.",
                ),
                figure(
                    "  card       count   squares back",
                    "  breeze       4          1",
                    "  gust         4          2",
                    "  whirlwind    3          4",
                    "  sandstorm    1          9",
                ),
                caption("Figure 3: The twelve storm cards."),
                para(
                    "A jackal that is blown back onto another storm square does not draw "
                    "again on the same turn.",
                    "A jackal is never blown back beyond square 1.",
                ),
            ),
        ),
        LongSection(
            None,
            "Water",
            1,
            (
                para(
                    "Each player has one water token for the whole game.",
                    "Once per game, before rolling, you may spend your water token to roll "
                    "three dice instead of two and keep the two dice you like best.",
                    "A spent water token is turned face down and cannot be used again.",
                ),
                example(
                    "Example: Tarek is on square 30 and needs a 6 to reach the oasis.",
                    "He spends his water token and rolls a 1, a 3 and a 6.",
                    "He keeps the 3 and the 6, moves six squares and wins the race.",
                ),
            ),
        ),
        LongSection(
            None,
            "Crowding",
            1,
            (
                para(
                    "Any number of jackals may share a square, except the last square before "
                    "the oasis.",
                    "A jackal that would end its move on square 36 while another jackal is "
                    "already there stops one square short instead, on square 35.",
                ),
                para(
                    "Jackals never capture each other, and a jackal that passes another "
                    "jackal does not disturb it in any way.",
                ),
            ),
        ),
        LongSection(
            None,
            "Winning",
            1,
            (
                para(
                    "To reach the oasis your jackal needs the exact number of squares left "
                    "on the track.",
                    "A roll that is higher than the number of squares left is lost, and your "
                    "jackal does not move that turn.",
                    "The first jackal to reach the oasis wins the race, and the game ends at once.",
                ),
                example(
                    "Example: Lena stands on square 33, three squares from the oasis.",
                    "She rolls a 5 and a 2, which would move her five squares, so her jackal "
                    "stays where it is.",
                    "Next turn she rolls a 3 and a 1 and reaches the oasis with the 3.",
                ),
            ),
        ),
        LongSection(
            None,
            "Example of play",
            1,
            (
                para(
                    "Three players, Amira, Tarek and Lena, are racing, and all three jackals "
                    "stand beside square 1.",
                    "Amira rolls a 6 and a 3 and moves six squares to square 6.",
                    "Tarek rolls two 2s, a double, and moves four squares to square 4, which "
                    "is a storm square.",
                    role="example",
                ),
                para(
                    "Tarek draws a gust card and is blown back two squares to square 2.",
                    "Lena rolls a 1 and a 4 and moves four squares to square 4, where she "
                    "draws a breeze card and is blown back to square 3.",
                    "After one round Amira leads the race, with Lena second and Tarek last, "
                    "although Tarek still holds his water token and the race is long.",
                    "The second round begins with Amira again, because the order of turns "
                    "never changes during a race, not even after a storm card sends a "
                    "jackal back to the first square of the track.",
                    role="example",
                ),
            ),
        ),
        LongSection(
            None,
            "Questions and answers",
            1,
            (
                para(
                    "Can I choose the lower die when I roll two different numbers?",
                    "No, you always move by the higher die unless you rolled a double.",
                ),
                para(
                    "Does a double rolled with a water token count towards three doubles in a row?",
                    "Yes, any two dice that you keep and that show the same number count as a "
                    "double.",
                ),
                para(
                    "What happens when the storm deck is empty and the discard pile is empty too?",
                    "This cannot happen, because every card drawn goes to the discard pile, "
                    "which is shuffled to form the new deck.",
                ),
            ),
        ),
        LongSection(
            None,
            "Variants",
            1,
            (
                para(
                    "play two laps of the track, and a jackal that completes its first lap "
                    "starts again from square 1 with a fresh water token.",
                    lead="Long race:",
                    lead_alone=True,
                ),
                para(
                    "remove the sandstorm card from the deck for a gentler game with younger "
                    "players.",
                    lead="Calm weather:",
                    lead_alone=True,
                ),
            ),
        ),
        LongSection(
            None,
            "History of the game",
            1,
            (
                para(
                    "The first version of Jackal Run was drawn on the back of a flour sack "
                    "during a long winter in the mountains.",
                    "It had no storm cards, and every roll of a double sent the jackal home.",
                    "Players found that too harsh, and the storm deck took its place in the "
                    "second edition.",
                    role="framing",
                ),
            ),
        ),
    ),
)


# -- Marsh Draughts: a two-column board game --------------------------------------------------

_START = (
    "    a b c d e f g h",
    "8   . x . x . x . x   8",
    "7   x . x . x . x .   7",
    "6   . # . . . . # .   6",
    "5   . . . # # . . .   5",
    "4   . . . # # . . .   4",
    "3   . # . . . . # .   3",
    "2   o . o . o . o .   2",
    "1   . o . o . o . o   1",
    "    a b c d e f g h",
)

_JUMP = (
    "    a b c d e f g h",
    "6   . . . . . . . .   6",
    "5   . . . . x . . .   5",
    "4   . . . . . . . .   4",
    "3   . . x . . . . .   3",
    "2   . o . . . . . .   2",
    "1   . . . . . . . .   1",
    "    a b c d e f g h",
)

MARSH_DRAUGHTS = LongRulebook(
    name="marsh-draughts",
    title="Marsh Draughts",
    subtitle="A game of draughts on a board with sinking ground",
    columns=2,
    sections=(
        LongSection(
            "1",
            "Introduction",
            1,
            (
                para(
                    "Marsh Draughts is played like ordinary draughts on the dark squares of "
                    "an eight by eight board, but six squares of the board are marsh.",
                    "A piece that stops on the marsh sinks unless it moves on quickly.",
                    role="framing",
                ),
                para(
                    "The game was first played by ferrymen waiting for the tide, who scratched "
                    "the board into the planks of their boats.",
                    "Some of those boats still carry the old board today.",
                    role="framing",
                ),
            ),
        ),
        LongSection(
            "2",
            "The board and pieces",
            1,
            (
                para(
                    "The board has eight files, named a to h from left to right, and eight "
                    "ranks, numbered 1 to 8 from the bottom.",
                    "A square is named by its file and rank, so the lower left square is a1.",
                ),
                para(
                    "Each player has twelve pieces.",
                    "The marsh squares are b3, g3, d4, e4, d5, e5, b6 and g6, and they are "
                    "shown with a hash sign.",
                ),
                bullet(
                    "White plays the pieces marked o and starts on the dark squares of "
                    "ranks 1 and 2.",
                    lead="Player 1:",
                ),
                bullet(
                    "Black plays the pieces marked x and starts on the dark squares of "
                    "ranks 7 and 8.",
                    lead="Player 2:",
                ),
                figure(*_START),
                caption("Diagram 1: The starting position, with the marsh squares marked #."),
            ),
        ),
        LongSection(
            "3",
            "Moving",
            1,
            (
                rule(
                    "3.1",
                    "White moves first, and then the players take turns moving one piece "
                    "each until the game ends, and neither player may pass.",
                ),
                rule(
                    "3.2",
                    "A man moves one square diagonally forward onto an empty dark square, "
                    "never sideways and never backwards.",
                    "Forward is towards rank 8 for White and towards rank 1 for Black.",
                ),
                rule(
                    "3.3",
                    "A man that ends its move on the far rank is crowned and becomes a king, "
                    "which moves one square diagonally in any direction.",
                ),
                rule(
                    "3.4",
                    "A player who cannot move on their turn loses the game, whether they have "
                    "pieces left on the board or not.",
                ),
            ),
        ),
        LongSection(
            "4",
            "Jumping",
            1,
            (
                rule(
                    "4.1",
                    "A piece jumps by passing over a diagonally adjacent enemy piece to the "
                    "empty square just beyond it, and the enemy piece is removed from the "
                    "board.",
                ),
                rule(
                    "4.2",
                    "After a jump the same piece may jump again, and a jump sequence may "
                    "change direction as often as the board allows.",
                ),
                rule(
                    "4.3",
                    "Jumps are never compulsory in Marsh Draughts, and a player may stop a "
                    "jump sequence after any jump.",
                ),
                figure(*_JUMP),
                caption("Diagram 2: White to move, with two black men within reach."),
                example(
                    "Example: In Diagram 2 the white man on b2 jumps the black man on c3 and "
                    "lands on d4.",
                    "From d4 it may jump again over e5 to f6, removing a second piece.",
                    "White may also stop on d4, but d4 is a marsh square, so see rule 5.1.",
                ),
            ),
        ),
        LongSection(
            "5",
            "The marsh",
            1,
            (
                rule(
                    "5.1",
                    "A piece that ends its turn on a marsh square is sinking, and its owner "
                    "turns it on its side as a reminder.",
                ),
                rule(
                    "5.2",
                    "A sinking piece must leave the marsh on its owner's next turn if it can "
                    "legally move, and if the owner moves any other piece instead, the "
                    "sinking piece is removed from the board at the end of that turn.",
                ),
                rule(
                    "5.3",
                    "A sinking piece cannot be jumped, because the ground around it is too "
                    "soft to land on, and pieces may jump over an empty marsh square only "
                    "when the landing square is dry.",
                ),
                rule(
                    "5.4",
                    "A king that sinks is not removed but loses its crown instead, and it "
                    "moves on as a man.",
                ),
                example(
                    "Example: Black has a sinking man on e5 and a man on a7.",
                    "If Black moves the man on a7, the sinking man on e5 is removed at the "
                    "end of the turn.",
                    "If Black moves the sinking man to d4, it lands on marsh again and keeps "
                    "sinking.",
                ),
            ),
        ),
        LongSection(
            "6",
            "Scoring a match",
            1,
            (
                para(
                    "A match is played over several games, with the players changing colours "
                    "after each game.",
                ),
                figure(
                    "  result              winner   loser",
                    "  no pieces left        3        0",
                    "  cannot move           2        0",
                    "  agreed draw           1        1",
                ),
                caption("Diagram 3: Points for each game of a match."),
                para(
                    "The first player to score 7 points wins the match.",
                    "Two draws in a row end the match at once, and the player with more "
                    "points wins.",
                ),
                example(
                    "Example: Nia wins the first game with no black pieces left and scores 3.",
                    "The second game is drawn, so the score is 4 to 1.",
                    "Nia then wins a game by leaving her opponent unable to move, which makes "
                    "it 6 to 1.",
                ),
            ),
        ),
        LongSection(
            "7",
            "Recording a game",
            1,
            (
                rule(
                    "7.1",
                    "A move is written as the square the piece leaves and the square where it "
                    "stops, joined by a dash for a step and by a cross for a jump.",
                ),
                rule(
                    "7.2",
                    "A jump sequence lists every square the piece lands on, and a sinking "
                    "piece is marked with a star after the square where it stopped.",
                ),
                figure(
                    "  1. c3-d4*   f6-e5",
                    "  2. d4-c5    b6xd4",
                    "  3. e3xc5xe7 h8xf6",
                ),
                caption("Diagram 4: The first three turns of a recorded game."),
                example(
                    "Example: In the record above, White's first move c3-d4 ends on a marsh "
                    "square, so it carries a star.",
                    "On the second turn White moves the sinking man away to c5, as rule 5.2 "
                    "requires.",
                    "Black then jumps from b6 over c5 and lands on d4.",
                ),
            ),
        ),
        LongSection(
            "8",
            "Variants",
            1,
            (
                bullet(
                    "Flooded board: every square of ranks 4 and 5 is marsh, which makes the "
                    "middle of the board very dangerous."
                ),
                bullet(
                    "Dry season: play without marsh squares, and the game is plain draughts "
                    "without compulsory jumps."
                ),
            ),
        ),
    ),
)

LONG_BOOKS: tuple[LongRulebook, ...] = (JACKAL_RUN, MARSH_DRAUGHTS)


def _overprinted() -> LongRulebook:
    """Marsh Draughts with a nine-file board too wide for its column: groff prints it over
    the other column, so no reading order is right and the page must be flagged."""
    wide = figure(
        "     a   b   c   d   e   f   g   h   i",
        "9    .   .   .   .   o   .   .   .   .    9",
        "8    .   .   .   .   .   .   .   .   .    8",
        "7    .   .   .   .   .   .   .   .   .    7",
        "6    .   .   .   .   .   .   .   .   .    6",
        "5    .   .   .   .   x   .   .   .   .    5",
        "     a   b   c   d   e   f   g   h   i",
    )
    sections = list(MARSH_DRAUGHTS.sections)
    board = sections[1]
    sections[1] = replace(board, blocks=(*board.blocks[:2], wide, *board.blocks[2:]))
    return replace(MARSH_DRAUGHTS, name="marsh-draughts-overprinted", sections=tuple(sections))


OVERPRINTED = _overprinted()
"""A layout whose reading order is uncertain (not scored: it must be flagged)."""

"""Rulebooks written apart from the tuned ones, rendered only by the held-out layout family.

The extractor was not tuned against these sources or their layouts (see ``variants.py``).
"""

from __future__ import annotations

from rulebook2game.extract_eval.source import (
    SourceRulebook,
    board,
    bullet,
    caption,
    para,
    rule,
    section,
    sidebar,
    step,
    table,
)

HELD_OUT = SourceRulebook(
    name="lantern",
    title="Lantern Market",
    header="Lantern Market",
    intro=(
        para(
            "Lantern Market is a trading game for three to six merchants set on a river at night.",
            "Over five evenings you buy lanterns from the boats, arrange them in your stall "
            "and sell the brightest displays to the crowd.",
        ),
    ),
    sections=(
        section(
            "1",
            "What Is in the Box",
            para(
                "The box holds a river board, six stall boards, ninety lantern tiles, thirty "
                "coins of value 1 and ten coins of value 5.",
                "There is also a crowd bag with forty visitor discs.",
            ),
            table(
                ("Lantern", "Tiles", "Glow"),
                ("Paper", "40", "1"),
                ("Silk", "30", "2"),
                ("Glass", "15", "3"),
                ("Gold leaf", "5", "5"),
            ),
        ),
        section(
            "2",
            "Preparing the Market",
            para(
                "Every merchant takes a stall board and 8 coins.",
                "Mix the lantern tiles face down and stack them beside the river.",
            ),
            step(1, "Place four lantern tiles face up on each of the three boats."),
            step(2, "Draw six visitor discs from the crowd bag and put them on the quay."),
            step(3, "The merchant who last lit a candle starts the first evening."),
        ),
        section(
            "3",
            "An Evening at the Market",
            para(
                "An evening has a buying round and a selling round.",
                "During the buying round each merchant, in turn, either buys from one boat or "
                "rests.",
                "The evening ends when every merchant has rested once in a row.",
            ),
        ),
        section(
            "3.1",
            "Buying",
            rule(
                "3.1.1",
                "Choose a boat and buy any number of its lanterns.",
                "Each lantern costs its glow value in coins, i.e. a glass lantern costs 3.",
            ),
            rule(
                "3.1.2",
                "Place bought lanterns in empty slots of your stall immediately.",
                "A lantern that does not fit is returned to the bottom of the stack.",
            ),
            sidebar(
                "Hint: Matching colors in a row are worth a lot later, so buy with your "
                "stall in mind.",
            ),
        ),
        section(
            "3.2",
            "Selling",
            para(
                "Visitors on the quay go to the stall with the brightest display.",
                "Add up the glow of all lanterns in your stall to find its brightness.",
            ),
            rule(
                "3.2.1",
                "Each visitor pays 2 coins to the merchant whose stall it visits.",
                "Ties split the visitors as evenly as possible, with leftover visitors "
                "returned to the bag.",
            ),
            rule(
                "3.2.2",
                "A stall with three lanterns of the same material in a row attracts one "
                "extra visitor, e.g. three silk lanterns side by side.",
            ),
        ),
        section(
            "4",
            "The Fifth Evening",
            para(
                "After the selling round of the fifth evening the market closes.",
                "Merchants score one point per coin and three points per gold leaf lantern.",
                "The richest merchant wins.",
            ),
            bullet("A tie is won by the merchant with the brighter stall."),
            bullet("If still tied, the merchants share the victory."),
        ),
    ),
)

HELD_OUT_SURVEY = SourceRulebook(
    name="survey",
    title="Tidewater Survey",
    header="Tidewater Survey: Rules",
    intro=(
        para(
            "Tidewater Survey is a cooperative map-making game for one to four cartographers.",
            "Together you chart a chain of islands before the spring tides wash the old "
            "markers away.",
            "Play takes 30 to 60 minutes.",
        ),
    ),
    sections=(
        section(
            "1",
            "Contents",
            para(
                "You will find a folded sea chart, 48 island tiles, 12 tide cards, four "
                "surveyor boats, one weather die and a pad of survey sheets in the box.",
            ),
            table(
                ("Item", "Count", "Note"),
                ("Island tiles", "48", "four shapes"),
                ("Tide cards", "12", "numbered 1 to 12"),
                ("Surveyor boats", "4", "one per player"),
                ("Weather die", "1", "six faces"),
            ),
        ),
        section(
            "2",
            "Before the First Survey",
            para(
                "Unfold the sea chart and place it where everyone can reach it.",
                "Shuffle the island tiles face down into a supply.",
            ),
            step(1, "Each player chooses a boat and sets it on the harbor space."),
            step(2, "Shuffle the tide cards and place them face down as the tide deck."),
            step(
                3,
                "Reveal three island tiles and put them next to the chart.",
                "This is the open supply.",
            ),
            sidebar(
                "Solo play: use two boats and alternate between them.",
                "You win or lose exactly as a team would.",
            ),
        ),
        section(
            "3",
            "Taking Turns",
            para(
                "Starting with the player who most recently sailed, players take turns in "
                "clockwise order.",
                "On your turn, move your boat, then survey or rest.",
                "After every fourth turn, draw a tide card.",
            ),
        ),
        section(
            "3.1",
            "Moving Boats",
            rule(
                "3.1.1",
                "A boat moves up to three water spaces.",
                "It may not enter a space that holds an island tile.",
            ),
            rule(
                "3.1.2",
                "Two boats may share a space.",
                "A boat that shares a space with another may move one extra space.",
            ),
            rule(
                "3.1.3",
                "Shallow water (the pale blue spaces) costs two moves to enter, vs. one move "
                "for open water.",
            ),
        ),
        section(
            "3.2",
            "Surveying",
            para(
                "To survey, take one tile from the open supply and place it next to your boat.",
                "The new tile must touch at least one tile already on the chart, unless the "
                "chart is empty.",
                "Refill the open supply immediately.",
            ),
            board(6, {(1, 1): "H", (1, 2): "I", (2, 2): "I", (4, 4): "B"}),
            caption("Figure 3: A boat at B surveys next to the islands marked I."),
        ),
        section(
            "3.2.1",
            "Matching Coastlines",
            para(
                "Coastlines of touching tiles must match: sand meets sand and rock meets rock.",
                "A tile placed against a mismatched coast is returned to the supply, and your "
                "turn ends.",
            ),
        ),
        section(
            "3.3",
            "Tides",
            para(
                "A tide card shows how many water spaces are flooded, between 1 and 3.",
                "Flooded spaces are covered with a marker until the next tide card.",
                "A boat on a flooded space is pushed to the nearest dry water space, i.e. one "
                "that is not flooded.",
            ),
            bullet("High tide: flood three spaces next to the harbor."),
            bullet("Low tide: remove all flood markers."),
            bullet("Storm tide: every boat loses its next turn."),
        ),
        section(
            "4",
            "Winning and Losing",
            para(
                "You win together when the chart shows 20 island tiles with no mismatched coast.",
                "You lose together when the tide deck runs out first.",
                "Count your score as 1.5 points per island for comparing games.",
            ),
        ),
        section(
            None,
            "Variants",
            para(
                "Once you have won a few times, try one of these variants.",
                "They can be combined freely.",
            ),
        ),
        section(
            None,
            "Rough Seas",
            para(
                "Roll the weather die at the start of every turn.",
                "On a 6, your boat may move only one space.",
            ),
            level=2,
        ),
    ),
)

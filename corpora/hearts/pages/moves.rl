# page: moves
# implements: 3.1, 3.2, 4.1, 4.2
# Candidate slots for the playout loop (reference.md, "Candidate slots"), by phase: the
# four pass directions; the cards not yet dealt; the cards in the mover's hand, to set
# aside while passing and to play after. Every legal action is in one slot; whether a
# card may be played (following suit, 4.2 to 4.4) is left to the action's own test.
# The table holds pass_direction(dir) at dir, deal(card) at 4 + card, pass_card(card)
# at 56 + card and play(card) at 108 + card.
import cards
import hand

const DIRECTIONS = 4
const DEAL_FIRST = 4
const PASS_CARD_FIRST = 56
const PLAY_FIRST = 108

# A search bot deals the cards its seat cannot see anew, and a scenario's `set` may
# give the hands outright; the lists are then made again from the cards (runtime,
# `r2g_rebuild`).
fun r2g_rebuild(Game g):
    g.table.list_again()

fun r2g_candidate_slots(Game g) -> Int:
    if g.phase == CHOOSING_DIRECTION:
        return DIRECTIONS
    if g.phase == DEALING:
        return CARDS - g.table.dealt
    return g.table.lists.value.held_count[g.table.current]

fun r2g_candidate_at(Game g, Int k) -> Int:
    if g.phase == CHOOSING_DIRECTION:
        return k
    if g.phase == DEALING:
        return DEAL_FIRST + g.table.lists.value.undealt[k]
    let card = g.table.lists.value.held[g.table.current * HAND_CARDS + k]
    if g.phase == PASSING:
        return PASS_CARD_FIRST + card
    return PLAY_FIRST + card

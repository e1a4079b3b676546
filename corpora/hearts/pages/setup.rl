# page: setup
# implements: 3.2
# The deal, face down: one card at a time, each hand seen by its owner alone. (The pass
# direction is drawn in hand; directions: 0 none, 1 left, 2 across, 3 right.)
import cards

const NO_PASS = 0

# Each hand and each player's set-aside cards are seen by that player alone. Every card
# is undealt.
fun clear_table(Table t):
    let p = 0
    while p < PLAYERS:
        t.hands[p].set_visible_by_player(p)
        t.set_aside[p].set_visible_by_player(p)
        p = p + 1
    let card = 0
    while card < CARDS:
        t.lists.value.undealt[card] = card
        t.lists.value.place[card] = card
        card = card + 1

fun can_deal(Table t, Int card) -> Bool:
    return t.dealt < CARDS and t.holder_of(card) == NOBODY

# The n-th card dealt (from 0) goes to player n mod 4. In the list of undealt cards,
# the last one takes the dealt card's place.
fun deal_card(Table t, Int card):
    let moved = t.lists.value.undealt[CARDS - t.dealt - 1]
    let k = t.lists.value.place[card]
    t.lists.value.undealt[k] = moved
    t.lists.value.place[moved] = k
    t.add_to_hand(t.dealt % PLAYERS, card)
    t.dealt = t.dealt + 1

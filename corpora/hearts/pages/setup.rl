# page: setup
# implements: 3.1, 3.2
# Pass direction by chance (0 none, 1 left, 2 across, 3 right), then a one-card-at-a-time deal.
import cards

const NO_PASS = 0

fun clear_table(Table t):
    let card = 0
    while card < CARDS:
        t.holder[card] = NOBODY
        card = card + 1

fun can_deal(Table t, Int card) -> Bool:
    return t.dealt < CARDS and t.holder[card] == NOBODY

# The n-th card dealt (from 0) goes to player n mod 4.
fun deal_card(Table t, Int card):
    t.holder[card] = t.dealt % PLAYERS
    t.dealt = t.dealt + 1

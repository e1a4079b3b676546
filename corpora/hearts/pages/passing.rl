# page: passing
# implements: 3.1, 4.1
# Players 0, 1, 2, 3 in turn set aside three cards each; then all are handed over at once.
import cards

const PASS_SIZE = 3

fun can_pass(Table t, Int card) -> Bool:
    return t.passes < PASSED_CARDS and t.holds(t.current, card)

fun set_aside(Table t, Int card):
    t.remove_from_hand(t.current, card)
    t.set_aside[t.current].value[card] = true
    t.lists.value.passed[t.passes] = card
    t.passes = t.passes + 1
    if t.passes % PASS_SIZE == 0:
        t.current = t.current + 1

# The cards of player p go to player p + direction (mod 4). Player p set aside the
# passed cards 3 * p, 3 * p + 1 and 3 * p + 2.
fun hand_over(Table t, Int direction):
    let n = 0
    while n < PASSED_CARDS:
        let giver = n / PASS_SIZE
        t.add_to_hand((giver + direction) % PLAYERS, t.lists.value.passed[n])
        n = n + 1

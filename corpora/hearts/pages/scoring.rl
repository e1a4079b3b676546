# page: scoring
# implements: 6.1, 6.2, 6.3
# Hearts 1 point, queen of spades 13; all 26 to one player shoots the moon; result = 26 - points.
import cards
import hand

const ALL_POINTS = 26
const HEART_POINTS = 1
const QUEEN_OF_SPADES_POINTS = 13

fun penalty_of(Int card) -> Int:
    if suit_of(card) == HEARTS:
        return HEART_POINTS
    if card == QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES_POINTS
    return 0

fun moon_shooter(Table t) -> Int:
    let p = 0
    while p < PLAYERS:
        if t.points[p] == ALL_POINTS:
            return p
        p = p + 1
    return NOBODY

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    let shooter = moon_shooter(g.table)
    if shooter != NOBODY:
        if shooter == player:
            return float(ALL_POINTS)
        return 0.0
    return float(ALL_POINTS - g.table.points[player])

# page: end
# implements: 5.1, 6
# The first player with 100 or more wins (1 point); the others lose (-1); nobody: 0.
import setup
import turn

fun winner(Game g) -> Int:
    let p = 0
    while p < PLAYERS:
        if g.scores[p] >= WIN_SCORE:
            return p
        p = p + 1
    return -1

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    let w = winner(g)
    if w == -1:
        return 0.0
    if w == player:
        return 1.0
    return -1.0 / float(PLAYERS - 1)

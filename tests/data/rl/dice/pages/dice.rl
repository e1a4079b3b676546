# page: dice
# implements: 1, 2
# Roll a die (a chance action); a 1 ends the turn with nothing, otherwise the player
# holds (banking the turn total) or rolls again. First to 20 wins.
import serialization.print

const TARGET = 20

@classes
act play() -> Game:
    frm scores : Int[2]
    frm turn_total = 0
    frm current = 0
    frm rolling = true
    while scores[0] < TARGET and scores[1] < TARGET:
        rolling = true
        act roll(BInt<1, 7> face)
        rolling = false
        if face.value == 1:
            turn_total = 0
            current = 1 - current
        else:
            turn_total = turn_total + face.value
            actions:
                act hold()
                    scores[current] = scores[current] + turn_total
                    turn_total = 0
                    current = 1 - current
                act again()

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    if g.rolling:
        return -1
    return g.current

fun get_num_players() -> Int:
    return 2

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    if g.scores[player] >= TARGET:
        return 1.0
    return -1.0

fun pretty_print(Game g):
    print(g.scores)

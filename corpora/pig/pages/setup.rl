# page: setup
# implements: 2, 4.1
# The constants of the game (players, the 100-point goal, the move limit) and whose turn is
# next. The starting scores and the first player are set where the state is declared (turn).
import serialization.print
import turn

const PLAYERS = 2
const WIN_SCORE = 100
const MOVE_LIMIT = 1000

fun next_player(Int player) -> Int:
    return (player + 1) % PLAYERS

fun pretty_print(Game g):
    let text = "scores: "s
    let p = 0
    while p < PLAYERS:
        text = text + to_string(g.scores[p]) + " "s
        p = p + 1
    text = text + "turn total: "s + to_string(g.turn_total) + " player: "s + to_string(g.current)
    print(text)

# page: setup
# implements: 2, 3
# Scores start at 0, the turn total at 0, and player 0 begins.
import serialization.print
import turn

const PLAYERS = 2
const DIE_FACES = 6
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

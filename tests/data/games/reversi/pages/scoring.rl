# page: scoring
# implements: 6, 1#3
# At the end each player counts their discs: more discs wins (1), fewer loses (-1),
# equal is a draw (0 each). Also the hooks and the printed board.
import board
import turns

fun get_num_players() -> Int:
    return 2

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    let mine = g.board.count(colour_of(player))
    let theirs = g.board.count(colour_of(1 - player))
    if mine > theirs:
        return 1.0
    if mine < theirs:
        return -1.0
    return 0.0

fun pretty_print(Game g):
    let text = "  a b c d e f g h\n"s
    let r = 1
    while r <= SIZE:
        text = text + to_string(r)
        let c = 1
        while c <= SIZE:
            let v = g.board.at(c, r)
            if v == BLACK:
                text = text + " B"s
            else if v == WHITE:
                text = text + " W"s
            else:
                text = text + " ."s
            c = c + 1
        text = text + "\n"s
        r = r + 1
    text = text + "to move: "s + to_string(g.current)
    print(text)

# page: board
# implements: 2, 3
# The 8 x 8 board, squares indexed by file 0..7 (a..h) and rank 1..8; both armies set up.
import serialization.print
import turn

const FILES = 8
const RANKS = 8
const SQUARES = 64
const EMPTY = 0
const BLACK = 1
const WHITE = 2

cls Board:
    Int[SQUARES] squares
    Int[2] pieces  # pieces left, by player

    fun get(Int file, Int rank) -> Int:
        return self.squares[(rank - 1) * FILES + file]

    fun set(Int file, Int rank, Int piece):
        self.squares[(rank - 1) * FILES + file] = piece

fun colour_of(Int player) -> Int:
    if player == 0:
        return BLACK
    return WHITE

# Black (player 0) moves towards rank 1, white (player 1) towards rank 8.
fun forward(Int player) -> Int:
    if player == 0:
        return -1
    return 1

fun far_rank(Int player) -> Int:
    if player == 0:
        return 1
    return RANKS

fun set_up(Board b):
    let file = 0
    while file < FILES:
        b.set(file, 8, BLACK)
        b.set(file, 7, BLACK)
        b.set(file, 1, WHITE)
        b.set(file, 2, WHITE)
        file = file + 1
    b.pieces[0] = 2 * FILES
    b.pieces[1] = 2 * FILES

fun pretty_print(Game g):
    let text = ""s
    let rank = RANKS
    while rank >= 1:
        text = text + to_string(rank)
        let file = 0
        while file < FILES:
            let square = g.board.get(file, rank)
            if square == BLACK:
                text = text + "b"s
            else if square == WHITE:
                text = text + "w"s
            else:
                text = text + "."s
            file = file + 1
        text = text + "\n"s
        rank = rank - 1
    text = text + " abcdefgh"s
    print(text)

# page: board
# implements: 2, 3
# The 8 x 8 board, squares indexed by file 0..7 (a..h) and rank 1..8; both armies set up.
# Each player's pieces are also kept as a list of their squares (square = (rank - 1) *
# 8 + file), for the candidate slots (page moves), hidden from the observation.
import serialization.print
import machine_learning
import turn

const FILES = 8
const RANKS = 8
const SQUARES = 64
const EMPTY = 0
const BLACK = 1
const WHITE = 2
const MAX_PIECES = 16
const ALL_PIECES = 32  # 2 * MAX_PIECES

# Where each player's pieces stand, in an order that depends on the moves played: kept
# in a Hidden value, so that the observation (the squares and counts) is the same for
# the same position however it was reached.
cls PieceLists:
    # player p's pieces stand on at[p * MAX_PIECES + k] for k < pieces[p]
    Int[ALL_PIECES] at
    # the k of the piece standing on a square (meaningless on an empty square)
    Int[SQUARES] slot

cls Board:
    Int[SQUARES] squares
    Int[2] pieces  # pieces left, by player
    Hidden<PieceLists> lists

    fun get(Int file, Int rank) -> Int:
        return self.squares[(rank - 1) * FILES + file]

    fun set(Int file, Int rank, Int piece):
        self.squares[(rank - 1) * FILES + file] = piece

    fun add_piece(Int player, Int square):
        self.lists.value.slot[square] = self.pieces[player]
        self.lists.value.at[player * MAX_PIECES + self.pieces[player]] = square
        self.pieces[player] = self.pieces[player] + 1

    fun move_piece(Int player, Int from_sq, Int to_sq):
        let k = self.lists.value.slot[from_sq]
        self.lists.value.at[player * MAX_PIECES + k] = to_sq
        self.lists.value.slot[to_sq] = k

    # the last piece of the list takes the place of the captured one
    fun remove_piece(Int player, Int square):
        let last = self.pieces[player] - 1
        let k = self.lists.value.slot[square]
        let moved = self.lists.value.at[player * MAX_PIECES + last]
        self.lists.value.at[player * MAX_PIECES + k] = moved
        self.lists.value.slot[moved] = k
        self.pieces[player] = last

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
        b.add_piece(0, 7 * FILES + file)
        b.add_piece(0, 6 * FILES + file)
        b.add_piece(1, file)
        b.add_piece(1, FILES + file)
        file = file + 1

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

# page: board
# implements: 2, 3
# The grid of nine squares; a square holds EMPTY, CROSS (player 0) or NOUGHT (player 1).
import serialization.print
import turn

const CELLS = 9
const EMPTY = 0
const CROSS = 1
const NOUGHT = 2

cls Board:
    Int[CELLS] cells

    fun get(Int row, Int col) -> Int:
        return self.cells[row * 3 + col]

    fun set(Int row, Int col, Int mark):
        self.cells[row * 3 + col] = mark

    fun full() -> Bool:
        let i = 0
        while i < CELLS:
            if self.cells[i] == EMPTY:
                return false
            i = i + 1
        return true

# Rule invariant (2, 4.1): crosses and noughts alternate, so there are as many crosses as
# noughts, or one cross more.
fun marks_alternate(Game g) -> Bool:
    let crosses = 0
    let noughts = 0
    let i = 0
    while i < CELLS:
        if g.board.cells[i] == CROSS:
            crosses = crosses + 1
        else if g.board.cells[i] == NOUGHT:
            noughts = noughts + 1
        i = i + 1
    return crosses == noughts or crosses == noughts + 1

fun mark_of(Int player) -> Int:
    if player == 0:
        return CROSS
    return NOUGHT

fun pretty_print(Game g):
    let text = ""s
    let row = 0
    while row < 3:
        let col = 0
        while col < 3:
            let cell = g.board.get(row, col)
            if cell == CROSS:
                text = text + "x"s
            else if cell == NOUGHT:
                text = text + "o"s
            else:
                text = text + "."s
            col = col + 1
        text = text + "\n"s
        row = row + 1
    print(text)

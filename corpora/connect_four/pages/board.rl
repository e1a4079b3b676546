# page: board
# implements: 2, 3
# The 6 x 7 grid; row 0 is the bottom row. A space holds EMPTY, CROSS or NOUGHT.
import serialization.print
import turn

const ROWS = 6
const COLS = 7
const CELLS = 42
const EMPTY = 0
const CROSS = 1
const NOUGHT = 2

cls Board:
    Int[CELLS] cells

    fun get(Int row, Int col) -> Int:
        return self.cells[row * COLS + col]

    fun set(Int row, Int col, Int disc):
        self.cells[row * COLS + col] = disc

    fun column_full(Int col) -> Bool:
        return self.get(ROWS - 1, col) != EMPTY

    fun lowest_free_row(Int col) -> Int:
        let row = 0
        while row < ROWS:
            if self.get(row, col) == EMPTY:
                return row
            row = row + 1
        return -1

    fun full() -> Bool:
        let col = 0
        while col < COLS:
            if !self.column_full(col):
                return false
            col = col + 1
        return true

fun disc_of(Int player) -> Int:
    if player == 0:
        return CROSS
    return NOUGHT

fun pretty_print(Game g):
    let text = ""s
    let row = ROWS - 1
    while row >= 0:
        let col = 0
        while col < COLS:
            let cell = g.board.get(row, col)
            if cell == CROSS:
                text = text + "x"s
            else if cell == NOUGHT:
                text = text + "o"s
            else:
                text = text + "."s
            col = col + 1
        text = text + "\n"s
        row = row - 1
    print(text)

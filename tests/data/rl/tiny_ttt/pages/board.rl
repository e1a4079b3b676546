# page: board
# implements: 1
# The grid: nine cells, 0 = empty, 1 = x (player 0), 2 = o (player 1).
import serialization.print

cls Board:
    Int[9] cells

    fun get(Int row, Int col) -> Int:
        return self.cells[row * 3 + col]

    fun full() -> Bool:
        let i = 0
        while i < 9:
            if self.cells[i] == 0:
                return false
            i = i + 1
        return true

fun pretty_print(Game g):
    let text = ""s
    let i = 0
    while i < 9:
        if g.board.cells[i] == 1:
            text = text + "x"s
        else if g.board.cells[i] == 2:
            text = text + "o"s
        else:
            text = text + "."s
        if i % 3 == 2:
            text = text + "\n"s
        i = i + 1
    print(text)

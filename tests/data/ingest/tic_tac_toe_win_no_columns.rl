# page: win
# implements: 5.1, 6
# Three marks in a row, column or diagonal win; a draw (full grid, see turn) scores 0.
import board
import turn

fun _line(Board b, Int mark, Int row, Int col, Int drow, Int dcol) -> Bool:
    let i = 0
    while i < 3:
        if b.get(row + i * drow, col + i * dcol) != mark:
            return false
        i = i + 1
    return true

fun three_in_a_row(Board b, Int mark) -> Bool:
    let i = 0
    while i < 3:
        if _line(b, mark, i, 0, 0, 1):
            return true
        i = i + 1
    return _line(b, mark, 0, 0, 1, 1) or _line(b, mark, 0, 2, 1, -1)

fun score(Game g, Int player) -> Float:
    if !g.is_done() or g.winner == -1:
        return 0.0
    if g.winner == player:
        return 1.0
    return -1.0

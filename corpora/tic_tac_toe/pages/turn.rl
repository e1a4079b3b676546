# page: turn
# implements: 4.1, 4.2, 5.1, 5.2
# Players alternate, each marking one empty square; the game ends at once on a line
# (5.1) or when the grid is full (5.2).
import board
import win

@classes
act play() -> Game:
    frm board : Board
    frm current = 0
    frm winner = -1
    while true:
        act mark(BInt<0, 3> row, BInt<0, 3> col) { board.get(row.value, col.value) == EMPTY }
        board.set(row.value, col.value, mark_of(current))
        if three_in_a_row(board, mark_of(current)):
            winner = current
            return
        if board.full():
            return
        current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return g.current

fun get_num_players() -> Int:
    return 2

# page: play
# implements: 2, 3
# Players alternate marking empty cells; three in a line wins.
import board
import lines

@classes
act play() -> Game:
    frm board : Board
    frm current = 0
    frm winner = -1
    while winner == -1 and !board.full():
        act mark(BInt<0, 3> row, BInt<0, 3> col) { board.get(row.value, col.value) == 0 }
        board.cells[row.value * 3 + col.value] = current + 1
        if has_line(board, current + 1):
            winner = current
        current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return g.current

fun get_num_players() -> Int:
    return 2

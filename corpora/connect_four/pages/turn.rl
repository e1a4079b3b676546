# page: turn
# implements: 4.1, 4.2, 5.1, 5.2
# Players alternate dropping a disc into a column that is not full; the game ends at once
# on a line of four (5.1) or when the grid is full (5.2).
import board
import win

@classes
act play() -> Game:
    frm board : Board
    frm current = 0
    frm winner = -1
    while true:
        act drop(BInt<0, 7> col) { !board.column_full(col.value) }
        let row = board.lowest_free_row(col.value)
        board.set(row, col.value, disc_of(current))
        if four_in_a_row(board, row, col.value):
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

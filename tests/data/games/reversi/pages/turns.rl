# page: turns
# implements: 1, 3#2, 4.1, 4.2#1, 4.2#2, 4.4#1, 4.4#2, 5#1, 5#2
# Black (player 0) moves first; players alternate. A player with a legal placement
# must place a disc that outflanks; a player without one must pass (and may pass only
# then). The game ends as soon as neither player has a legal placement (full board, or
# one colour gone, included).
import bounded_arg
import board

@classes
act play() -> Game:
    frm board = new_board()
    frm current = 0
    while board.has_any_move(0) or board.has_any_move(1):
        if board.has_any_move(current):
            act place(BInt<1, 9> col, BInt<1, 9> row) { board.outflanks(current, col.value, row.value) }
            board.place(current, col.value, row.value)
        else:
            act pass_()
        current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return g.current

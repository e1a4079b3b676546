# page: turn
# implements: 4.1, 4.2, 4.3, 5
# One action per (from square, to square) pair, 64 x 64 = 4096 entries: the corpus game
# with a big action table, as a speed test; page moves lists candidate moves. Players
# alternate moving one piece one rank forward; diagonal moves may capture; the game
# ends at once when a move wins (5).
import board
import win

fun can_move(Board b, Int player, Int from_file, Int from_rank, Int to_file) -> Bool:
    if b.get(from_file, from_rank) != colour_of(player):
        return false
    let to_rank = from_rank + forward(player)
    if to_rank < 1 or to_rank > RANKS:
        return false
    let target = b.get(to_file, to_rank)
    if to_file == from_file:
        return target == EMPTY
    if to_file != from_file - 1 and to_file != from_file + 1:
        return false
    return target != colour_of(player)

@classes
act play() -> Game:
    frm board : Board
    set_up(board)
    frm current = 0
    frm winner = -1
    while true:
        act move(BInt<0, 64> from_sq, BInt<0, 64> to_sq) {
            to_sq.value / FILES == from_sq.value / FILES + forward(current) and can_move(board, current, from_sq.value % FILES, from_sq.value / FILES + 1, to_sq.value % FILES)
        }
        let from_file = from_sq.value % FILES
        let from_rank = from_sq.value / FILES + 1
        let to_file = to_sq.value % FILES
        let to_rank = from_rank + forward(current)
        let to = (to_rank - 1) * FILES + to_file
        if board.get(to_file, to_rank) != EMPTY:
            board.remove_piece(1 - current, to)
        board.move_piece(current, from_sq.value, to)
        board.set(to_file, to_rank, colour_of(current))
        board.set(from_file, from_rank, EMPTY)
        if game_won(board, current, to_rank):
            winner = current
            return
        current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return g.current

fun get_num_players() -> Int:
    return 2

# page: turn
# implements: 4.1, 4.2, 4.3, 5
# Players alternate moving one piece one rank forward; diagonal moves may capture; the game
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
        act move(BInt<0, 8> from_file, BInt<1, 9> from_rank, BInt<0, 8> to_file) {
            can_move(board, current, from_file.value, from_rank.value, to_file.value)
        }
        let to_rank = from_rank.value + forward(current)
        let from_sq = (from_rank.value - 1) * FILES + from_file.value
        let to_sq = (to_rank - 1) * FILES + to_file.value
        if board.get(to_file.value, to_rank) != EMPTY:
            board.remove_piece(1 - current, to_sq)
        board.move_piece(current, from_sq, to_sq)
        board.set(to_file.value, to_rank, colour_of(current))
        board.set(from_file.value, from_rank.value, EMPTY)
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

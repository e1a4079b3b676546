# page: win
# implements: 5.1, 5.2, 6
# Reaching the far rank or capturing every enemy piece wins; no draws.
import board
import turn

fun game_won(Board b, Int player, Int reached_rank) -> Bool:
    return reached_rank == far_rank(player) or b.pieces[1 - player] == 0

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    if g.winner == player:
        return 1.0
    return -1.0

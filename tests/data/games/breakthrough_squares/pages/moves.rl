# page: moves
# implements: 4.1, 4.2, 4.3
# The legal moves listed for the playout loop (reference.md, "Listing the legal moves"):
# each piece of the player to move has at most three, so the loop draws among them
# instead of testing 4096 table entries. Index of move(from_sq, to_sq) in the table:
# from_sq * 64 + to_sq; listed ascending.
import board
import turn

fun r2g_moves(Game g, Vector<Int> out) -> Int:
    let colour = colour_of(g.current)
    let n = 0
    let from_sq = 0
    while from_sq < SQUARES:
        if g.board.squares[from_sq] == colour:
            let from_file = from_sq % FILES
            let from_rank = from_sq / FILES + 1
            let to_rank = from_rank + forward(g.current)
            if to_rank >= 1 and to_rank <= RANKS:
                let to_file = from_file - 1
                while to_file <= from_file + 1:
                    if to_file >= 0 and to_file < FILES:
                        if can_move(g.board, g.current, from_file, from_rank, to_file):
                            out.set(n, from_sq * SQUARES + (to_rank - 1) * FILES + to_file)
                            n = n + 1
                    to_file = to_file + 1
        from_sq = from_sq + 1
    return n

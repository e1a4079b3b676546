# page: moves
# implements: 4.1, 4.2, 4.3
# Candidate moves for the playout loop (reference.md, "Listing candidate moves"): each
# piece of the player to move, towards the three squares of the next rank ahead of it
# (those on the board). Every legal move is among them, each once; whether a candidate
# is legal (a straight move needs an empty square, a diagonal one no piece of the
# mover's) is left to the move's own test. Index of move(from_sq, to_sq) in the table:
# from_sq * 64 + to_sq.
import board
import turn

fun r2g_move_candidates(Game g, Vector<Int> out) -> Int:
    if g.is_done():
        return 0
    let player = g.current
    let ahead = forward(player) * FILES
    let n = 0
    let k = 0
    while k < g.board.pieces[player]:
        let from_sq = g.board.at[player * MAX_PIECES + k]
        let to_sq = from_sq + ahead
        # a piece on its far rank has won: the game is over, no square is ahead
        if to_sq >= 0 and to_sq < SQUARES:
            let straight = from_sq * SQUARES + to_sq
            let file = from_sq % FILES
            if file != 0:
                out.set(n, straight - 1)
                n = n + 1
            out.set(n, straight)
            n = n + 1
            if file != FILES - 1:
                out.set(n, straight + 1)
                n = n + 1
        k = k + 1
    return n

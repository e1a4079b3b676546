# page: moves
# implements: 4.1, 4.2, 4.3
# Candidate moves for the playout loop (reference.md, "Listing candidate moves"): each
# piece of the player to move, towards the three squares of the next rank ahead of it
# (those on the board). Every legal move is among them, each once; whether a candidate
# is legal (a straight move needs an empty square, a diagonal one no piece of the
# mover's) is left to the move's own test. Index of move(from_sq, to_sq) in the table:
# from_sq * 64 + to_sq. No piece stands on its far rank while the game goes on (that
# move wins), so a square ahead is always on the board. The edge files are handled by
# arithmetic rather than branches, which the playout loop runs faster (reference.md
# shows the plain form).
import board
import turn

fun r2g_move_candidates(Game g, Vector<Int> out) -> Int:
    let player = g.current
    let ahead = forward(player) * FILES
    let count = g.board.pieces[player]
    let first = player * MAX_PIECES
    let n = 0
    let k = 0
    while k < count:
        let from_sq = g.board.at[first + k]
        let straight = from_sq * SQUARES + from_sq + ahead
        let file = from_sq % FILES
        # the diagonal towards file 0 counts unless the piece is on file 0, the other
        # unless on file 7 (a write that does not count is overwritten, or left beyond n)
        out.set(n, straight - 1)
        n = n + (file + FILES - 1) / FILES
        out.set(n, straight)
        n = n + 1
        out.set(n, straight + 1)
        n = n + (FILES - 1 - file + FILES - 1) / FILES
        k = k + 1
    return n

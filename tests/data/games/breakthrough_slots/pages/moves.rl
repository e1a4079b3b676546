# page: moves
# implements: 4.1, 4.2, 4.3
# Candidate slots for the playout loop (reference.md, "Candidate slots"): three per
# piece of the player to move, towards the three squares of the next rank ahead of it;
# a slot beyond the edge file is empty (-1). Every legal move is in one slot; whether
# a candidate is legal is left to the move's own test. Index of move(from_sq, to_sq)
# in the table: from_sq * 64 + to_sq. No piece stands on its far rank while the game
# goes on (that move wins), so a square ahead is always on the board.
import board
import turn

fun r2g_candidate_slots(Game g) -> Int:
    return 3 * g.board.pieces[g.current]

fun r2g_candidate_at(Game g, Int k) -> Int:
    let player = g.current
    let from_sq = g.board.at[player * MAX_PIECES + k / 3]
    let to_file = from_sq % FILES + k % 3 - 1
    if to_file < 0 or to_file >= FILES:
        return -1
    return from_sq * SQUARES + from_sq + forward(player) * FILES + k % 3 - 1

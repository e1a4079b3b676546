# page: moves
# implements: 4.2, 4.3
# Candidate slots for the playout loop (reference.md, "Candidate slots"): three per
# piece of the player to move, one per square of the next rank ahead of it (the file to
# its left, its own file, the file to its right); a slot beyond an edge file is empty
# (-1). Every legal move is in one slot; whether a candidate is legal is left to the
# move's own test. Index of move(from_file, from_rank, to_file) in the table:
# from_file * 64 + (from_rank - 1) * 8 + to_file.
import board
import turn

fun r2g_candidate_slots(Game g) -> Int:
    return 3 * g.board.pieces[g.current]

fun r2g_candidate_at(Game g, Int k) -> Int:
    let square = g.board.lists.value.at[g.current * MAX_PIECES + k / 3]
    let from_file = square % FILES
    let to_file = from_file + k % 3 - 1
    if to_file < 0 or to_file >= FILES:
        return -1
    return from_file * SQUARES + (square / FILES) * FILES + to_file

# A scenario's or show_position's `set` edits the squares: the piece lists are made
# again from them (runtime, `r2g_rebuild`).
fun r2g_rebuild(Game g):
    g.board.pieces[0] = 0
    g.board.pieces[1] = 0
    let square = 0
    while square < SQUARES:
        if g.board.squares[square] != EMPTY:
            g.board.add_piece(g.board.squares[square] - 1, square)
        square = square + 1

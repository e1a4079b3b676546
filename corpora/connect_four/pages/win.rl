# page: win
# implements: 5.1, 6
# A line of four through the disc just dropped wins; a draw (full grid, see turn) scores 0.
import board
import turn

fun _run(Board b, Int row, Int col, Int drow, Int dcol) -> Int:
    # Discs of the same owner as (row, col), walking away from it in one direction.
    let disc = b.get(row, col)
    let count = 0
    let r = row + drow
    let c = col + dcol
    while r >= 0 and r < ROWS and c >= 0 and c < COLS:
        if b.get(r, c) != disc:
            return count
        count = count + 1
        r = r + drow
        c = c + dcol
    return count

fun _line_through(Board b, Int row, Int col, Int drow, Int dcol) -> Bool:
    return 1 + _run(b, row, col, drow, dcol) + _run(b, row, col, -drow, -dcol) >= 4

fun four_in_a_row(Board b, Int row, Int col) -> Bool:
    let across = _line_through(b, row, col, 0, 1) or _line_through(b, row, col, 1, 0)
    return across or _line_through(b, row, col, 1, 1) or _line_through(b, row, col, 1, -1)

fun score(Game g, Int player) -> Float:
    if !g.is_done() or g.winner == -1:
        return 0.0
    if g.winner == player:
        return 1.0
    return -1.0

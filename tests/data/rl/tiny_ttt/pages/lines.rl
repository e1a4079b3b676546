# page: lines
# implements: 3, 4
# A line is a row, a column or a diagonal; the winner scores 1, the loser -1.
import board

fun _same(Board b, Int mark, Int a, Int c, Int d) -> Bool:
    return b.cells[a] == mark and b.cells[c] == mark and b.cells[d] == mark

fun has_line(Board b, Int mark) -> Bool:
    let i = 0
    while i < 3:
        if _same(b, mark, i * 3, i * 3 + 1, i * 3 + 2) or _same(b, mark, i, i + 3, i + 6):
            return true
        i = i + 1
    return _same(b, mark, 0, 4, 8) or _same(b, mark, 2, 4, 6)

fun score(Game g, Int player) -> Float:
    if !g.is_done() or g.winner == -1:
        return 0.0
    if g.winner == player:
        return 1.0
    return -1.0

# page: turn
# implements: 1, 2
# A claim (row, column) of a free cell or a skip, at one point; after a claim a
# three-sided die tells whether the claimer goes again.
import bounded_arg

const ROWS = 3
const COLUMNS = 5

fun owner_at(Int[15] cells, Int row, Int col) -> Int:
    return cells[(row - 1) * COLUMNS + col]

@classes
act play() -> Game:
    frm cells : Int[15]
    frm current = 0
    frm claimed = 0
    frm skips : Int[2]
    let i = 0
    while i < ROWS * COLUMNS:
        cells[i] = -1
        i = i + 1
    while claimed < ROWS * COLUMNS and skips[0] + skips[1] < 6:
        actions:
            act claim(BInt<1, 4> row, BInt<0, 5> col) { owner_at(cells, row.value, col.value) == -1 }
                cells[(row.value - 1) * COLUMNS + col.value] = current
                claimed = claimed + 1
                act again(BInt<1, 4> side)
                if side.value == 3:
                    current = 1 - current
            act skip() { skips[current] < 3 }
                skips[current] = skips[current] + 1
                current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    if g.resume_index == 2:
        return -1
    return g.current

fun get_num_players() -> Int:
    return 2

fun score(Game g, Int player) -> Float:
    if !g.is_done():
        return 0.0
    let mine = 0
    let i = 0
    while i < ROWS * COLUMNS:
        if g.cells[i] == player:
            mine = mine + 1
        else if g.cells[i] != -1:
            mine = mine - 1
        i = i + 1
    return float(mine)

fun pretty_print(Game g):
    print(g.cells)

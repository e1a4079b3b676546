# page: board
# implements: 2, 3#1, 3#3, 4.2#2, 4.2#3, 4.3#1, 4.3#2, 4.3#4
# The 8x8 board: columns a..h are 1..8 left to right, rows 1..8 top to bottom.
# A square holds EMPTY, BLACK or WHITE. Player 0 is Black, player 1 is White.
# Outflanking: from the new disc, in one of eight directions, an unbroken line of one
# or more opponent discs ending in a disc of the mover's colour; an empty square or the
# board edge breaks the line. Only those lines (from the new disc) are flipped.
import serialization.print

const SIZE = 8
const EMPTY = 0
const BLACK = 1
const WHITE = 2

fun colour_of(Int player) -> Int:
    return player + 1

fun on_board(Int c, Int r) -> Bool:
    return c >= 1 and c <= SIZE and r >= 1 and r <= SIZE

fun index_of(Int c, Int r) -> Int:
    return (r - 1) * SIZE + (c - 1)

fun step_dc(Int d) -> Int:
    # directions 0..7: N, NE, E, SE, S, SW, W, NW
    if d == 1 or d == 2 or d == 3:
        return 1
    if d == 5 or d == 6 or d == 7:
        return -1
    return 0

fun step_dr(Int d) -> Int:
    if d == 3 or d == 4 or d == 5:
        return 1
    if d == 7 or d == 0 or d == 1:
        return -1
    return 0

cls Board:
    Int[64] cells

    fun at(Int c, Int r) -> Int:
        return self.cells[index_of(c, r)]

    # Number of opponent discs outflanked in direction d by a disc of `colour` placed
    # on (c, r); 0 when the line is broken by an empty square or the edge.
    fun run_length(Int colour, Int c, Int r, Int d) -> Int:
        let other = 3 - colour
        let dc = step_dc(d)
        let dr = step_dr(d)
        let x = c + dc
        let y = r + dr
        let n = 0
        while on_board(x, y) and self.at(x, y) == other:
            n = n + 1
            x = x + dc
            y = y + dr
        if n == 0:
            return 0
        if !on_board(x, y):
            return 0
        if self.at(x, y) != colour:
            return 0
        return n

    fun outflanks(Int player, Int c, Int r) -> Bool:
        if self.at(c, r) != EMPTY:
            return false
        let colour = colour_of(player)
        let d = 0
        while d < 8:
            if self.run_length(colour, c, r, d) > 0:
                return true
            d = d + 1
        return false

    fun has_any_move(Int player) -> Bool:
        let r = 1
        while r <= SIZE:
            let c = 1
            while c <= SIZE:
                if self.outflanks(player, c, r):
                    return true
                c = c + 1
            r = r + 1
        return false

    # Place the disc and turn over every outflanked line from it, all directions at
    # once: the lengths are measured before any disc is turned.
    fun place(Int player, Int c, Int r):
        let colour = colour_of(player)
        let lengths : Int[8]
        let d = 0
        while d < 8:
            lengths[d] = self.run_length(colour, c, r, d)
            d = d + 1
        self.cells[index_of(c, r)] = colour
        d = 0
        while d < 8:
            let k = 1
            while k <= lengths[d]:
                self.cells[index_of(c + k * step_dc(d), r + k * step_dr(d))] = colour
                k = k + 1
            d = d + 1

    fun count(Int colour) -> Int:
        let n = 0
        let i = 0
        while i < 64:
            if self.cells[i] == colour:
                n = n + 1
            i = i + 1
        return n

# Starting position: white on d4 and e5, black on e4 and d5.
fun new_board() -> Board:
    let b : Board
    b.cells[index_of(4, 4)] = WHITE
    b.cells[index_of(5, 5)] = WHITE
    b.cells[index_of(5, 4)] = BLACK
    b.cells[index_of(4, 5)] = BLACK
    return b

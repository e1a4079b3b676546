# page: faulty
# implements: 1
# `ok` counts to three; `boom` fails an assertion, `spin` never returns, `hog` eats
# memory, `oob` reads past the end of an array, `halve` breaks a function's precondition.
import serialization.print
import collections.vector

@classes
act play() -> Game:
    frm count = 0
    frm junk : Vector<Int>
    while count < 3:
        actions:
            act ok()
                count = count + 1
            act boom()
                assert(count > 100, "boom: the count is too small")
            act spin()
                while count >= 0:
                    count = (count + 1) % 5
            act hog()
                while true:
                    junk.append(count)
            act oob()
                let cells : Int[3]
                count = cells[count + 5]
            act halve()
                count = half_of(count)

fun half_of(Int even) -> Int { even % 2 == 0 }:
    return even / 2

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return 0

fun get_num_players() -> Int:
    return 1

fun score(Game g, Int player) -> Float:
    return float(g.count)

fun pretty_print(Game g):
    print(g.count)

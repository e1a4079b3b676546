# Runtime support for stepping a game from Python in-process (`rulebook2game.load`).
#
# Kept apart from r2g_runtime.rl (the worker's and the native loop's functions): this
# file holds only what the in-process API calls once per step, shaped for the fewest
# and cheapest calls from Python (every argument is a pointer, and each one costs).
import action
import collections.vector

fun r2g_play_instantiate():
    let any : AnyGameAction
    let all = enumerate(any)
    let g = play()
    let io : Vector<Int>
    io.resize(all.size() + 2)
    let points : Vector<Int>
    let candidates = r2g_candidates(all, points)
    r2g_step_io(g, all, candidates, io)

# One step in one call. On entry io[0] is the action index to apply (-1: none). On
# return io[0] is n, the number of legal actions (-1 when the action was not legal, and
# `g` is untouched), io[1] the player to move (-4 when the game is over) and
# io[2 .. n+1] the legal action indices, ascending: only the entries of the point the
# game is suspended at are tested (`c`, built once by `r2g_candidates` from the build's
# resume points; see `r2g_point_legal` in r2g_runtime.rl). `io` holds all.size() + 2
# entries.
fun<T> r2g_step_io(Game g, Vector<T> all, R2GCandidates c, Vector<Int> io):
    let index = io.get(0)
    if index >= 0:
        if index >= all.size():
            io.set(0, -1)
            return
        ref chosen = all.get(index)
        if chosen is ApplicableTo<Game>:
            if !(can apply(chosen, g)):
                io.set(0, -1)
                return
            apply(chosen, g)
        else:
            io.set(0, -1)
            return
    if g.is_done():
        io.set(0, 0)
        io.set(1, -4)
        return
    io.set(1, get_current_player(g))
    io.set(0, r2g_point_legal(g, all, c, io, 2))

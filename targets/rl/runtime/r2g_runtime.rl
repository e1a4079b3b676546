# Runtime support compiled together with every game's rule pages.
#
# The engine worker calls these through the Python wrapper rlc generates. Actions are
# addressed by their index in `enumerate(AnyGameAction)`, the same order the worker
# uses for its action table. The random-playout loop runs entirely here, at native
# speed: one call plays many seeded games.
#
# AnyGameAction cannot appear in a signature (rlc creates it after signatures are
# resolved), so the functions are templates over the action type and
# `r2g_instantiate` instantiates them for the game.
import action
import collections.vector
import serialization.to_byte_vector

const R2G_TERMINAL = 0
const R2G_TRUNCATED = 1
const R2G_STUCK = 2

# splitmix64; the shifted words are masked so that the arithmetic right shift of Int
# behaves like a logical one.
cls R2GRandom:
    Int state

    fun next() -> Int:
        self.state = self.state + 0x9e3779b97f4a7c15
        let z = self.state
        z = (z ^ ((z >> 30) & 0x3ffffffff)) * 0xbf58476d1ce4e5b9
        z = (z ^ ((z >> 27) & 0x1fffffffff)) * 0x94d049bb133111eb
        return z ^ ((z >> 31) & 0x1ffffffff)

    # uniform in [0, n) for 0 < n < 2^31, by multiply and shift (no division)
    fun below(Int n) -> Int:
        return ((self.next() & 0xffffffff) * n) >> 32

fun r2g_instantiate():
    let any : AnyGameAction
    let all = enumerate(any)
    let g = play()
    r2g_legal(g, all)
    r2g_apply(g, all, 0)
    let out : Vector<Int>
    let returns : Vector<Float>
    r2g_playouts(all, 0, 0, 0, false, out, returns)
    r2g_copy(g)
    r2g_byte_buffer(0)

fun<T> r2g_can(Game g, T action) -> Bool:
    if action is ApplicableTo<Game>:
        return can apply(action, g)
    return false

# Indices of the legal actions of `g`.
fun<T> r2g_legal(Game g, Vector<T> all) -> Vector<Int>:
    let out : Vector<Int>
    let i = 0
    while i != all.size():
        if r2g_can(g, all.get(i)):
            out.append(i)
        i = i + 1
    return out

# A deep copy (the wrapper's ctypes structs share heap memory when copied).
fun r2g_copy(Game g) -> Game:
    return g

# Applies action `index` if it is legal; false (and `g` untouched) otherwise.
fun<T> r2g_apply(Game g, Vector<T> all, Int index) -> Bool:
    if index < 0 or index >= all.size():
        return false
    ref chosen = all.get(index)
    if chosen is ApplicableTo<Game>:
        if can apply(chosen, g):
            apply(chosen, g)
            return true
    return false

# A uniformly random legal action of `g` (-1 if there is none). A few random draws
# from the whole action table usually hit a legal action quickly (rejection
# sampling); only when they all miss is the table scanned. Either way every legal
# action is equally likely.
fun<T> r2g_pick(Game g, Vector<T> all, Vector<Int> legal, R2GRandom rng) -> Int:
    let size = all.size()
    if size == 0:
        return -1
    let tries = size / 4 + 8
    while tries != 0:
        let candidate = rng.below(size)
        if r2g_can(g, all.get(candidate)):
            return candidate
        tries = tries - 1
    let n = 0
    let i = 0
    while i != size:
        if r2g_can(g, all.get(i)):
            legal.set(n, i)
            n = n + 1
        i = i + 1
    if n == 0:
        return -1
    return legal.get(rng.below(n))

fun r2g_byte_buffer(Int size) -> Vector<Byte>:
    let out : Vector<Byte>
    out.resize(size)
    return out

# `count` random games from seed `seed`, each at most `max_steps` actions, choosing
# uniformly among the legal actions (chance actions included). Per game, `out` gets
# [length, status] followed by the action indices when `record`, and `returns` gets
# score(g, p) for every player.
fun<T> r2g_playouts(Vector<T> all, Int seed, Int count, Int max_steps, Bool record, Vector<Int> out, Vector<Float> returns):
    let rng : R2GRandom
    rng.state = seed
    let legal : Vector<Int>
    legal.resize(all.size())
    let players = get_num_players()
    let done = 0
    while done != count:
        let g = play()
        let steps = 0
        let status = R2G_TERMINAL
        let header = out.size()
        out.append(0)
        out.append(0)
        while !g.is_done():
            if steps == max_steps:
                status = R2G_TRUNCATED
                break
            let chosen = r2g_pick(g, all, legal, rng)
            if chosen < 0:
                status = R2G_STUCK
                break
            if record:
                out.append(chosen)
            ref action = all.get(chosen)
            if action is ApplicableTo<Game>:
                apply(action, g)
            steps = steps + 1
        out.set(header, steps)
        out.set(header + 1, status)
        let p = 0
        while p != players:
            returns.append(score(g, p))
            p = p + 1
        done = done + 1

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
import machine_learning
import serialization.to_byte_vector

const R2G_TERMINAL = 0
const R2G_TRUNCATED = 1
const R2G_STUCK = 2

# A 64-bit linear congruential generator (Knuth's MMIX multiplier and increment); a
# draw is the state's high 32 bits (an LCG's low bits repeat with short periods). Its
# state advances by one multiply-add, so a draw waits on less than splitmix64's two
# dependent multiplies: pig's loop ran 6% faster with it, Hearts' 2%. The arithmetic
# right shift of Int is masked to act like a logical one.
cls R2GRandom:
    Int state

    fun next() -> Int:
        self.state = self.state * 6364136223846793005 + 1442695040888963407
        return (self.state >> 32) & 0xffffffff

    # uniform in [0, n) for 0 < n < 2^31, by multiply and shift (no division)
    fun below(Int n) -> Int:
        return (self.next() * n) >> 32

fun r2g_instantiate():
    let any : AnyGameAction
    let all = enumerate(any)
    let g = play()
    let points : Vector<Int>
    let candidates = r2g_candidates(all, points)
    r2g_legal(g, all, candidates)
    r2g_table_legal(g, all)
    r2g_listed(g, all, candidates)
    r2g_lists_moves()
    r2g_lists_candidates()
    r2g_candidate_list(g, all)
    r2g_apply(g, all, 0)
    let out : Vector<Int>
    let returns : Vector<Float>
    r2g_playouts(all, points, 0, 0, 0, false, out, returns)
    r2g_copy(g)
    r2g_byte_buffer(0)
    r2g_observation_size()
    r2g_observation_tensor(g, 0)
    r2g_masked(g, 0)
    r2g_resampled(g, 0, 0)
    r2g_resample_is_clean(g, 0)
    r2g_rebuilt(g)
    r2g_rebuilds()
    let buffer = r2g_int_buffer(0)
    r2g_float_buffer(0)
    r2g_step(g, all, candidates, -1, buffer)
    let games = r2g_new_games(0)
    let chosen : Vector<Int>
    let tensors : Vector<Float>
    r2g_step_many(games, all, candidates, chosen, buffer, tensors, 0)
    r2g_reset_game(games, 0)
    r2g_game_at(games, 0)

# A game may list its own legal actions (the rbg target's search does, and an rl page
# may: see reference.md, "Listing the legal moves"): then
# `fun r2g_moves(Game g, Vector<Int> out) -> Int` writes their indices into `all`,
# each once, in any order, to out[0..n) (`out` has room for every action) and returns
# n, and the functions below use that list instead of testing every action of the
# table. The playout loop then draws one of the listed moves directly (see
# `r2g_pick`): the k-th listed for one draw k, in the lister's own order (the worker
# reports that order, `r2g_listed`, so that playout_rng.py can replay the draw).
# Neither hook is called at a finished game (the runtime answers "no moves" there).
trait<T> R2GMoveLister:
    fun r2g_moves(T g, Vector<Int> out) -> Int

# A game with a big action table may instead list CANDIDATE moves (see reference.md,
# "Listing candidate moves"): `fun r2g_move_candidates(Game g, Vector<Int> out) -> Int`
# writes table indices to out[0..n) (`out` has room for every action) and returns n:
# each index at most once, and every legal action of `g` among them (a superset: an
# illegal candidate is allowed, a missing legal one is not). The playout loop draws
# among the candidates and tests the drawn one (`r2g_pick_candidates`); in-process
# stepping and the worker test only the candidates (`r2g_candidates_legal`). The check
# compares what the candidates give with testing the whole table (`r2g_table_legal`).
# A game that lists its legal moves too (`R2GMoveLister`) uses its list.
trait<T> R2GMoveCandidates:
    fun r2g_move_candidates(T g, Vector<Int> out) -> Int

# The same candidates without writing a list (reference.md, "Candidate slots"): the
# game has `r2g_candidate_slots(g)` slots (at most one per table entry) and slot k
# holds the table index `r2g_candidate_at(g, k)`, or -1 when it is empty. The loop
# draws a slot and computes only that one, so a step costs a few draws instead of a
# list of every candidate; everything else reads the slots in order, as a list in
# which -1 is never legal. A game with a list (`R2GMoveCandidates`) uses its list.
trait<T> R2GCandidateSlots:
    fun r2g_candidate_slots(T g) -> Int
    fun r2g_candidate_at(T g, Int k) -> Int

# The loop's steps of one playout, each a draw among a game's candidate slots, made by
# the game itself (the rulepage target writes one from its pages: it knows each slot's
# action type and the guard that opened it). From `g` as the loop hands it over, until
# the game is done (`status` left as it is), `max_steps` steps were taken (R2G_TRUNCATED)
# or no action is legal (R2G_STUCK, the generator back where it was before that step's
# draws); the number of steps taken returned, each step's table index appended to `out`
# when `record`. A step makes the same draws as `r2g_slot_step`: m the slots
# (`r2g_candidate_slots`), stuck when m <= 0 or m > size; else up to m / 4 + 8 draws of
# `rng.below(m)`, slot k taken as `r2g_candidate_at(g, k)` gives it, the first legal
# entry drawn applied with its action's own method; when every draw missed, the legal
# slots listed in `legal` in slot order and one of them drawn and applied. Only for a
# game whose every action waits at one point, where an action's `can` is its guard, so
# that a draw may test the guard alone: the compile step builds a game's steps in only
# when its resume points show one point.
trait<T> R2GSlotPlay:
    fun r2g_slot_play(T g, R2GRandom rng, Int max_steps, Bool record, Vector<Int> out, Int size, Vector<Int> legal, Int status) -> Int

# The loop's draws at the point a game is suspended at, made with the game's own action
# types (the compile step writes it from the action table and the resume points, for a
# game with a point of several action types: targets/rl/typed_step.py): the same draws
# as the table path of `r2g_playouts`, each tested and applied with its action's own
# `can` and method (`applied` set) and its table index returned; R2G_MISSED when every
# try missed (the loop then scans the group), and R2G_TABLE for a point it does not
# cover or a table of another size than `table`.
trait<T> R2GTypedStep:
    fun r2g_typed_step(T g, R2GRandom rng, Bool applied, Int table) -> Int

# A game whose play ends exactly when the player to move has no legal move, and whose
# candidate slots hold every legal move (the rbg target's), may let the playout loop
# find that end itself: after `r2g_defer_end(g)` its moves no longer search whether the
# next player can move, and the loop, once its draws and the scan of every slot find no
# legal move, ends the game there with `r2g_returns_without_moves(g, p)` as the returns
# (what `score` gives at that finished game). At the step limit it asks
# `r2g_can_move(g)` (the search the moves left out) before calling the game truncated.
# Only the loop's own copies are deferred.
trait<T> R2GEndsWithoutMoves:
    fun r2g_defer_end(T g)
    fun r2g_can_move(T g) -> Bool
    fun r2g_returns_without_moves(T g, Int player) -> Float

# Whether the game lists candidate moves, as a list or as slots.
fun r2g_has_candidates(Game g) -> Bool:
    let found = false
    if g is R2GMoveCandidates:
        found = true
    else if g is R2GCandidateSlots:
        found = true
    return found

# The game's candidates written to out[0 .. n), n returned (the slots one by one, -1 for
# an empty one); a count out of 0..out.size() is returned unwritten. Not called at a
# finished game, nor for a game without candidates.
fun r2g_fill_candidates(Game g, Vector<Int> out) -> Int:
    let n = 0
    if g is R2GMoveCandidates:
        n = g.r2g_move_candidates(out)
    else if g is R2GCandidateSlots:
        n = g.r2g_candidate_slots()
        if n >= 0 and n <= out.size():
            let k = 0
            while k != n:
                out.set(k, g.r2g_candidate_at(k))
                k = k + 1
    return n

# The slots written to `out` (a game with a list has written it already).
fun r2g_fill_slots(Game g, Vector<Int> out):
    let listed = false
    if g is R2GMoveCandidates:
        listed = true
    if !listed:
        r2g_fill_candidates(g, out)

# How many candidates the loop draws among: a list is written to `out` first; slots
# are only counted.
fun r2g_candidate_count(Game g, Vector<Int> out) -> Int:
    let n = 0
    if g is R2GMoveCandidates:
        n = g.r2g_move_candidates(out)
    else if g is R2GCandidateSlots:
        n = g.r2g_candidate_slots()
    return n

# Candidate k of those counted by `r2g_candidate_count` (read from the list, or the
# slot computed).
fun r2g_candidate_drawn(Game g, Vector<Int> out, Int k) -> Int:
    let candidate = -1
    if g is R2GMoveCandidates:
        candidate = out.get(k)
    else if g is R2GCandidateSlots:
        candidate = g.r2g_candidate_at(k)
    return candidate

# Whether the game lists its own legal actions (the worker tells the engine, so that
# the native loop's choices can be replayed: playout_rng.py). Starts no game: a game
# that fails at its start must fail at the engine's first request, not at loading.
fun r2g_lists_moves() -> Bool:
    let g : Game
    let listed = false
    if g is R2GMoveLister:
        listed = true
    return listed

# Whether the game lists candidate moves (and not its legal moves): the worker tells
# the engine, so that the loop's draws among the candidates can be replayed.
fun r2g_lists_candidates() -> Bool:
    let g : Game
    let candidates = false
    if g is R2GMoveLister:
        return false
    if r2g_has_candidates(g):
        candidates = true
    return candidates

# The game's candidate list, as `r2g_move_candidates` wrote it, followed by the count
# it returned: [c_0, ..., c_(n-1), n]; only [n] when n is not in 0..all.size() (the
# worker reports a list out of range as a fault of the game). Empty for a game that
# lists no candidates.
fun<T> r2g_candidate_list(Game g, Vector<T> all) -> Vector<Int>:
    let out : Vector<Int>
    if r2g_has_candidates(g):
        out.resize(all.size())
        let n = 0
        if !g.is_done():
            n = r2g_fill_candidates(g, out)
        if n < 0 or n > all.size():
            out.resize(0)
        else:
            out.resize(n)
        out.append(n)
    return out

# The legal actions of a game that lists its moves, written to out[offset ..]
# ascending; their number, or -1 for a game that does not list them. `c.legal` (room
# for every action) holds the list meanwhile: no buffer is made per call.
fun r2g_lister_legal(Game g, R2GCandidates c, Vector<Int> out, Int offset) -> Int:
    if g is R2GMoveLister:
        let n = 0
        if !g.is_done():
            n = g.r2g_moves(c.legal)
        let k = 0
        while k != n:
            out.set(offset + k, c.legal.get(k))
            k = k + 1
        r2g_sort_range(out, offset, n)
        return n
    return -1

# The legal actions among the game's candidates, written to out[offset ..] ascending
# (a candidate listed twice is written twice: the check reports it); their number, or
# -1 for a game that lists no candidates (or lists its legal moves). `c.legal` holds
# the candidates meanwhile; a count or an index out of the table is left out (the
# worker reports it as a fault).
fun<T> r2g_candidates_legal(Game g, Vector<T> all, R2GCandidates c, Vector<Int> out, Int offset) -> Int:
    if g is R2GMoveLister:
        return -1
    if r2g_has_candidates(g):
        let size = all.size()
        let m = 0
        if !g.is_done():
            m = r2g_fill_candidates(g, c.legal)
        if m < 0 or m > size:
            return 0
        let n = 0
        let k = 0
        while k != m:
            let candidate = c.legal.get(k)
            if candidate >= 0 and candidate < size:
                if r2g_can(g, all.get(candidate)):
                    out.set(offset + n, candidate)
                    n = n + 1
            k = k + 1
        r2g_sort_range(out, offset, n)
        return n
    return -1

fun<T> r2g_can(Game g, T action) -> Bool:
    if action is ApplicableTo<Game>:
        return can apply(action, g)
    return false

# v[0..n) sorted ascending (insertion sort: lists of legal moves are short).
fun r2g_sort(Vector<Int> v, Int n):
    r2g_sort_range(v, 0, n)

# v[offset..offset + n) sorted ascending.
fun r2g_sort_range(Vector<Int> v, Int offset, Int n):
    let i = offset + 1
    while i < offset + n:
        let value = v.get(i)
        let j = i
        while j > offset and v.get(j - 1) > value:
            v.set(j, v.get(j - 1))
            j = j - 1
        v.set(j, value)
        i = i + 1

# Indices of the legal actions of `g`, ascending. A game that does not list its moves
# is tested at the entries of the point it is suspended at only (`c`, see
# `r2g_point_legal`): the same list as testing the whole table.
fun<T> r2g_legal(Game g, Vector<T> all, R2GCandidates c) -> Vector<Int>:
    let out : Vector<Int>
    if g is R2GMoveLister:
        out.resize(all.size())
        let listed = 0
        if !g.is_done():
            listed = g.r2g_moves(out)
        out.resize(listed)
        r2g_sort(out, listed)
        return out
    out.resize(all.size())
    out.resize(r2g_point_legal(g, all, c, out, 0))
    return out

# The legal entries of `g`, ascending, written to out[offset ..]; their number. A game
# that lists its moves: its list (`r2g_lister_legal`). Only the entries of the point `g` is suspended at are
# tested (rlc's `can` is false at every other point, and a group is in table order),
# or the whole table when `c` has no map, the point has no entries (a mixed point) or
# is beyond the map: the same choice as `r2g_pick`, so the same list as testing every
# entry. A game that lists candidate moves: only its candidates are tested
# (`r2g_candidates_legal`).
fun<T> r2g_point_legal(Game g, Vector<T> all, R2GCandidates c, Vector<Int> out, Int offset) -> Int:
    let n = r2g_lister_legal(g, c, out, offset)
    if n >= 0:
        return n
    n = r2g_candidates_legal(g, all, c, out, offset)
    if n >= 0:
        return n
    n = 0
    let slot = r2g_slot(g, c)
    let m = c.sizes[slot]
    if m == 0:
        return 0
    let first = c.first[slot]
    if c.contiguous[slot] == 2:
        return r2g_scan_into(g, all, all.get(first), first, m, out, offset)
    if c.contiguous[slot] == 1:
        let candidate = first
        while candidate != first + m:
            if r2g_can(g, all.get(candidate)):
                out.set(offset + n, candidate)
                n = n + 1
            candidate = candidate + 1
        return n
    let start = c.begin[slot]
    let k = start
    while k != start + m:
        let candidate = c.order.get(k)
        if r2g_can(g, all.get(candidate)):
            out.set(offset + n, candidate)
            n = n + 1
        k = k + 1
    return n

# The legal entries among the `m` from `first`, written to out[offset ..] in table
# order; their number. Compiled once per action type (that of `probe`), as `r2g_scan`.
fun<T, P> r2g_scan_into(Game g, Vector<T> all, P probe, Int first, Int m, Vector<Int> out, Int offset) -> Int:
    let n = 0
    for field of probe:
        using Type = type(field)
        if probe is Type:
            let candidate = first
            while candidate != first + m:
                ref entry = all.get(candidate)
                if entry is Type:
                    if r2g_can(g, entry):
                        out.set(offset + n, candidate)
                        n = n + 1
                else if r2g_can(g, entry):
                    out.set(offset + n, candidate)
                    n = n + 1
                candidate = candidate + 1
    return n

# The legal actions of a game that lists its moves, in the order `r2g_moves` lists
# them (the order the playout loop draws from); of any other game, ascending.
fun<T> r2g_listed(Game g, Vector<T> all, R2GCandidates c) -> Vector<Int>:
    let out : Vector<Int>
    if g is R2GMoveLister:
        out.resize(all.size())
        let listed = 0
        if !g.is_done():
            listed = g.r2g_moves(out)
        out.resize(listed)
        return out
    return r2g_legal(g, all, c)

# Indices of the legal actions of `g` found by testing every entry of the table, even
# when the game lists its moves: the check compares the two.
fun<T> r2g_table_legal(Game g, Vector<T> all) -> Vector<Int>:
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

const R2G_POINTS = 64
const R2G_SLOTS = 65

# The actions worth testing at each point where a game can be suspended. `points`
# holds, for every action-table entry, the resumption point of its action statement
# (rlc's numbering, read at compile time: targets/rl/resume_points.py); a suspended
# game's `resume_index` is that point, and rlc's `can` of an action is false at every
# other point. Group `p` is the table indices of point `p`, in table order:
# `order[begin[p] .. begin[p] + sizes[p])`, the first of them `first[p]`;
# `contiguous[p]` is its shape (see `add_group`: consecutive indices need no look-up in
# `order`, and a group of one action type is drawn with that type's `can` and `apply`
# inlined, see `r2g_playouts`); `tries[p]` is its number of rejection draws. The whole
# table is the group at slot `groups`, used when `points` is empty, does not cover the
# table or has a point beyond R2G_POINTS, and for a point without entries (see
# `r2g_slot`). Fixed arrays: the step's look-up costs no bounds test in the -O2 build.
cls R2GCandidates:
    Vector<Int> order
    Int[R2G_SLOTS] begin
    Int[R2G_SLOTS] sizes
    Int[R2G_SLOTS] contiguous
    Int[R2G_SLOTS] first
    Int[R2G_SLOTS] tries
    Int[R2G_SLOTS] kind
    Int[R2G_POINTS] slot_of
    Int groups
    Vector<Int> legal

    # Appends the entries whose point is `point` (any point: -1) to `order`; returns
    # their shape: 2 when they are consecutive table indices of one action type, 1 when
    # consecutive, 0 otherwise.
    fun<T> add_group(Vector<T> all, Vector<Int> points, Int entries, Int point) -> Int:
        let start = self.order.size()
        let consecutive = 1
        let one_type = 1
        let i = 0
        while i != entries:
            if point == -1 or points.get(i) == point:
                let count = self.order.size() - start
                if count != 0 and self.order.get(start + count - 1) != i - 1:
                    consecutive = 0
                if count != 0 and r2g_kind(all.get(i)) != r2g_kind(all.get(self.order.get(start))):
                    one_type = 0
                self.order.append(i)
            i = i + 1
        return consecutive * (1 + one_type)

fun<T> r2g_candidates(Vector<T> all, Vector<Int> points) -> R2GCandidates:
    let entries = all.size()
    let c : R2GCandidates
    let last = -1
    let i = 0
    if points.size() == entries:
        while i != entries:
            if points.get(i) < 0 or points.get(i) >= R2G_POINTS:
                last = -1
                break
            last = max(last, points.get(i))
            i = i + 1
    c.groups = last + 1
    let slot = 0
    let point = 0
    while slot <= c.groups:
        point = slot
        if slot == c.groups:
            point = -1
        c.begin[slot] = c.order.size()
        c.contiguous[slot] = c.add_group(all, points, entries, point)
        c.sizes[slot] = c.order.size() - c.begin[slot]
        c.tries[slot] = c.sizes[slot] / 4 + 8
        c.first[slot] = 0
        c.kind[slot] = -1
        if c.sizes[slot] != 0:
            c.first[slot] = c.order.get(c.begin[slot])
            c.kind[slot] = r2g_kind(all.get(c.first[slot]))
        slot = slot + 1
    point = 0
    while point < R2G_POINTS:
        c.slot_of[point] = c.groups
        if point < c.groups and c.sizes[point] != 0:
            c.slot_of[point] = point
        point = point + 1
    c.legal.resize(entries)
    return c

# The slot of `c` whose group `g` is drawn from: the point `g` is suspended at, or the
# whole table (slot `c.groups`) when that point is beyond the map or has no entries.
fun r2g_slot(Game g, R2GCandidates c) -> Int:
    let point = g.resume_index
    if (point & -R2G_POINTS) == 0:
        return c.slot_of[point]
    return c.groups

# The position of `action`'s type among the alternatives of the action table's type.
fun<T> r2g_kind(T action) -> Int:
    let kind = 0
    for field of action:
        using Type = type(field)
        if action is Type:
            return kind
        kind = kind + 1
    return kind

# The legal entries among the `m` from `first`, written to `legal` in table order;
# their number. The loop is compiled once per action type (that of `probe`, the
# group's first entry), so an entry of that type is tested with its own `can` inlined
# instead of through the dispatch over every action type.
fun<T, P> r2g_scan(Game g, Vector<T> all, P probe, Int first, Int m, Vector<Int> legal) -> Int:
    let n = 0
    for field of probe:
        using Type = type(field)
        if probe is Type:
            let candidate = first
            while candidate != first + m:
                ref entry = all.get(candidate)
                if entry is Type:
                    if r2g_can(g, entry):
                        legal.set(n, candidate)
                        n = n + 1
                else if r2g_can(g, entry):
                    legal.set(n, candidate)
                    n = n + 1
                candidate = candidate + 1
    return n

const R2G_TABLE = -2
const R2G_MISSED = -3

# The step of a game that draws its own way: a uniformly random legal action of `g`
# (-1 if there is none), or R2G_TABLE for a game drawn from the action table (the
# playout loop then draws, see `r2g_playouts`). A game that lists its moves: one draw k
# among the n listed, taking the k-th in the lister's order. The loop applies the
# action returned here (through the dispatch over every action type), so another way
# for a game to draw its own moves is one more branch before `return R2G_TABLE`. For
# any other game this is `return R2G_TABLE`, inlined into the loop.
fun<T> r2g_pick(Game g, Vector<T> all, R2GCandidates c, R2GRandom rng) -> Int:
    let listed = -1
    if g is R2GMoveLister:
        listed = g.r2g_moves(c.legal)
    if listed == 0:
        return -1
    if listed > 0:
        return c.legal.get(rng.below(listed))
    let drawn = r2g_pick_candidates(g, all, c, rng)
    if drawn != R2G_TABLE:
        return drawn
    return R2G_TABLE

# After every rejection draw of the loop missed (the generator was at `saved` before
# them): the group of `slot` scanned in table order and one of its legal entries drawn;
# -1, with the generator back at `saved`, when none is legal.
fun<T> r2g_scanned(Game g, Vector<T> all, R2GCandidates c, Int slot, Int saved, R2GRandom rng) -> Int:
    let n = 0
    let m = c.sizes[slot]
    let start = c.begin[slot]
    if c.contiguous[slot] == 2:
        let first = c.first[slot]
        n = r2g_scan(g, all, all.get(first), first, m, c.legal)
    else:
        let k = 0
        while k != m:
            let candidate = c.order.get(start + k)
            if r2g_can(g, all.get(candidate)):
                c.legal.set(n, candidate)
                n = n + 1
            k = k + 1
    if n == 0:
        rng.state = saved
        return -1
    return c.legal.get(rng.below(n))

# `r2g_pick` for a game that lists candidate moves (R2G_TABLE for any other game): up to
# m / 4 + 8 draws among its m candidates, in the order the pages list them, taking the
# first legal one drawn (every legal action is a candidate exactly once, so each is
# equally likely); when every draw misses, the candidates are scanned in that order
# and one of the legal ones is drawn. With nothing legal (or a count out of the
# table) the generator is left as it was and the result is -1. A candidate outside
# the table is never taken (the worker reports it as a fault of the game).
fun<T> r2g_pick_candidates(Game g, Vector<T> all, R2GCandidates c, R2GRandom rng) -> Int:
    if g is R2GMoveLister:
        return R2G_TABLE
    if r2g_has_candidates(g):
        let size = all.size()
        let m = r2g_candidate_count(g, c.legal)
        if m <= 0 or m > size:
            return -1
        let saved = rng.state
        let tries = m / 4 + 8
        while tries != 0:
            let candidate = r2g_candidate_drawn(g, c.legal, rng.below(m))
            if candidate >= 0 and candidate < size:
                if r2g_can(g, all.get(candidate)):
                    return candidate
            tries = tries - 1
        return r2g_scanned_candidates(g, all, c, m, saved, rng)
    return R2G_TABLE

# After every draw among the m candidates missed (the generator was at `saved` before
# them): the legal candidates, moved to the front in listed order, and one of them
# drawn; -1, with the generator back at `saved`, when none is legal.
fun<T> r2g_scanned_candidates(Game g, Vector<T> all, R2GCandidates c, Int m, Int saved, R2GRandom rng) -> Int:
    let size = all.size()
    r2g_fill_slots(g, c.legal)
    let n = 0
    let k = 0
    while k != m:
        let candidate = c.legal.get(k)
        if candidate >= 0 and candidate < size:
            if r2g_can(g, all.get(candidate)):
                c.legal.set(n, candidate)
                n = n + 1
        k = k + 1
    if n == 0:
        rng.state = saved
        return -1
    return c.legal.get(rng.below(n))

# `r2g_pick_candidates` for a game that gives candidate slots (and no list), inside the
# loop: the same draws, but each drawn entry is tested and, when legal, applied as its
# own action type (`applied` set), so the step neither returns through the table's
# any-type test nor looks the action up again to apply it; the scan after its draws
# missed is this one. R2G_TABLE for any other game. (A game that plays its steps
# itself, `R2GSlotPlay`, makes these same draws.)
fun<T> r2g_slot_step(Game g, Vector<T> all, R2GCandidates c, R2GRandom rng, Bool applied) -> Int:
    if g is R2GMoveLister:
        return R2G_TABLE
    if g is R2GMoveCandidates:
        return R2G_TABLE
    if g is R2GCandidateSlots:
        let size = all.size()
        let m = g.r2g_candidate_slots()
        if m <= 0 or m > size:
            return -1
        let saved = rng.state
        let tries = m / 4 + 8
        while tries != 0:
            let candidate = g.r2g_candidate_at(rng.below(m))
            if candidate >= 0 and candidate < size:
                ref entry = all.get(candidate)
                for field of entry:
                    using Type = type(field)
                    if entry is Type:
                        if r2g_can(g, entry):
                            r2g_do(g, entry)
                            applied = true
                if applied:
                    return candidate
            tries = tries - 1
        return r2g_scanned_slots(g, all, c, m, saved, rng)
    return R2G_TABLE

# `r2g_scanned_candidates` for a game that gives candidate slots: the same slots tested
# in the same order, in one pass, each entry with its own type's `can` (not through
# the dispatch over every action type).
fun<T> r2g_scanned_slots(Game g, Vector<T> all, R2GCandidates c, Int m, Int saved, R2GRandom rng) -> Int:
    if g is R2GCandidateSlots:
        let size = all.size()
        let n = 0
        let k = 0
        while k != m:
            let candidate = g.r2g_candidate_at(k)
            if candidate >= 0 and candidate < size:
                ref entry = all.get(candidate)
                let legal = false
                for field of entry:
                    using Type = type(field)
                    if entry is Type:
                        legal = r2g_can(g, entry)
                if legal:
                    c.legal.set(n, candidate)
                    n = n + 1
            k = k + 1
        if n == 0:
            rng.state = saved
            return -1
        return c.legal.get(rng.below(n))
    return -1

# The step of the table path by the game's typed step (`R2GTypedStep`), when it has
# one and the loop draws by points: the chosen entry (applied), -1 when none of the
# point's entries is legal (the generator back where it was), R2G_TABLE otherwise.
fun<T> r2g_typed(Game g, Vector<T> all, R2GCandidates c, R2GRandom rng, Bool applied) -> Int:
    if g is R2GTypedStep:
        if c.groups != 0:
            let saved = rng.state
            let chosen = g.r2g_typed_step(rng, applied, all.size())
            if chosen == R2G_MISSED:
                return r2g_scanned(g, all, c, r2g_slot(g, c), saved, rng)
            return chosen
    return R2G_TABLE

fun<T> r2g_do(Game g, T action):
    if action is ApplicableTo<Game>:
        apply(action, g)

fun r2g_float_buffer(Int size) -> Vector<Float>:
    let out : Vector<Float>
    out.resize(size)
    return out

fun r2g_int_buffer(Int size) -> Vector<Int>:
    let out : Vector<Int>
    out.resize(size)
    return out

# In-process stepping (one native call per step): apply action `index` to `g` when
# `index >= 0`, then describe the state in `out` (sized all.size() + 1): out[0] is the
# player to move (-4 when the game is over), out[1..n] the legal action indices,
# ascending (tested at the current point's entries of `c` only, see `r2g_point_legal`).
# The result is n, or -1 (and `g` untouched) when the action is not legal.
fun<T> r2g_step(Game g, Vector<T> all, R2GCandidates c, Int index, Vector<Int> out) -> Int:
    if index >= 0:
        if !r2g_apply(g, all, index):
            return -1
    if g.is_done():
        out.set(0, -4)
        return 0
    out.set(0, get_current_player(g))
    return r2g_point_legal(g, all, c, out, 1)

fun r2g_new_games(Int count) -> Vector<Game>:
    let games : Vector<Game>
    let i = 0
    while i != count:
        games.append(play())
        i = i + 1
    return games

fun r2g_reset_game(Vector<Game> games, Int k):
    games.set(k, play())

fun r2g_game_at(Vector<Game> games, Int k) -> Game:
    return games.get(k)

# Many games stepped in one call (for learners). For game k, `chosen[k] >= 0` is
# applied (an illegal action leaves the game as it was); then `out[k * stride ...]`
# gets [n, player, legal indices...] as in `r2g_step` (with `c` as there), with n = -1
# for an illegal action; when `tensors` is not empty, `tensors[k * width ...]` gets the
# observation tensor of the player to move (of player 0 at chance and terminal states).
fun<T> r2g_step_many(Vector<Game> games, Vector<T> all, R2GCandidates c, Vector<Int> chosen, Vector<Int> out, Vector<Float> tensors, Int width):
    let stride = all.size() + 2
    let k = 0
    while k != games.size():
        ref g = games.get(k)
        let base = k * stride
        let n = 0
        let index = chosen.get(k)
        if index >= 0 and !r2g_apply(g, all, index):
            n = -1
        else if g.is_done():
            out.set(base + 1, -4)
        else:
            out.set(base + 1, get_current_player(g))
            n = r2g_point_legal(g, all, c, out, base + 2)
        out.set(base, n)
        if width != 0:
            let observer = get_current_player(g)
            if observer < 0 or g.is_done():
                observer = 0
            let start = k * width
            let j = 0
            while j != width:
                tensors.set(start + j, 0.0)
                j = j + 1
            _r2g_write(g, observer, tensors, start)
        k = k + 1

fun r2g_byte_buffer(Int size) -> Vector<Byte>:
    let out : Vector<Byte>
    out.resize(size)
    return out

# `count` random games from seed `seed`, each at most `max_steps` actions, choosing
# uniformly among the legal actions (chance actions included); `points` as in
# `r2g_candidates` (empty: every entry is a candidate at every step). Per game, `out`
# gets [length, status] followed by the action indices when `record`, and `returns`
# gets score(g, p) for every player.
#
# A step: `r2g_pick` first (a game that draws its own way); for any other game, the
# entries of the point `g` is suspended at (m of them, see `R2GCandidates`): up to
# m / 4 + 8 random draws among them (rejection sampling: the first legal one drawn is
# equally likely to be any legal one), applied as soon as one is legal; when every
# draw misses, `r2g_scanned` draws among the group's legal entries. The draws depend
# only on the group and the legal actions (see playout_rng.py); with nothing legal the
# generator is left as it was. The draws are written here, not in a function of their
# own, so that the compiled loop holds them with the generator, the group and the game
# in registers, and a group of one action type (`contiguous` 2) tests and applies each
# entry with that type's own `can` and `apply` inlined (no dispatch over every action
# type, no second look-up of the chosen entry): the per-step work that is not the
# game's own code. tests/test_native_pick.py checks that the build keeps this shape.
# A game that plays its steps itself (`R2GSlotPlay`) is handed each playout whole: the
# same draws, in one function of its own with every action's method compiled in.
fun<T> r2g_playouts(Vector<T> all, Vector<Int> points, Int seed, Int count, Int max_steps, Bool record, Vector<Int> out, Vector<Float> returns):
    let rng : R2GRandom
    rng.state = seed
    let candidates = r2g_candidates(all, points)
    let players = get_num_players()
    let any : T
    let done = 0
    # every playout starts from a copy of one new game: play() would clear and then
    # copy the whole state, and run the setup, for each
    let start = play()
    while done != count:
        let g = start
        let deferred = false
        if g is R2GEndsWithoutMoves:
            g.r2g_defer_end()
            deferred = true
        let ended = false
        let steps = 0
        let status = R2G_TERMINAL
        let header = out.size()
        out.append(0)
        out.append(0)
        if g is R2GSlotPlay:
            steps = g.r2g_slot_play(rng, max_steps, record, out, all.size(), candidates.legal, status)
        else:
            while !g.is_done():
                if steps == max_steps:
                    status = R2G_TRUNCATED
                    if g is R2GEndsWithoutMoves:
                        if !g.r2g_can_move():
                            status = R2G_TERMINAL
                            ended = true
                    break
                let applied = false
                let chosen = r2g_slot_step(g, all, candidates, rng, applied)
                if chosen == R2G_TABLE:
                    chosen = r2g_pick(g, all, candidates, rng)
                if chosen == R2G_TABLE:
                    chosen = r2g_typed(g, all, candidates, rng, applied)
                if chosen == R2G_TABLE:
                    chosen = -1
                    let slot = r2g_slot(g, candidates)
                    let m = candidates.sizes[slot]
                    let tries = candidates.tries[slot]
                    let first = candidates.first[slot]
                    let contiguous = candidates.contiguous[slot]
                    let saved = rng.state
                    if m == 0:
                        tries = 0
                    else if contiguous == 2:
                        let kind = candidates.kind[slot]
                        let k = 0
                        for field of any:
                            using Type = type(field)
                            if k == kind:
                                while tries != 0:
                                    let candidate = first + rng.below(m)
                                    ref entry = all.get(candidate)
                                    if entry is Type:
                                        if r2g_can(g, entry):
                                            r2g_do(g, entry)
                                            applied = true
                                            chosen = candidate
                                            break
                                    tries = tries - 1
                            k = k + 1
                    else:
                        let start = candidates.begin[slot]
                        while tries != 0:
                            let candidate = first + rng.below(m)
                            if contiguous == 0:
                                candidate = candidates.order.get(start + candidate - first)
                            ref entry = all.get(candidate)
                            for field of entry:
                                using Type = type(field)
                                if entry is Type:
                                    if r2g_can(g, entry):
                                        r2g_do(g, entry)
                                        applied = true
                            if applied:
                                chosen = candidate
                                break
                            tries = tries - 1
                    if m != 0 and !applied:
                        chosen = r2g_scanned(g, all, candidates, slot, saved, rng)
                if chosen < 0:
                    if deferred:  # no legal move: the play is over (R2GEndsWithoutMoves)
                        ended = true
                    else:
                        status = R2G_STUCK
                    break
                if record:
                    out.append(chosen)
                if !applied:
                    ref action = all.get(chosen)
                    if action is ApplicableTo<Game>:
                        apply(action, g)
                steps = steps + 1
        out.set(header, steps)
        out.set(header + 1, status)
        let p = 0
        while p != players:
            let value = score(g, p)
            if ended:
                if g is R2GEndsWithoutMoves:
                    value = g.r2g_returns_without_moves(p)
            returns.append(value)
            p = p + 1
        done = done + 1

# -- what a player may see ------------------------------------------------------------
#
# The pages declare hidden state with the standard library's `Hidden<T>` (seen by no
# player) and `HiddenInformation<T>` (seen by its `owner`, or by all when the owner is
# -1). The observation text is the game's own `pretty_print` of a copy in which every
# value the player may not see is reset to its default (`r2g_masked`); the observation
# tensor is written by `r2g_tensor` below.

fun r2g_observation_size() -> Int:
    let g = play()
    return _r2g_size(g)

fun r2g_observation_tensor(Game g, Int player) -> Vector<Float>:
    return r2g_tensor(g, player)

fun r2g_masked(Game g, Int player) -> Game:
    let copy = g
    _r2g_mask(copy, player)
    return copy

trait<T> R2GMaskable:
    fun r2g_mask(T obj, Int observer)

fun<T> r2g_mask(Hidden<T> obj, Int observer):
    let blank : T
    obj.value = blank

fun<T> r2g_mask(HiddenInformation<T> obj, Int observer):
    if obj.owner != -1 and obj.owner != observer:
        let blank : T
        obj.value = blank

fun<T, Int X> r2g_mask(T[X] obj, Int observer):
    let i = 0
    while i < X:
        _r2g_mask(obj[i], observer)
        i = i + 1

fun<T> r2g_mask(Vector<T> obj, Int observer):
    let i = 0
    while i < obj.size():
        _r2g_mask(obj.get(i), observer)
        i = i + 1

fun<T, Int X> r2g_mask(BoundedVector<T, X> obj, Int observer):
    let i = 0
    while i < obj.size():
        _r2g_mask(obj.get(i), observer)
        i = i + 1

fun r2g_mask(Int obj, Int observer):
    return

fun r2g_mask(Bool obj, Int observer):
    return

fun r2g_mask(Float obj, Int observer):
    return

fun r2g_mask(Byte obj, Int observer):
    return

fun<T> _r2g_mask(T obj, Int observer):
    if obj is R2GMaskable:
        obj.r2g_mask(observer)
    else if obj is Enum:
        return
    else if obj is Alternative:
        for field of obj:
            using Type = type(field)
            if obj is Type:
                _r2g_mask(obj, observer)
    else:
        for field of obj:
            _r2g_mask(field, observer)

# -- the observation tensor -------------------------------------------------------
#
# The standard library's encoding (`Bool` as 0/1, `BInt` and enums one-hot, custom
# `write_in_observation_tensor` writers), with three changes so that every seat gets
# a tensor of the same length and layout: a plain `Int` or `Float` is one entry (its
# value; the standard library leaves it out), a value the observer may not see
# (`Hidden`, another player's `HiddenInformation`) is zeros of its full length, and a
# `BoundedVector` is padded to its capacity.

trait<T> R2GTensorable:
    fun r2g_write(T obj, Int observer, Vector<Float> out, Int index)
    fun r2g_size(T obj) -> Int

fun r2g_write(Int obj, Int observer, Vector<Float> out, Int index):
    out.get(index) = float(obj)
    index = index + 1

fun r2g_size(Int obj) -> Int:
    return 1

fun r2g_write(Float obj, Int observer, Vector<Float> out, Int index):
    out.get(index) = obj
    index = index + 1

fun r2g_size(Float obj) -> Int:
    return 1

fun<T> r2g_write(Hidden<T> obj, Int observer, Vector<Float> out, Int index):
    index = index + _r2g_size(obj.value)

fun<T> r2g_size(Hidden<T> obj) -> Int:
    return _r2g_size(obj.value)

fun<T> r2g_write(HiddenInformation<T> obj, Int observer, Vector<Float> out, Int index):
    if obj.owner == -1 or obj.owner == observer:
        _r2g_write(obj.value, observer, out, index)
    else:
        index = index + _r2g_size(obj.value)

fun<T> r2g_size(HiddenInformation<T> obj) -> Int:
    return _r2g_size(obj.value)

fun<T, Int X> r2g_write(T[X] obj, Int observer, Vector<Float> out, Int index):
    let i = 0
    while i < X:
        _r2g_write(obj[i], observer, out, index)
        i = i + 1

fun<T, Int X> r2g_size(T[X] obj) -> Int:
    return _r2g_size(obj[0]) * X

fun<T, Int X> r2g_write(BoundedVector<T, X> obj, Int observer, Vector<Float> out, Int index):
    let i = 0
    while i < obj.size():
        _r2g_write(obj.get(i), observer, out, index)
        i = i + 1
    let blank : T
    index = index + (X - obj.size()) * _r2g_size(blank)

fun<T, Int X> r2g_size(BoundedVector<T, X> obj) -> Int:
    let blank : T
    return _r2g_size(blank) * X

fun<T> r2g_write(Vector<T> obj, Int observer, Vector<Float> out, Int index):
    return

fun<T> r2g_size(Vector<T> obj) -> Int:
    return 0

fun<T> _r2g_size(T obj) -> Int:
    if obj is R2GTensorable:
        return obj.r2g_size()
    else if obj is Tensorable:
        return obj.size_as_observation_tensor()
    else if obj is Enum:
        return obj.max() + 1
    else if obj is Alternative:
        let alternatives = 0
        for field of obj:
            alternatives = alternatives + 1
        let largest = 0
        for field of obj:
            using Type = type(field)
            let blank : Type
            largest = max(_r2g_size(blank), largest)
        return largest + alternatives
    else:
        let total = 0
        for field of obj:
            total = total + _r2g_size(field)
        return total

fun<T> _r2g_write(T obj, Int observer, Vector<Float> out, Int index):
    if obj is R2GTensorable:
        obj.r2g_write(observer, out, index)
    else if obj is Tensorable:
        obj.write_in_observation_tensor(observer, out, index)
    else if obj is Enum:
        write_in_observation_tensor(obj.as_int(), 0, obj.max() + 1, out, index)
    else if obj is Alternative:
        let alternatives = 0
        for field of obj:
            alternatives = alternatives + 1
        let start = index
        let width = _r2g_size(obj)
        let current = 0
        for field of obj:
            using Type = type(field)
            if obj is Type:
                write_in_observation_tensor(current, 0, alternatives, out, index)
                _r2g_write(obj, observer, out, index)
            current = current + 1
        index = start + width
    else:
        for field of obj:
            _r2g_write(field, observer, out, index)

fun<T> r2g_tensor(T obj, Int observer) -> Vector<Float>:
    let out : Vector<Float>
    let n = _r2g_size(obj)
    while n != 0:
        out.append(0.0)
        n = n - 1
    _r2g_write(obj, observer, out, 0)
    return out

# -- determinization: a state the observer cannot tell from this one ---------------
#
# Search bots must not read what their seat cannot see. `r2g_resampled` returns a copy
# in which hidden information is drawn again: the cards of every `HiddenInformation<
# Bool[N]>[K]` array (one set per player, such as hands) that the observer may not see
# are pooled and dealt back at random, each set keeping its size; a `Hidden` array is
# shuffled. Any other hidden value cannot be drawn again without knowing its meaning:
# `r2g_resample_is_clean` is false when the state has one, and bots then do not search.
# A game whose pages keep values derived from hidden ones (lists of each hand, for
# candidate slots; reference.md, "Who sees what") says how to make them again with
# `r2g_rebuild(g)`, called on the copy once its hidden cards are drawn again; its
# `Hidden` values other than arrays are then left for it to rebuild.

cls R2GSampler:
    R2GRandom rng
    Int observer
    Bool clean
    Bool rebuilds

trait<T> R2GRebuild:
    fun r2g_rebuild(T g)

trait<T> R2GRepartitionable:
    fun r2g_repartition(T obj, R2GSampler sampler)

trait<T> R2GResamplable:
    fun r2g_resample(T obj, R2GSampler sampler)

fun<Int X, Int K> r2g_repartition(HiddenInformation<Bool[X]>[K] slots, R2GSampler sampler):
    # The pool is gathered card by card (not hand by hand), so that the drawn state
    # depends on the seed and on what the observer sees only, never on who holds what.
    let pool : Vector<Int>
    let sizes : Int[K]
    let q = 0
    while q < K:
        sizes[q] = 0
        q = q + 1
    let c = 0
    while c < X:
        q = 0
        while q < K:
            if slots[q].owner != -1 and slots[q].owner != sampler.observer and slots[q].value[c]:
                pool.append(c)
                sizes[q] = sizes[q] + 1
                slots[q].value[c] = false
            q = q + 1
        c = c + 1
    let i = pool.size()
    while i > 1:
        let j = sampler.rng.below(i)
        i = i - 1
        let swap = pool.get(i)
        pool.set(i, pool.get(j))
        pool.set(j, swap)
    let next = 0
    q = 0
    while q < K:
        let n = 0
        while n < sizes[q]:
            slots[q].value[pool.get(next)] = true
            next = next + 1
            n = n + 1
        q = q + 1

fun<T, Int X> r2g_shuffle(T[X] obj, R2GSampler sampler):
    let i = X
    while i > 1:
        let j = sampler.rng.below(i)
        i = i - 1
        let swap = obj[i]
        obj[i] = obj[j]
        obj[j] = swap

fun<T, Int X> r2g_resample(T[X] obj, R2GSampler sampler):
    if obj is R2GRepartitionable:
        obj.r2g_repartition(sampler)
        return
    let i = 0
    while i < X:
        _r2g_resample(obj[i], sampler)
        i = i + 1

fun<T> r2g_resample(Hidden<T> obj, R2GSampler sampler):
    if obj.value is R2GShufflable:
        obj.value.r2g_shuffle(sampler)
    else if !sampler.rebuilds:
        sampler.clean = false

trait<T> R2GShufflable:
    fun r2g_shuffle(T obj, R2GSampler sampler)

fun<T> r2g_resample(HiddenInformation<T> obj, R2GSampler sampler):
    if obj.owner != -1 and obj.owner != sampler.observer:
        sampler.clean = false

fun<T> r2g_resample(Vector<T> obj, R2GSampler sampler):
    let i = 0
    while i < obj.size():
        _r2g_resample(obj.get(i), sampler)
        i = i + 1

fun r2g_resample(Int obj, R2GSampler sampler):
    return

fun r2g_resample(Bool obj, R2GSampler sampler):
    return

fun r2g_resample(Float obj, R2GSampler sampler):
    return

fun r2g_resample(Byte obj, R2GSampler sampler):
    return

fun<T> _r2g_resample(T obj, R2GSampler sampler):
    if obj is R2GResamplable:
        obj.r2g_resample(sampler)
    else if obj is Enum:
        return
    else if obj is Alternative:
        for field of obj:
            using Type = type(field)
            if obj is Type:
                _r2g_resample(obj, sampler)
    else:
        for field of obj:
            _r2g_resample(field, sampler)

fun r2g_resampled(Game g, Int observer, Int seed) -> Game:
    let copy = g
    let sampler : R2GSampler
    sampler.rng.state = seed
    sampler.observer = observer
    sampler.clean = true
    r2g_redraw(copy, sampler)
    return copy

# The hidden values of `g` drawn again, and what the pages derive from them made again.
fun r2g_redraw(Game g, R2GSampler sampler):
    if g is R2GRebuild:
        sampler.rebuilds = true
    _r2g_resample(g, sampler)
    if g is R2GRebuild:
        g.r2g_rebuild()

# A copy of `g` with what its pages derive from other state made again (`r2g_rebuild`):
# a scenario's or show_position's `set` edits a state's fields, and what the pages keep
# derived from them (lists for candidate slots) must follow. The copy is `g` itself when
# the pages define no `r2g_rebuild`.
fun r2g_rebuilt(Game g) -> Game:
    let copy = g
    if copy is R2GRebuild:
        copy.r2g_rebuild()
    return copy

# Whether the pages define `r2g_rebuild` (the worker tells the engine). Starts no game.
fun r2g_rebuilds() -> Bool:
    let g : Game
    let found = false
    if g is R2GRebuild:
        found = true
    return found

fun r2g_resample_is_clean(Game g, Int observer) -> Bool:
    let copy = g
    let sampler : R2GSampler
    sampler.observer = observer
    sampler.clean = true
    r2g_redraw(copy, sampler)
    return sampler.clean

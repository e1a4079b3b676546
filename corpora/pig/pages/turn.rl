# page: turn
# implements: 3, 4.1, 4.2, 4.3, 4.4, 5.1, 5.2
# The state starts with scores and turn total at 0 and player 0 to move. A turn is a series of
# decisions: roll (then chance throws the die, faces 1 to 6) or hold; the game ends at once on
# 100 banked points or after the 1000th move.
import setup
import end

@classes
act play() -> Game:
    frm scores : Int[PLAYERS]
    frm turn_total = 0
    frm current = 0
    frm moves = 0
    frm throwing = false
    while true:
        actions:
            act roll() { scores[current] + turn_total < WIN_SCORE }
                moves = moves + 1
                if moves >= MOVE_LIMIT:
                    return
                throwing = true
                act die(BInt<1, 7> value)
                throwing = false
                if value.value == 1:
                    turn_total = 0
                    current = next_player(current)
                else:
                    turn_total = turn_total + value.value
            act hold()
                moves = moves + 1
                scores[current] = scores[current] + turn_total
                turn_total = 0
                if scores[current] >= WIN_SCORE:
                    return
                current = next_player(current)
                if moves >= MOVE_LIMIT:
                    return

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    if g.throwing:
        return -1
    return g.current

fun get_num_players() -> Int:
    return PLAYERS

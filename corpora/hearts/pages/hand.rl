# page: hand
# implements: 1, 3.1, 3.2, 4.1, 4.2, 5
# One hand: pass direction, deal, passing (unless no pass), then 13 tricks; then the game ends.
import cards
import setup
import passing
import tricks
import scoring

const CHOOSING_DIRECTION = 0
const DEALING = 1
const PASSING = 2
const PLAYING = 3

@classes
act play() -> Game:
    frm table : Table
    frm phase = CHOOSING_DIRECTION
    frm direction = NO_PASS
    clear_table(table)
    act pass_direction(BInt<0, 4> dir)
    direction = dir.value
    phase = DEALING
    while table.dealt < CARDS:
        act deal(BInt<0, CARDS> card) { can_deal(table, card.value) }
        deal_card(table, card.value)
    if direction != NO_PASS:
        phase = PASSING
        table.current = 0
        while table.passes < PASSED_CARDS:
            act pass_card(BInt<0, CARDS> card) { can_pass(table, card.value) }
            set_aside(table, card.value)
        hand_over(table, direction)
    phase = PLAYING
    table.current = table.holder_of(TWO_OF_CLUBS)
    while table.cards_played < CARDS:
        act play(BInt<0, CARDS> card) { can_play(table, card.value) }
        play_card(table, card.value)

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    if g.phase == CHOOSING_DIRECTION or g.phase == DEALING:
        return -1
    return g.table.current

fun get_num_players() -> Int:
    return PLAYERS

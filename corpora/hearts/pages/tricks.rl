# page: tricks
# implements: 4.2, 4.3, 4.4, 4.5
# Follow suit if able; the two of clubs opens; no points discarded on the first trick
# unless forced; hearts led only once broken (or nothing else held); highest of led suit wins.
import cards
import scoring

fun holds_suit(Table t, Int player, Int suit) -> Bool:
    return t.count_of_suit(player, suit) > 0

# Every card but the hearts and the queen of spades is without points (6.1).
fun holds_card_without_points(Table t, Int player) -> Bool:
    let minor = t.count_of_suit(player, CLUBS) + t.count_of_suit(player, DIAMONDS)
    let without_points = minor + t.count_of_suit(player, SPADES)
    if t.holds(player, QUEEN_OF_SPADES):
        without_points = without_points - 1
    return without_points > 0

fun holds_non_heart(Table t, Int player) -> Bool:
    let minor = holds_suit(t, player, CLUBS) or holds_suit(t, player, DIAMONDS)
    return minor or holds_suit(t, player, SPADES)

fun can_play(Table t, Int card) -> Bool:
    let player = t.current
    if t.cards_played >= CARDS or !t.holds(player, card):
        return false
    if t.cards_played == 0:
        return card == TWO_OF_CLUBS
    if t.trick_size > 0:
        if holds_suit(t, player, t.led_suit):
            return suit_of(card) == t.led_suit
        if t.cards_played < PLAYERS and holds_card_without_points(t, player):
            return penalty_of(card) == 0
        return true
    if suit_of(card) == HEARTS and !t.hearts_broken:
        return !holds_non_heart(t, player)
    return true

fun play_card(Table t, Int card):
    t.remove_from_hand(t.current, card)
    t.played[card] = true
    if t.trick_size == 0:
        t.leader = t.current
        t.led_suit = suit_of(card)
        t.winner = t.current
        t.winning_rank = rank_of(card)
        t.trick_points = 0
    else if suit_of(card) == t.led_suit and rank_of(card) > t.winning_rank:
        t.winner = t.current
        t.winning_rank = rank_of(card)
    t.trick[t.trick_size] = card
    t.trick_size = t.trick_size + 1
    t.trick_points = t.trick_points + penalty_of(card)
    if suit_of(card) == HEARTS or card == QUEEN_OF_SPADES:
        t.hearts_broken = true
    t.cards_played = t.cards_played + 1
    if t.trick_size == PLAYERS:
        t.points[t.winner] = t.points[t.winner] + t.trick_points
        t.current = t.winner
        t.trick_size = 0
    else:
        t.current = (t.current + 1) % PLAYERS

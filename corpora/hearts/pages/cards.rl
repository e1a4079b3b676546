# page: cards
# implements: 2, 2.1
# The deck: card number = 4 * rank + suit (rank 0 = two .. 12 = ace; suits C, D, H, S).
# The Table holds where every card is and the state of the trick being played.
# Hands and set-aside cards are hidden information: each is seen by its owner only.
# The cards not yet dealt and each hand are also kept as lists, with each hand's count
# by suit, so that the candidate slots (page moves) and the follow-suit test (page
# tricks) need not walk the deck.
import serialization.print
import machine_learning
import hand

const PLAYERS = 4
const CARDS = 52
const NOBODY = -1
const PASSED_CARDS = 12  # three from each player (rules 4.1)
const HAND_CARDS = 13  # the most cards a hand holds (rules 3.2)
const PLAYER_SUITS = 16  # PLAYERS * SUITS

const CLUBS = 0
const DIAMONDS = 1
const HEARTS = 2
const SPADES = 3
const SUITS = 4  # card = SUITS * rank + suit (rules 2.1)

const TWO_OF_CLUBS = 0
const QUEEN_OF_SPADES = 43

fun suit_of(Int card) -> Int:
    return card % SUITS

fun rank_of(Int card) -> Int:
    return card / SUITS

# The cards as lists: they repeat what the hands and the deal say, and are kept out of
# every observation (Hidden) for that reason.
cls CardLists:
    # undealt[k] for k < CARDS - dealt: the cards not yet dealt, in no order
    Int[CARDS] undealt
    # held[p * HAND_CARDS + k] for k < held_count[p]: the cards in player p's hand
    Int[CARDS] held
    Int[PLAYERS] held_count
    # a card's index in the list holding it (undealt, or its holder's part of held)
    Int[CARDS] place
    # by_suit[p * SUITS + suit]: how many cards of the suit player p holds
    Int[PLAYER_SUITS] by_suit
    # passed[n] for n < passes: the cards set aside to pass, in the order chosen
    Int[PASSED_CARDS] passed

cls Table:
    # hands[p].value[card]: player p holds the card; only player p sees hands[p]
    HiddenInformation<Bool[CARDS]>[PLAYERS] hands
    Hidden<CardLists> lists
    Int current
    Int dealt
    # set_aside[p].value[card]: player p set the card aside to pass; only p sees it
    HiddenInformation<Bool[CARDS]>[PLAYERS] set_aside
    Int passes
    # played[card]: the card has been played to a trick (everybody saw it)
    Bool[CARDS] played
    Int[PLAYERS] trick
    Int trick_size
    Int leader
    Int led_suit
    Int winner
    Int winning_rank
    Int trick_points
    Int cards_played
    Bool hearts_broken
    Int[PLAYERS] points

    fun holds(Int player, Int card) -> Bool:
        return self.hands[player].value[card]

    fun count_of_suit(Int player, Int suit) -> Int:
        return self.lists.value.by_suit[player * SUITS + suit]

    # The card joins the player's hand, at the end of the player's list.
    fun add_to_hand(Int player, Int card):
        self.hands[player].value[card] = true
        let n = self.lists.value.held_count[player]
        self.lists.value.held[player * HAND_CARDS + n] = card
        self.lists.value.place[card] = n
        self.lists.value.held_count[player] = n + 1
        let at = player * SUITS + suit_of(card)
        self.lists.value.by_suit[at] = self.lists.value.by_suit[at] + 1

    # The card leaves the player's hand; the last card of the list takes its place.
    fun remove_from_hand(Int player, Int card):
        self.hands[player].value[card] = false
        let last = self.lists.value.held_count[player] - 1
        let moved = self.lists.value.held[player * HAND_CARDS + last]
        let k = self.lists.value.place[card]
        self.lists.value.held[player * HAND_CARDS + k] = moved
        self.lists.value.place[moved] = k
        self.lists.value.held_count[player] = last
        let at = player * SUITS + suit_of(card)
        self.lists.value.by_suit[at] = self.lists.value.by_suit[at] - 1

    # The player holding the card, or NOBODY (not dealt, set aside, played).
    fun holder_of(Int card) -> Int:
        let p = 0
        while p < PLAYERS:
            if self.hands[p].value[card]:
                return p
            p = p + 1
        return NOBODY

    fun set_aside_by_anyone(Int card) -> Bool:
        let p = 0
        while p < PLAYERS:
            if self.set_aside[p].value[card]:
                return true
            p = p + 1
        return false

    # The lists made again from the cards (after a search bot dealt the hidden cards
    # anew, page moves): hands and passed cards in card order, the undealt cards being
    # those nobody holds, set aside or played.
    fun list_again():
        let cleared : CardLists
        self.lists.value = cleared
        let undealt = 0
        let card = 0
        while card < CARDS:
            let holder = self.holder_of(card)
            if holder != NOBODY:
                self.hands[holder].value[card] = false
                self.add_to_hand(holder, card)
            else if !self.played[card] and !self.set_aside_by_anyone(card):
                self.lists.value.undealt[undealt] = card
                self.lists.value.place[card] = undealt
                undealt = undealt + 1
            card = card + 1
        let passed = 0
        let giver = 0
        while giver < PLAYERS:
            card = 0
            while card < CARDS:
                if self.set_aside[giver].value[card]:
                    self.lists.value.passed[passed] = card
                    passed = passed + 1
                card = card + 1
            giver = giver + 1

fun card_name(Int card) -> String:
    let rank = rank_of(card)
    let text = ""s
    if rank < 8:
        text = to_string(rank + 2)
    else if rank == 8:
        text = "T"s
    else if rank == 9:
        text = "J"s
    else if rank == 10:
        text = "Q"s
    else if rank == 11:
        text = "K"s
    else:
        text = "A"s
    let suit = suit_of(card)
    if suit == CLUBS:
        return text + "C"s
    if suit == DIAMONDS:
        return text + "D"s
    if suit == HEARTS:
        return text + "H"s
    return text + "S"s

fun pretty_print(Game g):
    let text = ""s
    let p = 0
    while p < PLAYERS:
        text = text + "player "s + to_string(p) + " ("s + to_string(g.table.points[p]) + " pts):"s
        let card = 0
        while card < CARDS:
            if g.table.holds(p, card):
                text = text + " "s + card_name(card)
            card = card + 1
        text = text + "\n"s
        p = p + 1
    text = text + "played:"s
    let c = 0
    while c < CARDS:
        if g.table.played[c]:
            text = text + " "s + card_name(c)
        c = c + 1
    text = text + "\n"s
    text = text + "trick:"s
    let i = 0
    while i < g.table.trick_size:
        text = text + " "s + card_name(g.table.trick[i])
        i = i + 1
    print(text)

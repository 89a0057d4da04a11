"""King's Court (seed 004): the engine. Rules of RULES.md "court"; see rules.py for the text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import (
    Command,
    Event,
    GameBase,
    GameInfo,
    IllegalMove,
    MatchOver,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Parties,
    Pick,
    Rng,
    SuiteHints,
    TimedMove,
    View,
    deal_hidden,
    join_names,
    move_kind,
    ranked,
    seat_token,
    waiting_for,
)
from bot.games.court import ai
from bot.games.court import state as state_mod
from bot.games.court import view as view_mod
from bot.games.court.bids import BY_KEY, bid_points, legal_bids
from bot.games.court.cards import (
    DECK,
    KINGS,
    label,
    labels,
    natural,
    rank,
    sorted_cards,
    suit_label,
    trick_rank,
)
from bot.games.court.melds import bag_ranks, best_court, court_candidates, court_problem
from bot.games.court.rules import RULES
from bot.games.court.scoring import kings_court, parts_text
from bot.games.court.state import (
    AFTER,
    BID,
    DUEL,
    FOLLOW,
    LEAD,
    LOSING_TOTAL,
    OVER,
    PICK,
    PLAYERS,
    TRICK_CAP,
    CourtState,
)
from bot.games.court.tricks import MAX_LEAD, best_seats, classify, duel_round

PICK_SECONDS = 60.0
AFTER_SECONDS = 45.0  # a trick winner who neither courts, sandbags nor knocks passes after this
HAND_SIZE = 12

# Move kinds (the code's part before the first ":").
BID_KIND, LEAD_KIND, FOLLOW_KIND, DUEL_KIND, TAKE_KIND = "bid", "lead", "play", "duel", "take"
COURT_KIND, BAG_KIND, KNOCK, FLOP, DONE = "court", "bag", "knock", "flop", "done"
NO_BID = "none"


def p(seat: int) -> str:
    return seat_token(seat)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _without(cards: Sequence[str], gone: Sequence[str]) -> tuple[str, ...]:
    drop = set(gone)
    return tuple(c for c in cards if c not in drop)


def _items(cards: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """A pick's items: each card with its label."""
    return tuple((c, label(c)) for c in cards)


def _parts(code: str) -> tuple[str, ...]:
    _head, _sep, tail = code.partition(":")
    return tuple(part for part in tail.split(".") if part)


class KingsCourt(GameBase[CourtState]):
    info = GameInfo(
        id="court",
        name="King's Court (trick-and-meld)",
        summary="Secret King suits, tricks of pairs and flushes, a shared pool, and runs courted face down.",
        rules=RULES,
        min_players=PLAYERS,
        max_players=PLAYERS,
        options=(
            Option(
                "target",
                "Match length",
                (("500", "To 500 (printed rules)"), ("250", "To 250 (shorter)"), ("120", "To 120 (quick)")),
            ),
            Option(
                "board",
                "Going board",
                (("0", "Knock from 0 points"), ("20", "Knock from 20"), ("40", "Knock from 40")),
            ),
        ),
        commands=(
            Command(
                "play",
                "Lead or follow: the cards to play.",
                (LEAD_KIND, FOLLOW_KIND),
                "cards",
                "Cards, e.g. 7h 7s",
            ),
            Command("duel", "Lay a single card in a duel.", (DUEL_KIND,), "card", "The card to lay"),
            Command(
                "pick",
                "Take your cards back from the pool.",
                (TAKE_KIND,),
                "cards",
                "Cards from the pool, e.g. 9s 2c",
            ),
            Command(
                "court", "Court a run face down.", (COURT_KIND,), "cards", "The run's cards, e.g. Ah 2h 3h"
            ),
            Command("sandbag", "Sandbag a four of a kind of A, Q or 7.", (BAG_KIND,), "rank", "A, Q or 7"),
            Command("knock", "Knock to end the round.", (KNOCK,)),
            Command("flop", "Flop your King (third trick in a row).", (FLOP,)),
            Command("pass", "End your turn after a trick.", (DONE,)),
            Command("bid", "Bid before the deal.", (BID_KIND,), "bid", "The bid"),
        ),
        card_kinds=(LEAD_KIND, FOLLOW_KIND, DUEL_KIND, COURT_KIND),  # not TAKE_KIND: it takes from the pool
        parties=Parties({"target": "120"}),
        hints=SuiteHints(players=4, quick={"target": "120"}, vary=("board",)),
    )

    # --- set-up ----------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: Mapping[str, str]) -> CourtState:
        self.check_players(players, options)
        rng = Rng.from_seed(seed)
        dealer, rng = rng.below(PLAYERS)
        empty: tuple[tuple[str, ...], ...] = ((),) * PLAYERS
        state = CourtState(
            rng=rng,
            target=int(options.get("target", "500")),
            going_board=int(options.get("board", "0")),
            scores=(0,) * PLAYERS,
            round=1,
            dealer=dealer,
            phase=BID,
            turn=dealer,
            kings=KINGS,
            hands=empty,
            courted=empty,
            bags=empty,
            flops=(0,) * PLAYERS,
            bids=("",) * PLAYERS,
            leader=dealer,
            trick=empty,
            duel=empty,
            duelists=(),
            laid=(),
            winner=-1,
            played=empty,
            pool=(),
            owed=(0,) * PLAYERS,
            tricks=0,
            streak=(-1, 0),
            forced=False,
            courted_now=False,
            bagged_now=False,
        )
        return self._start_round(state, [])[0]

    def _start_round(self, state: CourtState, events: list[Event]) -> tuple[CourtState, list[Event]]:
        """Gather the round's Kings and cards, then bids (if anyone may bid) or the deal."""
        empty: tuple[tuple[str, ...], ...] = ((),) * PLAYERS
        state = replace(
            state,
            kings=KINGS,
            hands=empty,
            courted=empty,
            bags=empty,
            flops=(0,) * PLAYERS,
            bids=("",) * PLAYERS,
            trick=empty,
            duel=empty,
            duelists=(),
            laid=(),
            winner=-1,
            played=empty,
            pool=(),
            owed=(0,) * PLAYERS,
            tricks=0,
            streak=(-1, 0),
            forced=False,
            courted_now=False,
            bagged_now=False,
        )
        bidders = self._bidders(state)
        if bidders:
            events.append(Event(f"Round {state.round}: before the deal, {p(bidders[0])} may bid."))
            return replace(state, phase=BID, turn=bidders[0]), events
        return self._deal(state, events)

    @staticmethod
    def _bidders(state: CourtState) -> list[int]:
        order = [(state.dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
        return [s for s in order if legal_bids(state.scores, s)]

    def _deal(self, state: CourtState, events: list[Event]) -> tuple[CourtState, list[Event]]:
        kings, rng = state.rng.shuffled(KINGS)
        deck, rng = rng.shuffled(DECK)
        first = (state.dealer + 1) % PLAYERS
        hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        for i, card in enumerate(deck):  # one card at a time, clockwise from the dealer's left
            hands[(first + i) % PLAYERS].append(card)
        state = replace(
            state,
            rng=rng,
            kings=kings,
            hands=tuple(sorted_cards(h) for h in hands),
            phase=LEAD,
            turn=first,
            leader=first,
        )
        events.append(
            Event(
                f"Round {state.round}: {p(state.dealer)} deals; everyone draws a secret King. {p(first)} leads."
            )
        )
        for seat in range(PLAYERS):
            if state.blind(seat):
                events.append(Event("You bid blind: your King stays face down, hidden from you too.", seat))
            else:
                events.append(Event(f"Your King is {suit_label(state.king_suit(seat))}.", seat))
        return state, events

    # --- whose move, which moves ---------------------------------------------------------

    def to_act(self, state: CourtState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_moves(self, state: CourtState, seat: int) -> list[Move]:
        if state.over or seat != state.turn:
            return []
        hand = state.hands[seat]
        if state.phase == BID:
            moves = [Move.simple(f"{BID_KIND}:{NO_BID}", "No bid")]
            for bid in legal_bids(state.scores, seat):
                miss = "-10 a wrong court" if bid.key == "blind" else f"{bid.miss}"
                gain = "+30 a court" if bid.key == "blind" else f"+{bid.value}"
                moves.append(Move.simple(f"{BID_KIND}:{bid.key}", f"Bid {bid.name} ({gain} / {miss})"))
            return moves
        if state.phase == LEAD:
            most = min(MAX_LEAD, min(len(h) for h in state.hands))
            pick = Pick(LEAD_KIND, _items(hand), 1, most)
            low = min(hand, key=trick_rank)  # the first of equals, as min keeps it
            return [Move(pick.code([low]), ("Lead",), pick)]  # the menu says how many: "Lead: choose 1-5"
        if state.phase == FOLLOW:
            need = len(state.trick[state.leader])
            pick = Pick(FOLLOW_KIND, _items(hand), need, need)
            return [Move(pick.code(self._lowest(hand, need)), ("Follow",), pick)]
        if state.phase == DUEL:
            return [Move.simple(f"{DUEL_KIND}:{c}", f"Duel with {label(c)}") for c in hand]
        if state.phase == PICK:
            need = state.owed[seat]
            pick = Pick(TAKE_KIND, _items(state.pool), need, need)
            return [Move(pick.code(self._pick_default(state, seat)), ("Take from the pool",), pick)]
        return self._after_moves(state, seat)

    @staticmethod
    def _lowest(hand: Sequence[str], count: int) -> list[str]:
        return sorted(hand, key=trick_rank)[:count]  # a stable sort: equals in hand order

    @staticmethod
    def _pick_default(state: CourtState, seat: int) -> list[str]:
        """Your own cards back, then the first ones left in the pool."""
        own = [c for c in state.played[seat] if c in state.pool]
        rest = [c for c in state.pool if c not in own]
        return (own + rest)[: state.owed[seat]]

    def _after_moves(self, state: CourtState, seat: int) -> list[Move]:
        knock = Move.simple(KNOCK, "Knock: end the round")
        if state.forced:
            flop = Move.simple(FLOP, "Flop your King (-15)")
            return [flop, knock] if state.can_knock(seat) else [flop]
        moves = [Move.simple(DONE, "Pass")]
        hand, run = state.hands[seat], state.courted[seat]
        if not state.courted_now:
            best = best_court(hand, run)
            if best:
                candidates = court_candidates(hand, run)
                pick = Pick(COURT_KIND, _items(candidates), 1 if run else 3, len(candidates))
                moves.append(Move(pick.code(best), ("Court",), pick))
        for r in bag_ranks(hand):
            moves.append(Move.simple(f"{BAG_KIND}:{r}", f"Sandbag the four {label(r + 'c')[:-1]}s"))
        if not (state.courted_now or state.bagged_now) and state.can_knock(seat):
            moves.append(knock)
        return moves

    def timer(self, state: CourtState) -> TimedMove | None:
        if state.phase == AFTER and not state.forced and not state.over:
            return TimedMove(AFTER_SECONDS, state.turn, DONE, "the trick winner's time to court ran out")
        if state.phase != PICK:
            return None
        move = self.legal_moves(state, state.turn)[0]
        return TimedMove(PICK_SECONDS, state.turn, move.code, "the pool pick's time ran out")

    def ai_move(self, state: CourtState, seat: int, rng: Rng) -> Move:
        moves = self.legal_moves(state, seat)
        if not moves:
            raise NotYourTurn("Nothing to do.")
        return ai.choose(state, seat, moves, rng)

    # --- moves ---------------------------------------------------------------------------

    def apply(self, state: CourtState, seat: int, move: Move | str) -> tuple[CourtState, list[Event]]:
        code = move if isinstance(move, str) else move.code
        if state.over:
            raise MatchOver("This match is over.")
        if not 0 <= seat < PLAYERS or seat != state.turn:
            raise NotYourTurn(waiting_for(self.to_act(state)))
        kind = move_kind(code)
        handlers = {
            BID: {BID_KIND: self._bid},
            LEAD: {LEAD_KIND: self._lead},
            FOLLOW: {FOLLOW_KIND: self._follow},
            DUEL: {DUEL_KIND: self._duel},
            PICK: {TAKE_KIND: self._take},
            AFTER: {
                COURT_KIND: self._court,
                BAG_KIND: self._bag,
                KNOCK: self._knock,
                FLOP: self._flop,
                DONE: self._done,
            },
        }[state.phase]
        handler = handlers.get(kind)
        if handler is None:
            raise IllegalMove(self._expected(state))
        events: list[Event] = []
        new = handler(state, seat, code, events)
        return new, events

    @staticmethod
    def _expected(state: CourtState) -> str:
        return {
            BID: "Bid now, or choose No bid.",
            LEAD: "Lead cards now (a single, pair, three or four of a kind, or a straight flush).",
            FOLLOW: f"Play {len(state.trick[state.leader])} cards now.",
            DUEL: "Lay one card for the duel now.",
            PICK: "Take your cards from the pool now.",
            AFTER: "Court, sandbag, knock, flop or pass now."
            if not state.forced
            else "Knock or flop your King now.",
        }[state.phase]

    @staticmethod
    def _cards(code: str, within: Sequence[str], where: str) -> tuple[str, ...]:
        """The cards a code names, each once and all in ``within`` (else a refusal)."""
        cards = _parts(code)
        if not cards or ":" not in code:
            raise IllegalMove("Choose the cards.")
        if len(set(cards)) != len(cards):
            raise IllegalMove("Each card once, please.")
        if not set(cards) <= set(within):
            raise IllegalMove(f"That card is not in {where}.")
        return cards

    def _bid(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        key = code.partition(":")[2]
        if key != NO_BID and key not in {b.key for b in legal_bids(state.scores, seat)}:
            raise IllegalMove(
                "That bid is not open to you (only players far enough behind the leader may bid)."
            )
        if key != NO_BID:
            state = replace(state, bids=_set(state.bids, seat, key))
            events.append(Event(f"{p(seat)} bids {BY_KEY[key].name}."))
        else:
            events.append(Event(f"{p(seat)} makes no bid."))
        bidders = self._bidders(state)
        later = bidders[bidders.index(seat) + 1 :]
        if later:
            return replace(state, turn=later[0])
        return self._deal(state, events)[0]

    def _lead(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        cards = self._cards(code, state.hands[seat], "your hand")
        most = min(MAX_LEAD, min(len(h) for h in state.hands))
        if len(cards) > most:
            raise IllegalMove(f"A lead may have at most {most} cards (the smallest hand at the table).")
        hand = classify(cards)
        if hand is None:
            raise IllegalMove(
                "A lead is a single, a pair, three or four of a kind, or a five-card straight flush."
            )
        cards = sorted_cards(cards)
        events.append(
            Event(
                f"{p(seat)} leads {'a ' if hand.kind != 'three of a kind' else ''}{hand.kind}: {labels(cards)}."
            )
        )
        return replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], cards)),
            trick=_set(((),) * PLAYERS, seat, cards),
            duel=((),) * PLAYERS,
            played=((),) * PLAYERS,
            leader=seat,
            phase=FOLLOW,
            turn=(seat + 1) % PLAYERS,
        )

    def _follow(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        cards = sorted_cards(self._cards(code, state.hands[seat], "your hand"))
        need = len(state.trick[state.leader])
        if len(cards) != need:
            raise IllegalMove(f"Play exactly {need} card{'s' * (need > 1)}, as many as the lead.")
        events.append(Event(f"{p(seat)} plays {labels(cards)}."))
        state = replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], cards)),
            trick=_set(state.trick, seat, cards),
        )
        nxt = (seat + 1) % PLAYERS
        if nxt != state.leader:
            return replace(state, turn=nxt)
        return self._resolve_trick(state, events)

    def _resolve_trick(self, state: CourtState, events: list[Event]) -> CourtState:
        lead = classify(state.trick[state.leader])
        assert lead is not None
        best = best_seats(lead, [(s, state.trick[s]) for s in state.play_order()])
        if len(best) == 1:
            return self._won(state, best[0], events)
        names = " and ".join(p(s) for s in best)
        events.append(
            Event(f"{names} tie with the best {lead.kind}: they duel, single cards, {p(best[0])} first.")
        )
        return self._duel_next(replace(state, duelists=tuple(best), laid=()), events)

    def _duel_next(self, state: CourtState, events: list[Event]) -> CourtState:
        while True:
            if len(state.laid) == len(state.duelists):
                standing = duel_round([(s, c or None) for s, c in zip(state.duelists, state.laid)])
                if len(standing) == 1:
                    return self._won(replace(state, duelists=(), laid=()), standing[0], events)
                events.append(Event(f"{' and '.join(p(s) for s in standing)} tie again and duel on."))
                state = replace(state, duelists=tuple(standing), laid=())
                continue
            seat = state.duelists[len(state.laid)]
            if state.hands[seat]:
                return replace(state, phase=DUEL, turn=seat)
            events.append(Event(f"{p(seat)} has no card to lay and loses the duel."))
            state = replace(state, laid=(*state.laid, ""))

    def _duel(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        card = code.partition(":")[2]
        if card not in state.hands[seat]:
            raise IllegalMove("That card is not in your hand.")
        events.append(Event(f"{p(seat)} lays {label(card)} in the duel."))
        state = replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], [card])),
            duel=_set(state.duel, seat, (*state.duel[seat], card)),
            laid=(*state.laid, card),
        )
        return self._duel_next(state, events)

    def _won(self, state: CourtState, winner: int, events: list[Event]) -> CourtState:
        """The trick is won: the pool forms and the picking starts with the winner."""
        order = state.play_order()
        played = tuple(state.trick[s] + state.duel[s] for s in range(PLAYERS))
        pool = tuple(c for s in order for c in state.trick[s]) + tuple(
            c for s in order for c in state.duel[s]
        )
        seat_streak, count = state.streak
        streak = (winner, count + 1 if seat_streak == winner else 1)
        tricks = state.tricks + 1
        in_row = f" ({streak[1]} in a row)" if streak[1] > 1 else ""
        events.append(Event(f"{p(winner)} wins trick {tricks}{in_row} and picks first from the pool."))
        state = replace(
            state,
            trick=((),) * PLAYERS,
            duel=((),) * PLAYERS,
            played=played,
            pool=pool,
            owed=tuple(len(c) for c in played),
            winner=winner,
            tricks=tricks,
            streak=streak,
            phase=PICK,
            turn=winner,
        )
        return self._pick_next(state, events)

    def _pick_next(self, state: CourtState, events: list[Event]) -> CourtState:
        seat = state.turn
        if state.owed[seat] == 0:
            return self._start_after(state, events)
        if state.owed[seat] == len(state.pool):  # the last picker takes what is left
            return self._taken(state, seat, state.pool, events)
        return state

    def _take(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        cards = self._cards(code, state.pool, "the pool")
        if len(cards) != state.owed[seat]:
            raise IllegalMove(f"Take exactly {state.owed[seat]} cards, as many as you played.")
        return self._taken(state, seat, cards, events)

    def _taken(self, state: CourtState, seat: int, cards: Sequence[str], events: list[Event]) -> CourtState:
        events.append(Event(f"{p(seat)} takes {labels(sorted_cards(cards))} from the pool."))
        state = replace(
            state,
            hands=_set(state.hands, seat, sorted_cards((*state.hands[seat], *cards))),
            pool=_without(state.pool, cards),
            owed=_set(state.owed, seat, 0),
            turn=(seat + 1) % PLAYERS,
        )
        return self._pick_next(state, events)

    # --- after a trick -------------------------------------------------------------------

    def _start_after(self, state: CourtState, events: list[Event]) -> CourtState:
        winner = state.winner
        state = replace(
            state,
            phase=AFTER,
            turn=winner,
            forced=state.streak[1] >= 3,
            courted_now=False,
            bagged_now=False,
            played=((),) * PLAYERS,
        )
        if state.forced:
            events.append(Event(f"Third trick in a row: {p(winner)} must knock or flop their King."))
        return self._maybe_finish_turn(state, events)

    def _maybe_finish_turn(self, state: CourtState, events: list[Event]) -> CourtState:
        """The winner's turn goes on until they pass (or knock), even when passing is all
        they can do: ending it for them would show the table that they hold no run to court,
        no four to sandbag and too low a score to knock (RULES.md's secrecy ruling). The rule
        timer passes for them after AFTER_SECONDS, the same for every winner. A winner left
        with no card (which everyone sees) ends the round at once, as before."""
        if not state.hands[state.turn] and not state.forced:
            return self._next_trick(state, events)
        return state

    def _court(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        if state.forced:
            raise IllegalMove("Third trick in a row: knock or flop your King first.")
        if state.courted_now:
            raise IllegalMove("One court a turn: extend your run after another trick.")
        cards = self._cards(code, state.hands[seat], "your hand")
        problem = court_problem(state.courted[seat], cards)
        if problem is not None:
            raise IllegalMove(problem)
        run = tuple(sorted((*state.courted[seat], *cards), key=natural))
        events.append(
            Event(
                f"{p(seat)} courts {len(cards)} card{'s' * (len(cards) > 1)} face down ({len(run)} courted)."
            )
        )
        events.append(Event(f"You court {labels(sorted_cards(cards))}.", seat))
        state = replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], cards)),
            courted=_set(state.courted, seat, run),
            courted_now=True,
        )
        if kings_court(run, state.king_suit(seat)):
            events.append(
                Event(f"{p(seat)} has a King's Court: all twelve of their King's suit! The round ends.")
            )
            return self._end_round(state, events, f"{p(seat)}'s King's Court")
        return self._maybe_finish_turn(state, events)

    def _bag(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        if state.forced:
            raise IllegalMove("Third trick in a row: knock or flop your King first.")
        r = code.partition(":")[2].upper().replace("10", "T")
        if r not in bag_ranks(state.hands[seat]):
            raise IllegalMove("You can sandbag only a four of a kind of A, Q or 7 that you hold.")
        four = tuple(c for c in state.hands[seat] if rank(c) == r)
        events.append(Event(f"{p(seat)} sandbags a four of a kind face down."))
        events.append(Event(f"You sandbag {labels(four)}.", seat))
        state = replace(
            state,
            hands=_set(state.hands, seat, _without(state.hands[seat], four)),
            bags=_set(state.bags, seat, (*state.bags[seat], *four)),
            bagged_now=True,
        )
        return self._maybe_finish_turn(state, events)

    def _knock(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        if code != KNOCK:
            raise IllegalMove("Knock takes nothing more.")
        if state.courted_now or state.bagged_now:
            raise IllegalMove("You may not court and knock in the same turn.")
        if not state.can_knock(seat):
            raise IllegalMove(
                f"You may knock only with a round score of at least {state.going_board} (the going board)."
            )
        events.append(Event(f"{p(seat)} knocks: the round ends."))
        return self._end_round(state, events, f"{p(seat)} knocked")

    def _flop(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        if code != FLOP or not state.forced:
            raise IllegalMove("You flop your King only on a third trick won in a row.")
        shown = "" if state.blind(seat) else f" {label(state.kings[seat])} face up"
        events.append(Event(f"{p(seat)} flops their King{shown} (-15)."))
        if state.blind(seat):  # face up for the others, hidden from its blind owner
            for other in range(PLAYERS):
                if other != seat:
                    king = label(state.kings[seat])
                    events.append(Event(f"{p(seat)} bid blind: their flopped King is {king}.", other))
        state = replace(
            state, flops=_set(state.flops, seat, state.flops[seat] + 1), streak=(seat, 0), forced=False
        )
        return self._maybe_finish_turn(state, events)

    def _done(self, state: CourtState, seat: int, code: str, events: list[Event]) -> CourtState:
        if code != DONE:
            raise IllegalMove("Pass takes nothing more.")
        if state.forced:
            raise IllegalMove("Third trick in a row: knock or flop your King.")
        return self._next_trick(state, events)

    def _next_trick(self, state: CourtState, events: list[Event]) -> CourtState:
        if state.tricks >= TRICK_CAP:
            events.append(Event(f"{TRICK_CAP} tricks played: the round ends as if knocked."))
            return self._end_round(state, events, f"{TRICK_CAP} tricks")
        empty = [s for s in range(PLAYERS) if not state.hands[s]]
        if empty:
            events.append(Event(f"{p(empty[0])} has no card left in hand: the round ends as if knocked."))
            return self._end_round(state, events, f"{p(empty[0])} out of cards")
        laid_down = state.courted_now or state.bagged_now
        leader = (state.winner + 1) % PLAYERS if laid_down else state.winner
        return replace(
            state,
            phase=LEAD,
            turn=leader,
            leader=leader,
            forced=False,
            courted_now=False,
            bagged_now=False,
            winner=-1,
        )

    # --- the end of a round and of the match ---------------------------------------------------

    def _end_round(self, state: CourtState, events: list[Event], reason: str) -> CourtState:
        """Score the round; ``reason`` (why it ended, "{p1} knocked") heads its score line,
        since the table shows only the last three events and the knock may be gone from them."""
        points, shown, detail = [], [], []
        for seat in range(PLAYERS):
            king_suit = state.king_suit(seat)
            parts = list(state.score_parts(seat))
            bid = bid_points(state.bids[seat], state.hands[seat], king_suit, state.courted[seat])
            bid_text = ""
            if state.bids[seat]:
                bid_text = f", {BY_KEY[state.bids[seat]].name} {bid:+d}"
                parts.append((f"bid {BY_KEY[state.bids[seat]].name}", bid))
            total = state.score_so_far(seat) + bid
            points.append(total)
            shown.append(f"{p(seat)} ({label(state.kings[seat])}{bid_text}) {total:+d}")
            detail.append(f"Your last round: {total:+d} — {parts_text(parts)}")
        # One short public line (the Kings are shown now); each player's parts show in their own hand.
        events.append(Event(f"Round {state.round} ({reason}) scored: {' · '.join(shown)}."))
        scores = tuple(s + pt for s, pt in zip(state.scores, points))
        state = replace(
            state, scores=scores, last_round=tuple(points), last_detail=tuple(detail), last_reason=reason
        )
        if max(scores) >= state.target or min(scores) <= LOSING_TOTAL:
            state = replace(state, phase=OVER, turn=-1)
            events.append(Event(self._summary(state)))
            return state
        state = replace(state, round=state.round + 1, dealer=(state.dealer + 1) % PLAYERS)
        return self._start_round(state, events)[0]

    def _summary(self, state: CourtState) -> str:
        best = max(state.scores)
        names = " and ".join(p(s) for s in range(PLAYERS) if state.scores[s] == best)
        return f"{names} win{'s' if names.count('{') == 1 else ''} King's Court with {best} points{self._why(state)}."

    @staticmethod
    def _why(state: CourtState) -> str:
        """Why the match ended: ``": {p1} fell to -215, and -200 or below ends the match"``."""
        reasons = []
        fallen = [s for s in range(PLAYERS) if state.scores[s] <= LOSING_TOTAL]
        if len(fallen) == 1:
            reasons.append(
                f"{p(fallen[0])} fell to {state.scores[fallen[0]]}, and {LOSING_TOTAL} or below ends the match"
            )
        elif fallen:
            who = join_names([f"{p(s)} ({state.scores[s]})" for s in fallen])
            reasons.append(f"{who} fell to {LOSING_TOTAL} or below, which ends the match")
        reached = [s for s in range(PLAYERS) if state.scores[s] >= state.target]
        if reached:
            reasons.append(f"{join_names([p(s) for s in reached])} reached the target of {state.target}")
        return ": " + "; ".join(reasons) if reasons else ""

    def outcome(self, state: CourtState) -> Outcome | None:
        if not state.over:
            return None
        # The finished table shows only this summary: the last round's points and why it ended too.
        last = f" {view_mod.last_round_line(state)}." if state.last_round else ""
        return ranked(state.scores, self._summary(state) + last)

    def stage(self, state: CourtState) -> int:
        return state.round

    def standing(self, state: CourtState) -> Outcome | None:
        """The totals as they stand. The search AI asks only where a round has just been
        scored (its rollouts end with the round, :meth:`stage`); the round scored half-way
        (as if knocked) misled it: hard beat normal less with rollouts cut there (README)."""
        return ranked(state.scores)

    # --- what players see ----------------------------------------------------------------------

    def view(self, state: CourtState, seat: int | None) -> View:
        return view_mod.build(state, seat, self._waiting(state, seat))

    def _waiting(self, state: CourtState, seat: int | None = None) -> str:
        """The status line. After a trick it lists what the winner may do: in their own view
        from their moves, elsewhere from public facts only (the round score and the runs in
        hand are private, so the table names knocking only when a blind bid allows it)."""
        if state.over:
            return self._summary(state)
        who = p(state.turn)
        return {
            BID: f"{who} may bid before the deal.",
            LEAD: f"{who} to lead.",
            FOLLOW: f"{who} to play {len(state.trick[state.leader])} card{'s' * (len(state.trick[state.leader]) > 1)}.",
            DUEL: f"{who} to lay a duel card.",
            PICK: f"{who} to take {state.owed[state.turn]} from the pool.",
            AFTER: self._after_waiting(state, seat),
        }[state.phase]

    def _after_waiting(self, state: CourtState, seat: int | None) -> str:
        who, board = p(state.turn), state.going_board
        if seat == state.turn:
            kinds = {move_kind(m.code) for m in self.legal_moves(state, seat)}
            if state.forced:
                return f"{who} must {'knock or ' * (KNOCK in kinds)}flop their King."
            words = [
                w for k, w in ((COURT_KIND, "court"), (BAG_KIND, "sandbag"), (KNOCK, "knock")) if k in kinds
            ]
            return (
                f"{who} won the trick: {', '.join(words)} or pass."
                if words
                else f"{who} won the trick: pass."
            )
        knock = state.blind(state.turn)  # a blind bidder may always knock; anyone else by a private score
        if state.forced:
            if knock:
                return f"{who} must knock or flop their King."
            return f"{who} must flop their King, or knock with a round score of {board} or more."
        if state.courted_now:
            return f"{who} courted: sandbag or pass."
        if state.bagged_now:
            return f"{who} won the trick: court, sandbag or pass."
        return f"{who} won the trick: court{', knock' * knock} or pass."

    # --- persistence and invariants ----------------------------------------------------------

    def dump(self, state: CourtState) -> dict[str, Any]:
        return state_mod.dump(state)

    def load(self, data: Mapping[str, Any]) -> CourtState:
        return state_mod.load(data)

    def card_count(self, state: CourtState) -> int:
        places = (*state.hands, *state.courted, *state.bags, *state.trick, *state.duel, state.pool)
        undealt = len(DECK) if state.phase == BID else 0  # bids come before the deal
        return len(state.kings) + undealt + sum(len(place) for place in places)

    def resample(self, state: CourtState, seat: int, rng: Rng) -> CourtState:
        """Deal again what ``seat`` cannot see: the others' hands, courted cards and sandbags,
        and every King it does not see (its own too, if it bid blind; see ``king_seen_by``)."""
        others = [s for s in range(PLAYERS) if s != seat]
        places = [*state.hands, *state.courted, *state.bags]
        hidden = [i + k * PLAYERS for k in range(3) for i in others]
        dealt, rng = deal_hidden(places, hidden, rng)
        down = [s for s in range(PLAYERS) if not state.king_seen_by(s, seat)]
        kings, _ = deal_hidden([(k,) for k in state.kings], down, rng)
        return replace(
            state,
            hands=tuple(sorted_cards(h) for h in dealt[:PLAYERS]),
            courted=dealt[PLAYERS : 2 * PLAYERS],
            bags=dealt[2 * PLAYERS :],
            kings=tuple(k[0] for k in kings),
        )


GAME = KingsCourt()

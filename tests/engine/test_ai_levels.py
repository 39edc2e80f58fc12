"""AI levels: easy/normal/hard play legal games, easy is weaker, hard never peeks at hidden state."""

from __future__ import annotations

import random

import pytest

from engine import GameState, apply, legal_actions, new_game, player_view
from engine.ai import AI_LEVELS, HardPlayer, ai_level, choose_action
from engine.ai.world import sample_world, unseen_cards
from maps import load_ruleset

USA = load_ruleset("usa")
#: A small, deterministic search budget (no time cap) so tests are fast and exact.
SMALL_HARD = HardPlayer(iterations=24, time_cap_s=None)


def play(rules, seed, kinds, hard=SMALL_HARD, options=None):
    """Play one game with ``kinds`` per seat; every action is checked against legal_actions."""
    state = new_game(rules, seats=len(kinds), seed=seed, options=options)
    while not state.finished:
        seat = state.seats_to_act()[0]
        kind = kinds[seat]
        action = choose_action(rules, state, seat, kind, player=hard if kind == "hard" else None)
        assert action in legal_actions(rules, state, seat, payments="all")
        state = apply(rules, state, action).state
    return state


def test_levels_and_alias():
    """Four levels, weakest first; "heuristic" (stored games) is normal; unknown kinds raise."""
    assert AI_LEVELS == ("easy", "normal", "hard", "expert")
    assert ai_level("heuristic") == "normal" and ai_level("hard") == "hard"
    state = new_game(USA, seats=2, seed=4)
    assert choose_action(USA, state, 0, "heuristic") == choose_action(USA, state, 0, "normal")
    with pytest.raises(KeyError):
        choose_action(USA, state, 0, "grandmaster")


@pytest.mark.parametrize("map_id", ["usa", "germany", "nordic", "amsterdam", "paris"])
def test_every_level_finishes_a_legal_game_on_every_map(map_id):
    """easy, normal and (small-budget) hard share one game to the end on each map."""
    rules = load_ruleset(map_id)
    state = play(rules, 3, ["hard", "easy", "normal"])
    assert state.result is not None and len(state.result.seats) == 3


def test_normal_beats_easy_in_most_games():
    """Over 20 two-player games (seats alternating) normal wins at least 16."""
    wins = 0
    for seed in range(20):
        kinds = ["normal", "easy"] if seed % 2 == 0 else ["easy", "normal"]
        wins += play(USA, seed, kinds).result.winners == [kinds.index("normal")]
    assert wins >= 16, wins


def test_easy_makes_visible_mistakes():
    """Easy does not simply copy normal: over a game many of its choices differ."""
    state = new_game(USA, seats=2, seed=11)
    differ = total = 0
    while not state.finished:
        seat = state.seats_to_act()[0]
        easy = choose_action(USA, state, seat, "easy")
        total += 1
        differ += easy != choose_action(USA, state, seat, "normal")
        state = apply(USA, state, easy).state
    assert differ >= total // 5, (differ, total)


def _midgame(rules, seed: int, seats: int, moves: int) -> GameState:
    state = new_game(rules, seats=seats, seed=seed)
    for _ in range(moves):
        state = apply(rules, state, choose_action(rules, state, state.seats_to_act()[0])).state
    return state


def _rehide(rules, state: GameState, seat: int, rng: random.Random) -> GameState:
    """Another state that ``seat`` cannot tell apart from ``state``: other hands, other
    tickets, the deck order, the discard and the game RNG replaced at random."""
    other = state.clone()
    pool = [c for p in other.players if p.seat != seat for c, n in p.hand.items() for _ in range(n)]
    pool += other.deck + other.discard
    rng.shuffle(pool)
    for p in other.players:
        if p.seat != seat:
            size = p.card_count
            p.hand = {}
            for c in pool[:size]:
                p.hand[c] = p.hand.get(c, 0) + 1
            pool = pool[size:]
    other.deck, other.discard = pool[: len(other.deck)], pool[len(other.deck) :]
    tickets = [t for p in other.players if p.seat != seat for t in p.tickets + p.offer]
    for deck in other.ticket_decks.values():
        tickets += deck
    by_deck = {
        name: [t for t in tickets if rules.board.tickets[t].deck == name]
        for name in other.ticket_decks
    }
    for name in by_deck:
        rng.shuffle(by_deck[name])
    for p in other.players:
        if p.seat != seat:
            p.tickets = [by_deck[rules.board.tickets[t].deck].pop() for t in p.tickets]
            p.offer = [by_deck[rules.board.tickets[t].deck].pop() for t in p.offer]
    other.ticket_decks = {name: by_deck[name] for name in other.ticket_decks}
    other.rng = rng.getrandbits(64)
    return other


@pytest.mark.parametrize(
    ("map_id", "moves"), [("usa", 0), ("usa", 40), ("germany", 60), ("paris", 25)]
)
def test_hard_never_peeks(map_id, moves):
    """Hard's choice is identical when the hidden parts of the state are replaced
    consistently with its view (other hands and tickets, deck order, discard, RNG)."""
    rules = load_ruleset(map_id)
    state = _midgame(rules, 21, 3, moves)
    seat = state.seats_to_act()[0]
    view = player_view(rules, state, seat)
    hard = HardPlayer(iterations=30, time_cap_s=None)
    mine = choose_action(rules, state, seat, player=hard)
    for k in range(3):
        other = _rehide(rules, state, seat, random.Random(k))
        assert other != state
        assert player_view(rules, other, seat) == view
        assert choose_action(rules, other, seat, player=hard) == mine


@pytest.mark.parametrize(
    ("map_id", "moves"), [("usa", 0), ("nordic", 50), ("germany", 1), ("paris", 30)]
)
def test_sampled_world_agrees_with_the_view(map_id, moves):
    """A sampled world shows its seat exactly the real view, and holds every card once."""
    rules = load_ruleset(map_id)
    state = _midgame(rules, 5, 3, moves)
    seat = state.seats_to_act()[0]
    view = player_view(rules, state, seat)
    world = sample_world(rules, view, random.Random(1), state.options)
    assert player_view(rules, world, seat) == view
    held = sum(p.card_count for p in world.players) + len(world.deck) + len(world.discard)
    shown = sum(1 for c in world.face_up if c is not None)
    flags = sum(len(p.extra.cards_out()) for p in world.players if p.extra is not None)
    assert held + shown + flags == sum(rules.params.deck.values())
    assert len(unseen_cards(rules, view)) == held - sum(view.hand.values())


def test_outcome_is_mostly_the_score_margin():
    """A finished game is worth WIN_WEIGHT x win (half on a shared first place) plus the margin
    over the best other seat / 50; an unfinished one 0."""
    from engine.ai.hard import WIN_WEIGHT, outcome

    state = play(USA, 11, ["normal", "normal"])
    assert state.result is not None
    scores = [s.score for s in state.result.seats]
    for seat in (0, 1):
        margin = scores[seat] - scores[1 - seat]
        win = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        assert outcome(state, seat) == pytest.approx(WIN_WEIGHT * win + margin / 50)
    assert outcome(state, 0) != outcome(state, 1) or scores[0] == scores[1]
    assert outcome(new_game(USA, seats=2, seed=1), 0) == 0.0


def test_pick_overturns_the_default_only_on_a_clear_paired_gain():
    """pick keeps the default unless a candidate is ahead by MIN_GAIN and Z_SCORE standard
    errors in the same worlds; the best such candidate wins; too few worlds decide nothing."""
    from engine.ai.hard import MIN_GAIN, pick

    rng = random.Random(5)
    base = [rng.uniform(-1, 1) for _ in range(40)]
    steady = [v + 3 * MIN_GAIN for v in base]  # always a little better: clear
    steadier = [v + 6 * MIN_GAIN for v in base]  # better still: the best clear one
    tiny = [v + MIN_GAIN / 2 for v in base]  # always better, but below MIN_GAIN
    noisy = [v + (1.0 if k % 2 else -0.9) for k, v in enumerate(base)]  # +0.05 on average, swinging
    values = [base, steady, steadier, tiny, noisy]
    assert pick(values, 0, [0, 1, 2, 3, 4]) == 2
    assert pick(values, 0, [0, 1, 3, 4]) == 1
    assert pick(values, 0, [0, 3, 4]) == 0
    assert pick([v[:3] for v in values], 0, [0, 1, 2]) == 0  # three worlds: too few


def test_the_hard_cap_is_read_on_the_players_clock():
    """The cap counts on ``HardPlayer.clock``: a clock that stands still never reaches even
    a tiny cap (the search equals the uncapped one, all rollouts spent), and a clock that
    races past the cap at its first reading stops the search before any rollout, leaving
    the heuristic's move (the benchmark's CPU clock relies on this)."""
    import itertools

    from engine.ai import ai_rng

    state = new_game(USA, seats=2, seed=11)
    while state.phase == "setup" or state.step != "turn" or state.seats_to_act() != [0]:
        seat = state.seats_to_act()[0]
        state = apply(USA, state, choose_action(USA, state, seat, "normal")).state
    legal = legal_actions(USA, state, 0, payments="sensible")
    view = player_view(USA, state, 0)

    def evaluate(player):
        return player.evaluate(USA, view, legal, ai_rng(state, 0), options=state.options)

    uncapped = evaluate(HardPlayer(iterations=24, time_cap_s=None))
    assert len(uncapped.candidates) > 1 and sum(map(len, uncapped.values)) >= 24
    still = evaluate(HardPlayer(iterations=24, time_cap_s=1e-9, clock=lambda: 0.0))
    assert (still.candidates, still.values, still.chosen) == (
        uncapped.candidates,
        uncapped.values,
        uncapped.chosen,
    )
    racing = itertools.count(0.0, 100.0)
    cut = evaluate(HardPlayer(iterations=24, time_cap_s=1.4, clock=lambda: next(racing)))
    assert sum(map(len, cut.values)) == 0
    assert cut.choice == cut.candidates[cut.base]

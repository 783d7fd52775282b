"""The engine through Python: games, states, moves, records, views, errors,
against the C engine's own records (`gateau random`, `gateau replay`)."""

import json
import random
import resource

import numpy as np
import pytest

import gateau
from conftest import CASES


def test_games_are_listed_with_their_player_counts():
    listed = {info.name: (info.min_players, info.max_players) for info in gateau.games()}
    assert listed == {"piece-o-cake": (2, 5), "maries-table": (3, 5), "mice-cake": (2, 2),
                      "cake-master": (2, 6)}
    poc = gateau.games()[0]
    assert poc.options[0]["name"] == "rounds" and poc.type["score_unit"] == "points"


def test_load_takes_options_as_dict_or_text():
    assert gateau.load("piece-o-cake", players=3, options={"rounds": 2}).options == "rounds=2"
    assert gateau.load("piece-o-cake", players=3, options="rounds=2").num_players == 3


def replay_in_python(record_text):
    """A state replayed line by line through State.apply_move."""
    header, moves = record_text.split("---\n", 1)
    fields = dict(line.split(": ", 1) for line in header.splitlines()
                  if line and not line.startswith("#"))
    game = gateau.load(fields["game"], int(fields["players"]), fields.get("options"))
    state = game.new_initial_state()
    for line in moves.splitlines():
        if line and not line.startswith("#"):
            state.apply_move(line)
    return state


@pytest.mark.parametrize("name,players", CASES)
def test_c_records_replay_alike_in_python(command, name, players):
    """A random game of the C engine, replayed move by move from Python:
    same end, scores, winners and views as the engine's own replay."""
    for seed in (1, 2):
        text = command("random", name, "--players", players, "--seed", seed)
        state = replay_in_python(text)
        record = gateau.Record.from_text(text)
        assert state.is_terminal() and record.state.is_terminal()
        expected = json.loads(command("replay", "-", "--json", stdin=text))
        assert state.scores() == expected["scores"]
        assert [seat + 1 for seat in state.winners()] == expected["winners"]
        assert record.result()["scores"] == expected["scores"]
        for seat in [gateau.OBSERVER, *range(players)]:
            assert state.view(seat) == record.state.view(seat)
        # Written back, the record is the command's, line for line (but
        # the command's comment naming itself).
        assert state.to_record().text() == text.split("\n", 1)[1]


@pytest.mark.parametrize("name,players", CASES)
def test_python_random_games_are_valid_c_records(command, name, players):
    """Random games played action by action from Python: the C engine's
    replay of their records agrees on the result."""
    game = gateau.load(name, players)
    chooser = random.Random(players)
    rng = gateau.Rng(players)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(chooser.choice(state.legal_actions()), state.current_player())
    result = json.loads(command("replay", "-", "--json", stdin=state.to_record().text()))
    assert result["terminal"] and result["scores"] == state.scores()
    assert result["winners"] == [seat + 1 for seat in state.winners()]


def test_states_clone_and_copy_independently():
    game = gateau.load("mice-cake", 2)
    state = game.new_initial_state()
    rng = gateau.Rng(3)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    copy = state.clone()
    copy.apply(copy.legal_actions()[0], copy.current_player())
    assert copy.view() != state.view() or copy.history != state.history
    assert len(copy.history) == len(state.history) + 1


@pytest.mark.parametrize("name,players", [("maries-table", 4), ("cake-master", 3),
                                          ("mice-cake", 2), ("piece-o-cake", 3)])
def test_views_and_observations_do_not_change_under_determinize(name, players):
    game = gateau.load(name, players)
    chooser = random.Random(5)
    rng = gateau.Rng(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(players):
            sampled = state.determinize(seat, rng)
            assert sampled.view(seat) == state.view(seat)
            assert np.array_equal(sampled.observation(seat), state.observation(seat))
            assert np.array_equal(sampled.legal_mask(seat), state.legal_mask(seat))
            checked += 1
        state.apply(chooser.choice(state.legal_actions()), state.current_player())
    assert checked > 10


def test_legal_masks_match_legal_actions():
    game = gateau.load("cake-master", 4)
    state = game.new_initial_state()
    rng = gateau.Rng(9)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    seat = state.current_player()
    mask = state.legal_mask(seat)
    assert mask.shape == (game.action_space_size,)
    assert list(np.flatnonzero(mask)) == state.legal_actions(seat)


def test_chance_outcomes_sum_to_one():
    state = gateau.load("piece-o-cake", 3).new_initial_state()
    outcomes = state.chance_outcomes()
    assert state.is_chance() and state.current_player() == gateau.CHANCE
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9


def test_bad_input_raises_the_engines_reason():
    with pytest.raises(gateau.GateauError, match="unknown game 'chess'"):
        gateau.load("chess")
    with pytest.raises(gateau.GateauError, match="piece-o-cake is for 2 to 5 players, not 9"):
        gateau.load("piece-o-cake", 9)
    with pytest.raises(gateau.GateauError, match="unknown option 'speed'"):
        gateau.load("piece-o-cake", 3, "speed=2")
    with pytest.raises(gateau.GateauError, match="rounds=0: expected a whole number"):
        gateau.load("piece-o-cake", 3, {"rounds": 0})
    state = gateau.load("piece-o-cake", 3).new_initial_state()
    with pytest.raises(gateau.GateauError, match="a chance move comes next"):
        state.apply(10, 0)
    rng = gateau.Rng(1)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    before = state.view()
    with pytest.raises(gateau.GateauError, match="outside the game's actions"):
        state.apply(999)
    with pytest.raises(gateau.GateauError, match="not legal"):
        state.apply(next(a for a in range(state.game.action_space_size)
                         if a not in state.legal_actions()))
    with pytest.raises(gateau.GateauError):
        state.apply_move("cut 1-99")
    with pytest.raises(gateau.GateauError, match="there is no seat 7"):
        state.legal_actions(7)
    with pytest.raises(gateau.GateauError, match="there is no seat 5"):
        state.view(5)
    assert state.view() == before  # nothing applied
    with pytest.raises(gateau.GateauError, match="out must be a writable contiguous"):
        state.observation(0, out=np.zeros(3, np.float32))
    with pytest.raises(gateau.GateauError, match="line 4"):
        gateau.Record.from_text("game: piece-o-cake\nplayers: 3\n---\nnonsense\n")
    with pytest.raises(gateau.GateauError, match="unknown bot"):
        gateau.Bot("genius")


def resident_kilobytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def test_no_leak_in_a_long_loop():
    """States, clones, views, observations, records, moves and errors by
    the thousand: the process does not grow."""
    game = gateau.load("maries-table", 3)
    rng = gateau.Rng(2)

    def churn(rounds):
        for _ in range(rounds):
            state = game.new_initial_state()
            while state.is_chance():
                state.apply(state.sample_chance(rng))
            copy = state.determinize(0, rng).clone()
            copy.view(0)
            copy.view_text(1)
            copy.observation(0)
            state.to_record().text()
            try:
                copy.apply(62)
            except gateau.GateauError:
                pass
            gateau.Record.from_text(state.to_record().text()).result()

    churn(300)  # warm up: allocator pools, caches
    before = resident_kilobytes()
    churn(3000)
    grown = resident_kilobytes() - before
    assert grown < 2048, "grew by %d kB over 3000 rounds" % grown


def test_moves_built_in_any_order_are_ordered_by_the_engine():
    """gateau_move_order and gateau_move_choices (issue 27): a cut's gaps
    chosen anticlockwise, 11|1 first, make the engine's cut."""
    state = gateau.load("piece-o-cake", 3).new_initial_state()
    state.apply_move("deal PPPAAAARRRRRBBBBBBBKKKKKKKKGGGGGGGGGSSSSSSSSSSCCCCCCCCCCC")
    gaps = [10 + 11 - 1, 10 + 8 - 1, 10 + 3 - 1]  # after 11, 8 and 3
    ordered = state.order_move(gaps)
    assert ordered == sorted(gaps)
    assert state.move_text(ordered) == "cut 1-3 4-8 9-11"
    choices, complete = state.move_choices(gaps[:1])
    assert len(choices) == 10 and not complete
    assert state.move_choices(gaps) == ([], True)
    with pytest.raises(gateau.GateauError, match="chosen twice"):
        state.order_move([12, 12])
    with pytest.raises(gateau.GateauError, match="part of no legal move"):
        state.move_choices([11, 13, 15, 17])

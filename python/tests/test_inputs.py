"""Strict inputs: integers only (no bools, floats or strings), in range,
text without NUL characters, clear errors that number seats from 0 as the
Python API does, moves that carry their seat."""

import numpy as np
import pytest

import gateau


def dealt(name="piece-o-cake", players=3, seed=1):
    state = gateau.load(name, players).new_initial_state()
    rng = gateau.Rng(seed)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return state


def simultaneous(name="maries-table", players=3, seed=1):
    """A state at the start of a simultaneous phase with several seats to choose."""
    state = dealt(name, players, seed)
    rng = gateau.Rng(seed)
    chooser = np.random.default_rng(seed)
    while not (state.is_simultaneous() and len(state.actors()) > 1 and not state.in_move()):
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(int(chooser.choice(state.legal_actions())), state.current_player())
    return state


def test_an_action_beyond_32_bits_is_refused_not_wrapped():
    state = dealt()
    legal = state.legal_actions()[0]
    before = state.view()
    for wrapped in (2**32 + legal, -2**32 + legal, 2**64 + legal):
        with pytest.raises(gateau.GateauError, match="outside the game's actions"):
            state.apply(wrapped)
    assert state.view() == before
    state.apply(np.int64(legal))  # numpy integers are integers
    assert state.history[-1] == (0, legal) and type(state.history[-1][1]) is int


@pytest.mark.parametrize("bad", ["10", 10.0, True, np.float32(3), None, [1], b"1"])
def test_an_action_that_is_not_an_integer_is_refused(bad):
    state = dealt()
    applied = len(state.history)
    with pytest.raises(gateau.GateauTypeError, match="action must be an integer"):
        state.apply(bad if bad is not None else object())
    assert len(state.history) == applied
    with pytest.raises(TypeError):  # a GateauTypeError is a TypeError
        state.legal_actions("0")


@pytest.mark.parametrize("players", ["4", 4.0, True, np.float64(3)])
def test_a_player_count_that_is_not_an_integer_is_refused(players):
    with pytest.raises(gateau.GateauTypeError, match="players must be an integer"):
        gateau.load("piece-o-cake", players=players)
    assert gateau.load("piece-o-cake", players=np.int64(4)).num_players == 4
    with pytest.raises(gateau.GateauError, match="piece-o-cake is for 2 to 5 players, not 4294967299"):
        gateau.load("piece-o-cake", players=2**32 + 3)


def test_seats_are_checked_and_named_from_0():
    state = dealt()
    with pytest.raises(gateau.GateauError, match=r"there is no seat 3 in a 3-player game \(seats are 0 to 2"):
        state.legal_actions(3)
    with pytest.raises(gateau.GateauTypeError, match="seat must be an integer, not a bool"):
        state.legal_actions(True)
    # The engine's own messages, which number seats from 1 as text does,
    # come with Python's numbering: seat 0 is to act.
    with pytest.raises(gateau.GateauError, match="it is not seat 1's turn: seat 0 is to act"):
        state.apply(state.legal_actions(0)[0], 1)
    with pytest.raises(gateau.GateauError, match="seat 2 cannot start a move here"):
        gateau.Bot("random").choose(state, 2)


def test_move_text_refuses_what_is_not_one_whole_move():
    state = dealt()
    actions = state.parse_move("cut 1-3 4-7 8-11")
    assert state.move_text(actions) == "cut 1-3 4-7 8-11"
    for bad in (actions[:-1], actions + actions[-1:], [], [999]):
        with pytest.raises(gateau.GateauError):
            state.move_text(bad)
    with pytest.raises(gateau.GateauTypeError):
        state.move_text("cut 1-3")


def test_action_to_string_takes_actions_of_the_game_only():
    state = dealt()
    assert state.action_to_string(state.legal_actions()[0])
    for bad in (999, -1, state.game.action_space_size):
        with pytest.raises(gateau.GateauError, match="outside the game's actions"):
            state.action_to_string(bad)
    chance = gateau.load("mice-cake").new_initial_state()
    with pytest.raises(gateau.GateauError, match="not a chance outcome"):
        chance.action_to_string(10**6, gateau.CHANCE)


@pytest.mark.parametrize("call", [
    lambda: dealt().apply_move("cut 1-3 4-7 8-11\0garbage"),
    lambda: dealt().parse_move("cut 1-3\0"),
    lambda: gateau.Record.from_text("game: mice-cake\0\nplayers: 2\n---\n"),
    lambda: gateau.load("mice-cake\0chess"),
    lambda: gateau.load("piece-o-cake", 3, "rounds=2\0rounds=9"),
    lambda: gateau.Bot("random\0:ms=1"),
])
def test_text_with_a_nul_character_is_refused(call):
    with pytest.raises(gateau.GateauError, match="NUL"):
        call()


def test_text_must_be_text():
    with pytest.raises(gateau.GateauTypeError):
        dealt().apply_move(b"cut 1-3 4-7 8-11")
    with pytest.raises(gateau.GateauTypeError):
        gateau.load(5)


def test_seeds_and_counts_are_checked():
    for bad in (-1, 2**64):
        with pytest.raises(gateau.GateauError, match="seed must be 0 to 2"):
            gateau.Rng(bad)
    with pytest.raises(gateau.GateauTypeError):
        gateau.Rng(1.5)
    with pytest.raises(gateau.GateauTypeError):
        gateau.Batch("mice-cake", 2.0)
    with pytest.raises(gateau.GateauError, match="a batch holds 1 to 1048576 games, not 4294967297"):
        gateau.Batch("mice-cake", 2**32 + 1)
    with pytest.raises(gateau.GateauTypeError):
        gateau.arena("mice-cake", ["random", "random"], games="3")
    with pytest.raises(gateau.GateauError, match="an arena plays 1 or more games"):
        gateau.arena("mice-cake", ["random", "random"], games=0)
    with pytest.raises(gateau.GateauTypeError):
        gateau.load("piece-o-cake", 3, {"rounds": 2.5})


def test_batch_steps_refuse_bools():
    batch = gateau.Batch("mice-cake", 2)
    with pytest.raises(gateau.GateauError, match="not 32-bit integers"):
        batch.step(np.array([True, False]))
    with pytest.raises(gateau.GateauError, match=r"game 1: action 999 is not a legal action of seat \d"):
        batch.step([batch.legal_actions[0, 0], 999])


def test_text_in_a_simultaneous_phase_must_say_whose_move_it_is():
    state = simultaneous()
    seats = state.actors()
    move = gateau.Bot("random", seed=3).choose(state, seats[-1])
    before = state.view()
    with pytest.raises(gateau.GateauError, match="may all move now: say whose move it is"):
        state.apply_move(move.text)
    assert state.view() == before
    # A Move carries its seat: played for that seat, not the lowest one.
    state.apply_move(move)
    assert state.history[-1][0] == seats[-1] and seats[-1] not in state.actors()
    assert move.line == "%d: %s" % (seats[-1] + 1, move.text)
    other = gateau.Bot("random", seed=4).choose(state, seats[0])
    with pytest.raises(gateau.GateauError, match="this Move is seat %d's" % seats[0]):
        state.apply_move(other, seat=seats[1])
    state.apply_move(other.line)  # the record's form: "N: move", seats from 1 in text
    assert state.history[-1][0] == seats[0]
    with pytest.raises(gateau.GateauError, match="names no seat"):
        state.apply_move("9: up")


def test_bots_that_would_play_something_else_say_so():
    mice = gateau.load("mice-cake")
    assert gateau.Bot("solver").plays_as(mice) == "heuristic"
    assert gateau.Bot("solver").plays_as("piece-o-cake") == "solver"
    with pytest.raises(gateau.GateauError, match="bot 'solver' cannot play mice-cake as asked: "
                                                 "it would play heuristic instead"):
        gateau.Bot("solver").choose(dealt("mice-cake", 2))
    with pytest.raises(gateau.GateauError, match="cannot play mice-cake as asked"):
        gateau.Bot("solver", game="mice-cake")
    move = gateau.Bot("solver", fallback=True).choose(dealt("mice-cake", 2))
    assert move.actions
    assert gateau.Bot("solver").choose(dealt("piece-o-cake", 3)).actions

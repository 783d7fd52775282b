"""Copies, pickles, processes and threads (docs/python.md): every object
survives copy.copy, copy.deepcopy and pickle as a clone made through what
made it (never a C address), a spawn pool takes games, states and bots,
and threads may share a Bot."""

import copy
import multiprocessing
import pickle
import pickletools
import threading

import numpy as np
import pytest

import gateau
import gateau.pyspiel as pyspiel
import workers


def dealt(name="mice-cake", players=2, seed=1, actions=0):
    """A state after the deal and `actions` random actions."""
    state = gateau.load(name, players).new_initial_state()
    rng = gateau.Rng(seed)
    chooser = np.random.default_rng(seed)
    done = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        elif done < actions:
            state.apply(int(chooser.choice(state.legal_actions())), state.current_player())
            done += 1
        else:
            break
    return state


def same_state(a, b):
    """Everything anyone can ask of a state agrees."""
    assert a.game == b.game
    assert a.view() == b.view()
    for seat in range(a.num_players):
        assert a.view(seat) == b.view(seat)
        assert a.legal_actions(seat) == b.legal_actions(seat)
        assert np.array_equal(a.observation(seat), b.observation(seat))
    assert a.scores() == b.scores() and a.is_terminal() == b.is_terminal()
    assert a.in_move() == b.in_move() and a.actors() == b.actors()


def round_trips(value):
    """copy.copy, copy.deepcopy and pickle (every protocol) of value."""
    yield copy.copy(value)
    yield copy.deepcopy(value)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        yield pickle.loads(pickle.dumps(value, protocol))


def integers_in(data):
    return {arg for opcode, arg, _ in pickletools.genops(data) if isinstance(arg, int)}


def test_a_pickled_state_holds_no_address():
    state = dealt(actions=5)
    data = pickle.dumps(state)
    addresses = {state._state, state.game._setup}
    assert not addresses & integers_in(data)
    assert b"mice-cake" in data  # the game by name


def test_rngs_copy_and_pickle_with_their_words():
    rng = gateau.Rng(7, stream=3)
    state = dealt()
    for again in round_trips(rng):
        assert again == rng and again is not rng
        assert state.determinize(0, again).view() == state.determinize(0, copy.copy(rng)).view()
    with pytest.raises(gateau.GateauError, match="an Rng has 4 words"):
        gateau.Rng.from_words([1, 2])


def test_games_and_game_infos_pickle_by_name_players_and_options():
    game = gateau.load("piece-o-cake", 3, {"rounds": 2})
    for again in round_trips(game):
        assert again == game and again.options == "rounds=2" and again.num_players == 3
    info = gateau.games()[2]
    for again in round_trips(info):
        assert again.name == info.name


@pytest.mark.parametrize("name,players,actions", [("mice-cake", 2, 0), ("mice-cake", 2, 7),
                                                  ("piece-o-cake", 3, 4),
                                                  ("maries-table", 4, 9),
                                                  ("cake-master", 3, 12)])
def test_states_copy_and_pickle_as_their_actions(name, players, actions):
    state = dealt(name, players, seed=players, actions=actions)
    for again in round_trips(state):
        same_state(again, state)
        assert again.history == state.history
        # Independent: an action on the copy leaves the original alone.
        if not again.is_terminal():
            before = state.view()
            again.apply(again.legal_actions()[0], again.current_player())
            assert state.view() == before


def test_a_state_inside_a_move_pickles():
    state = dealt("piece-o-cake", 3, actions=0)
    state.apply_move("cut 1-3 4-7 8-11")
    state.apply(state.legal_actions()[0], state.current_player())
    assert state.in_move()
    for again in round_trips(state):
        same_state(again, state)


def test_record_states_and_records_copy_and_pickle_through_their_text(command):
    text = command("random", "maries-table", "--players", 3, "--seed", 4)
    record = gateau.Record.from_text(text)
    for again in round_trips(record):
        assert again.text() == record.text()
        same_state(again.state, record.state)
    state = gateau.Record.from_text(text.split("\n---\n")[0] + "\n---\n" +
                                    "\n".join(text.split("\n---\n")[1].splitlines()[:30]) +
                                    "\n").state
    state.apply(state.legal_actions()[0], state.current_player())
    for again in round_trips(state):
        same_state(again, state)
        assert again.to_record().text() == state.to_record().text()


def test_a_record_with_a_move_in_progress_pickles():
    game = gateau.load("piece-o-cake", 3)
    record = game.new_record()
    rng = gateau.Rng(2)
    while record.state.is_chance():
        record.play(record.state.sample_chance(rng))
    record.play_move("cut 1-3 4-7 8-11")
    record.play(record.state.legal_actions()[0])
    assert record.state.in_move()
    for again in round_trips(record):
        assert again.text() == record.text()
        same_state(again.state, record.state)


@pytest.mark.parametrize("name,players", [("mice-cake", 2), ("maries-table", 3),
                                          ("cake-master", 4), ("piece-o-cake", 3)])
def test_determinized_states_pickle_without_the_truth(name, players):
    """A determinized state pickles as the seat's view and the generator's
    words: the same state again, and nothing of what the seat cannot know
    (the true state's record is not in it)."""
    state = dealt(name, players, seed=3)
    bot = gateau.Bot("random", seed=3)
    chance = gateau.Rng(3)
    for _ in range(5):  # whole moves: where bots determinize
        while state.is_chance():
            state.apply(state.sample_chance(chance))
        bot.play(state)
    while state.is_chance():
        state.apply(state.sample_chance(chance))
    rng = gateau.Rng(11)
    for seat in range(players):
        guess = state.determinize(seat, rng)
        assert guess.history == []
        data = pickle.dumps(guess)
        assert state.to_record().text().encode() not in data
        for again in round_trips(guess):
            same_state(again, guess)
        with pytest.raises(gateau.GateauError, match="a determinized state has no record"):
            guess.to_record()
        # Actions applied after the determinization come along.
        guess.apply(guess.legal_actions(guess.current_player())[0])
        for again in round_trips(guess):
            same_state(again, guess)


def test_a_state_determinized_inside_a_move_copies_but_does_not_pickle():
    state = dealt("piece-o-cake", 3)
    state.apply_move("cut 1-3 4-7 8-11")
    state.apply(state.legal_actions()[0], state.current_player())
    guess = state.determinize(1, 4)
    same_state(copy.deepcopy(guess), guess)
    with pytest.raises(gateau.GateauError, match="determinized inside a move or for OBSERVER "
                                                 "does not pickle"):
        pickle.dumps(guess)
    with pytest.raises(gateau.GateauError, match="does not pickle"):
        pickle.dumps(dealt().determinize(gateau.OBSERVER, 1))


def test_batches_and_their_states_copy_and_pickle():
    batch = gateau.Batch("mice-cake", 3, seed=4)
    rng = np.random.default_rng(1)
    while batch.games_finished < 2:
        batch.step(batch.random_actions(rng))
    last_done = batch.done.copy()
    for i in range(3):
        state = batch.state(i)
        for again in round_trips(state):
            same_state(again, state)
    for again in round_trips(batch):
        assert again.games_finished == batch.games_finished
        assert np.array_equal(again.done, last_done)
        for i in range(3):
            same_state(again.state(i), batch.state(i))
        for name in ("observations", "masks", "legal_counts", "seats"):
            assert np.array_equal(getattr(again, name), getattr(batch, name)), name
        for i in range(3):  # (past legal_counts[i] the row holds what it held)
            count = batch.legal_counts[i]
            assert np.array_equal(again.legal_actions[i, :count], batch.legal_actions[i, :count])
    twin = pickle.loads(pickle.dumps(batch))
    for _ in range(300):  # the copy steps on as the original
        actions = batch.random_actions(rng)
        batch.step(actions)
        twin.step(actions)
        for name in ("observations", "rewards", "winners", "done", "seats"):
            assert np.array_equal(getattr(twin, name), getattr(batch, name)), name
    assert twin.games_finished == batch.games_finished


def test_bots_copy_and_pickle_as_their_spec_and_generator():
    bot = gateau.Bot("ismcts:iters=40", seed=5)
    state = dealt("maries-table", 3)
    bot.choose(state)  # moves the generator on
    for again in round_trips(bot):
        assert again.spec == bot.spec and again.rng == bot.rng and again._bot != bot._bot
        assert again.choose(state) == copy.copy(bot).choose(state)


def test_environments_copy_and_pickle():
    for env in (gateau.env("mice-cake"), gateau.parallel_env("maries-table", players=3),
                gateau.SingleAgentEnv("mice-cake", opponents="heuristic")):
        env.reset(seed=3)
        for again in round_trips(env):
            assert again is not env and again.game_state is not env.game_state
            same_state(again.game_state, env.game_state)


def test_pyspiel_games_and_states_copy_and_pickle():
    game = pyspiel.load_game("maries_table(players=4)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for again in round_trips(state):
        assert again.history() == state.history()
        assert str(again.get_game()) == str(game)
        assert again.information_state_string(1) == state.information_state_string(1)


def test_moves_copy_and_pickle():
    move = gateau.Move([1, 2], "take 4-7", 1)
    for again in round_trips(move):
        assert again == move and again.seat == 1


def test_a_spawn_pool_takes_games_states_and_bots():
    """Two spawned interpreters play received states to the end: the same
    games as here, in other processes."""
    context = multiprocessing.get_context("spawn")
    tasks = [(dealt("maries-table", 3, seed=s), gateau.Bot("heuristic", seed=s),
              gateau.Rng(s)) for s in range(4)]
    expected = [workers.play_out(copy.deepcopy(task))[:2] for task in tasks]
    batch = gateau.Batch("mice-cake", 2, seed=2)
    steps = [batch.legal_actions[:, 0].copy()]
    with context.Pool(2) as pool:
        results = pool.map_async(workers.play_out, tasks).get(timeout=120)
        assert [result[:2] for result in results] == expected
        assert all(pid != multiprocessing.current_process().pid for *_, pid in results)
        assert pool.apply_async(workers.game_name, (gateau.load("cake-master", 5),)).get(
            timeout=60) == ("<gateau cake-master, 5 players>", True)
        views, finished = pool.apply_async(workers.step_batch, ((batch, steps),)).get(
            timeout=60)
    batch.step(steps[0])
    assert views == [batch.state(i).view() for i in range(2)] and finished == 0


def test_one_bot_shared_by_threads_plays_legal_moves():
    """Four threads ask one Bot for moves at once (its lock makes them take
    turns): every move is legal, nothing crashes."""
    bot = gateau.Bot("ismcts:iters=30", seed=1)
    errors = []

    def play(seed):
        try:
            for game in range(2):
                state = dealt("mice-cake", 2, seed=seed * 10 + game)
                rng = gateau.Rng(seed)
                while not state.is_terminal():
                    if state.is_chance():
                        state.apply(state.sample_chance(rng))
                        continue
                    move = bot.choose(state)
                    assert move.seat == state.current_player()
                    state.apply_move(move)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

"""What a user trial (an OpenSpiel and PettingZoo user working from the
docs alone) found, each case as a test: resampling within the
information set, dynamics as played and the turn-based transform,
simultaneous nodes with flat joint actions, legal_actions(p) off turn,
pyspiel's missing API and errors, threads on one object, seats from 0 in
bot failures, PettingZoo's strictness, documented corners."""

import copy
import pickle
import random
import threading
import warnings

import numpy as np
import pytest

import gateau
import gateau.pyspiel as pyspiel

GAMES = ["piece_o_cake(players=3)", "maries_table(players=3)", "maries_table(players=5)",
         "mice_cake", "cake_master(players=2)", "cake_master(players=3)"]


def random_positions(game_string, every, seed=1):
    """States along one random game, one every `every` actions (no chance nodes)."""
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    chooser = random.Random(seed)
    count = 0
    while not state.is_terminal():
        if count % every == every // 2 and not state.is_chance_node():
            yield state.clone()
        state.apply_action(chooser.choice(state.legal_actions()))
        count += 1


def node(game_string, test, seed=1):
    game = pyspiel.load_game(game_string) if isinstance(game_string, str) else game_string
    state = game.new_initial_state()
    chooser = random.Random(seed)
    while not test(state):
        state.apply_action(chooser.choice(state.legal_actions()))
    return state


def simultaneous(players=3, seed=2):
    return node("maries_table(players=%d)" % players, lambda s: s.is_simultaneous_node(), seed)


def secret_turn(game_string="mice_cake"):
    """A seat's node inside a simultaneous phase played in turn."""
    return node(game_string, lambda s: s.gateau.is_simultaneous() and not s.is_chance_node()
                and len(s.gateau.actors()) > 1 and not s.is_simultaneous_node())


# ---- 1. resample_from_infostate ------------------------------------------------

@pytest.mark.parametrize("game_string", GAMES)
def test_resample_stays_in_the_information_set(game_string):
    changed = 0
    for position, state in enumerate(random_positions(game_string, 29)):
        for player in range(state.num_players()):
            sampled = state.resample_from_infostate(player, 100 * position + player)
            assert sampled.information_state_string(player) == \
                state.information_state_string(player)
            assert sampled.information_state_tensor(player) == \
                state.information_state_tensor(player)
            assert sampled.move_number() == state.move_number() == len(state.history())
            assert len(sampled.history()) == len(state.history())
            # its history leads to it from the initial state
            again = sampled.get_game().new_initial_state()
            for player_id, action in sampled.full_history():
                again.gateau.apply(action, pyspiel._seat_of(player_id))
            assert again.information_state_string(player) == \
                sampled.information_state_string(player)
            assert str(again) == str(sampled)
            changed += sampled.history() != state.history()
    assert changed  # something the players did not see was resampled


@pytest.mark.parametrize("game_string", ["mice_cake", "cake_master(players=3)"])
def test_information_state_strings_have_perfect_recall(game_string):
    """Two pasts in which the player saw different things (a domino face
    up before it was taken, a hand in another order) give different
    strings, even where the record and the view now are the same: deals
    changed by swapping two outcomes, compared with the player's views
    after every move."""
    game = pyspiel.load_game(game_string)
    state = node(game, lambda s: s.move_number() >= 150, seed=2)
    gateau_game, seat = game.gateau, 0
    record, moves = pyspiel._moves(gateau_game, state._full())
    hidden = pyspiel._hidden_lines(record, seat)
    reference = pyspiel._views(gateau_game, moves, seat)
    deals = [(m, k) for m, (mover, actions, _) in enumerate(moves)
             if m < len(hidden) and hidden[m] and mover == gateau.CHANCE
             for k in range(len(actions))]
    chooser, differing = random.Random(1), 0
    for _ in range(60):
        trial = [[mover, list(actions), complete] for mover, actions, complete in moves]
        (m1, k1), (m2, k2) = chooser.sample(deals, 2)
        trial[m1][1][k1], trial[m2][1][k2] = trial[m2][1][k2], trial[m1][1][k1]
        if pyspiel._views(gateau_game, trial, seat, reference) is not None:
            continue  # the player saw the same: nothing to tell apart
        try:
            other = pyspiel._replayed_from_new(
                gateau_game, [(mover, a) for mover, actions, _ in trial for a in actions])
        except gateau.GateauError:
            continue  # the swap made a later action illegal
        differing += 1
        assert pyspiel.State(game, other).information_state_string(seat) != \
            state.information_state_string(seat)
    assert differing


def test_resample_takes_pyspiels_samplers_and_refuses_none():
    state = simultaneous()
    for sampler in (3, gateau.Rng(3), np.random.default_rng(3), random.Random(3).random):
        sampled = state.resample_from_infostate(1, sampler)
        assert sampled.information_state_string(1) == state.information_state_string(1)
    with pytest.raises(pyspiel.SpielError, match="probability_sampler"):
        state.resample_from_infostate(0, None)
    with pytest.raises(pyspiel.SpielError, match="name the player"):
        state.resample_from_infostate(None, 1)
    with pytest.raises(pyspiel.SpielError, match="probability_sampler"):
        state.resample_from_infostate(0, 1.5)


# ---- 2. dynamics and the turn-based transform -------------------------------------

CASES = [(info.name, n) for info in gateau.games()
         for n in range(info.min_players, info.max_players + 1)]


@pytest.mark.parametrize("name,players", CASES)
def test_dynamics_say_what_the_game_does(name, players):
    game = pyspiel.load_game(name, {"players": players})
    seen = False
    for seed in range(2):
        state = game.new_initial_state()
        chooser = random.Random(seed)
        while not state.is_terminal():
            seen = seen or state.is_simultaneous_node()
            state.apply_action(chooser.choice(state.legal_actions()))
    simultaneous_dynamics = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert seen == simultaneous_dynamics


def cfr_style_walk(state, depth, seen):
    """OpenSpiel's CFR walk's shape on a sequential game: one player (or
    chance) at every node, information-state strings as keys."""
    assert not state.is_simultaneous_node()
    if state.is_terminal() or depth == 0:
        return np.array(state.returns())
    if state.is_chance_node():
        outcomes = state.chance_outcomes()[:3]
        return sum(p * cfr_style_walk(state.child(a), depth - 1, seen) for a, p in outcomes)
    player = state.current_player()
    seen.add(state.information_state_string(player))
    actions = state.legal_actions()[:3]
    return sum(cfr_style_walk(state.child(a), depth - 1, seen) for a in actions) / len(actions)


@pytest.mark.parametrize("game_string", GAMES)
def test_load_game_as_turn_based_is_sequential(game_string):
    game = pyspiel.load_game_as_turn_based(game_string)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert pyspiel.load_game(str(game)) == game  # its string loads it again
    state = game.new_initial_state()
    chooser = random.Random(3)
    hidden_checked = False
    while not state.is_terminal():
        assert not state.is_simultaneous_node() and state.current_player() != pyspiel.SIMULTANEOUS
        player = state.current_player()
        legal = state.legal_actions()
        if player >= 0 and state.gateau.is_simultaneous() and len(state.gateau.actors()) > 1 \
                and len(legal) > 1:
            # the later chooser cannot tell what the earlier chose
            later = state.gateau.actors()[-1]
            one, other = state.child(legal[0]), state.child(legal[-1])
            assert one.information_state_string(later) == other.information_state_string(later)
            assert one.information_state_tensor(later) == other.information_state_tensor(later)
            hidden_checked = True
        state.apply_action(chooser.choice(legal))
    if game_string != "piece_o_cake(players=3)":
        assert hidden_checked
    seen = set()
    cfr_style_walk(node(game, lambda s: s.move_number() > 60, seed=4), 3, seen)
    assert seen


def test_turn_based_maries_table_is_sequential_where_the_game_was_simultaneous():
    game = pyspiel.load_game_as_turn_based("maries_table(players=3)")
    state = node("maries_table(players=3)", lambda s: s.is_simultaneous_node(), seed=2)
    turn = game.deserialize_state(state.serialize())
    assert not turn.is_simultaneous_node() and turn.current_player() == state.gateau.actors()[0]
    first = turn.current_player()
    turn.apply_action(turn.legal_actions()[0])
    assert turn.current_player() != first and turn.legal_actions(first) == []


# ---- 3. simultaneous nodes as OpenSpiel has them -----------------------------------

def test_flat_joint_actions_at_simultaneous_nodes():
    state = simultaneous()
    choosers = [p for p in range(3) if state.legal_actions(p)]
    sizes = [len(state.legal_actions(p)) for p in choosers]
    flat = state.legal_actions()
    assert flat == list(range(int(np.prod(sizes))))
    assert state.legal_actions(pyspiel.SIMULTANEOUS) == flat
    assert state.legal_actions_mask(pyspiel.SIMULTANEOUS) == [1] * len(flat)
    # OpenSpiel's numbering: the lowest player is the fastest digit
    last = flat[-1]
    assert state.flat_joint_action_to_actions(0) == \
        [state.legal_actions(p)[0] if p in choosers else pyspiel.INVALID_ACTION
         for p in range(3)]
    assert state.flat_joint_action_to_actions(last) == \
        [state.legal_actions(p)[-1] if p in choosers else pyspiel.INVALID_ACTION
         for p in range(3)]
    if len(flat) > 1:
        second = state.flat_joint_action_to_actions(1)
        assert second[choosers[0]] == state.legal_actions(choosers[0])[1 % sizes[0]]
    text = state.action_to_string(pyspiel.SIMULTANEOUS, last)
    assert text.startswith("[") and text.count(",") == len(choosers) - 1
    one, other = state.clone(), state.clone()
    one.apply_action(last)
    other.apply_actions(state.flat_joint_action_to_actions(last))
    assert one.history() == other.history() and len(one.history()) == \
        len(state.history()) + len(choosers)
    with pytest.raises(pyspiel.SpielError, match="no flat joint action"):
        state.apply_action(len(flat))
    assert state.string_to_action(pyspiel.SIMULTANEOUS, text) == last


# ---- 4. legal_actions(p) off turn ----------------------------------------------------

@pytest.mark.parametrize("game_string", ["mice_cake", "cake_master(players=3)"])
def test_legal_actions_of_a_player_not_to_act_are_empty(game_string):
    state = secret_turn(game_string)
    player = state.current_player()
    assert state.legal_actions(player) == state.legal_actions()
    for other in range(state.num_players()):
        if other != player:
            assert state.legal_actions(other) == []
            assert not any(state.legal_actions_mask(other))
    assert state.legal_actions(pyspiel.CHANCE) == []
    assert state.legal_actions(pyspiel.SIMULTANEOUS) == []


# ---- 5. pyspiel's API --------------------------------------------------------------------

def test_spiel_error_is_raised_for_bad_calls():
    state = node("mice_cake", lambda s: not s.is_chance_node())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(9999)
    with pytest.raises(pyspiel.SpielError, match="chance nodes"):
        state.chance_outcomes()
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("tic_tac_toe")
    try:
        state.apply_action(-5)
    except pyspiel.SpielError as error:
        assert isinstance(error, gateau.GateauError) and isinstance(error, RuntimeError)
    with pytest.raises(pyspiel.SpielError, match="the action's text must be a str"):
        state.string_to_action(None)
    with pytest.raises(pyspiel.SpielError, match="not legal"):
        state.apply_action_with_legality_check(
            next(a for a in range(68) if a not in state.legal_actions()))
    state.apply_action_with_legality_check(state.legal_actions()[0])


def test_game_api():
    game = pyspiel.load_game("piece_o_cake(players=3)")
    assert game.policy_tensor_shape() == [game.num_distinct_actions()]
    states = game.new_initial_states()
    assert len(states) == 1 and states[0].is_initial_state()
    assert game.action_to_string(pyspiel.CHANCE, 0) == \
        game.new_initial_state().action_to_string(pyspiel.CHANCE, 0)
    assert game.action_to_string(0, 3)
    with pytest.raises(pyspiel.SpielError):
        game.action_to_string(7, 3)
    for game_string in GAMES + ["piece_o_cake(players=2,rounds=3)"]:
        game = pyspiel.load_game(game_string)
        longest = game.max_game_length()
        assert isinstance(longest, int) and longest > 0
        state = game.new_initial_state()
        chooser = random.Random(5)
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
        assert len(state.history()) <= longest


@pytest.mark.parametrize("game_string", GAMES)
def test_serialize_and_deserialize(game_string):
    game = pyspiel.load_game(game_string)
    for state in list(random_positions(game_string, 41))[:3] + \
            [node(game_string, lambda s: s.gateau.in_move() or s.move_number() > 300)]:
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.history() == state.history() and str(again) == str(state)
        assert again.serialize() == text
        assert pyspiel.deserialize_state(game, text).history() == state.history()
        both = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(both)
        assert game2 == game and state2.history() == state.history()
    turn = pyspiel.load_game_as_turn_based(game_string)
    game2, _ = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(turn, turn.new_initial_state()))
    assert game2 == turn


def test_a_move_in_progress_survives_serialize():
    state = node("piece_o_cake(players=3)", lambda s: s.gateau.in_move())
    again = state.get_game().deserialize_state(state.serialize())
    assert again.history() == state.history() and again.gateau.in_move()


def test_undo_action():
    state = node("mice_cake", lambda s: s.move_number() > 30 and not s.is_chance_node())
    before = state.serialize()
    player, action = state.current_player(), state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(pyspiel.SpielError, match="last action"):
        state.undo_action(player, action + 1)
    state.undo_action(player, action)
    assert state.serialize() == before and state.current_player() == player
    # at a simultaneous node: undo one player's vote, then vote again
    votes = simultaneous()
    flat = votes.legal_actions()[0]
    chooser = votes.gateau.actors()[-1]
    votes.apply_action(flat)
    last = votes.full_history()[-1]
    assert last.player == chooser
    votes.undo_action(last.player, last.action)
    assert not votes.is_simultaneous_node()  # one vote cast, the last to come
    assert votes.current_player() == chooser and votes.legal_actions() == \
        votes.gateau.legal_actions(chooser)


# ---- 6. threads -------------------------------------------------------------------------

def hammer(work, threads=4):
    """Runs work on threads at once; the exceptions other than a clear
    GateauError (which the workers catch themselves) they raised."""
    errors = []

    def run():
        try:
            work()
        except Exception as error:  # noqa: BLE001 - reported to the test
            errors.append(error)

    pool = [threading.Thread(target=run) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return errors


def test_threads_sharing_a_batch_take_turns():
    """Four threads stepping one Batch (a heap corruption before its lock):
    each step is whole, and the batch stays consistent (a pickle replays
    every game to the same observations)."""
    batch = gateau.Batch("mice-cake", 64, seed=1)
    steps = []

    def work():
        rng = np.random.default_rng(threading.get_ident() % 1000)
        for _ in range(150):
            actions = batch.random_actions(rng)
            try:
                batch.step(actions)
                steps.append(1)
            except gateau.GateauError:
                pass  # another thread stepped first: these actions were stale
            if len(steps) % 50 == 1:
                assert pickle.loads(pickle.dumps(batch)).count == 64

    assert hammer(work) == []
    assert steps
    again = pickle.loads(pickle.dumps(batch))
    assert np.array_equal(again.observations, batch.observations)
    assert np.array_equal(again.masks, batch.masks)


def test_threads_sharing_a_state_an_environment_and_a_pyspiel_state():
    game = gateau.load("maries-table", 4)
    state = game.new_initial_state()
    rng = gateau.Rng(1)

    def play_state():
        for _ in range(300):
            try:
                if state.is_terminal():
                    return
                seat = state.current_player()
                if seat == gateau.CHANCE:
                    state.apply(state.sample_chance(rng), seat)
                else:  # (another thread may act between these calls: a refusal)
                    legal = state.legal_actions(seat)
                    if legal:
                        state.apply(legal[0], seat)
                state.clone(), state.view_json(0), state.observation(1)
            except gateau.GateauError:
                pass  # another thread acted first

    assert hammer(play_state) == []
    again = game.new_initial_state()
    for seat, action in state.history:  # the history is what was played
        again.apply(action, seat)
    assert str(again) == str(state)

    env = gateau.parallel_env("maries-table", players=3)
    env.reset(seed=2)

    def play_env():
        for _ in range(100):
            try:
                if not env.agents:
                    return
                actions = {agent: int(np.flatnonzero(
                    env._observe_seat(env.agent_name_mapping[agent], True)["action_mask"])[0])
                    for agent in env.acting_agents()}
                env.step(actions)
                pickle.loads(pickle.dumps(env))
            except (gateau.GateauError, IndexError):
                pass  # another thread stepped between our look and our step

    assert hammer(play_env) == []

    aec = gateau.env("mice-cake")
    aec.reset(seed=3)
    single = gateau.SingleAgentEnv("maries-table", players=3, opponents="random")
    single.reset(seed=3)

    def play_aec_and_single():
        for _ in range(150):
            try:
                if aec.agents:
                    observation, _, terminated, truncated, _ = aec.last()
                    legal = np.flatnonzero(observation["action_mask"])
                    aec.step(None if terminated or truncated else int(legal[0]))
                observation, _, terminated, _, _ = single.step(
                    int(np.flatnonzero(single._observation()["action_mask"])[0]))
                if terminated:
                    single.reset(seed=4)
                copy.deepcopy(aec), copy.deepcopy(single)
            except (gateau.GateauError, IndexError):
                pass  # another thread stepped between our look and our step

    assert hammer(play_aec_and_single) == []

    spiel = pyspiel.load_game("maries_table(players=3)").new_initial_state()

    def play_spiel():
        for _ in range(200):
            try:
                if spiel.is_terminal():
                    return
                legal = spiel.legal_actions()
                if legal:
                    spiel.apply_action(legal[0])
                spiel.information_state_string(0)
            except pyspiel.SpielError:
                pass

    assert hammer(play_spiel) == []
    record = gateau.load("mice-cake").new_record()

    def play_record():
        for _ in range(100):
            try:
                current = record.state
                if current.is_terminal():
                    return
                seat = current.current_player()
                legal = current.legal_actions(seat)
                if legal:
                    record.play(legal[0], seat)
                record.text(0)
            except gateau.GateauError:
                pass

    assert hammer(play_record) == []
    assert len(gateau.Record.from_text(record.text())) == len(record)


# ---- 7. seats from 0 in a bot's failure -------------------------------------------------

def test_a_bots_failure_names_seats_from_0():
    state = gateau.load("mice-cake").new_initial_state()
    rng = gateau.Rng(1)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    bot = gateau.Bot("ext:/nonexistent/bot")
    seat = state.current_player()
    with pytest.raises(gateau.GateauError) as error:
        bot.choose(state, seat)
    message = str(error.value)
    assert "seat %d (ext:/nonexistent/bot)" % seat in message, message


# ---- 8. PettingZoo strictness ---------------------------------------------------------------

def test_environment_inputs_are_checked():
    env = gateau.env("mice-cake")
    with pytest.warns(UserWarning, match="ignoring 'x'"):
        env.reset(seed=1, options={"x": 1})
    with pytest.raises(gateau.GateauTypeError, match="options"):
        env.reset(seed=1, options=[1])
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None
    assert isinstance(gateau.env("mice-cake", render_mode="ansi").render.__call__, object)
    shown = gateau.env("mice-cake", render_mode="ansi")
    shown.reset(seed=1)
    assert isinstance(shown.render(), str)
    with pytest.raises(gateau.GateauError, match="render_mode"):
        gateau.env("mice-cake", render_mode="rgb_array")
    with pytest.raises(gateau.GateauTypeError, match="a name"):
        gateau.env(None)
    with pytest.raises(gateau.GateauTypeError, match="a name"):
        gateau.parallel_env(None)
    parallel = gateau.parallel_env("maries-table", players=3)
    observations, infos = parallel.reset(seed=1)
    actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
               for agent in parallel.agents if infos[agent]["to_act"]}
    with pytest.raises(gateau.GateauError, match="'player_9' is not a live agent"):
        parallel.step(dict(actions, player_9=0))
    with pytest.raises(gateau.GateauTypeError, match="a dict"):
        parallel.step(list(actions.values()))
    parallel.step(actions)
    single = gateau.SingleAgentEnv("mice-cake", seat=0)
    observation, _ = single.reset(seed=1)
    assert set(observation) == {"observation", "action_mask"}
    assert observation["action_mask"].dtype == np.int8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        single.reset(seed=1, options=None)


# ---- 9. documented corners -------------------------------------------------------------------

def test_apply_without_a_seat_where_action_numbers_are_shared():
    state = simultaneous().gateau
    actors = state.actors()
    shared = set(state.legal_actions(actors[0])) & set(state.legal_actions(actors[1]))
    assert shared  # votes: every seat's up is the same number
    action = min(shared)
    with pytest.raises(gateau.GateauError, match="say whose action it is"):
        state.apply(action)
    state.apply(action, actors[1])
    assert state.history[-1] == (actors[1], action)


def test_small_refusals_say_what_is_wrong():
    state = gateau.load("mice-cake").new_initial_state()
    with pytest.raises(gateau.GateauError) as error:
        state.legal_mask(0, dtype=np.float64)
    assert "out" not in str(error.value) and "dtype must be" in str(error.value)
    batch = gateau.Batch("mice-cake", 4)
    with pytest.raises(gateau.GateauTypeError, match="numpy Generator"):
        batch.random_actions(None)


def test_record_text_and_a_move_in_progress():
    state = gateau.load("piece-o-cake", 3).new_initial_state()
    chooser = random.Random(1)
    while not state.in_move():
        state.apply(chooser.choice(state.legal_actions()))
    record = state.to_record()
    # the text holds complete moves only (docs/python.md); a pickle keeps the rest
    assert gateau.Record.from_text(record.text()).state.history == []
    assert pickle.loads(pickle.dumps(record)).state.history == state.to_record().state.history


def test_threads_sharing_a_generator_draw_in_turns():
    """An Rng shared by threads: every draw whole, so the generator ends
    where the same number of draws in one thread leaves it."""
    state = gateau.load("piece-o-cake", 3).new_initial_state()
    rng = gateau.Rng(9)

    def draw():
        mine = state.clone()
        for _ in range(300):
            mine.sample_chance(rng)

    assert hammer(draw) == []
    alone, mine = gateau.Rng(9), state.clone()
    for _ in range(4 * 300):
        mine.sample_chance(alone)
    assert rng.words == alone.words

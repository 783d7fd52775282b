"""The remaining failure paths of the package, each refused with its reason."""

import pickle

import numpy as np
import pytest

import gateau
import gateau.pyspiel as pyspiel
from gateau import batch as batch_module


def dealt(name="piece-o-cake", players=3):
    state = gateau.load(name, players).new_initial_state()
    rng = gateau.Rng(1)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return state


def test_state_refusals():
    state = dealt()
    with pytest.raises(gateau.GateauError, match="'x:' is not a seat number"):
        state.apply_move("x: cut 1-3")
    with pytest.raises(gateau.GateauError, match="out must be a writable contiguous"):
        state.legal_mask(0, out=np.zeros(3, np.int8))
    with pytest.raises(gateau.GateauError, match=r"there is no seat -2 in a 3-player game \(seats are 0 to 2\)$"):
        state.legal_mask(gateau.CHANCE)
    with pytest.raises(gateau.GateauError, match="a move has 1 to 256 actions, not 0"):
        state.move_text([])
    with pytest.raises(gateau.GateauError, match="there is no seat 4 .* or OBSERVER"):
        state.view(4)


def test_record_refusals():
    record = gateau.load("mice-cake").new_record()
    with pytest.raises(gateau.GateauError, match="there is no seat 2 in a 2-player game"):
        record.text(2)
    with pytest.raises(gateau.GateauTypeError):
        record.play("1")
    with pytest.raises(gateau.GateauError, match="a chance move comes next, not a move of seat 0"):
        record.play(0, 0)


def test_bot_and_arena_refusals():
    with pytest.raises(gateau.GateauTypeError, match="a gateau.State"):
        gateau.Bot("random").choose("mice-cake")
    with pytest.raises(gateau.GateauTypeError, match="a list of bot specs"):
        gateau.arena("mice-cake", "random,random", games=2)
    with pytest.raises(gateau.GateauError, match="bot 'solver' cannot play mice-cake as asked"):
        gateau.arena("mice-cake", ["solver", "random"], games=2)
    report = gateau.arena("mice-cake", ["solver", "random"], games=2, fallback=True)
    assert report["games"] == 2


def test_a_failing_program_says_why_it_cannot_move():
    # A program that cannot start, and one that dies before its answer with
    # onerror=forfeit: the bot's own reason, not "cannot start a move".
    state = dealt()
    with pytest.raises(gateau.GateauError, match=r"the bot cannot move: .*cannot start"):
        gateau.Bot("ext:/nonexistent/gateau-bot").choose(state)
    state = dealt()
    dying = "ext:onerror=forfeit:ms=2000:sh -c 'echo ready; read line; read line; exit 3'"
    with pytest.raises(gateau.GateauError, match=r"the bot cannot move: .*forfeits"):
        gateau.Bot(dying).choose(state)


def test_a_tampered_batch_pickle_is_refused():
    batch = gateau.Batch("mice-cake", 2, seed=1)
    game, count, seed, flags, games, finished, outputs = batch.__reduce__()[1]
    games[1] = (games[1][0], np.array([9999], np.int32))
    with pytest.raises(gateau.GateauError, match="game 1, action 1 of 1: "):
        batch_module._rebuild_batch(game, count, seed, flags, games, finished, outputs)


def test_environment_refusals():
    env = gateau.env("mice-cake", render_mode="ansi")
    with pytest.raises(gateau.GateauError, match="reset"):
        env.render()
    env = gateau.env("mice-cake")
    env.reset(seed=1)
    with pytest.raises(gateau.GateauTypeError, match="player_.'s action must be an integer"):
        env.step(1.0)
    while env.agents:
        observation, _, terminated, truncated, _ = env.last()
        if terminated:
            with pytest.raises(gateau.GateauError, match="is done: step\\(None\\) removes it"):
                env.step(0)
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    with pytest.raises(gateau.GateauError, match="no agent is left"):
        env.last()
    with pytest.raises(gateau.GateauError, match="no agent is left"):
        env.step(None)
    parallel = gateau.parallel_env("mice-cake")
    observations, infos = parallel.reset(seed=1)
    while parallel.agents:
        actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
                   for agent in parallel.agents if infos[agent]["to_act"]}
        observations, _, _, _, infos = parallel.step(actions)
    with pytest.raises(gateau.GateauError, match="the game is over"):
        parallel.step({})
    with pytest.raises(gateau.GateauError, match="reward must be"):
        gateau.parallel_env("mice-cake", reward="money")


def test_pyspiel_refusals():
    with pytest.raises(gateau.GateauError, match="is not a game string"):
        pyspiel.load_game("mice cake(")
    with pytest.raises(gateau.GateauTypeError, match="params must be a dict"):
        pyspiel.load_game("mice_cake", [("players", 2)])
    with pytest.raises(gateau.GateauError, match="no gateau game takes a bool"):
        pyspiel.load_game("piece_o_cake(rounds=true)")
    state = pyspiel.load_game("mice_cake").new_initial_state()
    with pytest.raises(gateau.GateauError, match="apply_actions is for simultaneous nodes"):
        state.apply_actions([0, 0])
    with pytest.raises(gateau.GateauError, match="name the player"):
        state.information_state_string()
    with pytest.raises(gateau.GateauError, match="no legal action of player 0 reads"):
        state.string_to_action(0, "fly")
    with pytest.raises(gateau.GateauTypeError):
        state.legal_actions("0")
    assert pickle.loads(pickle.dumps(pyspiel.load_game("mice_cake"))) == \
        pyspiel.load_game("mice_cake")

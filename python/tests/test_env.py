"""The AEC environment plays whole games the PettingZoo way."""

import numpy as np
import pytest

import gateau
from conftest import CASES


def play(env, seed, chooser):
    env.reset(seed=seed)
    steps, final = 0, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        assert observation["observation"].shape == (env.observation_size,)
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "an agent asked to act has a legal action"
        env.step(int(chooser.choice(legal)))
        steps += 1
    return steps, final


@pytest.mark.parametrize("name,players", CASES)
def test_full_games_end_with_the_final_scores_as_rewards(name, players):
    env = gateau.env(name, players=players)
    chooser = np.random.default_rng(players)
    steps, final = play(env, seed=11, chooser=chooser)
    assert steps > 0 and env.agents == []
    assert final == {"player_%d" % seat: float(score)
                     for seat, score in enumerate(env.game_state.scores())}


def test_the_same_seed_plays_the_same_game():
    first = gateau.env("maries-table", players=4)
    second = gateau.env("maries-table", players=4)
    play(first, 5, np.random.default_rng(1))
    play(second, 5, np.random.default_rng(1))
    assert first.game_state.to_record().text() == second.game_state.to_record().text()


def test_win_rewards_and_observe_any_agent():
    env = gateau.env("mice-cake", reward="win_loss")
    _, final = play(env, 3, np.random.default_rng(2))
    winners = env.game_state.winners()
    assert sorted(final.values()) in ([-1.0, 1.0], [1.0, 1.0])
    assert all((value == 1.0) == (int(agent[-1]) in winners) for agent, value in final.items())
    env.reset(seed=1)
    waiting = [agent for agent in env.possible_agents if agent != env.agent_selection][0]
    assert env.observe(waiting)["observation"].shape == (env.observation_size,)


def test_bad_steps_are_refused():
    env = gateau.env("piece-o-cake", players=3)
    env.reset(seed=1)
    with pytest.raises(gateau.GateauError, match="outside the action space"):
        env.step(999)
    with pytest.raises(gateau.GateauError, match="not legal"):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0]))
    with pytest.raises(gateau.GateauError, match="must act"):
        env.step(None)
    with pytest.raises(gateau.GateauError, match="reward must be"):
        gateau.env("mice-cake", reward="money")

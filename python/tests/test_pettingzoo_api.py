"""PettingZoo's api_test, as checks of our own: PettingZoo and Gymnasium
are not Debian packages, so the rules of pettingzoo/test/api_test.py
(PettingZoo 1.24, the AEC API test) and of parallel_test.py are written
out here, each citing the rule it checks, and run on every game and
player count.  The spaces are gateau.spaces' stand-ins, whose
Discrete.sample(mask) insists on an int8 mask as Gymnasium's does."""

import numpy as np
import pytest

import gateau
from gateau import spaces
from conftest import CASES


def api_test(env, num_cycles=1000):
    """pettingzoo.test.api_test, rule by rule."""
    # "checks that reset takes arguments called seed and options" (gateau
    # defines no reset option: it takes the dict and warns that it ignores it)
    with pytest.warns(UserWarning, match="ignoring 'options'"):
        env.reset(seed=0, options={"options": 1})
    env.reset()
    # "terminations must all be False after reset", "truncations must all be False after reset"
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    # "num_agents must be an integer", "... nonzero ...", "... positive number of agents"
    assert isinstance(env.num_agents, int) and env.num_agents > 0
    env.reset()
    observation_0, *_ = env.last()
    if isinstance(observation_0, dict) and "observation" in observation_0:
        observation_0 = observation_0["observation"]
    check_observation(observation_0)
    # "last must return a None when observe=False"
    non_observe, *_ = env.last(observe=False)
    assert non_observe is None
    check_observation_action_spaces(env)
    play_test(env, observation_0, num_cycles)
    # "rewards must be a dict", "terminations must be a dict", ...
    for table in (env.rewards, env.terminations, env.truncations, env.infos):
        assert isinstance(table, dict)
    # "rewards, terminations, truncations, infos and agents must have the same length"
    assert len(env.rewards) == len(env.terminations) == len(env.truncations) == \
        len(env.infos) == len(env.agents)
    check_rewards_terminations_truncations(env)
    check_action_flexibility(env)
    # "checks unwrapped attribute"
    assert env.unwrapped is env
    # "If render method defined, then close method required"
    assert callable(env.render) and callable(env.close)


def check_observation(observation):
    assert isinstance(observation, np.ndarray), "Observation is not a NumPy array"
    # "Observation can not be an empty array"; no inf, no NaN (warnings there, errors here)
    assert observation.shape != (0,) and np.isfinite(observation).all()
    assert np.can_cast(observation.dtype, np.float64)


def check_action_mask(mask):
    # test_action_mask: a NumPy array, 1-D, not empty, only 0 and 1
    assert isinstance(mask, np.ndarray) and mask.ndim == 1 and mask.shape != (0,)
    assert np.array_equal(mask, mask.astype(bool))
    # Gymnasium's Discrete.sample(mask) takes int8 masks only
    assert mask.dtype == np.int8


def check_observation_action_spaces(env):
    for agent in env.agents:
        # "Observation space for each agent must extend gymnasium.spaces.Space"
        assert isinstance(env.observation_space(agent), spaces.Space)
        assert isinstance(env.action_space(agent), spaces.Space)
        # "observation_space should return the exact same space object (not a copy)"
        assert env.observation_space(agent) is env.observation_space(agent)
        # "action_space should return the exact same space object (not a copy)"
        assert env.action_space(agent) is env.action_space(agent)
        # agents named "<descriptor>_<number>"
        assert agent.startswith("player_")
        # same class and size of spaces for every agent
        assert env.observation_space(agent) == env.observation_space(env.possible_agents[0])
        assert env.action_space(agent) == env.action_space(env.possible_agents[0])
        # "Agent's minimum observation space value is greater than it's maximum" (and shapes)
        box = env.observation_space(agent)["observation"]
        assert np.all(box.low <= box.high) and box.low.shape == box.shape == box.high.shape


def check_rewards_terminations_truncations(env):
    for agent in env.agents:
        # "Agent's values in terminations must be True or False"
        assert isinstance(env.terminations[agent], bool)
        assert isinstance(env.truncations[agent], bool)
        float(env.rewards[agent])  # "Rewards for each agent must be convertible to float"


def sample(env, agent, observation, terminated, truncated):
    if terminated or truncated:
        return None
    # play_test: env.action_space(agent).sample(prev_observe["action_mask"])
    return env.action_space(agent).sample(observation["action_mask"])


def play_test(env, observation_0, num_cycles):
    env.reset()
    live_agents = set(env.agents)
    has_finished = set()
    generated_agents = set()
    accumulated_rewards = {agent: 0 for agent in env.possible_agents}
    for agent in env.agent_iter(env.num_agents * num_cycles):
        generated_agents.add(agent)
        # "agents cannot resurect!"
        assert agent not in has_finished
        # "an environment agent's info must be a dictionary"
        assert isinstance(env.infos[agent], dict)
        prev_observe, reward, terminated, truncated, info = env.last()
        check_action_mask(prev_observe["action_mask"])
        action = sample(env, agent, prev_observe, terminated, truncated)
        if not (terminated or truncated):
            # an agent asked to act has a legal action
            assert prev_observe["action_mask"].any()
        live_agents.add(agent)
        # "environment must delete agents as the game continues"
        assert live_agents.issubset(set(env.agents))
        if terminated or truncated:
            live_agents.remove(agent)
            has_finished.add(agent)
        # "reward returned by last is not the accumulated rewards in its rewards dict"
        assert accumulated_rewards[agent] == reward, (agent, accumulated_rewards[agent], reward)
        accumulated_rewards[agent] = 0
        env.step(action)
        for other, value in env.rewards.items():
            accumulated_rewards[other] += value
        # "env.num_agents is not equal to len(env.agents)"
        assert env.num_agents == len(env.agents)
        # "agents should not be given a reward/termination/truncation/info if they were
        # terminated or truncated last turn"
        for table in (env.rewards, env.terminations, env.truncations, env.infos):
            assert set(table) == set(env.agents)
        # "possible agents should always include all agents, if it exists"
        assert set(env.agents).issubset(set(env.possible_agents))
        if not env.agents:
            break
        # "Out of bounds observation", and the dtypes of the observation space
        assert env.observation_space(agent).contains(prev_observe)
        assert env.observation_space(agent)["observation"].dtype == \
            prev_observe["observation"].dtype
        check_observation(prev_observe["observation"])
    # "not all agents finished, some were skipped over"
    if not env.agents:
        assert has_finished == generated_agents
    env.reset()
    for agent in env.agent_iter(env.num_agents * 2):
        observation, reward, terminated, truncated, info = env.last()
        action = sample(env, agent, observation, terminated, truncated)
        # "terminated from last() and terminations[agent] do not match", same for info
        assert isinstance(terminated, bool) and terminated == env.terminations[agent]
        assert isinstance(truncated, bool) and truncated == env.truncations[agent]
        assert info == env.infos[agent]
        float(env.rewards[agent])
        # "step() must not return anything"
        assert env.step(action) is None


def check_action_flexibility(env):
    """A given action is valid after a seeded reset, as a numpy int32 too."""
    env.reset(seed=0)
    agent = env.agent_selection
    observation, reward, terminated, truncated, info = env.last()
    action = sample(env, agent, observation, terminated, truncated)
    env.step(action)
    env.reset(seed=0)
    env.step(np.int32(action))


@pytest.mark.parametrize("name,players", CASES)
def test_the_aec_environment_passes_pettingzoos_api_test(name, players):
    api_test(gateau.env(name, players=players))


def test_mice_cake_rewards_are_handed_out_once():
    """Summing env.rewards after every step gives each agent its final
    reward once (PettingZoo's _was_dead_step clears the rewards), also
    after the first finished agent is removed."""
    env = gateau.env("mice-cake")
    env.reset(seed=4)
    summed = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else
                 int(np.flatnonzero(observation["action_mask"])[0]))
        for other, value in env.rewards.items():
            summed[other] += value
    scores = env.game_state.scores()
    assert summed == {"player_%d" % seat: float(score) for seat, score in enumerate(scores)}


def test_state_is_pettingzoos_global_state_and_the_game_is_game_state():
    env = gateau.env("maries-table", players=3)
    with pytest.raises(gateau.GateauError, match="reset"):
        env.state()
    env.reset(seed=1)
    assert env.state_space.contains(env.state())
    assert np.array_equal(env.state(), env.game_state.observation(gateau.OBSERVER))


def parallel_api_test(env, num_cycles=1000):
    """pettingzoo.test.parallel_api_test's rules, and the actions of the
    agents that may act sampled with their int8 masks."""
    observations, infos = env.reset(seed=0)
    # "reset must return a (observations, infos) pair", keys are the agents
    assert set(observations) == set(infos) == set(env.agents)
    has_finished = set()
    for _ in range(num_cycles):
        actions = {agent: env.action_space(agent).sample(observations[agent]["action_mask"])
                   for agent in env.agents}
        for agent in env.agents:
            check_action_mask(observations[agent]["action_mask"])
            assert observations[agent]["action_mask"].any() == infos[agent]["to_act"]
            assert env.observation_space(agent).contains(observations[agent])
        observations, rewards, terminations, truncations, infos = env.step(actions)
        for table in (observations, rewards, terminations, truncations, infos):
            # "agents should not be given a ... if they were terminated last turn"
            assert set(table) <= set(env.possible_agents) - has_finished
        for agent, done in terminations.items():
            if done or truncations[agent]:
                has_finished.add(agent)
        # "environment must delete agents as the game continues"
        assert set(env.agents) == set(env.possible_agents) - has_finished
        if not env.agents:
            return rewards
    raise AssertionError("the game did not end in %d cycles" % num_cycles)


@pytest.mark.parametrize("name,players", [("maries-table", 3), ("maries-table", 5),
                                          ("mice-cake", 2), ("cake-master", 3),
                                          ("piece-o-cake", 2)])
def test_the_parallel_environment_plays_simultaneous_phases_at_once(name, players):
    env = gateau.parallel_env(name, players=players, reward="win")
    rewards = parallel_api_test(env)
    assert sorted(rewards) == sorted(env.possible_agents)
    winners = env.game_state.winners()
    assert rewards == {agent: float(seat in winners)
                       for agent, seat in env.agent_name_mapping.items()}


def test_the_parallel_environment_asks_every_seat_of_a_simultaneous_phase():
    env = gateau.parallel_env("maries-table", players=4)
    observations, infos = env.reset(seed=2)
    seen_several = False
    while env.agents:
        acting = [agent for agent in env.agents if infos[agent]["to_act"]]
        seen_several |= len(acting) > 1
        with pytest.raises(gateau.GateauError, match="who must act now"):
            env.step({})
        actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[-1])
                   for agent in acting}
        observations, rewards, terminations, truncations, infos = env.step(actions)
    assert seen_several


def test_the_parallel_environment_refuses_an_illegal_action_whole():
    env = gateau.parallel_env("maries-table", players=3)
    observations, infos = env.reset(seed=5)
    while sum(info["to_act"] for info in infos.values()) < 2:
        actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
                   for agent in env.agents if infos[agent]["to_act"]}
        observations, _, _, _, infos = env.step(actions)
    acting = [agent for agent in env.agents if infos[agent]["to_act"]]
    actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
               for agent in acting}
    actions[acting[-1]] = int(np.flatnonzero(observations[acting[-1]]["action_mask"] == 0)[0])
    before = env.game_state.view()
    with pytest.raises(gateau.GateauError, match="is not legal now"):
        env.step(actions)
    assert env.game_state.view() == before


@pytest.mark.parametrize("name,players", [("maries-table", 3), ("mice-cake", 2),
                                          ("cake-master", 2), ("piece-o-cake", 3)])
def test_the_single_agent_environment_plays_whole_games(name, players):
    env = gateau.SingleAgentEnv(name, players=players, seat=1, opponents="heuristic")
    observation, info = env.reset(seed=7)
    assert env.observation_space.contains(observation)
    terminated, steps, total = False, 0, 0.0
    while not terminated:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(observation) and truncated is False
        total += reward
        steps += 1
    assert steps > 0 and total == (1.0 if 1 in info["winners"] else -1.0)
    with pytest.raises(gateau.GateauError, match="the game is over"):
        env.step(0)


def test_the_single_agent_environment_refuses_bad_set_ups():
    with pytest.raises(gateau.GateauError, match="2 opponents for the 1 other seats"):
        gateau.SingleAgentEnv("mice-cake", opponents=["random", "random"])
    with pytest.raises(gateau.GateauError, match="there is no seat 2"):
        gateau.SingleAgentEnv("mice-cake", seat=2)
    with pytest.raises(gateau.GateauError, match="cannot play mice-cake as asked"):
        gateau.SingleAgentEnv("mice-cake", opponents="solver")
    env = gateau.SingleAgentEnv("mice-cake")
    with pytest.raises(gateau.GateauError, match="reset"):
        env.step(0)

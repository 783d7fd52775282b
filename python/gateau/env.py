"""An environment in the shape of PettingZoo's AEC API, without PettingZoo.

Agents are "player_0" .. "player_{N-1}" (seat k is "player_k").  Each step
is one action of the agent selected (moves of several actions, like a take
and its slices, are several steps of the same agent); chance is played
inside from the environment's generator.  In a simultaneous phase the
agents still to choose are asked in seat order, and each sees only its own
choice until the phase resolves.

Observations are dicts {"observation": float32 vector, "action_mask":
uint8 vector}, as PettingZoo's classic environments give them.  Rewards
are 0 until the game ends, then each agent's final score ("scores", the
default), or 1 for a winner and 0 otherwise ("win"), or 1 / -1
("win_loss").  After the end every agent is terminated; as in PettingZoo,
step(None) for each removes it.

docs/python.md shows how to wrap it for PettingZoo and Gymnasium.
"""

import numpy as np

from gateau.engine import CHANCE, GateauError, Rng, load


class AECEnv:
    metadata = {"name": "gateau", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game="maries-table", players=None, options=None, reward="scores",
                 render_mode=None):
        self.game = load(game, players, options) if isinstance(game, str) else game
        if reward not in ("scores", "win", "win_loss"):
            raise GateauError("reward must be 'scores', 'win' or 'win_loss', not %r" % (reward,))
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = ["player_%d" % seat for seat in range(self.game.num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_size = self.game.observation_size
        self.action_space_size = self.game.action_space_size
        self.state = None
        self.agents = []

    # ---- the AEC interface -------------------------------------------------

    def reset(self, seed=None, options=None):
        self._rng = Rng(seed if seed is not None else np.random.SeedSequence().entropy)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._play_chance()
        self._select()

    def agent_iter(self, max_iter=2**63):
        """Yields the agent to act until every agent is done."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.action_space_size, np.uint8)
        if not self.state.is_terminal() and seat in self.state.actors():
            self.state.legal_mask(seat, out=mask)
        return {"observation": self.state.observation(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GateauError("%s is done: step(None) removes it" % agent)
            self._remove(agent)
            return
        if action is None:
            raise GateauError("%s must act: step(None) is for agents that are done" % agent)
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = 0.0
        self.state.apply(int(action), self.agent_name_mapping[agent])
        self._play_chance()
        if self.state.is_terminal():
            self._finish()
        self._select()

    def render(self):
        text = self.state.view_text()
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass

    def observation_space(self, agent):
        """The shapes, as plain tuples (gymnasium spaces: see docs/python.md)."""
        return {"observation": (self.observation_size,), "action_mask": (self.action_space_size,)}

    def action_space(self, agent):
        return self.action_space_size

    # ---- inside ---------------------------------------------------------

    def _play_chance(self):
        while self.state.is_chance():
            self.state.apply(self.state.sample_chance(self._rng), CHANCE)

    def _select(self):
        if self.state.is_terminal():
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def _finish(self):
        scores = self.state.scores()
        winners = set(self.state.winners())
        for agent in self.agents:
            seat = self.agent_name_mapping[agent]
            if self.reward_kind == "scores":
                reward = float(scores[seat])
            elif self.reward_kind == "win":
                reward = 1.0 if seat in winners else 0.0
            else:
                reward = 1.0 if seat in winners else -1.0
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
            self.terminations[agent] = True
            self.infos[agent] = {"scores": scores, "winners": sorted(winners)}

    def _remove(self, agent):
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards, self.terminations,
                      self.truncations, self.infos):
            del table[agent]
        self.agent_selection = self.agents[0] if self.agents else None


def env(game="maries-table", **kwargs):
    """PettingZoo's usual factory name."""
    return AECEnv(game, **kwargs)

"""Environments in the shapes learners already use, without their packages:

- AECEnv: PettingZoo's AEC API (agents act in turn), which passes the
  checks of PettingZoo's api_test (python/tests/test_pettingzoo_api.py);
- ParallelEnv: PettingZoo's parallel API, for the games with simultaneous
  phases (every agent still to choose acts in the same step);
- SingleAgentEnv: one seat as a Gymnasium Env, the others played by bots.

Agents are "player_0" .. "player_{N-1}" (seat k is "player_k").  Each step
is one action (moves of several actions, like a take and its slices, are
several steps of the same agent); chance is played inside from the
environment's generator.  Observations are dicts {"observation": float32
vector, "action_mask": int8 vector}, as PettingZoo's classic environments
give them; the spaces are Gymnasium's when it is installed, else
gateau.spaces' stand-ins, made once per environment.  Rewards are 0 until
the game ends, then each agent's final score ("scores", the default), 1
for a winner and 0 otherwise ("win"), or 1 / -1 ("win_loss").

When PettingZoo is installed, AECEnv and ParallelEnv are subclasses of its
AECEnv and ParallelEnv.
"""

import copy
import threading
import warnings

import numpy as np

from gateau import spaces
from gateau.bots import Bot
from gateau.engine import (CHANCE, OBSERVER, GateauError, GateauTypeError, Rng, integer, load,
                           seed_value)
from gateau.engine import locked as engine_locked

try:  # pragma: no cover - PettingZoo is not a Debian package
    from pettingzoo import AECEnv as _AECBase, ParallelEnv as _ParallelBase
except ImportError:
    _AECBase = _ParallelBase = object

REWARDS = ("scores", "win", "win_loss")


def _entropy_seed():
    return int(np.random.SeedSequence().entropy) % 2**64


def _game_of(game, players, options):
    if isinstance(game, str):
        return load(game, players, options)
    from gateau.engine import Game
    if not isinstance(game, Game):
        raise GateauTypeError("the game: a name (gateau.games()) or a gateau.Game, not %r"
                              % (game,))
    return game


def _check_reset_options(options):
    """reset(options=): gateau's environments define no reset option (the
    game's options go to the constructor).  None or a dict; the keys of
    a dict are ignored with a warning that names them (not refused:
    PettingZoo's own api_test calls reset(seed=0, options={"options": 1}))."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise GateauTypeError("reset(options=): None or a dict, not %s" % type(options).__name__)
    if options:
        warnings.warn("reset(options=): ignoring %s: gateau's environments take no reset "
                      "options (the game's options go to the constructor)"
                      % ", ".join(map(repr, options)), UserWarning, stacklevel=4)


# Copies and pickles of an environment: its parts, without its lock (a
# new one for the copy), taken while holding it.
def _env_getstate(self):
    with self._lock:
        return {key: value for key, value in self.__dict__.items() if key != "_lock"}


def _env_setstate(self, state):
    self.__dict__.update(state)
    self._lock = threading.RLock()


def _env_deepcopy(self, memo):
    with self._lock:
        again = type(self).__new__(type(self))
        memo[id(self)] = again
        again.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return again


def _env_copy(self):
    """A clone, as deepcopy: a shallow copy would share the game in play."""
    return copy.deepcopy(self)


def _render(env, seat):
    """An environment's render: seat's view as text (OBSERVER: what
    everybody sees), returned with render_mode "ansi", printed with
    "human"; with render_mode None, as PettingZoo's environments, a
    warning (pointing at render's caller) and None."""
    if env.render_mode is None:
        warnings.warn("You are calling render method without specifying any render mode.",
                      UserWarning, stacklevel=4)
        return None
    if env.game_state is None:
        raise GateauError("reset() the environment first")
    text = env.game_state.view_text(seat)
    if env.render_mode == "human":
        print(text)
    return text


class _GameEnv:
    """What the environments share: the game, spaces, chance, rewards."""

    def _setup_game(self, game, players, options, reward, render_mode):
        self._lock = threading.RLock()
        self.game = _game_of(game, players, options)
        if render_mode not in (None, "ansi", "human"):
            raise GateauError("render_mode must be None, 'ansi' or 'human', not %r"
                              % (render_mode,))
        if reward not in REWARDS:
            raise GateauError("reward must be 'scores', 'win' or 'win_loss', not %r" % (reward,))
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = ["player_%d" % seat for seat in range(self.game.num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_size = self.game.observation_size
        self.action_space_size = self.game.action_space_size
        # Made once: PettingZoo's api_test asks observation_space(agent) to
        # return the same object every time (so that seeding a space holds).
        self.observation_spaces = {agent: spaces.observation_space(self.game)
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.action_space(self.game)
                              for agent in self.possible_agents}
        self.state_space = spaces.Box(spaces.OBSERVATION_LOW, spaces.OBSERVATION_HIGH,
                                      (self.game.observation_size,), np.float32)
        self.game_state = None
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def state(self):
        """PettingZoo's global state: what everybody knows (the observer's
        observation; the hidden part of the game stays hidden).  The game
        itself is env.game_state."""
        if self.game_state is None:
            raise GateauError("reset() the environment first")
        return self.game_state.observation(OBSERVER)

    def _new_game(self, seed):
        seed = _entropy_seed() if seed is None else seed_value(seed)
        self._rng = Rng(seed)
        self.game_state = self.game.new_initial_state()
        self._play_chance()
        return seed

    def _play_chance(self):
        while self.game_state.is_chance():
            self.game_state.apply(self.game_state.sample_chance(self._rng), CHANCE)

    def _observe_seat(self, seat, to_act):
        mask = np.zeros(self.action_space_size, np.int8)
        if to_act:
            self.game_state.legal_mask(seat, out=mask)
        return {"observation": self.game_state.observation(seat), "action_mask": mask}

    def _final_rewards(self):
        scores = self.game_state.scores()
        winners = set(self.game_state.winners())
        rewards = {}
        for agent, seat in self.agent_name_mapping.items():
            if self.reward_kind == "scores":
                rewards[agent] = float(scores[seat])
            elif self.reward_kind == "win":
                rewards[agent] = 1.0 if seat in winners else 0.0
            else:
                rewards[agent] = 1.0 if seat in winners else -1.0
        return rewards, {"scores": scores, "winners": sorted(winners)}

    def _action(self, action, agent):
        action = integer(action, "%s's action" % agent)
        if not 0 <= action < self.action_space_size:
            raise GateauError("%s's action %d is outside the action space (0 to %d)"
                              % (agent, action, self.action_space_size - 1))
        return action

    def render(self):
        """The table as text (what everybody sees): returned with
        render_mode "ansi", printed with "human"; with render_mode None,
        as PettingZoo's environments, a warning and None."""
        return _render(self, OBSERVER)

    def close(self):
        pass

    def __str__(self):
        return "gateau_%s" % self.game.name.replace("-", "_")

    __copy__ = _env_copy
    __deepcopy__ = _env_deepcopy
    __getstate__ = _env_getstate
    __setstate__ = _env_setstate


class AECEnv(_GameEnv, _AECBase):
    """PettingZoo's AEC API.  In a simultaneous phase the agents still to
    choose are asked in seat order, and each sees only its own choice
    until the phase resolves.  After the end every agent is terminated;
    as in PettingZoo, step(None) for each removes it, and each such step
    clears the rewards (PettingZoo's _was_dead_step)."""

    metadata = {"name": "gateau_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, game="maries-table", players=None, options=None, reward="scores",
                 render_mode=None):
        self._setup_game(game, players, options, reward, render_mode)
        self.agent_selection = None

    def reset(self, seed=None, options=None):
        _check_reset_options(options)
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def agent_iter(self, max_iter=2**63):
        """Yields the agent to act until every agent is done."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        agent = self.agent_selection
        if agent is None:
            raise GateauError("no agent is left: reset() the environment")
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        to_act = not self.game_state.is_terminal() and seat in self.game_state.actors()
        return self._observe_seat(seat, to_act)

    def step(self, action):
        agent = self.agent_selection
        if agent is None:
            raise GateauError("no agent is left: reset() the environment")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GateauError("%s is done: step(None) removes it" % agent)
            self._remove(agent)
            return
        if action is None:
            raise GateauError("%s must act: step(None) is for agents that are done" % agent)
        action = self._action(action, agent)
        self.game_state.apply(action, self.agent_name_mapping[agent])
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = 0.0
        self._play_chance()
        if self.game_state.is_terminal():
            self._finish()
        self._select()

    def _select(self):
        if self.game_state.is_terminal():
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def _finish(self):
        rewards, info = self._final_rewards()
        for agent in self.agents:
            self.rewards[agent] = rewards[agent]
            self._cumulative_rewards[agent] += rewards[agent]
            self.terminations[agent] = True
            self.infos[agent] = dict(info)

    def _remove(self, agent):
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards, self.terminations,
                      self.truncations, self.infos):
            del table[agent]
        self.agent_selection = self.agents[0] if self.agents else None
        # PettingZoo's _was_dead_step ends with _clear_rewards(): the final
        # rewards were handed out once, at the step that ended the game.
        for other in self.agents:
            self.rewards[other] = 0.0


class ParallelEnv(_GameEnv, _ParallelBase):
    """PettingZoo's parallel API: at each step every agent that may act
    gives one action (in a simultaneous phase, every seat still to choose;
    otherwise the one seat to act); an agent that may not act now has an
    all-zero action mask, and its action, if given, is ignored.  A seat
    whose simultaneous move has several actions gives them in successive
    steps; another seat's actions given meanwhile wait until that move is
    complete (moves in a simultaneous phase are secret: they cannot change
    what another seat may choose).  infos[agent]["to_act"] says who acts."""

    metadata = {"name": "gateau_parallel_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": True}

    def __init__(self, game="mice-cake", players=None, options=None, reward="scores",
                 render_mode=None):
        self._setup_game(game, players, options, reward, render_mode)

    def reset(self, seed=None, options=None):
        _check_reset_options(options)
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self._waiting = {seat: [] for seat in range(self.game.num_players)}
        return self._observations(), self._infos()

    def acting_agents(self):
        """The agents whose action the next step needs."""
        state = self.game_state
        if state.is_terminal():
            return []
        return [self.possible_agents[seat] for seat in state.actors()
                if not self._waiting[seat] and state.legal_actions(seat)]

    def _observations(self):
        acting = set(self.acting_agents())
        return {agent: self._observe_seat(self.agent_name_mapping[agent], agent in acting)
                for agent in self.agents}

    def _infos(self, extra=None):
        acting = set(self.acting_agents())
        return {agent: dict(extra or {}, to_act=agent in acting) for agent in self.agents}

    def step(self, actions):
        if not self.agents:
            raise GateauError("the game is over: reset() the environment")
        if not isinstance(actions, dict):
            raise GateauTypeError("step(actions): a dict {agent: action} as PettingZoo's "
                                  "parallel API takes, not %s" % type(actions).__name__)
        unknown = [agent for agent in actions if agent not in self.agents]
        if unknown:
            raise GateauError("step: %s %s not a live agent (agents: %s)"
                              % (", ".join(map(repr, unknown)),
                                 "is" if len(unknown) == 1 else "are", ", ".join(self.agents)))
        acting = self.acting_agents()
        missing = [agent for agent in acting if actions.get(agent) is None]
        if missing:
            raise GateauError("no action for %s, who must act now" % ", ".join(missing))
        chosen = {self.agent_name_mapping[agent]: self._action(actions[agent], agent)
                  for agent in acting}
        # Every action is checked before any is played: a refused step
        # changes nothing.
        for seat, action in chosen.items():
            if action not in self.game_state.legal_actions(seat):
                raise GateauError("%s's action %d is not legal now"
                                  % (self.possible_agents[seat], action))
        for seat, action in chosen.items():
            self._waiting[seat].append(action)
        self._play_waiting()
        rewards = {agent: 0.0 for agent in self.agents}
        terminated = self.game_state.is_terminal()
        extra = {}
        if terminated:
            rewards, extra = self._final_rewards()
        observations = self._observations()
        infos = self._infos(extra)
        terminations = {agent: terminated for agent in self.agents}
        truncations = {agent: False for agent in self.agents}
        if terminated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _play_waiting(self):
        state = self.game_state
        progress = True
        while progress and not state.is_terminal():
            progress = False
            for seat in sorted(self._waiting):
                queue = self._waiting[seat]
                while queue and not state.is_terminal() and queue[0] in state.legal_actions(seat):
                    state.apply(queue.pop(0), seat)
                    self._play_chance()
                    progress = True


class SingleAgentEnv:
    """One seat as a Gymnasium Env: the agent plays seat `seat`, bots play
    the others (opponents: one spec or Bot for all, or one per other seat),
    chance is drawn from the reset's seed.  reset() -> (observation, info);
    step(action) -> (observation, reward, terminated, truncated, info),
    with the observation {"observation", "action_mask"} of the agent's
    seat and the reward at the end as the environment's reward kind."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game="maries-table", players=None, options=None, seat=0,
                 opponents="random", reward="win_loss", render_mode=None):
        self._lock = threading.RLock()
        self.game = _game_of(game, players, options)
        if render_mode not in (None, "ansi", "human"):
            raise GateauError("render_mode must be None, 'ansi' or 'human', not %r"
                              % (render_mode,))
        if reward not in REWARDS:
            raise GateauError("reward must be 'scores', 'win' or 'win_loss', not %r" % (reward,))
        seat = integer(seat, "seat")
        if not 0 <= seat < self.game.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d)"
                              % (seat, self.game.num_players, self.game.num_players - 1))
        self.seat = seat
        self.reward_kind = reward
        self.render_mode = render_mode
        others = [s for s in range(self.game.num_players) if s != seat]
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * len(others)
        opponents = list(opponents)
        if len(opponents) != len(others):
            raise GateauError("%d opponents for the %d other seats" % (len(opponents),
                                                                      len(others)))
        self.opponents = {}
        for other, opponent in zip(others, opponents):
            bot = Bot(opponent) if isinstance(opponent, str) else opponent
            if not isinstance(bot, Bot):
                raise GateauError("an opponent is a bot spec or a gateau.Bot, not %r"
                                  % (opponent,))
            bot._check_game(self.game)
            self.opponents[other] = bot
        self.observation_space = spaces.observation_space(self.game)
        self.action_space = spaces.action_space(self.game)
        self.game_state = None

    @property
    def unwrapped(self):
        return self

    def reset(self, seed=None, options=None):
        _check_reset_options(options)
        seed = _entropy_seed() if seed is None else seed_value(seed)
        self._rng = Rng(seed)
        for other, bot in self.opponents.items():
            bot.rng = Rng(seed, stream=other + 1)
        self.game_state = self.game.new_initial_state()
        self._advance()
        return self._observation(), self._info()

    def step(self, action):
        if self.game_state is None:
            raise GateauError("reset() the environment first")
        if self.game_state.is_terminal():
            raise GateauError("the game is over: reset() the environment")
        action = integer(action, "action")
        self.game_state.apply(action, self.seat)
        self._advance()
        terminated = self.game_state.is_terminal()
        reward = self._reward() if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def _advance(self):
        """Chance and the bots until the agent is to act or the game ends."""
        state = self.game_state
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(self._rng), CHANCE)
                continue
            if state.legal_actions(self.seat):
                return
            other = next(s for s in state.actors() if s != self.seat and state.legal_actions(s))
            self.opponents[other].play(state, other)

    def _observation(self):
        state = self.game_state
        mask = np.zeros(self.game.action_space_size, np.int8)
        if not state.is_terminal():
            state.legal_mask(self.seat, out=mask)
        return {"observation": state.observation(self.seat), "action_mask": mask}

    def _info(self):
        state = self.game_state
        info = {"scores": state.scores()}
        if state.is_terminal():
            info["winners"] = state.winners()
        return info

    def _reward(self):
        winners = self.game_state.winners()
        if self.reward_kind == "scores":
            return float(self.game_state.scores()[self.seat])
        if self.reward_kind == "win":
            return 1.0 if self.seat in winners else 0.0
        return 1.0 if self.seat in winners else -1.0

    def render(self):
        """The agent's view as text (see _GameEnv.render)."""
        return _render(self, self.seat)

    def close(self):
        pass

    __copy__ = _env_copy
    __deepcopy__ = _env_deepcopy
    __getstate__ = _env_getstate
    __setstate__ = _env_setstate


for _cls in (AECEnv, ParallelEnv, SingleAgentEnv):
    for _name in ("reset", "step", "last", "observe", "state", "render", "acting_agents",
                  "_select", "_play_waiting"):
        if _name in vars(_cls) or hasattr(_cls, _name):
            setattr(_cls, _name, engine_locked(getattr(_cls, _name)))
del _cls, _name


def env(game="maries-table", **kwargs):
    """PettingZoo's usual factory name: an AECEnv."""
    return AECEnv(game, **kwargs)


def parallel_env(game="mice-cake", **kwargs):
    """PettingZoo's usual factory name for the parallel API."""
    return ParallelEnv(game, **kwargs)

"""OpenSpiel's Python API over gateau: code written for pyspiel runs with
only its import changed,

    import gateau.pyspiel as pyspiel
    game = pyspiel.load_game("mice_cake")          # or "maries_table(players=4)"
    state = game.new_initial_state()
    while not state.is_terminal(): ...

as OpenSpiel's own python/examples/example.py and tabular algorithms
(CFR's tree walk) use it: pyspiel's player ids (CHANCE = -1,
SIMULTANEOUS = -2, INVALID = -3, TERMINAL = -4), its method names and
argument orders (action_to_string(player, action)), history() as the
actions, legal_actions() empty at the end, apply_actions at simultaneous
nodes, returns() as utilities, information-state strings and tensors.

What gateau's games are in pyspiel's terms:

- Utilities are zero-sum win shares: with N players and W winners (ties
  share), a winner gets N / W - 1 and every other seat -1 (two players:
  1 and -1, a tie 0 and 0).  The games' own scores are scores().
- A simultaneous phase is a simultaneous node when every seat still to
  choose chooses with one action (Marie's Table's votes); where a choice
  takes several actions (Mice Cake's and Cake Master's secret moves), the
  seats choose in turn, each seeing none of the others' choices until the
  phase resolves, as information_state_string shows: an equivalent
  sequential game, as OpenSpiel's turn_based_simultaneous_game makes one.
- information_state_string(player) has perfect recall: the record as the
  seat may read it (hidden moves as "# seat 2 moved (hidden)") and the
  seat's view.  information_state_tensor(player) is the observation
  tensor (docs/observations.md): what the seat knows now, not its history.
- Game names are gateau's ("mice-cake"), also written with underscores.
"""

import collections
import enum
import re

import numpy as np

from gateau import engine
from gateau.engine import GateauError, GateauTypeError, integer


class PlayerId:
    DEFAULT_PLAYER_ID = 0
    CHANCE = -1
    SIMULTANEOUS = -2
    INVALID = -3
    TERMINAL = -4
    MEAN_FIELD = -5


CHANCE = PlayerId.CHANCE
SIMULTANEOUS = PlayerId.SIMULTANEOUS
INVALID = PlayerId.INVALID
TERMINAL = PlayerId.TERMINAL

INVALID_ACTION = -1

PlayerAction = collections.namedtuple("PlayerAction", "player action")


class GameType:
    class Dynamics(enum.Enum):
        SEQUENTIAL = 1
        SIMULTANEOUS = 2
        MEAN_FIELD = 3

    class ChanceMode(enum.Enum):
        DETERMINISTIC = 1
        EXPLICIT_STOCHASTIC = 2
        SAMPLED_STOCHASTIC = 3

    class Information(enum.Enum):
        ONE_SHOT = 1
        PERFECT_INFORMATION = 2
        IMPERFECT_INFORMATION = 3

    class Utility(enum.Enum):
        ZERO_SUM = 1
        CONSTANT_SUM = 2
        GENERAL_SUM = 3
        IDENTICAL = 4

    class RewardModel(enum.Enum):
        REWARDS = 1
        TERMINAL = 2

    def __init__(self, info):
        kind = info.type
        self.short_name = info.name
        self.long_name = info.title
        self.dynamics = GameType.Dynamics.SIMULTANEOUS if kind["simultaneous"] \
            else GameType.Dynamics.SEQUENTIAL
        self.chance_mode = GameType.ChanceMode.EXPLICIT_STOCHASTIC if kind["chance"] \
            else GameType.ChanceMode.DETERMINISTIC
        self.information = GameType.Information.IMPERFECT_INFORMATION \
            if kind["hidden_information"] else GameType.Information.PERFECT_INFORMATION
        self.utility = GameType.Utility.ZERO_SUM
        self.reward_model = GameType.RewardModel.TERMINAL
        self.min_num_players = info.min_players
        self.max_num_players = info.max_players
        self.provides_information_state_string = True
        self.provides_information_state_tensor = True
        self.provides_observation_string = True
        self.provides_observation_tensor = True
        self.provides_factored_observation_string = False
        self.default_loadable = True
        self.parameter_specification = {"players": info.min_players}
        for option in info.options:
            self.parameter_specification[option["name"]] = \
                "" if option["is_path"] else option["default"]

    def __repr__(self):
        return "<GameType '%s'>" % self.short_name


def registered_names():
    """The games' names, as load_game takes them."""
    return [info.name for info in engine.games()]


def registered_games():
    return [GameType(info) for info in engine.games()]


_GAME_STRING = re.compile(r"^\s*([A-Za-z0-9_'-]+)\s*(?:\((.*)\))?\s*$")


def _parameter(value):
    value = value.strip()
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if value in ("True", "true", "False", "false"):
        raise GateauError("no gateau game takes a bool parameter (%s)" % value)
    return value


def load_game(game_string, params=None):
    """A game from "name" or "name(players=3,rounds=2)" (pyspiel's game
    string), or a name and a dict of parameters; "players" is the player
    count, the rest are the game's options."""
    engine.text_argument(game_string, "the game string")
    match = _GAME_STRING.match(game_string)
    if not match:
        raise GateauError("'%s' is not a game string: name or name(key=value,...)"
                          % game_string)
    name = match.group(1).replace("_", "-")
    parameters = {}
    if match.group(2):
        for item in match.group(2).split(","):
            if "=" not in item:
                raise GateauError("'%s' in '%s' is not key=value" % (item, game_string))
            key, value = item.split("=", 1)
            parameters[key.strip()] = _parameter(value)
    if params is not None:
        if not isinstance(params, dict):
            raise GateauTypeError("params must be a dict, not %s" % type(params).__name__)
        parameters.update(params)
    players = parameters.pop("players", None)
    return Game(engine.load(name, players, parameters or None))


def load_game_as_turn_based(game_string, params=None):
    """The same game: its simultaneous nodes already have an equivalent
    sequential form (see the module's text); kept as a simultaneous node
    only where every choice is one action."""
    return load_game(game_string, params)


class Game:
    """pyspiel.Game: a game with its player count and options."""

    def __init__(self, game):
        self._game = game
        self._type = GameType(game.info)

    @property
    def gateau(self):
        """The gateau.Game underneath."""
        return self._game

    def num_players(self):
        return self._game.num_players

    def num_distinct_actions(self):
        return self._game.action_space_size

    def max_chance_outcomes(self):
        return self._game.info.type["max_chance_outcomes"]

    def get_type(self):
        return self._type

    def get_parameters(self):
        parameters = {"players": self._game.num_players}
        for item in self._game.options.split():
            key, value = item.split("=", 1)
            parameters[key] = _parameter(value)
        return parameters

    def new_initial_state(self):
        return State(self, self._game.new_initial_state())

    def min_utility(self):
        return -1.0

    def max_utility(self):
        return float(self._game.num_players - 1)

    def utility_sum(self):
        return 0.0

    def information_state_tensor_shape(self):
        return [self._game.observation_size]

    def information_state_tensor_size(self):
        return self._game.observation_size

    def observation_tensor_shape(self):
        return [self._game.observation_size]

    def observation_tensor_size(self):
        return self._game.observation_size

    def __str__(self):
        parameters = ",".join("%s=%s" % item for item in self.get_parameters().items())
        return "%s(%s)" % (self._game.name, parameters)

    def __eq__(self, other):
        return isinstance(other, Game) and self._game == other._game

    def __hash__(self):
        return hash(self._game)

    def __reduce__(self):
        return (Game, (self._game,))


def _seat_of(player):
    return engine.CHANCE if player == CHANCE else player


def _player_of(seat):
    return CHANCE if seat == engine.CHANCE else seat


class State:
    """pyspiel.State over a gateau.State (its .gateau)."""

    def __init__(self, game, state):
        self._game = game
        self._state = state
        self._simultaneous = None  # (history length, answer): is_simultaneous_node's cache

    @property
    def gateau(self):
        """The gateau.State underneath."""
        return self._state

    def get_game(self):
        return self._game

    def num_players(self):
        return self._game.num_players()

    # ---- who acts --------------------------------------------------------

    def is_terminal(self):
        return self._state.is_terminal()

    def is_chance_node(self):
        return self._state.is_chance()

    def is_simultaneous_node(self):
        key = len(self._state.history)
        if self._simultaneous is None or self._simultaneous[0] != key:
            self._simultaneous = (key, self._every_choice_is_one_action())
        return self._simultaneous[1]

    def _every_choice_is_one_action(self):
        state = self._state
        if state.is_terminal() or state.is_chance() or not state.is_simultaneous() or \
                state.in_move():
            return False
        actors = state.actors()
        if len(actors) < 2:
            return False
        for seat in actors:
            for action in state.legal_actions(seat):
                child = state.clone()
                child.apply(action, seat)
                if child.in_move():
                    return False
        return True

    def is_player_node(self):
        return not (self.is_terminal() or self.is_chance_node() or self.is_simultaneous_node())

    def is_mean_field_node(self):
        return False

    def is_initial_state(self):
        return not self._state.history and self._state._base == engine._NEW

    def current_player(self):
        if self._state.is_terminal():
            return TERMINAL
        if self._state.is_chance():
            return CHANCE
        if self.is_simultaneous_node():
            return SIMULTANEOUS
        return self._state.current_player()

    def _player(self, player):
        player = integer(player, "player")
        if player == CHANCE:
            return engine.CHANCE
        if not 0 <= player < self.num_players():
            raise GateauError("there is no player %d in a %d-player game (players are 0 to "
                              "%d, or CHANCE = -1)" % (player, self.num_players(),
                                                       self.num_players() - 1))
        return player

    # ---- actions -----------------------------------------------------------

    def legal_actions(self, player=None):
        """The player's legal actions ([] at the end, and for a player who
        may not act); without player, the current player's (at a
        simultaneous node, name the player)."""
        if player is None:
            if self.is_terminal():
                return []
            player = self.current_player()
            if player == SIMULTANEOUS:
                raise GateauError("at a simultaneous node, ask legal_actions(player) for each "
                                  "player")
        seat = self._player(player)
        if self.is_terminal():
            return []
        if seat == engine.CHANCE:
            return [action for action, _ in self._state.chance_outcomes()]
        return self._state.legal_actions(seat)

    def legal_actions_mask(self, player=None):
        mask = [0] * (self._game.num_distinct_actions() if player != CHANCE
                      else self._game.max_chance_outcomes())
        for action in self.legal_actions(player):
            if action < len(mask):
                mask[action] = 1
        return mask

    def chance_outcomes(self):
        return self._state.chance_outcomes()

    def apply_action(self, action):
        """One action of the current player (chance included)."""
        player = self.current_player()
        if player == TERMINAL:
            raise GateauError("the game is over: no action applies")
        if player == SIMULTANEOUS:
            raise GateauError("at a simultaneous node apply_actions([one per player])")
        self._state.apply(action, _seat_of(player))

    def apply_actions(self, actions):
        """At a simultaneous node, one action per player (players who may
        not act give anything, as example.py's [0]: it is ignored)."""
        if not self.is_simultaneous_node():
            raise GateauError("apply_actions is for simultaneous nodes; here apply_action")
        actions = list(actions)
        if len(actions) != self.num_players():
            raise GateauError("apply_actions: %d actions for %d players"
                              % (len(actions), self.num_players()))
        actors = self._state.actors()
        chosen = [(seat, self._state._action(actions[seat], seat)) for seat in actors]
        for seat, action in chosen:
            if action not in self._state.legal_actions(seat):
                raise GateauError("player %d's action %d is not legal now" % (seat, action))
        for seat, action in chosen:
            self._state.apply(action, seat)

    def child(self, action):
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def action_to_string(self, player, action=None):
        """pyspiel's action_to_string(player, action); action_to_string(action)
        names an action of the current player."""
        if action is None:
            player, action = self.current_player(), player
        return self._state.action_to_string(action, self._player(player))

    def string_to_action(self, player, text=None):
        """The action whose action_to_string is text."""
        if text is None:
            player, text = self.current_player(), player
        seat = self._player(player)
        for action in self.legal_actions(_player_of(seat)):
            if self._state.action_to_string(action, seat) == text:
                return action
        raise GateauError("no legal action of player %d reads '%s'" % (seat, text))

    # ---- history ------------------------------------------------------------

    def history(self):
        """Every action applied since the initial state, chance included."""
        return [action for _, action in self._full()]

    def full_history(self):
        return [PlayerAction(_player_of(seat), action) for seat, action in self._full()]

    def history_str(self):
        return ", ".join(str(action) for action in self.history())

    def _full(self):
        """(seat, action) from the initial state ([] before a
        determinized state's own actions: its past was resampled)."""
        base, history = self._state._portable()
        if base[0] == "record":
            return engine.record_actions(base[1], base[2]) + history
        return history

    def move_number(self):
        return len(self._state.history)

    # ---- results ---------------------------------------------------------------

    def returns(self):
        """Utilities: zero-sum win shares (module text), 0 until the end."""
        n = self.num_players()
        if not self.is_terminal():
            return [0.0] * n
        winners = self._state.winners()
        return [n / len(winners) - 1.0 if seat in winners else -1.0 for seat in range(n)]

    def rewards(self):
        return self.returns()

    def player_return(self, player):
        return self.returns()[self._player(player)]

    def player_reward(self, player):
        return self.rewards()[self._player(player)]

    def scores(self):
        """The game's own scores (points, stars, pips)."""
        return self._state.scores()

    # ---- what a player knows -------------------------------------------------

    def information_state_string(self, player=None):
        seat = self._knower(player)
        try:
            record = self._state.to_record()
        except GateauError:  # a determinized state: its view is all there is
            return self._state.view_json(seat)
        mine = [action for mover, action in record._pending if mover == seat]
        return "%s%s\n%s" % (record.text(seat), "# in move: %s\n" % mine if mine else "",
                             self._state.view_json(seat))

    def information_state_tensor(self, player=None):
        return list(self._state.observation(self._knower(player)))

    def observation_string(self, player=None):
        return self._state.view_json(self._knower(player))

    def observation_tensor(self, player=None):
        return list(self._state.observation(self._knower(player)))

    def _knower(self, player):
        if player is None:
            player = self.current_player()
            if player < 0:
                raise GateauError("name the player: no single player is to act here")
        seat = self._player(player)
        if seat == engine.CHANCE:
            raise GateauError("chance has no information state")
        return seat

    def resample_from_infostate(self, player, probability_sampler=None):
        """A state the player cannot tell from this one (gateau's
        determinize; its history is empty: the resampled past never
        happened).  probability_sampler: an int seed, a gateau.Rng, or
        None (a fresh seed)."""
        seat = self._knower(player)
        if probability_sampler is None:
            probability_sampler = int(np.random.SeedSequence().entropy) % 2**64
        return State(self._game, self._state.determinize(seat, probability_sampler))

    # ---- copies ----------------------------------------------------------------------

    def clone(self):
        return State(self._game, self._state.clone())

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (State, (self._game, self._state))

    def serialize(self):
        """The state as text: its record (what deserialize_state reads)."""
        return self._state.to_record().text()

    def __str__(self):
        return str(self._state)

    def __repr__(self):
        return "<pyspiel state of %s: %s>" % (self._game, self.history_str())


def deserialize_state(game, text):
    return State(game, engine._rebuild_state(game.gateau, ("record", text, None), []))

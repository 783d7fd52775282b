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
actions, legal_actions() empty at the end, simultaneous nodes with flat
joint actions (and apply_actions), returns() as utilities,
information-state strings and tensors, SpielError.

What gateau's games are in pyspiel's terms:

- Utilities are zero-sum win shares: with N players and W winners (ties
  share), a winner gets N / W - 1 and every other seat -1 (two players:
  1 and -1, a tie 0 and 0).  The games' own scores are scores().
- A simultaneous phase is a simultaneous node when every seat still to
  choose chooses with one action (Marie's Table's votes, Cake Master's
  with two players); where a choice takes several actions (Mice Cake's
  and Cake Master's secret moves with 3 or more players), the seats
  choose in turn, each seeing none of the others' choices until the
  phase resolves, as information_state_string shows: an equivalent
  sequential game, as OpenSpiel's turn_based_simultaneous_game makes one.
  get_type().dynamics says which a game has (SIMULTANEOUS only for the
  games and player counts that have simultaneous nodes);
  load_game_as_turn_based gives every game in the sequential form.
- information_state_string(player) has perfect recall: the record as the
  seat may read it (hidden moves as "# seat 2 moved (hidden)"), a digest
  of the seat's view after every move, and the seat's view.  information_state_tensor(player) is the observation
  tensor (docs/observations.md): what the seat knows now, not its history.
- Game names are gateau's ("mice-cake"), also written with underscores.
- Errors are SpielError (pyspiel's exception, a RuntimeError), raised as
  a subclass that is also a gateau.GateauError.
"""

import collections
import ctypes
import enum
import functools
import hashlib
import random
import re
import threading

import numpy as np

from gateau import engine
from gateau.engine import GateauError, GateauTypeError, integer


class SpielError(RuntimeError):
    """pyspiel.SpielError: what pyspiel raises for a bad call."""


class GateauSpielError(SpielError, GateauError):
    """A gateau error in gateau.pyspiel: both pyspiel's SpielError and a
    gateau.GateauError."""


class GateauSpielTypeError(SpielError, GateauTypeError):
    """A value of the wrong type given to gateau.pyspiel."""


def _spiel_errors(function):
    """function with gateau's errors raised as SpielError subclasses."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except SpielError:
            raise
        except GateauTypeError as error:
            raise GateauSpielTypeError(str(error)) from None
        except GateauError as error:
            raise GateauSpielError(str(error)) from None
    return wrapper


def _error(message):
    return GateauSpielError(message)


def _spiel_class(cls, lock=False):
    """Every public method of cls (and copies, pickles, text) raising
    SpielError; with lock, taking the object's lock (an RLock in
    self._lock) for the whole call."""
    for name, value in list(vars(cls).items()):
        if not callable(value) or isinstance(value, (staticmethod, classmethod, type)):
            continue
        if name.startswith("_") and name not in ("__str__", "__repr__", "__copy__",
                                                 "__deepcopy__", "__reduce__"):
            continue  # private helpers run inside the public methods
        function = _spiel_errors(value)
        if lock:
            function = engine.locked(function)
        setattr(cls, name, function)
    return cls


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

# The games and player counts whose simultaneous phases are simultaneous
# nodes (every seat to choose chooses with one action): Marie's Table's
# votes at every player count, Cake Master's with two players.  The
# others' secret moves take several actions each and are played in turn
# (module text); tested against random play (test_dynamics_...).
_SIMULTANEOUS_NODES = {"maries-table": lambda players: True,
                       "cake-master": lambda players: players == 2}

_TURN_BASED = "turn_based_simultaneous_game"


def _has_simultaneous_nodes(name, players):
    return _SIMULTANEOUS_NODES.get(name, lambda players: False)(players)


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

    def __init__(self, info, players=None, turn_based=False):
        """players: the loaded game's player count (dynamics depends on
        it); None for the registry's entry (SIMULTANEOUS if some player
        count has simultaneous nodes)."""
        kind = info.type
        self.short_name = info.name
        self.long_name = info.title
        counts = range(info.min_players, info.max_players + 1) if players is None \
            else [players]
        simultaneous = not turn_based and any(_has_simultaneous_nodes(info.name, n)
                                              for n in counts)
        self.dynamics = GameType.Dynamics.SIMULTANEOUS if simultaneous \
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


@_spiel_errors
def registered_names():
    """The games' names, as load_game takes them."""
    return [info.name for info in engine.games()]


@_spiel_errors
def registered_games():
    return [GameType(info) for info in engine.games()]


_GAME_STRING = re.compile(r"^\s*([A-Za-z0-9_'-]+)\s*(?:\((.*)\))?\s*$", re.S)


def _parameter(value):
    value = value.strip()
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if value in ("True", "true", "False", "false"):
        raise _error("no gateau game takes a bool parameter (%s)" % value)
    return value


@_spiel_errors
def load_game(game_string, params=None):
    """A game from "name" or "name(players=3,rounds=2)" (pyspiel's game
    string), or a name and a dict of parameters; "players" is the player
    count, the rest are the game's options.
    "turn_based_simultaneous_game(game=maries_table(players=3))" is
    load_game_as_turn_based's game, as str() of one writes it."""
    engine.text_argument(game_string, "the game string")
    match = _GAME_STRING.match(game_string)
    if not match:
        raise _error("'%s' is not a game string: name or name(key=value,...)" % game_string)
    if match.group(1) == _TURN_BASED:
        inner = (match.group(2) or "").strip()
        if not inner.startswith("game="):
            raise _error("%s(game=...) names the game it makes turn-based" % _TURN_BASED)
        return load_game_as_turn_based(inner[len("game="):], params)
    name = match.group(1).replace("_", "-")
    parameters = {}
    if match.group(2):
        for item in match.group(2).split(","):
            if "=" not in item:
                raise _error("'%s' in '%s' is not key=value" % (item, game_string))
            key, value = item.split("=", 1)
            parameters[key.strip()] = _parameter(value)
    if params is not None:
        if not isinstance(params, dict):
            raise GateauSpielTypeError("params must be a dict, not %s" % type(params).__name__)
        parameters.update(params)
    players = parameters.pop("players", None)
    return Game(engine.load(name, players, parameters or None))


@_spiel_errors
def load_game_as_turn_based(game_string, params=None):
    """The game with its simultaneous nodes made sequential, as OpenSpiel's
    turn_based_simultaneous_game does: at what would be a simultaneous
    node the players with legal actions choose one after another, lowest
    first, and each choice stays hidden from the later choosers (and
    their information states) until all have chosen.  Its dynamics are
    SEQUENTIAL, so algorithms that insist on it (OpenSpiel's CFR) run on
    every game.  Games without simultaneous nodes are unchanged."""
    game = load_game(game_string, params)
    return Game(game.gateau, turn_based=True)


class Game:
    """pyspiel.Game: a game with its player count and options."""

    def __init__(self, game, turn_based=False):
        self._game = game
        self._turn_based = bool(turn_based)
        self._type = GameType(game.info, game.num_players, self._turn_based)

    @property
    def gateau(self):
        """The gateau.Game underneath."""
        return self._game

    def num_players(self):
        return self._game.num_players

    def num_distinct_actions(self):
        return self._game.action_space_size

    def max_game_length(self):
        """The most actions, chance included, any game takes from the
        initial state to the end (gateau_setup_max_game_length: a bound
        from the rules, most games are shorter)."""
        return self._game.max_game_length

    def policy_tensor_shape(self):
        return [self._game.action_space_size]

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

    def new_initial_states(self):
        """[the initial state]: every gateau game has one."""
        return [self.new_initial_state()]

    def action_to_string(self, player, action):
        """A name of player's action (CHANCE for an outcome) without a
        state: the name the game gives it at the initial state, which
        may lack what only a position tells (which slices a take is)."""
        player = _checked_player(player, self.num_players())
        state = self._game.new_initial_state()
        seat = _seat_of(player)
        action = state._action(action, seat)
        return engine.C.take_string(engine.lib.gateau_action_name(state._state, seat, action))

    def deserialize_state(self, text):
        """The state State.serialize() wrote."""
        return deserialize_state(self, text)

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
        text = "%s(%s)" % (self._game.name, parameters)
        return "%s(game=%s)" % (_TURN_BASED, text) if self._turn_based else text

    def __eq__(self, other):
        return isinstance(other, Game) and self._game == other._game and \
            self._turn_based == other._turn_based

    def __hash__(self):
        return hash((self._game, self._turn_based))

    def __reduce__(self):
        return (Game, (self._game, self._turn_based))


_spiel_class(Game)


def _seat_of(player):
    return engine.CHANCE if player == CHANCE else player


def _player_of(seat):
    return CHANCE if seat == engine.CHANCE else seat


def _checked_player(player, players, simultaneous=False):
    player = integer(player, "player")
    if player == CHANCE or (simultaneous and player == SIMULTANEOUS):
        return player
    if not 0 <= player < players:
        raise _error("there is no player %d in a %d-player game (players are 0 to %d, or "
                     "CHANCE = -1%s)" % (player, players, players - 1,
                                         ", SIMULTANEOUS = -2" if simultaneous else ""))
    return player


_MISSING = object()


class State:
    """pyspiel.State over a gateau.State (its .gateau).  It has a lock:
    threads that share one take turns (docs/python.md)."""

    def __init__(self, game, state):
        self._game = game
        self._state = state
        self._lock = threading.RLock()
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
        if self._game._turn_based:
            return False
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

    def _player(self, player, simultaneous=False):
        return _checked_player(player, self.num_players(), simultaneous)

    # ---- actions -----------------------------------------------------------

    def legal_actions(self, player=None):
        """legal_actions(): the actions of whoever is to act (chance's
        outcomes at a chance node, the flat joint actions at a
        simultaneous node, [] at the end).  legal_actions(player): that
        player's, [] for a player who is not to act now (at a seat's
        node, every other seat; at a simultaneous node, the seats with no
        choice to make), pyspiel's rule."""
        if player is None:
            player = self.current_player()
            if player == TERMINAL:
                return []
        player = self._player(player, simultaneous=True)
        if self.is_terminal():
            return []
        if player == CHANCE:
            return [action for action, _ in self._state.chance_outcomes()] \
                if self.is_chance_node() else []
        simultaneous = self.is_simultaneous_node()
        if player == SIMULTANEOUS:
            return list(range(self._joint_count())) if simultaneous else []
        if simultaneous:
            return self._state.legal_actions(player)
        return self._state.legal_actions(player) if player == self.current_player() else []

    def legal_actions_mask(self, player=None):
        if player is None:
            player = self.current_player()
            if player == TERMINAL:
                return [0] * self._game.num_distinct_actions()
        size = self._game.max_chance_outcomes() if player == CHANCE else \
            self._joint_count() if player == SIMULTANEOUS else \
            self._game.num_distinct_actions()
        mask = [0] * size
        for action in self.legal_actions(player):
            if action < len(mask):
                mask[action] = 1
        return mask

    def chance_outcomes(self):
        """[(outcome, probability)]; a SpielError away from a chance node,
        as in pyspiel."""
        if not self.is_chance_node():
            raise _error("chance_outcomes() is for chance nodes: this is not one")
        return self._state.chance_outcomes()

    # Simultaneous nodes' flat joint actions, as OpenSpiel numbers them:
    # the players with legal actions in order, the lowest the fastest
    # digit (player p's choice is legal_actions(p)[digit]).
    def _choosers(self):
        return [(seat, self._state.legal_actions(seat)) for seat in self._state.actors()
                if self._state.legal_actions(seat)]

    def _joint_count(self):
        count = 1
        for _, actions in self._choosers():
            count *= len(actions)
        return count

    def flat_joint_action_to_actions(self, flat):
        """The actions, one per player, of a flat joint action
        (INVALID_ACTION for players with nothing to choose)."""
        if not self.is_simultaneous_node():
            raise _error("flat joint actions are for simultaneous nodes: this is not one")
        flat = integer(flat, "the flat joint action")
        if not 0 <= flat < self._joint_count():
            raise _error("there is no flat joint action %d here (0 to %d)"
                         % (flat, self._joint_count() - 1))
        actions = [INVALID_ACTION] * self.num_players()
        for seat, legal in self._choosers():
            actions[seat] = legal[flat % len(legal)]
            flat //= len(legal)
        return actions

    def apply_action(self, action):
        """One action of the current player (chance included); at a
        simultaneous node a flat joint action (legal_actions())."""
        player = self.current_player()
        if player == TERMINAL:
            raise _error("the game is over: no action applies")
        if player == SIMULTANEOUS:
            self.apply_actions(self.flat_joint_action_to_actions(action))
            return
        self._state.apply(action, _seat_of(player))

    def apply_action_with_legality_check(self, action):
        action = integer(action, "action")
        if action not in self.legal_actions():
            raise _error("action %d is not legal here (legal: %s)"
                         % (action, self.legal_actions()))
        self.apply_action(action)

    def apply_actions(self, actions):
        """At a simultaneous node, one action per player (players who may
        not act give anything, as example.py's [0]: it is ignored)."""
        if not self.is_simultaneous_node():
            raise _error("apply_actions is for simultaneous nodes; here apply_action")
        if isinstance(actions, (str, bytes)):
            raise GateauSpielTypeError("apply_actions: a list of actions, not a str")
        actions = list(actions)
        if len(actions) != self.num_players():
            raise _error("apply_actions: %d actions for %d players"
                         % (len(actions), self.num_players()))
        chosen = [(seat, self._state._action(actions[seat], seat))
                  for seat, _ in self._choosers()]
        for seat, action in chosen:
            if action not in self._state.legal_actions(seat):
                raise _error("player %d's action %d is not legal now" % (seat, action))
        for seat, action in chosen:
            self._state.apply(action, seat)

    def undo_action(self, player, action):
        """Takes back the last action, which must be player's action (as
        pyspiel, only the last one)."""
        player = self._player(player)
        action = integer(action, "action")
        history = self._state.history
        if not history:
            raise _error("undo_action: no action of this state to undo")
        seat, last = history[-1]
        if (_player_of(seat), last) != (player, action):
            raise _error("undo_action: the last action is player %d's %d, not player %d's %d"
                         % (_player_of(seat), last, player, action))
        self._state = _replayed(self._state, history[:-1])
        self._simultaneous = None  # its key, the history's length, comes again

    def child(self, action):
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def action_to_string(self, player, action=_MISSING):
        """pyspiel's action_to_string(player, action); action_to_string(action)
        names an action of the current player.  For SIMULTANEOUS, a flat
        joint action: "[each player's action]"."""
        if action is _MISSING:
            player, action = self.current_player(), player
        player = self._player(player, simultaneous=True)
        if player == SIMULTANEOUS:
            actions = self.flat_joint_action_to_actions(action)
            return "[%s]" % ", ".join(self._state.action_to_string(a, seat)
                                      for seat, a in enumerate(actions) if a != INVALID_ACTION)
        return self._state.action_to_string(action, _seat_of(player))

    def string_to_action(self, player, text=_MISSING):
        """The legal action whose action_to_string is text."""
        if text is _MISSING:
            player, text = self.current_player(), player
        engine.text_argument(text, "the action's text")
        player = self._player(player, simultaneous=True)
        for action in self.legal_actions(player):
            if self.action_to_string(player, action) == text:
                return action
        raise _error("no legal action of player %d reads '%s'" % (player, text))

    # ---- history ------------------------------------------------------------

    def history(self):
        """Every action applied since the initial state, chance included
        (a simultaneous node's flat joint action as each player's action)."""
        return [action for _, action in self._full()]

    def full_history(self):
        return [PlayerAction(_player_of(seat), action) for seat, action in self._full()]

    def history_str(self):
        return ", ".join(str(action) for action in self.history())

    def _full(self):
        """(seat, action) from the initial state."""
        base, history = self._state._portable()
        if base[0] == "record":
            return engine.record_actions(base[1], base[2]) + history
        return history

    def move_number(self):
        """The number of actions applied since the initial state."""
        return len(self._full())

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
        """What the player knows, with perfect recall: the record as the
        seat may read it, the actions of its own move in progress, a
        digest of the seat's view after every move (what it saw on the
        way and no longer sees, such as a domino face up before it was
        taken), and its view now."""
        seat = self._knower(player)
        record = self._game.gateau.new_record()
        seen = hashlib.sha256()
        for mover, action in self._full():
            moves = len(record)
            record.play(action, mover)
            if len(record) > moves:
                seen.update(record._current().view_json(seat).encode("utf-8"))
        mine = [action for mover, action in record._pending if mover == seat]
        return "%s%s# seen: %s\n%s" % (record.text(seat),
                                       "# in move: %s\n" % mine if mine else "",
                                       seen.hexdigest()[:32], self._state.view_json(seat))

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
                raise _error("name the player: no single player is to act here")
        seat = self._player(player)
        if seat == engine.CHANCE or seat == CHANCE:
            raise _error("chance has no information state")
        return seat

    def resample_from_infostate(self, player, probability_sampler):
        """A state in the same information set for player: the same
        information_state_string and tensor, a history of the same length
        that leads to it from the initial state (so the same
        move_number()), with what the player has not seen resampled:
        hidden deals reordered and other seats' hidden moves chosen
        again, each change kept only if the player's view after every
        move stays what it was.  probability_sampler: an int seed, a
        gateau.Rng, a numpy Generator, or pyspiel's kind, a function
        returning uniform floats in [0, 1)."""
        if player is None:
            raise GateauSpielTypeError("resample_from_infostate: name the player (0 to %d), "
                                       "not None" % (self.num_players() - 1))
        seat = self._knower(player)
        chooser = random.Random(_sampler_seed(probability_sampler))
        history = _resample(self._game.gateau, self._full(), seat, chooser)
        return State(self._game, _replayed_from_new(self._game.gateau, history))

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
        """The state as text: its record (what deserialize_state reads),
        then, inside a move, the actions of the move so far as lines
        "# in move: seat action" (seats from 1, as in records, or
        "chance")."""
        record = self._state.to_record()
        return record.text() + "".join(
            "# in move: %s %d\n" % ("chance" if seat == engine.CHANCE else seat + 1, action)
            for seat, action in record._pending)

    def __str__(self):
        return str(self._state)

    def __repr__(self):
        return "<pyspiel state of %s: %s>" % (self._game, self.history_str())


_spiel_class(State, lock=True)


def _sampler_seed(sampler):
    """A 64-bit seed from what resample_from_infostate takes (never None)."""
    if sampler is None or isinstance(sampler, (bool, np.bool_, float, str, bytes)):
        raise GateauSpielTypeError("probability_sampler: an int seed, a gateau.Rng, a numpy "
                                   "Generator or a function returning floats in [0, 1), not %r"
                                   % (sampler,))
    if isinstance(sampler, engine.Rng):
        return hash(sampler.words) % 2**64
    if isinstance(sampler, np.random.Generator):
        return int(sampler.integers(0, 2**63))
    if callable(sampler):
        seed = 0
        for _ in range(2):
            value = sampler()
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (float, np.floating)) \
                    or not 0 <= value < 1:
                raise _error("probability_sampler() must return floats in [0, 1), not %r"
                             % (value,))
            seed = seed << 32 | int(value * 2**32)
        return seed
    return engine.seed_value(sampler, "probability_sampler")


def _replayed_from_new(game, history):
    state = game.new_initial_state()
    for seat, action in history:
        state.apply(action, seat)
    return state


def _replayed(state, history):
    """state's origin with history applied instead of state's own."""
    base = state._base
    if base[0] == "determinized":
        snapshot = base[3]
        start = snapshot if snapshot is not None else state
        if start is state and state.history:
            raise _error("cannot undo: the determinized state's start is lost")
        again = engine.State(state.game, engine.lib.gateau_state_clone(start._state), base=base)
    elif base[0] == "batch":
        return _replayed_from_new(state.game, _batch_prefix(state) + history)
    else:
        again = engine._rebuild_state(state.game, base, [])
    for seat, action in history:
        again.apply(action, seat)
    return again


def _batch_prefix(state):
    _, every = state._portable()
    return every[:len(every) - len(state.history)]


# ---- resampling a history in the same information set ----------------------

def _moves(game, history):
    """history cut into moves: [mover, [actions], complete, visible_to]
    where visible_to(seat) says whether the seat read the move when it
    was made (gateau_record_text_for's rule); the last move may be in
    progress (complete False)."""
    record = game.new_record()
    for seat, action in history:
        record.play(action, seat)
    count = ctypes.c_int(0)
    moves = []
    for index in range(len(record)):
        mover = engine.lib.gateau_record_move_seat(record._record, index)
        actions = engine.lib.gateau_record_move_actions(record._record, index,
                                                        ctypes.byref(count))
        moves.append([mover, list(actions[:count.value]), True])
    if record._pending:
        moves.append([record._pending[0][0], [a for _, a in record._pending], False])
    return record, moves


def _hidden_lines(record, seat):
    """For each complete move of record, whether seat read it hidden."""
    lines = record.text(seat).split("\n")
    moves = lines[lines.index("---") + 1:]
    return [line.startswith("# ") and line.endswith("(hidden)") for line in moves]


def _views(game, moves, seat, reference=None):
    """The seat's view after each move of moves played from the initial
    state, or None if a move is illegal or (with reference) a view
    differs from the reference's."""
    state = game.new_initial_state()
    views = []
    for index, (mover, actions, _) in enumerate(moves):
        try:
            for action in actions:
                state.apply(action, mover)
        except GateauError:
            return None
        view = state.view_json(seat)
        if reference is not None and view != reference[index]:
            return None
        views.append(view)
    return views


def _resample(game, history, seat, chooser, proposals=None):
    """A history of the same length as history, leading to a state seat
    cannot tell from history's at any move (its view after every move is
    the same, the moves it read are the same): a Metropolis walk over
    what seat did not read, proposals kept when they change nothing seat
    saw.  Hidden chance (deals) changes by swapping two of its outcomes;
    another seat's hidden move is chosen again at random among the moves
    of the same length."""
    record, moves = _moves(game, history)
    hidden = _hidden_lines(record, seat) + [False] * (len(moves) - len(record))
    reference = _views(game, moves, seat)
    deals = [(m, k) for m, (mover, actions, complete) in enumerate(moves)
             if hidden[m] and mover == engine.CHANCE for k in range(len(actions))]
    secret = [m for m, (mover, _, complete) in enumerate(moves)
              if hidden[m] and mover not in (engine.CHANCE, seat) and complete]
    if proposals is None:
        proposals = min(64, 8 + len(deals) // 2 + 2 * len(secret))
    for _ in range(proposals if deals or secret else 0):
        trial = [[mover, list(actions), complete] for mover, actions, complete in moves]
        if secret and (not deals or chooser.random() < 0.5):
            index = chooser.choice(secret)
            mover, actions, _ = trial[index]
            state = _replayed_from_new(game, [(who, a) for who, acts, _ in trial[:index]
                                              for a in acts])
            again = []
            while len(again) < len(actions):
                legal = state.legal_actions(mover)
                if not legal:
                    break
                again.append(chooser.choice(legal))
                state.apply(again[-1], mover)
                if not state.in_move():
                    break
            if len(again) != len(actions) or state.in_move() or again == actions:
                continue
            trial[index][1] = again
        else:
            (m1, k1), (m2, k2) = chooser.sample(deals, 2) if len(deals) > 1 else (deals[0],) * 2
            if trial[m1][1][k1] == trial[m2][1][k2]:
                continue
            trial[m1][1][k1], trial[m2][1][k2] = trial[m2][1][k2], trial[m1][1][k1]
        if _views(game, trial, seat, reference) is not None:
            moves = trial
    return [(mover, action) for mover, actions, _ in moves for action in actions]


# ---- serialization -------------------------------------------------------------

_IN_MOVE = re.compile(r"^# in move: (chance|\d+) (\d+)$")


@_spiel_errors
def deserialize_state(game, text):
    """The state State.serialize() wrote (a record, and the actions of a
    move in progress)."""
    engine.text_argument(text, "the serialized state")
    if not isinstance(game, Game):
        raise GateauSpielTypeError("deserialize_state: a gateau.pyspiel Game, not %s"
                                   % type(game).__name__)
    lines = text.split("\n")
    pending = []
    while lines and (not lines[-1] or _IN_MOVE.match(lines[-1])):
        line = lines.pop()
        if line:
            match = _IN_MOVE.match(line)
            seat = engine.CHANCE if match.group(1) == "chance" else int(match.group(1)) - 1
            pending.insert(0, (seat, int(match.group(2))))
    record = "\n".join(lines) + "\n"
    written = engine.Record.from_text(record).game
    if written != game.gateau:
        raise _error("the serialized state is a state of %s, not of %s"
                     % (Game(written), game))
    state = engine._rebuild_state(game.gateau, ("record", record, None), pending)
    return State(game, state)


_SERIALIZED = "# Automatically generated by gateau.pyspiel serialize_game_and_state\n" \
              "[Meta]\nVersion: 1\n\n[Game]\n%s\n[State]\n%s"


@_spiel_errors
def serialize_game_and_state(game, state):
    """pyspiel's format: the game string and State.serialize()."""
    if not isinstance(game, Game) or not isinstance(state, State):
        raise GateauSpielTypeError("serialize_game_and_state(game, state): a gateau.pyspiel "
                                   "Game and State")
    return _SERIALIZED % (game, state.serialize())


@_spiel_errors
def deserialize_game_and_state(text):
    """(game, state) from serialize_game_and_state's text."""
    engine.text_argument(text, "the serialized game and state")
    match = re.search(r"\[Game\]\n(.*?)\n\[State\]\n(.*)\Z", text, re.S)
    if not match:
        raise _error("not a serialized game and state: [Game] and [State] sections expected")
    game = load_game(match.group(1).strip())
    return game, deserialize_state(game, match.group(2))

"""The engine in OpenSpiel's shape: games, loaded games (setups), states,
records.  Every call goes straight to libgateau; a state is the C state.

Seats are 0-based here as in the C API, and so are the seats named in
every GateauError; text (moves, views, records) numbers them from 1.
Errors are GateauError (a ValueError) carrying the engine's one-line
reason; a value of the wrong type (a float, a str or a bool where an
integer is due) is a GateauTypeError, both a GateauError and a TypeError.

Copies and pickles (docs/python.md, "Copies, pickles, processes and
threads"): every object here copies as a clone and pickles through what
made it, never through a C address: a Game by its name, players and
options; a State by its game and the actions that led to it from its
origin (the initial state, a record's text, or for a determinized state
the seat's view and the generator that resampled it); a Record by its
text; an Rng by its four words.
"""

import ctypes
import functools
import inspect
import json
import operator
import os
import re
import threading

import numpy as np

from gateau import _library as C
from gateau._library import lib

CHANCE = C.CHANCE        # the seat argument for chance actions (-2, as in the C API)
OBSERVER = C.OBSERVER    # a view for someone who sits at no seat (-1)
TERMINAL = -4            # current_player() of a finished game (OpenSpiel's value)


class GateauError(ValueError):
    """Bad input refused by the engine: the message is its one-line reason."""


class GateauTypeError(GateauError, TypeError):
    """A value of the wrong type (a float, a str, a bool for an integer)."""


def locked(function):
    """function(self, ...) run holding self._lock (an RLock: a locked
    method may call another).  The wrapper has the function's own
    parameters when it can (no *args and **kwargs to pack: a third of
    the cost of a cheap call such as is_terminal())."""
    parameters = list(inspect.signature(function).parameters.values())
    if parameters and all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters):
        names = [p.name for p in parameters]
        defaults = {"_default_" + p.name: p.default for p in parameters
                    if p.default is not p.empty}
        listed = ", ".join(name if "_default_" + name not in defaults
                           else "%s=_default_%s" % (name, name) for name in names)
        source = "def wrapper(%s):\n    with %s._lock:\n        return _function(%s)\n" \
            % (listed, names[0], ", ".join(names))
        scope = dict(defaults, _function=function)
        exec(source, scope)  # noqa: S102 - text made here from the signature only
        wrapper = scope["wrapper"]
    else:
        def wrapper(self, *args, **kwargs):
            with self._lock:
                return function(self, *args, **kwargs)
    functools.update_wrapper(wrapper, function)
    return wrapper


_LOCKED_DUNDERS = ("__str__", "__repr__", "__copy__", "__deepcopy__", "__reduce__", "__len__",
                   "__getstate__", "__setstate__")


def locked_class(cls):
    """Every public method and property of cls (and the special methods of
    copies, pickles and text) run holding the object's lock: threads that
    share an object take turns, and the C state under it is never used by
    two at once.  Private helpers (_seat, ...) are called from locked
    methods and are not wrapped again (a wrapper costs a call)."""
    for name, value in list(vars(cls).items()):
        if name.startswith("_") and name not in _LOCKED_DUNDERS:
            continue
        if isinstance(value, property):
            setattr(cls, name, property(locked(value.fget),
                                        locked(value.fset) if value.fset else None,
                                        doc=value.__doc__))
        elif callable(value) and not isinstance(value, (staticmethod, classmethod, type)):
            setattr(cls, name, locked(value))
    return cls


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def integer(value, what):
    """value as an int if it is an integer (int, numpy integer, anything
    with __index__), else GateauTypeError: no floats, strings or bools."""
    if isinstance(value, (bool, np.bool_)):
        raise GateauTypeError("%s must be an integer, not a bool (%r)" % (what, value))
    try:
        return operator.index(value)
    except TypeError:
        raise GateauTypeError("%s must be an integer, not %s (%r)"
                              % (what, type(value).__name__, value)) from None


def text_argument(value, what):
    """value as bytes for C: a str without NUL characters (C would stop
    reading at the first one and ignore the rest)."""
    if not isinstance(value, str):
        raise GateauTypeError("%s must be a str, not %s (%r)" % (what, type(value).__name__, value))
    if "\0" in value:
        raise GateauError("%s contains a NUL character (%r)" % (what, value))
    return value.encode("utf-8")


_SEAT_IN_C_MESSAGE = re.compile(r"\bseat (\d+)")


def c_error(buffer):
    """A C error message about seats the caller named (0-based here) with
    its seats renumbered from 0, as everywhere in Python: the C library
    writes them as text does, from 1."""
    return _SEAT_IN_C_MESSAGE.sub(lambda m: "seat %d" % (int(m.group(1)) - 1),
                                  _text(buffer.value))


def _options_text(options):
    if options is None:
        return ""
    if isinstance(options, str):
        text_argument(options, "options")
        return options
    if isinstance(options, dict):
        parts = []
        for key, value in options.items():
            key = _text(key)
            if not isinstance(key, str):
                raise GateauTypeError("options: keys must be str, not %r" % (key,))
            if isinstance(value, str):
                text_argument(value, "option %s" % key)
            elif not isinstance(value, (bool, np.bool_)):
                value = integer(value, "option %s" % key)
            else:
                raise GateauTypeError("option %s must be an integer or a str, not a bool" % key)
            parts.append("%s=%s" % (key, value))
        return " ".join(parts)
    raise GateauTypeError("options: a dict {'rounds': 2} or a string 'rounds=2', not %r"
                          % (options,))


def seed_value(seed, what="seed"):
    seed = integer(seed, what)
    if not 0 <= seed < 2**64:
        raise GateauError("%s must be 0 to 2**64 - 1, not %d" % (what, seed))
    return seed


class Rng:
    """The engine's generator (xoshiro256**): the same numbers as the C
    programs for the same seed and stream.  Copies and pickles carry its
    four words: a copy draws what the original would draw next.  It has a
    lock, held by every C call that draws from it: threads that share one
    draw in turns (each draw whole, in some order)."""

    def __init__(self, seed=0, stream=None):
        self._lock = threading.RLock()
        self._rng = C.Rng()
        if stream is None:
            lib.gateau_rng_seed(ctypes.byref(self._rng), seed_value(seed))
        else:
            lib.gateau_rng_seed_stream(ctypes.byref(self._rng), seed_value(seed),
                                       seed_value(stream, "stream"))

    @staticmethod
    def of(rng):
        """An Rng from an Rng, a seed (int) or None (seed 0)."""
        if isinstance(rng, Rng):
            return rng
        return Rng(0 if rng is None else rng)

    @classmethod
    def from_words(cls, words):
        rng = cls.__new__(cls)
        rng._lock = threading.RLock()
        rng._rng = C.Rng()
        words = list(words)
        if len(words) != 4:
            raise GateauError("an Rng has 4 words, not %d" % len(words))
        for i, word in enumerate(words):
            rng._rng.s[i] = seed_value(word, "word %d" % i)
        return rng

    @property
    def words(self):
        """The generator's state: four 64-bit integers."""
        with self._lock:
            return tuple(self._rng.s)

    @property
    def pointer(self):
        return ctypes.byref(self._rng)

    def __copy__(self):
        return Rng.from_words(self.words)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return (Rng.from_words, (self.words,))

    def __eq__(self, other):
        return isinstance(other, Rng) and self.words == other.words

    def __hash__(self):
        return hash(self.words)

    def __repr__(self):
        return "<gateau Rng %s>" % " ".join("%016x" % word for word in self.words)


class GameInfo:
    """One game of the registry (gateau.games())."""

    def __init__(self, pointer):
        self._game = pointer
        self.name = _text(lib.gateau_game_name(pointer))
        self.title = _text(lib.gateau_game_title(pointer))
        self.summary = _text(lib.gateau_game_summary(pointer))
        self.min_players = lib.gateau_game_min_players(pointer)
        self.max_players = lib.gateau_game_max_players(pointer)
        self.options = []
        for index in range(lib.gateau_game_option_count(pointer)):
            info = lib.gateau_game_option(pointer, index).contents
            self.options.append({"name": _text(info.name), "help": _text(info.help),
                                 "is_path": info.is_path, "default": info.default_value,
                                 "min": info.min_value, "max": info.max_value})
        kind = lib.gateau_game_type_of(pointer).contents
        self.type = {"simultaneous": kind.simultaneous, "chance": kind.chance,
                     "hidden_information": kind.hidden_information,
                     "score_unit": _text(kind.score_unit), "max_actions": kind.max_actions,
                     "max_chance_outcomes": kind.max_chance_outcomes,
                     "max_move_actions": kind.max_move_actions}

    def key(self):
        return C.take_string(lib.gateau_game_key(self._game))

    def load(self, players=None, options=None):
        return load(self.name, players, options)

    # The registry's games are static in the library: a copy is the same
    # game, a pickle its name.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_game_info, (self.name,))

    def __repr__(self):
        return "<gateau game %s, %d-%d players>" % (self.name, self.min_players, self.max_players)


def _game_info(name):
    return GameInfo(_find_game(name))


def games():
    """Every game, in the order `gateau games` lists them."""
    return [GameInfo(lib.gateau_game_at(i)) for i in range(lib.gateau_game_count())]


def _find_game(name):
    pointer = lib.gateau_game_find(text_argument(name, "the game's name"))
    if not pointer:
        known = ", ".join(game.name for game in games())
        raise GateauError("unknown game '%s' (games: %s)" % (name, known))
    return pointer


def load(name, players=None, options=None, base_dir=None):
    """A game with its player count (default: the fewest) and options, as
    pyspiel.load_game gives one: a dict {"rounds": 2} or "rounds=2".
    Relative file options (a deck) are read from base_dir (default: the
    current directory, remembered, so that a pickle loads the same file)."""
    pointer = _find_game(name)
    if players is None:
        players = lib.gateau_game_min_players(pointer)
    players = integer(players, "players")
    if not -2**31 <= players < 2**31:
        raise GateauError("%s is for %d to %d players, not %d" % (
            name, lib.gateau_game_min_players(pointer), lib.gateau_game_max_players(pointer),
            players))
    base_dir = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
    options_text = _options_text(options)
    error = C.error_buffer()
    setup = lib.gateau_setup_new(pointer, players, options_text.encode("utf-8"),
                                 text_argument(base_dir, "base_dir"), error, len(error))
    if not setup:
        raise GateauError(_text(error.value))
    return Game(setup, owned=True, base_dir=base_dir)


class Game:
    """A loaded game: a game with its player count and options (a C setup).
    Immutable: any number of threads may use one Game."""

    def __init__(self, setup, owned, keeper=None, base_dir=None):
        self._setup = setup
        self._owned = owned
        self._keeper = keeper  # what owns the setup when we do not (a record)
        self._base_dir = base_dir
        game = lib.gateau_setup_game(setup)
        self.info = GameInfo(game)
        self.name = self.info.name
        self.num_players = lib.gateau_setup_players(setup)
        self.options = _text(lib.gateau_setup_options_text(setup))
        self.observation_size = lib.gateau_observation_size(setup)
        self.action_space_size = lib.gateau_action_space_size(setup)
        self.max_actions = self.info.type["max_actions"]
        # the most actions, chance included, of a game from its start
        self.max_game_length = lib.gateau_setup_max_game_length(setup)

    def __del__(self):
        if getattr(self, "_owned", False) and self._setup:
            lib.gateau_setup_free(self._setup)
            self._setup = None

    def new_initial_state(self):
        return State(self, lib.gateau_state_new(self._setup), base=_NEW)

    def new_record(self):
        return Record(lib.gateau_record_new(self._setup), game=self)

    # A Game is immutable: a copy may be the same object; a pickle is its
    # name, players and options (and where its file options are read).
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (load, (self.name, self.num_players, self.options, self._base_dir))

    def __eq__(self, other):
        return isinstance(other, Game) and (self.name, self.num_players, self.options) == \
            (other.name, other.num_players, other.options)

    def __hash__(self):
        return hash((self.name, self.num_players, self.options))

    def __repr__(self):
        extra = ", " + self.options if self.options else ""
        return "<gateau %s, %d players%s>" % (self.name, self.num_players, extra)


# Where a State comes from (State._base), so that it can be made again in
# another process: ("new",) the initial state; ("record", text, base_dir)
# a record's end (Record.state); ("determinized", seat, words, snapshot) a
# determinization, pickled as ("view", seat, view, words), the seat's view
# and the generator's words; ("batch", words, actions) a batch's game,
# pickled as the initial state and its actions.  The (seat, action) pairs
# applied since are State.history.
_NEW = ("new",)


class State:
    """One game in progress: the whole truth, in C.  Agents should see it
    only through view(seat), observation(seat) or determinize(seat, rng).
    It has a lock: threads that share one take turns (docs/python.md)."""

    def __init__(self, game, pointer, base=_NEW, history=None):
        if not pointer:
            raise GateauError("the engine made no state")
        self._lock = threading.RLock()
        self.game = game
        self._state = pointer
        self._base = base
        # (seat, action) pairs applied through this object since its base
        self.history = list(history) if history else []

    def __del__(self):
        if getattr(self, "_state", None):
            lib.gateau_state_free(self._state)
            self._state = None

    # ---- who acts -------------------------------------------------------

    @property
    def num_players(self):
        return self.game.num_players

    def is_terminal(self):
        return lib.gateau_state_is_over(self._state)

    is_over = is_terminal

    def is_chance(self):
        return lib.gateau_state_is_chance(self._state)

    is_chance_node = is_chance

    def is_simultaneous(self):
        return lib.gateau_state_is_simultaneous(self._state)

    def in_move(self):
        return lib.gateau_state_in_move(self._state)

    def actors(self):
        """The seats that may act now (several in a simultaneous phase)."""
        mask = lib.gateau_state_actors(self._state)
        return [seat for seat in range(self.num_players) if mask >> seat & 1]

    def current_player(self):
        """The seat to ask next (the lowest of the actors), CHANCE, or TERMINAL."""
        if lib.gateau_state_is_over(self._state):
            return TERMINAL
        if lib.gateau_state_is_chance(self._state):
            return CHANCE
        return lib.gateau_state_next_seat(self._state)

    def _seat(self, seat, chance=True):
        """A seat argument checked: an integer, a seat of this game (or
        CHANCE when chance is allowed); None: the seat to act."""
        if seat is None:
            seat = self.current_player()
            if seat == TERMINAL:
                raise GateauError("the game is over: no seat is to act")
            return seat
        seat = integer(seat, "seat")
        if seat == CHANCE and chance:
            return seat
        if not 0 <= seat < self.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d%s)"
                              % (seat, self.num_players, self.num_players - 1,
                                 ", or CHANCE = -2" if chance else ""))
        return seat

    def _viewer(self, seat):
        seat = integer(seat, "seat")
        if seat != OBSERVER and not 0 <= seat < self.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d, "
                              "or OBSERVER = -1)" % (seat, self.num_players,
                                                     self.num_players - 1))
        return seat

    def _action(self, action, seat):
        action = integer(action, "action")
        limit = self.game.action_space_size if seat != CHANCE else 2**31
        if not 0 <= action < limit:
            raise GateauError("action %d is outside the game's actions (0 to %d)"
                              % (action, limit - 1))
        return action

    # ---- actions ---------------------------------------------------------

    def legal_actions(self, seat=None):
        """The seat's legal actions, ascending ([] if it may not act, and
        at the end of the game)."""
        if seat is None and self.is_terminal():
            return []
        seat = self._seat(seat)
        if seat == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        actions = (ctypes.c_int32 * C.MAX_ACTIONS)()
        count = lib.gateau_state_legal_actions(self._state, seat, actions)
        return list(actions[:count])

    def legal_mask(self, seat=None, out=None, dtype=np.int8):
        """An array over the action space: 1 for each legal action (int8,
        as Gymnasium's masks; dtype=np.uint8 or np.bool_ also work)."""
        seat = self._seat(seat, chance=False)
        if out is None:
            if np.dtype(dtype) not in (np.int8, np.uint8, np.bool_):
                raise GateauError("legal_mask: dtype must be np.int8, np.uint8 or np.bool_, "
                                  "not %s" % np.dtype(dtype).name)
            out = np.zeros(self.game.action_space_size, dtype=dtype)
        if isinstance(out, np.ndarray) and out.dtype in (np.int8, np.bool_) and \
                out.flags["C_CONTIGUOUS"]:
            _check_array(out, out.dtype, self.game.action_space_size, "out")
            lib.gateau_state_legal_mask(self._state, seat, out.view(np.uint8).ctypes.data)
            return out
        _check_array(out, np.uint8, self.game.action_space_size, "out")
        lib.gateau_state_legal_mask(self._state, seat, out.ctypes.data)
        return out

    def chance_outcomes(self):
        """[(action, probability)] at a chance node, [] elsewhere."""
        outcomes = (ctypes.c_int32 * C.MAX_ACTIONS)()
        probabilities = (ctypes.c_double * C.MAX_ACTIONS)()
        count = lib.gateau_state_chance_outcomes(self._state, outcomes, probabilities)
        return list(zip(outcomes[:count], probabilities[:count]))

    def sample_chance(self, rng):
        if not self.is_chance():
            raise GateauError("this is not a chance node")
        rng = Rng.of(rng)
        with rng._lock:
            return lib.gateau_state_sample_chance(self._state, rng.pointer)

    def apply(self, action, seat=None):
        """Applies one action of seat.  Without seat: the seat to act's
        (current_player(), chance included), or in a simultaneous phase
        the one seat to act that may play it; an action several seats
        may play (shared numbers: votes, placements) is refused, not
        guessed.  An illegal action raises GateauError; the state is
        then unchanged."""
        if seat is None and not lib.gateau_state_is_over(self._state) and \
                not lib.gateau_state_is_chance(self._state):
            seat = self._whose(action)
        seat = self._seat(seat)
        action = self._action(action, seat)
        if not self.history and self._base[0] == "determinized" and self._base[3] is None:
            self._base = self._base[:3] + (self.clone(),)
        error = C.error_buffer()
        if not lib.gateau_state_apply(self._state, seat, action, error, len(error)):
            raise GateauError(c_error(error))
        self.history.append((seat, action))

    apply_action = apply

    def _whose(self, action):
        """The seat an action without seat= is for: the seat to act, or in
        a simultaneous phase the one seat to which it is legal; refused
        when several may play it (Marie's Table's votes share their
        numbers), rather than guessed."""
        actors = self.actors()
        if len(actors) < 2:
            return None
        action = integer(action, "action")
        able = [seat for seat in actors if action in self.legal_actions(seat)]
        if len(able) > 1:
            raise GateauError("seats %s may all play action %d now: say whose action it is "
                              "(apply(action, seat))" % (", ".join(map(str, able)), action))
        return able[0] if able else None

    def apply_move(self, move, seat=None):
        """Applies one whole move: a Move (a bot's answer, which carries its
        seat) or text in the game's notation ("cut 1-3 4-7"; a prefix "3:"
        names seat 2, as in records).  In a simultaneous phase with several
        seats to choose, text must say whose move it is (seat= or the
        prefix).  Returns its actions."""
        from gateau.bots import Move  # (bots imports engine)
        if isinstance(move, Move):
            if seat is not None and self._seat(seat) != move.seat:
                raise GateauError("this Move is seat %d's, not seat %d's" % (move.seat, seat))
            seat = move.seat
            text = move.text
        else:
            text_argument(move, "the move")
            text = move.strip()
            if seat is None and ":" in text.split(" ", 1)[0]:
                prefix, text = text.split(":", 1)
                try:
                    number = int(prefix)
                except ValueError:
                    raise GateauError("'%s:' is not a seat number" % prefix) from None
                if not 1 <= number <= self.num_players:
                    raise GateauError("'%s:' names no seat: text numbers seats 1 to %d"
                                      % (prefix, self.num_players))
                seat = number - 1
                text = text.strip()
        if seat is None and self.is_chance():
            seat = CHANCE
        if seat is None and len(self.actors()) > 1:
            raise GateauError("seats %s may all move now: say whose move it is (seat=, a "
                              "'N:' prefix as records write it, or a Move)"
                              % ", ".join(map(str, self.actors())))
        seat = self._seat(seat)
        actions = self.parse_move(text, seat)
        for action in actions:
            self.apply(action, seat)
        return actions

    def parse_move(self, text, seat=None):
        """A move's actions, checked against the state (which is unchanged)."""
        seat = self._seat(seat)
        encoded = text_argument(text, "the move")
        actions = (ctypes.c_int32 * C.MAX_MOVE_ACTIONS)()
        error = C.error_buffer()
        count = lib.gateau_move_parse(self._state, seat, encoded, actions, error, len(error))
        if count < 0:
            raise GateauError(c_error(error))
        return list(actions[:count])

    def _move_actions(self, actions, seat):
        if isinstance(actions, (str, bytes)):
            raise GateauTypeError("actions must be a list of integers, not %s"
                                  % type(actions).__name__)
        actions = [self._action(action, seat) for action in actions]
        if not 1 <= len(actions) <= C.MAX_MOVE_ACTIONS:
            raise GateauError("a move has 1 to %d actions, not %d"
                              % (C.MAX_MOVE_ACTIONS, len(actions)))
        array = (ctypes.c_int32 * len(actions))(*actions)
        error = C.error_buffer()
        if not lib.gateau_move_check(self._state, seat, array, len(actions), error, len(error)):
            raise GateauError(c_error(error))
        return array

    def move_text(self, actions, seat=None):
        """The notation of a complete move made from this state: actions
        that are not exactly one whole legal move of seat are refused."""
        seat = self._seat(seat)
        array = self._move_actions(actions, seat)
        return C.take_string(lib.gateau_move_format(self._state, seat, array, len(array)))

    def order_move(self, parts, seat=None):
        """The parts of a move of seat (whole or begun) chosen in any order,
        as the game orders them (gateau_move_order): a legal move's parts in
        any order give the move itself.  Parts that cannot make a move in
        any order are refused."""
        seat = self._seat(seat)
        parts = [self._action(part, seat) for part in parts]
        if len(parts) >= C.MAX_MOVE_ACTIONS:
            raise GateauError("a move has 0 to %d parts, not %d" % (C.MAX_MOVE_ACTIONS - 1, len(parts)))
        given = (ctypes.c_int32 * max(1, len(parts)))(*parts)
        ordered = (ctypes.c_int32 * C.MAX_MOVE_ACTIONS)()
        error = C.error_buffer()
        count = lib.gateau_move_order(self._state, seat, given, len(parts), ordered, error, len(error))
        if count < 0:
            raise GateauError(c_error(error))
        return list(ordered[:count])

    def move_choices(self, chosen, seat=None):
        """What may join parts chosen in any order (gateau_move_choices):
        (the parts that keep it part of some legal move of seat, whether it
        is a whole move already).  Chosen parts that are part of no legal
        move are refused."""
        seat = self._seat(seat)
        chosen = [self._action(part, seat) for part in chosen]
        if len(chosen) >= C.MAX_MOVE_ACTIONS:
            raise GateauError("a move has 0 to %d parts, not %d" % (C.MAX_MOVE_ACTIONS - 1, len(chosen)))
        given = (ctypes.c_int32 * max(1, len(chosen)))(*chosen)
        choices = (ctypes.c_int32 * C.MAX_ACTIONS)()
        complete = ctypes.c_bool(False)
        error = C.error_buffer()
        count = lib.gateau_move_choices(self._state, seat, given, len(chosen), choices,
                                        ctypes.byref(complete), error, len(error))
        if count < 0:
            raise GateauError(c_error(error))
        return list(choices[:count]), bool(complete.value)

    def action_to_string(self, action, seat=None):
        """A short name of one action of seat ("take 4-7"): an action of
        the game's action space (for chance: one of the outcomes now)."""
        seat = self._seat(seat)
        action = self._action(action, seat)
        if seat == CHANCE and action not in {a for a, _ in self.chance_outcomes()}:
            raise GateauError("%d is not a chance outcome here" % action)
        return C.take_string(lib.gateau_action_name(self._state, seat, action))

    def describe_legal(self, seat=None):
        return C.take_string(lib.gateau_state_describe_legal(self._state, self._seat(seat)))

    # ---- results ----------------------------------------------------------

    def scores(self):
        """Scores by seat (provisional until the game is over)."""
        scores = (ctypes.c_int * C.MAX_PLAYERS)()
        lib.gateau_state_scores(self._state, scores)
        return list(scores[:self.num_players])

    def winners(self):
        """The winning seats after the tiebreaks ([] until the game is over)."""
        mask = lib.gateau_state_winners(self._state)
        return [seat for seat in range(self.num_players) if mask >> seat & 1]

    def returns(self):
        """The final scores as floats (gateau.pyspiel's returns() are
        utilities instead: win shares)."""
        return [float(score) for score in self.scores()]

    # ---- what a seat knows ---------------------------------------------

    def view(self, seat=OBSERVER):
        """What seat knows, as a dict (the engine's JSON view)."""
        return json.loads(self.view_json(seat))

    def view_json(self, seat=OBSERVER):
        return C.take_string(lib.gateau_state_view_json(self._state, self._viewer(seat)))

    def view_text(self, seat=OBSERVER, color=False):
        return C.take_string(lib.gateau_state_view_text(self._state, self._viewer(seat),
                                                        bool(color)))

    def observation(self, seat, out=None):
        """What seat knows as a float32 vector (docs/observations.md); with
        out, written into that array in place."""
        seat = self._viewer(seat)
        if out is None:
            out = np.empty(self.game.observation_size, dtype=np.float32)
        _check_array(out, np.float32, self.game.observation_size, "out")
        lib.gateau_state_observation(self._state, seat, out.ctypes.data)
        return out

    observation_tensor = observation

    def determinize(self, seat, rng=None):
        """A copy in which everything seat cannot know is resampled: what a
        bot may search freely.  This state is unchanged.  The copy has no
        history (its hidden part never happened) and pickles as the seat's
        view and the generator's words, never as this state's record."""
        seat = self._viewer(seat)
        rng = Rng.of(rng)
        pointer = lib.gateau_state_clone(self._state)
        with rng._lock:
            words = rng.words
            lib.gateau_state_determinize(pointer, seat, rng.pointer)
        # The seat's view of the copy is the seat's view of this state; it
        # is read (for a pickle) from the copy as it is now, or from a
        # clone of it taken before its first action (State.apply).
        return State(self.game, pointer, base=("determinized", seat, words, None))

    # ---- copies and records ----------------------------------------------

    def clone(self):
        return State(self.game, lib.gateau_state_clone(self._state), base=self._base,
                     history=self.history)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def _portable(self):
        """(base, history) as a pickle carries them: a batch's game becomes
        the initial state and every action since, chance included."""
        if self._base[0] == "batch":
            return _NEW, _replay_batch_game(self.game, *self._base[1:]) + self.history
        if self._base[0] == "determinized":
            _, seat, words, snapshot = self._base
            source = snapshot if snapshot is not None else self
            # Read back from the seat's view, which shows no half-made move:
            # a state determinized at the start of a move (where bots do).
            view = source.view_json(seat) if seat != OBSERVER and not source.in_move() \
                else None
            return ("view", seat, view, words), list(self.history)
        return self._base, list(self.history)

    def __reduce__(self):
        base, history = self._portable()
        if base[0] == "view" and base[2] is None:
            _rebuild_state(self.game, base, history)  # raises why
        return (_rebuild_state, (self.game, base, history))

    def to_record(self):
        """The moves applied from the initial state, as a Record.  A
        determinized state has none (GateauError)."""
        base, history = self._portable()
        if base[0] == "new":
            record = self.game.new_record()
        elif base[0] == "record":
            record = Record.from_text(base[1], base_dir=base[2])
        else:
            raise GateauError("a determinized state has no record: its hidden part was "
                              "resampled, not played")
        for seat, action in history:
            record.play(action, seat)
        return record

    def __str__(self):
        return self.view_text(OBSERVER)

    def __repr__(self):
        return "<gateau state of %r, %d actions applied>" % (self.game, len(self.history))


locked_class(State)


def _replay_batch_game(game, words, actions):
    """The (seat, action) pairs of a batch's game that started from the
    generator's words and had actions played since, chance drawn as the
    batch draws it."""
    state = game.new_initial_state()
    rng = Rng.from_words(words)

    def chance():
        while state.is_chance():
            state.apply(state.sample_chance(rng), CHANCE)

    chance()
    for action in actions:
        state.apply(int(action), state.current_player())
        chance()
    return state.history


def _rebuild_state(game, base, history):
    if base[0] == "new":
        state = game.new_initial_state()
    elif base[0] == "record":
        # The record's moves played on this game's own initial state (a
        # state of the record's setup would live only as long as the record).
        state = game.new_initial_state()
        for seat, action in record_actions(base[1], base[2]):
            state.apply(action, seat)
        state._base, state.history = base, []
    elif base[0] == "view":
        _, seat, view, words = base
        if view is None:
            raise GateauError("a state determinized inside a move or for OBSERVER does not "
                              "pickle (it would have to carry the true state): determinize "
                              "at the start of a move, for a seat")
        error = C.error_buffer()
        pointer = lib.gateau_state_from_view(game._setup, seat, view.encode("utf-8"), error,
                                             len(error))
        if not pointer:
            raise GateauError(_text(error.value))
        lib.gateau_state_determinize(pointer, seat, Rng.from_words(words).pointer)
        state = State(game, pointer, base=base)
    else:
        raise GateauError("unknown state origin %r" % (base[0],))
    for seat, action in history:
        state.apply(action, seat)
    return state


class _Borrowed(State):
    """A record's own state, looked at: never freed from Python."""

    def __del__(self):
        pass


def record_actions(text, base_dir=None):
    """The (seat, action) pairs of a record's moves, in order."""
    record = Record.from_text(text, base_dir=base_dir)
    count = ctypes.c_int(0)
    pairs = []
    for index in range(len(record)):
        seat = lib.gateau_record_move_seat(record._record, index)
        actions = lib.gateau_record_move_actions(record._record, index, ctypes.byref(count))
        pairs.extend((seat, action) for action in actions[:count.value])
    return pairs


def _check_array(array, dtype, size, name):
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.size != size or \
            not array.flags["C_CONTIGUOUS"] or not array.flags["WRITEABLE"]:
        raise GateauError("%s must be a writable contiguous numpy array of %d %s"
                          % (name, size, np.dtype(dtype).name))


class Record:
    """A game written down: header, then one move per line (chance
    included), as `gateau replay` reads it.  Copies and pickles go through
    its text."""

    def __init__(self, pointer, game=None, base_dir=None):
        self._lock = threading.RLock()
        self._record = pointer
        if game is None:
            game = Game(lib.gateau_record_setup(pointer), owned=False, keeper=self,
                        base_dir=base_dir)
        self.game = game
        self._base_dir = base_dir if base_dir is not None else game._base_dir
        self._pending = []  # (seat, action) of a move in progress

    def __del__(self):
        if getattr(self, "_record", None):
            lib.gateau_record_free(self._record)
            self._record = None

    @classmethod
    def from_text(cls, text, base_dir=None):
        """Reads and replays a record; GateauError names the bad line."""
        encoded = text_argument(text, "the record")
        base_dir = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
        error = C.error_buffer()
        line = ctypes.c_int(0)
        pointer = lib.gateau_record_read(encoded, base_dir.encode("utf-8"), error, len(error),
                                         ctypes.byref(line))
        if not pointer:
            where = "line %d: " % line.value if line.value > 0 else ""
            raise GateauError(where + _text(error.value))
        return cls(pointer, base_dir=base_dir)

    def text(self, seat=None):
        """The record; for a seat, as that seat may read it (hidden lines
        become comments)."""
        if seat is None:
            return C.take_string(lib.gateau_record_text(self._record))
        seat = integer(seat, "seat")
        if seat != OBSERVER and not 0 <= seat < self.game.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d, "
                              "or OBSERVER = -1)" % (seat, self.game.num_players,
                                                     self.game.num_players - 1))
        return C.take_string(lib.gateau_record_text_for(self._record, seat))

    def __str__(self):
        return self.text()

    @property
    def state(self):
        """A copy of the state the record has reached."""
        pointer = lib.gateau_state_clone(lib.gateau_record_state(self._record))
        return State(self.game, pointer, base=("record", self.text(), self._base_dir),
                     history=self._pending)

    def _current(self):
        """The record's state, for checks (not a copy: never handed out)."""
        state = _Borrowed.__new__(_Borrowed)
        state.game, state._state = self.game, lib.gateau_record_state(self._record)
        state._lock = self._lock
        return state

    def play(self, action, seat=None):
        state = self._current()
        seat = state._seat(seat)
        action = state._action(action, seat)
        error = C.error_buffer()
        moves = len(self)
        if not lib.gateau_record_play(self._record, seat, action, error, len(error)):
            raise GateauError(c_error(error))
        # The actions of a move in progress, which the text does not hold
        # until the move is complete (for copies and pickles).
        self._pending = [] if len(self) > moves else self._pending + [(seat, action)]

    def play_move(self, text, seat=None):
        seat = self._current()._seat(seat)
        encoded = text_argument(text, "the move")
        error = C.error_buffer()
        if not lib.gateau_record_play_move(self._record, seat, encoded, error, len(error)):
            raise GateauError(c_error(error))

    def moves(self):
        """[(seat, text)] per line; seat is CHANCE for chance moves."""
        return [(lib.gateau_record_move_seat(self._record, i),
                 _text(lib.gateau_record_move_text(self._record, i)))
                for i in range(lib.gateau_record_move_count(self._record))]

    def __len__(self):
        return lib.gateau_record_move_count(self._record)

    def result(self):
        """The game's result as `gateau replay --json` gives it."""
        return json.loads(C.take_string(lib.gateau_record_result_json(self._record)))

    def __copy__(self):
        return _rebuild_record(self.text(), self._base_dir, self._pending)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return (_rebuild_record, (self.text(), self._base_dir, list(self._pending)))


locked_class(Record)


def _rebuild_record(text, base_dir, pending):
    record = Record.from_text(text, base_dir=base_dir)
    for seat, action in pending:
        record.play(action, seat)
    return record

"""The engine in OpenSpiel's shape: games, loaded games (setups), states,
records.  Every call goes straight to libgateau; a state is the C state.

Seats are 0-based here as in the C API; text (moves, views, records)
numbers them from 1.  Errors are GateauError (a ValueError) carrying the
engine's one-line reason.
"""

import ctypes
import json

import numpy as np

from gateau import _library as C
from gateau._library import lib

CHANCE = C.CHANCE        # the seat argument for chance actions
OBSERVER = C.OBSERVER    # a view for someone who sits at no seat
TERMINAL = -4            # current_player() of a finished game (OpenSpiel's value)


class GateauError(ValueError):
    """Bad input refused by the engine: the message is its one-line reason."""


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _options_text(options):
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    if isinstance(options, dict):
        return " ".join("%s=%s" % (key, value) for key, value in options.items())
    raise TypeError("options: a dict {'rounds': 2} or a string 'rounds=2', not %r" % (options,))


class Rng:
    """The engine's generator (xoshiro256**): the same numbers as the C
    programs for the same seed and stream."""

    def __init__(self, seed=0, stream=None):
        self._rng = C.Rng()
        if stream is None:
            lib.gateau_rng_seed(ctypes.byref(self._rng), int(seed) & (2**64 - 1))
        else:
            lib.gateau_rng_seed_stream(ctypes.byref(self._rng), int(seed) & (2**64 - 1),
                                       int(stream) & (2**64 - 1))

    @staticmethod
    def of(rng):
        """An Rng from an Rng, a seed (int) or None (seed 0)."""
        if isinstance(rng, Rng):
            return rng
        return Rng(0 if rng is None else rng)

    @property
    def pointer(self):
        return ctypes.byref(self._rng)


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

    def __repr__(self):
        return "<gateau game %s, %d-%d players>" % (self.name, self.min_players, self.max_players)


def games():
    """Every game, in the order `gateau games` lists them."""
    return [GameInfo(lib.gateau_game_at(i)) for i in range(lib.gateau_game_count())]


def _find_game(name):
    pointer = lib.gateau_game_find(name.encode("utf-8"))
    if not pointer:
        known = ", ".join(game.name for game in games())
        raise GateauError("unknown game '%s' (games: %s)" % (name, known))
    return pointer


def load(name, players=None, options=None, base_dir=None):
    """A game with its player count (default: the fewest) and options, as
    pyspiel.load_game gives one: a dict {"rounds": 2} or "rounds=2"."""
    pointer = _find_game(name)
    if players is None:
        players = lib.gateau_game_min_players(pointer)
    error = C.error_buffer()
    setup = lib.gateau_setup_new(pointer, int(players), _options_text(options).encode("utf-8"),
                                 base_dir.encode("utf-8") if base_dir else None, error,
                                 len(error))
    if not setup:
        raise GateauError(_text(error.value))
    return Game(setup, owned=True)


class Game:
    """A loaded game: a game with its player count and options (a C setup)."""

    def __init__(self, setup, owned, keeper=None):
        self._setup = setup
        self._owned = owned
        self._keeper = keeper  # what owns the setup when we do not (a record)
        game = lib.gateau_setup_game(setup)
        self.info = GameInfo(game)
        self.name = self.info.name
        self.num_players = lib.gateau_setup_players(setup)
        self.options = _text(lib.gateau_setup_options_text(setup))
        self.observation_size = lib.gateau_observation_size(setup)
        self.action_space_size = lib.gateau_action_space_size(setup)
        self.max_actions = self.info.type["max_actions"]

    def __del__(self):
        if getattr(self, "_owned", False) and self._setup:
            lib.gateau_setup_free(self._setup)
            self._setup = None

    def new_initial_state(self):
        return State(self, lib.gateau_state_new(self._setup))

    def new_record(self):
        return Record(lib.gateau_record_new(self._setup), game=self)

    def __repr__(self):
        extra = ", " + self.options if self.options else ""
        return "<gateau %s, %d players%s>" % (self.name, self.num_players, extra)


class State:
    """One game in progress: the whole truth, in C.  Agents should see it
    only through view(seat), observation(seat) or determinize(seat, rng)."""

    def __init__(self, game, pointer):
        self.game = game
        self._state = pointer
        self.history = []  # (seat, action) pairs applied through this object

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
        if self.is_terminal():
            return TERMINAL
        if self.is_chance():
            return CHANCE
        return lib.gateau_state_next_seat(self._state)

    def _seat(self, seat):
        if seat is None:
            seat = self.current_player()
            if seat == TERMINAL:
                raise GateauError("the game is over")
        seat = int(seat)
        if seat != CHANCE and not 0 <= seat < self.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d)"
                              % (seat, self.num_players, self.num_players - 1))
        return seat

    def _viewer(self, seat):
        seat = int(seat)
        if seat != OBSERVER and not 0 <= seat < self.num_players:
            raise GateauError("there is no seat %d in a %d-player game (seats are 0 to %d, "
                              "or OBSERVER)" % (seat, self.num_players, self.num_players - 1))
        return seat

    # ---- actions ---------------------------------------------------------

    def legal_actions(self, seat=None):
        """The seat's legal actions, ascending ([] if it may not act)."""
        seat = self._seat(seat)
        if seat == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        actions = (ctypes.c_int32 * C.MAX_ACTIONS)()
        count = lib.gateau_state_legal_actions(self._state, seat, actions)
        return list(actions[:count])

    def legal_mask(self, seat=None, out=None):
        """A uint8 array over the action space: 1 for each legal action."""
        seat = self._seat(seat)
        if out is None:
            out = np.zeros(self.game.action_space_size, dtype=np.uint8)
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
        return lib.gateau_state_sample_chance(self._state, Rng.of(rng).pointer)

    def apply(self, action, seat=None):
        """Applies one action of seat (default: current_player(), chance
        included).  An illegal action raises GateauError; the state is
        then unchanged."""
        seat = self._seat(seat)
        error = C.error_buffer()
        if not lib.gateau_state_apply(self._state, seat, int(action), error, len(error)):
            raise GateauError(_text(error.value))
        self.history.append((seat, int(action)))

    apply_action = apply

    def apply_move(self, text, seat=None):
        """Applies one whole move in the game's notation ("cut 1-3 4-7",
        "3: down" takes its seat from the prefix).  Returns its actions."""
        text = text.strip()
        if seat is None and ":" in text.split(" ", 1)[0]:
            prefix, text = text.split(":", 1)
            try:
                seat = int(prefix) - 1
            except ValueError:
                raise GateauError("'%s:' is not a seat number" % prefix) from None
            text = text.strip()
        if seat is None and self.is_chance():
            seat = CHANCE
        seat = self._seat(seat)
        actions = self.parse_move(text, seat)
        for action in actions:
            self.apply(action, seat)
        return actions

    def parse_move(self, text, seat=None):
        """A move's actions, checked against the state (which is unchanged)."""
        seat = self._seat(seat)
        actions = (ctypes.c_int32 * C.MAX_MOVE_ACTIONS)()
        error = C.error_buffer()
        count = lib.gateau_move_parse(self._state, seat, text.encode("utf-8"), actions, error,
                                      len(error))
        if count < 0:
            raise GateauError(_text(error.value))
        return list(actions[:count])

    def move_text(self, actions, seat=None):
        """The notation of a complete move made from this state."""
        seat = self._seat(seat)
        array = (ctypes.c_int32 * len(actions))(*actions)
        return C.take_string(lib.gateau_move_format(self._state, seat, array, len(actions)))

    def action_to_string(self, action, seat=None):
        return C.take_string(lib.gateau_action_name(self._state, self._seat(seat), int(action)))

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
        """OpenSpiel's name for the final scores."""
        return [float(score) for score in self.scores()]

    # ---- what a seat knows ---------------------------------------------

    def view(self, seat=OBSERVER):
        """What seat knows, as a dict (the engine's JSON view)."""
        return json.loads(C.take_string(lib.gateau_state_view_json(self._state,
                                                                    self._viewer(seat))))

    def view_text(self, seat=OBSERVER, color=False):
        return C.take_string(lib.gateau_state_view_text(self._state, self._viewer(seat), color))

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
        bot may search freely.  This state is unchanged."""
        copy = self.clone()
        copy.history = []
        lib.gateau_state_determinize(copy._state, self._viewer(seat), Rng.of(rng).pointer)
        return copy

    # ---- copies and records ----------------------------------------------

    def clone(self):
        copy = State(self.game, lib.gateau_state_clone(self._state))
        copy.history = list(self.history)
        return copy

    __copy__ = clone

    def to_record(self):
        """The moves applied through this object from the initial state, as
        a Record (raises if the state did not start at the beginning)."""
        record = self.game.new_record()
        for seat, action in self.history:
            record.play(action, seat)
        return record

    def __str__(self):
        return self.view_text(OBSERVER)


def _check_array(array, dtype, size, name):
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.size != size or \
            not array.flags["C_CONTIGUOUS"] or not array.flags["WRITEABLE"]:
        raise GateauError("%s must be a writable contiguous numpy array of %d %s"
                          % (name, size, np.dtype(dtype).name))


class Record:
    """A game written down: header, then one move per line (chance
    included), as `gateau replay` reads it."""

    def __init__(self, pointer, game=None):
        self._record = pointer
        self.game = game if game is not None else \
            Game(lib.gateau_record_setup(pointer), owned=False, keeper=self)

    def __del__(self):
        if getattr(self, "_record", None):
            lib.gateau_record_free(self._record)
            self._record = None

    @classmethod
    def from_text(cls, text, base_dir=None):
        """Reads and replays a record; GateauError names the bad line."""
        error = C.error_buffer()
        line = ctypes.c_int(0)
        pointer = lib.gateau_record_read(text.encode("utf-8"),
                                         base_dir.encode("utf-8") if base_dir else None,
                                         error, len(error), ctypes.byref(line))
        if not pointer:
            where = "line %d: " % line.value if line.value > 0 else ""
            raise GateauError(where + _text(error.value))
        return cls(pointer)

    def text(self, seat=None):
        """The record; for a seat, as that seat may read it (hidden lines
        become comments)."""
        if seat is None:
            return C.take_string(lib.gateau_record_text(self._record))
        return C.take_string(lib.gateau_record_text_for(self._record, int(seat)))

    __str__ = text

    @property
    def state(self):
        """A copy of the state the record has reached."""
        pointer = lib.gateau_state_clone(lib.gateau_record_state(self._record))
        return State(self.game, pointer)

    def play(self, action, seat=None):
        if seat is None:
            seat = self.state.current_player()
        error = C.error_buffer()
        if not lib.gateau_record_play(self._record, int(seat), int(action), error, len(error)):
            raise GateauError(_text(error.value))

    def play_move(self, text, seat=None):
        if seat is None:
            seat = self.state.current_player()
            if seat == TERMINAL:
                raise GateauError("the game is over")
        error = C.error_buffer()
        if not lib.gateau_record_play_move(self._record, int(seat), text.encode("utf-8"), error,
                                           len(error)):
            raise GateauError(_text(error.value))

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

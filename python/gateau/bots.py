"""The engine's bots and arenas from Python.

A bot answers with a whole move (all its actions and its notation), and
sees only a state determinized for its seat: the C library hands it
nothing else.
"""

import collections
import ctypes
import json
import re
import threading

from gateau import _library as C
from gateau._library import lib
from gateau.engine import (GateauError, GateauTypeError, Game, Rng, State, _text, integer,
                           load, seed_value, text_argument)


class Move(collections.namedtuple("Move", "actions text seat")):
    """A bot's whole move: its actions, its notation (no seat prefix) and
    the seat that makes it (0-based), so that State.apply_move(move) plays
    it for that seat, in a simultaneous phase too."""

    __slots__ = ()

    @property
    def line(self):
        """The move as a record's line in a simultaneous phase: "2: down"
        (text numbers seats from 1)."""
        return "%d: %s" % (self.seat + 1, self.text)


_SEAT_IN_FAILURE = re.compile(r"\bseat (\d+)\b")


def _seats_from_0(text):
    """A C failure line with its seats numbered from 0, as every
    GateauError numbers them (C writes them as text does, from 1)."""
    return _SEAT_IN_FAILURE.sub(lambda m: "seat %d" % (int(m.group(1)) - 1), text)


def _game_info_of(game):
    if isinstance(game, str):
        game = load(game)
    return lib.gateau_setup_game(game._setup) if isinstance(game, Game) else game._game


class Bot:
    """A bot from a spec as `gateau play --seats` takes it: "random",
    "heuristic", "heuristic:random=0.3", "ismcts:ms=100",
    "ismcts:iters=2000:threads=2", "solver".

    A bot whose spec the game cannot honour (a solver where the game has
    none, a heuristic where it has no heuristic player) refuses to choose
    there unless made with fallback=True: then it plays what
    plays_as(game) names.  Each Bot has a lock: threads may share one
    (their calls take turns); copies and pickles are a new bot of the same
    spec whose generator is at the same point."""

    def __init__(self, spec, seed=0, fallback=False, game=None):
        encoded = text_argument(spec, "the bot spec")
        error = C.error_buffer()
        self._bot = lib.gateau_bot_new(encoded, error, len(error))
        if not self._bot:
            raise GateauError(_text(error.value))
        self.spec = spec
        self.rng = seed if isinstance(seed, Rng) else Rng(seed_value(seed))
        self.fallback = bool(fallback)
        self._lock = threading.Lock()
        if game is not None:
            self._check_game(game)

    def __del__(self):
        if getattr(self, "_bot", None):
            lib.gateau_bot_free(self._bot)
            self._bot = None

    @property
    def name(self):
        return _text(lib.gateau_bot_name(self._bot))

    def plays_as(self, game):
        """What the bot plays in game (a name, a Game or a GameInfo): its
        spec, or what the game offers instead ("heuristic" for a solver in
        a game without one)."""
        fallback = lib.gateau_bot_fallback(self.spec.encode("utf-8"), _game_info_of(game))
        return _text(fallback) if fallback else self.spec

    def _check_game(self, game):
        if self.fallback:
            return
        fallback = lib.gateau_bot_fallback(self.spec.encode("utf-8"), _game_info_of(game))
        if fallback:
            name = game if isinstance(game, str) else game.name
            raise GateauError("bot '%s' cannot play %s as asked: it would play %s instead "
                              "(ask for that, or Bot(..., fallback=True))"
                              % (self.spec, name, _text(fallback)))

    def choose(self, state, seat=None):
        """The bot's whole move for seat (default: the seat to act)."""
        if not isinstance(state, State):
            raise GateauTypeError("choose: a gateau.State, not %s" % type(state).__name__)
        self._check_game(state.game)
        seat = state._seat(seat, chance=False)
        move = C.BotMove()
        with self._lock, state._lock, self.rng._lock:
            chosen = lib.gateau_bot_choose_move(self._bot, state._state, seat, self.rng.pointer,
                                                ctypes.byref(move))
        if not chosen:
            # An ext: program that failed (a forfeit, or one that cannot
            # start) says so; otherwise the seat had no move to start.
            failure = lib.gateau_bot_failure(self._bot)
            if failure:
                raise GateauError("the bot cannot move: %s" % _seats_from_0(_text(failure)))
            raise GateauError("seat %d cannot start a move here" % seat)
        return Move(list(move.actions[:move.count]), move.text.decode("utf-8"), seat)

    def play(self, state, seat=None):
        """Chooses and applies the move; returns it."""
        move = self.choose(state, seat)
        for action in move.actions:
            state.apply(action, move.seat)
        return move

    def _again(self, rng):
        return Bot(self.spec, seed=rng, fallback=self.fallback)

    def __copy__(self):
        with self._lock:
            return self._again(Rng.from_words(self.rng.words))

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        with self._lock:
            words = self.rng.words
        return (_rebuild_bot, (self.spec, words, self.fallback))

    def __repr__(self):
        return "<gateau bot %s>" % self.spec


def _rebuild_bot(spec, words, fallback):
    return Bot(spec, seed=Rng.from_words(words), fallback=fallback)


def arena(game, seats, games, players=None, options=None, threads=1, seed=0, fallback=False):
    """Plays `games` games between the bots listed in seats (one spec per
    player; seats rotate as in docs/arena.md) and returns the report that
    `gateau arena --json` writes for the same arguments, as a dict.  A
    spec the game cannot honour (a solver outside piece o' Cake) is
    refused unless fallback=True, as Bot refuses it."""
    if isinstance(seats, str):
        raise GateauTypeError("seats: a list of bot specs, not a str")
    seats = list(seats)
    if isinstance(game, str):
        game = load(game, players if players is not None else len(seats), options)
    if len(seats) != game.num_players:
        raise GateauError("%d bots for a %d-player game" % (len(seats), game.num_players))
    specs = (ctypes.c_char_p * len(seats))(*[text_argument(spec, "a bot spec")
                                             for spec in seats])
    if not fallback:
        for spec in seats:
            instead = lib.gateau_bot_fallback(spec.encode("utf-8"),
                                              lib.gateau_setup_game(game._setup))
            if instead:
                raise GateauError("bot '%s' cannot play %s as asked: it would play %s instead "
                                  "(ask for that, or arena(..., fallback=True))"
                                  % (spec, game.name, _text(instead)))
    games, threads = integer(games, "games"), integer(threads, "threads")
    if not 1 <= games < 2**62 or not 1 <= threads <= 1024:
        raise GateauError("an arena plays 1 or more games on 1 to 1024 threads, not %d games "
                          "on %d" % (games, threads))
    config = C.ArenaConfig(setup=game._setup, bots=specs, games=games, threads=threads,
                           seed=seed_value(seed))
    error = C.error_buffer()
    pointer = lib.gateau_arena_new(ctypes.byref(config), error, len(error))
    if not pointer:
        raise GateauError(_text(error.value))
    try:
        if not lib.gateau_arena_run(pointer, error, len(error)):
            raise GateauError(_text(error.value))
        text = C.take_string(lib.gateau_arena_json(pointer, ctypes.byref(config)))
    finally:
        lib.gateau_arena_free(pointer)
    report = json.loads(text)
    report["json"] = text  # byte for byte what `gateau arena --json` writes
    return report

"""The engine's bots and arenas from Python.

A bot answers with a whole move (all its actions and its notation), and
sees only a state determinized for its seat: the C library hands it
nothing else.
"""

import collections
import ctypes
import json

from gateau import _library as C
from gateau._library import lib
from gateau.engine import GateauError, Rng, _text, load

Move = collections.namedtuple("Move", "actions text")


class Bot:
    """A bot from a spec as `gateau play --seats` takes it: "random",
    "heuristic", "ismcts:ms=100", "ismcts:iters=2000:threads=2", "solver"."""

    def __init__(self, spec, seed=0):
        error = C.error_buffer()
        self._bot = lib.gateau_bot_new(spec.encode("utf-8"), error, len(error))
        if not self._bot:
            raise GateauError(_text(error.value))
        self.spec = spec
        self.rng = Rng(seed)

    def __del__(self):
        if getattr(self, "_bot", None):
            lib.gateau_bot_free(self._bot)
            self._bot = None

    @property
    def name(self):
        return _text(lib.gateau_bot_name(self._bot))

    def choose(self, state, seat=None):
        """The bot's whole move for seat (default: the seat to act)."""
        if seat is None:
            seat = state.current_player()
        move = C.BotMove()
        if not lib.gateau_bot_choose_move(self._bot, state._state, int(seat), self.rng.pointer,
                                          ctypes.byref(move)):
            raise GateauError("seat %d cannot start a move here" % (int(seat) + 1))
        return Move(list(move.actions[:move.count]), move.text.decode("utf-8"))

    def play(self, state, seat=None):
        """Chooses and applies the move; returns it."""
        if seat is None:
            seat = state.current_player()
        move = self.choose(state, seat)
        for action in move.actions:
            state.apply(action, seat)
        return move

    def __repr__(self):
        return "<gateau bot %s>" % self.spec


def arena(game, seats, games, players=None, options=None, threads=1, seed=0):
    """Plays `games` games between the bots listed in seats (one spec per
    player; seats rotate as in docs/arena.md) and returns the report that
    `gateau arena --json` writes for the same arguments, as a dict."""
    if isinstance(game, str):
        game = load(game, players if players is not None else len(seats), options)
    if len(seats) != game.num_players:
        raise GateauError("%d bots for a %d-player game" % (len(seats), game.num_players))
    specs = (ctypes.c_char_p * len(seats))(*[spec.encode("utf-8") for spec in seats])
    config = C.ArenaConfig(setup=game._setup, bots=specs, games=int(games),
                           threads=int(threads), seed=int(seed) & (2**64 - 1))
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

"""Many games stepped at once in C, for learners (gateau_batch_* in
gateau/observation.h).  The outputs are numpy arrays the C library writes
in place at every step: read them, choose actions, step again."""

import ctypes
import threading

import numpy as np

from gateau import _library as C
from gateau._library import lib
from gateau.engine import (GateauError, GateauTypeError, State, _text, c_error, integer, load,
                           locked_class, seed_value)


class Batch:
    """count independent games of one game; game i's chance draws from the
    stream (seed, i).  After reset() and after each step(actions):

    - observations: float32 (count, observation_size), for the seat to act
    - masks: int8 (count, action_space_size), 1 for each legal action (as Gymnasium's masks)
    - legal_actions: int32 (count, max_actions), legal_counts: int32 (count)
    - seats: int32 (count), the seat to act
    - rewards: float32 (count, players), final scores of a game that just ended
    - winners: uint32 (count), bitmask of the winners of a game that just ended
    - done: bool (count), the game just ended and started again

    observations=False or masks=False skips those outputs (they cost most).

    A Batch has a lock: threads that share one take turns (each call
    whole), so they get the results of some order of their calls.

    The batch keeps, for each game, the actions played in it since it
    started (a few numpy operations a step): with the generator the C
    library notes at each game's start, they replay it exactly, which is
    how state(i) pickles and how a Batch copies and pickles.
    """

    def __init__(self, game, count, seed=0, players=None, options=None, observations=True,
                 masks=True):
        self._lock = threading.RLock()
        if isinstance(game, str):
            game = load(game, players, options)
        self.game = game
        self.count = integer(count, "count")
        self.seed = seed_value(seed)
        self._flags = (bool(observations), bool(masks))
        error = C.error_buffer()
        if not -2**31 <= self.count < 2**31:
            raise GateauError("a batch holds 1 to 1048576 games, not %d" % self.count)
        self._batch = lib.gateau_batch_new(game._setup, self.count, self.seed, error,
                                           len(error))
        if not self._batch:
            raise GateauError(_text(error.value))
        n, players = self.count, game.num_players
        self.observations = np.zeros((n, game.observation_size), np.float32) \
            if observations else None
        self.masks = np.zeros((n, game.action_space_size), np.int8) if masks else None
        self.legal_actions = np.zeros((n, game.max_actions), np.int32)
        self.legal_counts = np.zeros(n, np.int32)
        self.seats = np.zeros(n, np.int32)
        self.rewards = np.zeros((n, players), np.float32)
        self.winners = np.zeros(n, np.uint32)
        self.done = np.zeros(n, np.bool_)

        def address(array):
            return array.ctypes.data if array is not None else None

        self._outputs = C.BatchOutputs(
            address(self.observations), address(self.masks), address(self.legal_actions),
            address(self.legal_counts), address(self.seats), address(self.rewards),
            address(self.winners), address(self.done))
        self._outputs_pointer = ctypes.byref(self._outputs)
        # random_actions() picks from the rows laid end to end: row i starts
        # at i * max_actions of the flat view (which the library writes too).
        self._legal_flat = self.legal_actions.reshape(-1)
        self._row_starts = np.arange(n, dtype=np.intp) * game.max_actions
        self._actions = np.zeros(n, np.int32)  # what step() passes to C
        self._error = C.error_buffer()
        # gateau_batch_step's arguments never change: made into ctypes
        # values once, passed to the function without argtypes to convert
        # them again (a third of the call's cost).
        self._step_arguments = (ctypes.c_void_p(self._batch),
                                ctypes.c_void_p(self._actions.ctypes.data),
                                self._outputs_pointer, self._error,
                                ctypes.c_size_t(len(self._error)))
        self._step = C.unconverted("gateau_batch_step")
        # The steps' actions, one array a step (what a replay needs): game
        # i's actions since it started are entry i of the steps from
        # start[i] on.  Appending a step is a copy; the steps no game needs
        # any more are dropped now and then.
        self._log = []
        self._log_base = 0  # the step number of _log[0]
        self._step_number = 0
        self._start = np.zeros(n, np.intp)
        self._trim_at = 256
        self._finished_before = 0  # games finished in the batch this one was copied from
        self._stale = None  # rows whose results a copy set and the next step must clear
        self.reset()

    def __del__(self):
        if getattr(self, "_batch", None):
            lib.gateau_batch_free(self._batch)
            self._batch = None

    def reset(self):
        lib.gateau_batch_reset(self._batch, self._outputs_pointer)
        self._log = []
        self._log_base = self._step_number = 0
        self._start[:] = 0
        self._stale = None

    def step(self, actions):
        """One action per game (any integer sequence or array of count)."""
        # The usual argument, random_actions() or a policy's int32 array,
        # is copied into the batch's own array, whose address is known: a
        # step of a thousand games costs a few microseconds of Python, and
        # asking numpy for an array's address is one of them.
        if type(actions) is np.ndarray and actions.dtype == np.int32 \
                and actions.shape == self._actions.shape:
            self._actions[...] = actions
        else:
            self._copy_actions(actions)
        if self._stale is not None:
            self._clear_stale()
        if not self._step(*self._step_arguments):
            raise GateauError(c_error(self._error))
        # The step's actions for the replays; a game that ended starts again.
        self._log.append(self._actions.copy())
        self._step_number += 1
        np.copyto(self._start, self._step_number, where=self.done)
        if len(self._log) >= self._trim_at:
            self._trim()

    def _trim(self):
        """Drops the steps before the oldest game still in progress."""
        oldest = int(self._start.min())
        del self._log[:oldest - self._log_base]
        self._log_base = oldest
        self._trim_at = max(256, 2 * len(self._log))

    def _actions_since(self, index):
        """The actions of game index since it started."""
        first = int(self._start[index]) - self._log_base
        return np.array([step[index] for step in self._log[first:]], np.int32)

    def _clear_stale(self):
        rows = self._stale
        self.rewards[rows] = 0
        self.winners[rows] = 0
        self.done[rows] = False
        self._stale = None

    def _copy_actions(self, actions):
        """Any other sequence of integers into the batch's array, checked."""
        actions = np.asarray(actions)
        if actions.shape != self._actions.shape:
            raise GateauError("step: %d actions expected, got shape %s"
                              % (self.count, actions.shape))
        if actions.dtype.kind not in "iu" or \
                (actions.size and (actions.min() < -2**31 or actions.max() >= 2**31)):
            raise GateauError("step: the actions are not 32-bit integers (%s)" % actions.dtype)
        self._actions[...] = actions

    def random_actions(self, rng):
        """A uniformly random legal action per game (rng: numpy Generator),
        int32 as step() takes them."""
        if not callable(getattr(rng, "random", None)):
            raise GateauTypeError("random_actions: a numpy Generator (np.random.default_rng(seed)),"
                                  " not %r" % (rng,))
        # Game i's pick is floor(u * count) for u uniform in [0, 1), in
        # float32 (half the cost of float64 draws; a count is at most 256,
        # exact, and u * count rounds to below it), then row i's entry in
        # the flat view.  Five numpy calls, about 6 us for 1024 games.
        picks = rng.random(self.count, dtype=np.float32)
        picks *= self.legal_counts.astype(np.float32)
        picks = picks.astype(np.intp)
        picks += self._row_starts
        return self._legal_flat.take(picks)

    @property
    def games_finished(self):
        return self._finished_before + lib.gateau_batch_games_finished(self._batch)

    def _game_start(self, index):
        rng = C.Rng()
        if not lib.gateau_batch_game_start(self._batch, index, ctypes.byref(rng)):
            raise GateauError("there is no game %d in a batch of %d" % (index, self.count))
        return tuple(rng.s)

    def _index(self, index):
        index = integer(index, "index")
        if not 0 <= index < self.count:
            raise GateauError("there is no game %d in a batch of %d" % (index, self.count))
        return index

    def state(self, index):
        """A copy of game index as it stands (the whole truth: for checks).
        It pickles as the game's actions from the start, chance included."""
        index = self._index(index)
        pointer = lib.gateau_state_clone(lib.gateau_batch_state(self._batch, index))
        actions = [int(a) for a in self._actions_since(index)]
        return State(self.game, pointer, base=("batch", self._game_start(index), actions))

    # ---- copies and pickles: every game replayed from its start ----------

    def _games(self):
        """Per game: the generator's words at its start and its actions since."""
        return [(self._game_start(i), self._actions_since(i))
                for i in range(self.count)]

    def __reduce__(self):
        outputs = (self.rewards.copy(), self.winners.copy(), self.done.copy())
        return (_rebuild_batch, (self.game, self.count, self.seed, self._flags, self._games(),
                                 self.games_finished, outputs))

    def __copy__(self):
        return _rebuild_batch(*self.__reduce__()[1])

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self):
        return "<gateau batch of %d %s games>" % (self.count, self.game.name)


locked_class(Batch)


def _rebuild_batch(game, count, seed, flags, games, finished, outputs):
    batch = Batch(game, count, seed=seed, observations=flags[0], masks=flags[1])
    error = C.error_buffer()
    for index, (words, actions) in enumerate(games):
        actions = np.ascontiguousarray(actions, dtype=np.int32)
        start = C.Rng()
        for k, word in enumerate(words):
            start.s[k] = word
        pointer = actions.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
        if not lib.gateau_batch_replay_game(batch._batch, index, ctypes.byref(start), pointer,
                                            len(actions), batch._outputs_pointer, error,
                                            len(error)):
            raise GateauError(_text(error.value))
    # The log as if the games had been stepped: each game's actions end
    # at the last step, starting where its own began.
    longest = max((len(actions) for _, actions in games), default=0)
    log = np.zeros((longest, count), np.int32)
    for index, (_, actions) in enumerate(games):
        log[longest - len(actions):, index] = actions
        batch._start[index] = longest - len(actions)
    batch._log = list(log)
    batch._log_base, batch._step_number = 0, longest
    batch._trim_at = max(256, 2 * longest)
    batch._finished_before = finished - lib.gateau_batch_games_finished(batch._batch)
    # The results of the last step, as the original holds them until its
    # next step clears them.
    rewards, winners, done = outputs
    batch.rewards[...] = rewards
    batch.winners[...] = winners
    batch.done[...] = done
    stale = np.flatnonzero(done)
    batch._stale = stale if len(stale) else None
    return batch

"""Many games stepped at once in C, for learners (gateau_batch_* in
gateau/observation.h).  The outputs are numpy arrays the C library writes
in place at every step: read them, choose actions, step again."""

import ctypes

import numpy as np

from gateau import _library as C
from gateau._library import lib
from gateau.engine import GateauError, State, _text, load


class Batch:
    """count independent games of one game; game i's chance draws from the
    stream (seed, i).  After reset() and after each step(actions):

    - observations: float32 (count, observation_size), for the seat to act
    - masks: uint8 (count, action_space_size)
    - legal_actions: int32 (count, max_actions), legal_counts: int32 (count)
    - seats: int32 (count), the seat to act
    - rewards: float32 (count, players), final scores of a game that just ended
    - winners: uint32 (count), bitmask of the winners of a game that just ended
    - done: bool (count), the game just ended and started again

    observations=False or masks=False skips those outputs (they cost most).
    """

    def __init__(self, game, count, seed=0, players=None, options=None, observations=True,
                 masks=True):
        if isinstance(game, str):
            game = load(game, players, options)
        self.game = game
        self.count = int(count)
        error = C.error_buffer()
        self._batch = lib.gateau_batch_new(game._setup, self.count, int(seed) & (2**64 - 1),
                                           error, len(error))
        if not self._batch:
            raise GateauError(_text(error.value))
        n, players = self.count, game.num_players
        self.observations = np.zeros((n, game.observation_size), np.float32) \
            if observations else None
        self.masks = np.zeros((n, game.action_space_size), np.uint8) if masks else None
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
        self.reset()

    def __del__(self):
        if getattr(self, "_batch", None):
            lib.gateau_batch_free(self._batch)
            self._batch = None

    def reset(self):
        lib.gateau_batch_reset(self._batch, self._outputs_pointer)

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
        if not self._step(*self._step_arguments):
            raise GateauError(_text(self._error.value))

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
        return lib.gateau_batch_games_finished(self._batch)

    def state(self, index):
        """A copy of game index as it stands (the whole truth: for checks)."""
        if not 0 <= index < self.count:
            raise GateauError("there is no game %d in a batch of %d" % (index, self.count))
        return State(self.game, lib.gateau_state_clone(lib.gateau_batch_state(self._batch,
                                                                              index)))

"""The spaces of the environments: Gymnasium's own (gymnasium.spaces) when
Gymnasium is installed, else these stand-ins with the same names and the
parts of their behaviour the environments and PettingZoo's api_test use:
shape, dtype, contains, sample (with an int8 mask, as Gymnasium insists),
seed, equality.  They pickle and copy as plain Python objects."""

import numpy as np

try:  # pragma: no cover - Gymnasium is not a Debian package
    from gymnasium.spaces import Box, Dict, Discrete, Space  # noqa: F401
    GYMNASIUM = True
except ImportError:
    GYMNASIUM = False

    class Space:
        def __init__(self, shape, dtype, seed=None):
            self.shape = shape
            self.dtype = np.dtype(dtype) if dtype is not None else None
            self.np_random = np.random.default_rng(seed)

        def seed(self, seed=None):
            self.np_random = np.random.default_rng(seed)
            return [seed]

        def __contains__(self, x):
            return self.contains(x)

    class Box(Space):
        """Arrays of shape with every value in [low, high]."""

        def __init__(self, low, high, shape, dtype=np.float32, seed=None):
            super().__init__(tuple(shape), dtype, seed)
            self.low = np.full(self.shape, low, self.dtype)
            self.high = np.full(self.shape, high, self.dtype)

        def contains(self, x):
            return isinstance(x, np.ndarray) and x.shape == self.shape and \
                np.can_cast(x.dtype, self.dtype) and \
                bool(np.all(x >= self.low)) and bool(np.all(x <= self.high))

        def sample(self, mask=None):
            if np.issubdtype(self.dtype, np.integer):
                return self.np_random.integers(self.low, self.high.astype(np.int64) + 1,
                                               dtype=self.dtype)
            return self.np_random.uniform(self.low, self.high).astype(self.dtype)

        def __eq__(self, other):
            return isinstance(other, Box) and self.shape == other.shape and \
                self.dtype == other.dtype and np.array_equal(self.low, other.low) and \
                np.array_equal(self.high, other.high)

        def __repr__(self):
            return "Box(%s, %s, %s, %s)" % (self.low.min(), self.high.max(), self.shape,
                                            self.dtype)

    class Discrete(Space):
        """The integers start .. start + n - 1."""

        def __init__(self, n, seed=None, start=0):
            super().__init__((), np.int64, seed)
            self.n = int(n)
            self.start = int(start)

        def contains(self, x):
            if isinstance(x, np.ndarray) and x.shape == () and \
                    np.issubdtype(x.dtype, np.integer):
                x = int(x)
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
                return False
            return self.start <= int(x) < self.start + self.n

        def sample(self, mask=None):
            """A uniform draw; with mask (an int8 array of n, 1 for the
            allowed), among the allowed (start when none is)."""
            if mask is None:
                return np.int64(self.start + self.np_random.integers(self.n))
            # Gymnasium's checks, word for word in substance:
            assert isinstance(mask, np.ndarray), \
                "The expected type of the mask is np.ndarray, actual type: %s" % type(mask)
            assert mask.dtype == np.int8, \
                "The expected dtype of the mask is np.int8, actual dtype: %s" % mask.dtype
            assert mask.shape == (self.n,), \
                "The expected shape of the mask is %s, actual shape: %s" % ((self.n,),
                                                                            mask.shape)
            assert np.all((mask == 0) | (mask == 1)), \
                "All values of a mask should be 0 or 1, actual values: %s" % mask
            allowed = np.flatnonzero(mask)
            if not len(allowed):
                return np.int64(self.start)
            return np.int64(self.start + self.np_random.choice(allowed))

        def __eq__(self, other):
            return isinstance(other, Discrete) and (self.n, self.start) == (other.n,
                                                                            other.start)

        def __repr__(self):
            return "Discrete(%d)" % self.n

    class Dict(Space):
        """A dict of named spaces."""

        def __init__(self, spaces, seed=None):
            super().__init__(None, None, seed)
            self.spaces = dict(spaces)

        def __getitem__(self, key):
            return self.spaces[key]

        def __iter__(self):
            return iter(self.spaces)

        def keys(self):
            return self.spaces.keys()

        def contains(self, x):
            return isinstance(x, dict) and x.keys() == self.spaces.keys() and \
                all(space.contains(x[key]) for key, space in self.spaces.items())

        def sample(self, mask=None):
            return {key: space.sample() for key, space in self.spaces.items()}

        def seed(self, seed=None):
            for offset, space in enumerate(self.spaces.values()):
                space.seed(None if seed is None else seed + offset)
            return [seed]

        def __eq__(self, other):
            return isinstance(other, Dict) and self.spaces == other.spaces

        def __repr__(self):
            return "Dict(%s)" % ", ".join("%r: %r" % item for item in self.spaces.items())


# Observation values are "near 0..1" (docs/observations.md): flags,
# one-hots and counts in [0, 1], scores divided by a round number, which
# can go below 0 (Marie's Table).  These bounds hold them with room.
OBSERVATION_LOW, OBSERVATION_HIGH = -10.0, 10.0


def observation_space(game):
    """{"observation": float32 Box, "action_mask": int8 Box of 0/1}, as
    PettingZoo's classic environments give theirs."""
    return Dict({
        "observation": Box(OBSERVATION_LOW, OBSERVATION_HIGH, (game.observation_size,),
                           np.float32),
        "action_mask": Box(0, 1, (game.action_space_size,), np.int8)})


def action_space(game):
    return Discrete(game.action_space_size)

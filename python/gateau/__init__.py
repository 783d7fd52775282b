"""gateau from Python: the C engine of four cake-sharing games, its bots,
arenas, observation tensors and batches for learning agents.

    import gateau
    game = gateau.load("piece-o-cake", players=4)
    state = game.new_initial_state()
    ...

See docs/python.md.  The shared library is found as gateau._library says
(GATEAU_LIBRARY, the package, cmake --install, a source build tree).
OpenSpiel's API is gateau.pyspiel (import gateau.pyspiel as pyspiel).
"""

from gateau.engine import (CHANCE, OBSERVER, TERMINAL, Game, GameInfo, GateauError,
                           GateauTypeError, Record, Rng, State, games, load)
from gateau.bots import Bot, Move, arena
from gateau.batch import Batch
from gateau.review import Review, ReviewMove, SeatSummary, review
from gateau.env import AECEnv, ParallelEnv, SingleAgentEnv, env, parallel_env

__all__ = ["CHANCE", "OBSERVER", "TERMINAL", "Game", "GameInfo", "GateauError",
           "GateauTypeError", "Record", "Rng", "State", "games", "load", "Bot", "Move", "arena",
           "Batch", "Review", "ReviewMove", "SeatSummary", "review", "AECEnv", "ParallelEnv", "SingleAgentEnv", "env", "parallel_env"]
__version__ = "0.2.0"

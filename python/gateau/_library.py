"""Loading libgateau.so with ctypes and declaring the C functions used.

ctypes needs no compiler when the package is installed and the C API is
already a plain C surface of gateau_* functions with fixed-size structs
(docs/python.md says more).  The library is looked for, in order:

1. the file named by the environment variable GATEAU_LIBRARY;
2. libgateau.so inside the package (copied there by ``pip install ./python``
   from the build tree);
3. the path ``cmake --install`` wrote into gateau/_installed.py;
4. the build tree of a source checkout (``build/libgateau.so`` beside
   ``python/``), so that ``PYTHONPATH=python`` works right after a build;
5. the system's library path (``libgateau.so.0``).
"""

import ctypes
import ctypes.util
import os

MAX_PLAYERS = 6
MAX_ACTIONS = 256
MAX_MOVE_ACTIONS = 256
MAX_MOVE_TEXT = 512
CHANCE = -2
OBSERVER = -1


class Rng(ctypes.Structure):
    _fields_ = [("s", ctypes.c_uint64 * 4)]


class OptionInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("help", ctypes.c_char_p),
                ("is_path", ctypes.c_bool), ("default_value", ctypes.c_int),
                ("min_value", ctypes.c_int), ("max_value", ctypes.c_int)]


class GameType(ctypes.Structure):
    _fields_ = [("simultaneous", ctypes.c_bool), ("chance", ctypes.c_bool),
                ("hidden_information", ctypes.c_bool), ("score_unit", ctypes.c_char_p),
                ("max_actions", ctypes.c_int), ("max_chance_outcomes", ctypes.c_int),
                ("max_move_actions", ctypes.c_int)]


class BotMove(ctypes.Structure):
    _fields_ = [("count", ctypes.c_int), ("actions", ctypes.c_int32 * MAX_MOVE_ACTIONS),
                ("text", ctypes.c_char * MAX_MOVE_TEXT)]


ARENA_PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_long, ctypes.c_long, ctypes.c_double,
                                  ctypes.c_void_p)


class ArenaConfig(ctypes.Structure):
    _fields_ = [("setup", ctypes.c_void_p), ("bots", ctypes.POINTER(ctypes.c_char_p)),
                ("games", ctypes.c_long), ("threads", ctypes.c_int),
                ("seed", ctypes.c_uint64), ("keep_records", ctypes.c_bool),
                ("record_dir", ctypes.c_char_p), ("progress", ARENA_PROGRESS),
                ("progress_context", ctypes.c_void_p),
                # a shard of a run (0 and 0: the whole run) and a callback per
                # finished game, which Python leaves unset (arena.h)
                ("shard", ctypes.c_int), ("shards", ctypes.c_int),
                ("on_game", ctypes.c_void_p), ("on_game_context", ctypes.c_void_p)]


class BatchOutputs(ctypes.Structure):
    _fields_ = [("observations", ctypes.c_void_p), ("masks", ctypes.c_void_p),
                ("legal_actions", ctypes.c_void_p), ("legal_counts", ctypes.c_void_p),
                ("seats", ctypes.c_void_p), ("rewards", ctypes.c_void_p),
                ("winners", ctypes.c_void_p), ("done", ctypes.c_void_p)]


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    named = os.environ.get("GATEAU_LIBRARY")
    if named:
        yield named
        return
    yield os.path.join(here, "libgateau.so")
    try:
        from gateau import _installed  # written by cmake --install
        yield _installed.LIBRARY
    except ImportError:
        pass
    yield os.path.join(os.path.dirname(os.path.dirname(here)), "build", "libgateau.so")
    found = ctypes.util.find_library("gateau")
    if found:
        yield found
    yield "libgateau.so.0"


def _load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as error:
            tried.append("%s (%s)" % (path, error))
    raise ImportError("gateau: libgateau.so not found; build it (cmake --build build) or set "
                      "GATEAU_LIBRARY to its path. Tried: " + "; ".join(tried))


lib = _load()
libc = ctypes.CDLL(None)
libc.free.argtypes = [ctypes.c_void_p]
libc.free.restype = None

_p = ctypes.c_void_p
_s = ctypes.c_char_p
_i = ctypes.c_int
_b = ctypes.c_bool
_size = ctypes.c_size_t
_action = ctypes.c_int32
_actions = ctypes.POINTER(ctypes.c_int32)
_u32 = ctypes.c_uint32
_u64 = ctypes.c_uint64
_rng = ctypes.POINTER(Rng)

_SIGNATURES = {
    # registry
    "gateau_game_count": (_i, []),
    "gateau_game_at": (_p, [_i]),
    "gateau_game_find": (_p, [_s]),
    "gateau_game_name": (_s, [_p]),
    "gateau_game_title": (_s, [_p]),
    "gateau_game_summary": (_s, [_p]),
    "gateau_game_key": (_p, [_p]),
    "gateau_game_min_players": (_i, [_p]),
    "gateau_game_max_players": (_i, [_p]),
    "gateau_game_option_count": (_i, [_p]),
    "gateau_game_option": (ctypes.POINTER(OptionInfo), [_p, _i]),
    "gateau_game_type_of": (ctypes.POINTER(GameType), [_p]),
    # setups
    "gateau_setup_new": (_p, [_p, _i, _s, _s, _s, _size]),
    "gateau_setup_free": (None, [_p]),
    "gateau_setup_game": (_p, [_p]),
    "gateau_setup_players": (_i, [_p]),
    "gateau_setup_options_text": (_s, [_p]),
    "gateau_setup_max_game_length": (_i, [_p]),
    # states
    "gateau_state_new": (_p, [_p]),
    "gateau_state_clone": (_p, [_p]),
    "gateau_state_copy": (None, [_p, _p]),
    "gateau_state_free": (None, [_p]),
    "gateau_state_is_over": (_b, [_p]),
    "gateau_state_is_chance": (_b, [_p]),
    "gateau_state_actors": (_u32, [_p]),
    "gateau_state_next_seat": (_i, [_p]),
    "gateau_state_is_simultaneous": (_b, [_p]),
    "gateau_state_in_move": (_b, [_p]),
    "gateau_state_legal_actions": (_i, [_p, _i, _actions]),
    "gateau_state_chance_outcomes": (_i, [_p, _actions, ctypes.POINTER(ctypes.c_double)]),
    "gateau_state_sample_chance": (_action, [_p, _rng]),
    "gateau_state_apply": (_b, [_p, _i, _action, _s, _size]),
    "gateau_state_scores": (None, [_p, ctypes.POINTER(ctypes.c_int)]),
    "gateau_state_winners": (_u32, [_p]),
    "gateau_state_view_text": (_p, [_p, _i, _b]),
    "gateau_state_view_json": (_p, [_p, _i]),
    "gateau_state_determinize": (None, [_p, _i, _rng]),
    "gateau_move_parse": (_i, [_p, _i, _s, _actions, _s, _size]),
    "gateau_move_format": (_p, [_p, _i, _actions, _i]),
    "gateau_move_check": (_b, [_p, _i, _actions, _i, _s, _size]),
    "gateau_move_order": (_i, [_p, _i, _actions, _i, _actions, _s, _size]),
    "gateau_move_choices": (_i, [_p, _i, _actions, _i, _actions, ctypes.POINTER(ctypes.c_bool), _s, _size]),
    "gateau_state_from_view": (_p, [_p, _i, _s, _s, _size]),
    "gateau_action_name": (_p, [_p, _i, _action]),
    "gateau_state_describe_legal": (_p, [_p, _i]),
    # observations and batches
    "gateau_observation_size": (_i, [_p]),
    "gateau_state_observation": (_b, [_p, _i, _p]),
    "gateau_action_space_size": (_i, [_p]),
    "gateau_state_legal_mask": (_i, [_p, _i, _p]),
    "gateau_batch_new": (_p, [_p, _i, _u64, _s, _size]),
    "gateau_batch_free": (None, [_p]),
    "gateau_batch_reset": (None, [_p, ctypes.POINTER(BatchOutputs)]),
    "gateau_batch_step": (_b, [_p, _p, ctypes.POINTER(BatchOutputs), _s, _size]),
    "gateau_batch_state": (_p, [_p, _i]),
    "gateau_batch_games_finished": (ctypes.c_long, [_p]),
    "gateau_batch_game_start": (_b, [_p, _i, _rng]),
    "gateau_batch_replay_game": (_b, [_p, _i, _rng, _actions, _i, ctypes.POINTER(BatchOutputs), _s, _size]),
    # records
    "gateau_record_new": (_p, [_p]),
    "gateau_record_free": (None, [_p]),
    "gateau_record_read": (_p, [_s, _s, _s, _size, ctypes.POINTER(ctypes.c_int)]),
    "gateau_record_text": (_p, [_p]),
    "gateau_record_text_for": (_p, [_p, _i]),
    "gateau_record_setup": (_p, [_p]),
    "gateau_record_state": (_p, [_p]),
    "gateau_record_play": (_b, [_p, _i, _action, _s, _size]),
    "gateau_record_play_move": (_b, [_p, _i, _s, _s, _size]),
    "gateau_record_move_count": (_i, [_p]),
    "gateau_record_move_text": (_s, [_p, _i]),
    "gateau_record_move_seat": (_i, [_p, _i]),
    "gateau_record_move_actions": (_actions, [_p, _i, ctypes.POINTER(ctypes.c_int)]),
    "gateau_record_result_json": (_p, [_p]),
    # bots and arenas
    "gateau_bot_new": (_p, [_s, _s, _size]),
    "gateau_bot_free": (None, [_p]),
    "gateau_bot_name": (_s, [_p]),
    "gateau_bot_choose_move": (_b, [_p, _p, _i, _rng, ctypes.POINTER(BotMove)]),
    "gateau_bot_fallback": (_s, [_s, _p]),
    "gateau_bot_failure": (_s, [_p]),
    "gateau_arena_new": (_p, [ctypes.POINTER(ArenaConfig), _s, _size]),
    "gateau_arena_free": (None, [_p]),
    "gateau_arena_run": (_b, [_p, _s, _size]),
    "gateau_arena_json": (_p, [_p, ctypes.POINTER(ArenaConfig)]),
    "gateau_rng_seed": (None, [_rng, _u64]),
    "gateau_rng_seed_stream": (None, [_rng, _u64, _u64]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def unconverted(name):
    """The C function name with its return type and without argtypes, for
    a hot path that passes ctypes values made once: ctypes then converts
    nothing."""
    function = lib[name]  # a new function object; lib.name keeps its argtypes
    function.restype = _SIGNATURES[name][0]
    return function


def take_string(pointer):
    """A malloc'd C string as str, freed."""
    if not pointer:
        return ""
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        libc.free(pointer)


def error_buffer():
    return ctypes.create_string_buffer(1024)

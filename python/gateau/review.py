"""Game reviews from Python: every move of a record judged by searches from
its mover's information (include/gateau/review.h, docs/review.md).

    review = gateau.review(record, iterations=2000, threads=2)
    review.seats[0].accuracy, [m for m in review.moves if m.verdict == "blunder"]

The numbers are those of `gateau review --json` for the same record and
options (rounded alike), with seats and move indexes counted from 0 as
everywhere in the package.  A Review is plain data: it copies, pickles and
crosses threads and processes as it is.
"""

import collections
import ctypes
import json
import threading

from gateau import _library as C
from gateau._library import lib
from gateau.engine import GateauError, GateauTypeError, Record, _text, integer, seed_value

_PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int)


class _Options(ctypes.Structure):
    """gateau_review_options (review.h)."""
    _fields_ = [("iterations", ctypes.c_long), ("ms", ctypes.c_int), ("repeats", ctypes.c_int),
                ("threads", ctypes.c_int), ("seed", ctypes.c_uint64), ("seat", ctypes.c_int),
                ("progress", _PROGRESS), ("progress_context", ctypes.c_void_p),
                ("cancel", ctypes.POINTER(ctypes.c_bool))]


lib.gateau_review_options_default.argtypes = [ctypes.POINTER(_Options)]
lib.gateau_review_options_default.restype = None
lib.gateau_review_record.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Options), ctypes.c_char_p,
                                     ctypes.c_size_t]
lib.gateau_review_record.restype = ctypes.c_void_p
lib.gateau_review_json.argtypes = [ctypes.c_void_p]
lib.gateau_review_json.restype = ctypes.c_void_p
lib.gateau_review_free.argtypes = [ctypes.c_void_p]
lib.gateau_review_free.restype = None


ReviewMove = collections.namedtuple(
    "ReviewMove", "index seat move best verdict win_before win_played win_best score_before "
                  "score_played score_best loss noise sure_loss exact score_loss score_noise "
                  "sure_score_loss by_score judged_loss")
ReviewMove.__doc__ = """One move reviewed: its index among the record's moves and
its mover (both from 0), the move played and the best found (notation), the
verdict ("good", "inaccuracy", "mistake", "blunder", "forced"), the mover's
win chances (0..1) and mean final scores before the move, after it and after
the best, the win chance given away (loss), the spread of that loss between
the repeated searches (noise), its one-sided 95% lower bound (sure_loss),
whether the values are exact; the final score given away, measured the same
way (score_loss, score_noise, sure_score_loss, in the game's unit); by_score,
true where the win chance was saturated and the score was judged too; and
judged_loss, what the verdict and the accuracy are read from (win chance,
0..1: sure_loss, or by_score the larger of it and the score's worth)."""

SeatSummary = collections.namedtuple(
    "SeatSummary", "seat moves good inaccuracy mistake blunder forced mean_loss accuracy")
SeatSummary.__doc__ = """A seat (from 0): its moves, how many of each verdict,
the mean judged loss of its judged moves and its accuracy (0..100)."""


class Review:
    """A review's numbers: game, players, seed, iterations, ms, repeats,
    thresholds (dict, in win chance), saturated (the win chance below which,
    or that close to 1, the score is judged too), score_thresholds (dict, in
    the game's unit of score, or None), seats (SeatSummary per reviewed
    seat), moves (ReviewMove per reviewed move), and json, the C library's
    text."""

    def __init__(self, text):
        data = json.loads(text)
        self.json = text
        self.game = data["game"]
        self.players = data["players"]
        self.seed = data["seed"]
        self.iterations = data["iterations"]
        self.ms = data["ms"]
        self.repeats = data["repeats"]
        self.thresholds = data["thresholds"]
        self.saturated = data["saturated"]
        self.score_thresholds = data["score_thresholds"]
        self.seats = [SeatSummary(s["seat"] - 1, s["moves"], s["good"], s["inaccuracy"],
                                  s["mistake"], s["blunder"], s["forced"], s["mean_loss"],
                                  s["accuracy"]) for s in data["seats"]]
        self.moves = [ReviewMove(m["number"] - 1, m["seat"] - 1, m["move"], m["best"], m["class"],
                                 m["win_before"], m["win_played"], m["win_best"],
                                 m["score_before"], m["score_played"], m["score_best"],
                                 m["loss"], m["noise"], m["sure_loss"], m["exact"],
                                 m["score_loss"], m["score_noise"], m["sure_score_loss"],
                                 m["by_score"], m["judged_loss"])
                      for m in data["moves"]]

    def __eq__(self, other):
        return isinstance(other, Review) and self.json == other.json

    def __hash__(self):
        return hash(self.json)

    def __repr__(self):
        return "<gateau.Review of %s: %d moves>" % (self.game, len(self.moves))


def _record_of(record):
    if isinstance(record, Record):
        return record
    if isinstance(record, str):
        return Record.from_text(record)
    raise GateauTypeError("review: a gateau.Record or a record's text, not %s"
                          % type(record).__name__)


def review(record, seat=None, iterations=None, ms=None, repeats=3, threads=1, seed=1,
           progress=None):
    """Reviews every move of record (a Record or a record's text) by seat
    (from 0; None: every seat).  Budget per search: iterations
    (deterministic), or ms (not deterministic); neither: the game's default
    ismcts iterations.  repeats searches per position (2..16) measure the
    noise; threads review positions at once (the result is the same on any
    count).  progress(done, total), if given, is called after each
    position, from the review's threads; returning False cancels the
    review (GateauError "review: cancelled").  The GIL is released while
    the searches run."""
    record = _record_of(record)
    options = _Options()
    lib.gateau_review_options_default(ctypes.byref(options))
    if seat is not None:
        options.seat = integer(seat, "seat")
        if not 0 <= options.seat < record.game.num_players:
            raise GateauError("review: there is no seat %d in a %d-player game (seats are 0 to %d)"
                              % (options.seat, record.game.num_players,
                                 record.game.num_players - 1))
    if iterations is not None and ms is not None:
        raise GateauError("review: give iterations or ms, not both")
    for name, value in (("iterations", iterations), ("ms", ms)):
        if value is not None:
            value = integer(value, name)
            if value < 1:
                raise GateauError("review: %s must be 1 or more, not %d" % (name, value))
            setattr(options, name, value)
    options.repeats = integer(repeats, "repeats")
    options.threads = integer(threads, "threads")
    options.seed = seed_value(seed)
    cancel = ctypes.c_bool(False)
    options.cancel = ctypes.pointer(cancel)
    lock = threading.Lock()

    def report(context, done, total):
        with lock:
            try:
                if progress(done, total) is False:
                    cancel.value = True
            except BaseException:  # an exception cannot cross C: it cancels
                cancel.value = True
                raise

    callback = _PROGRESS(report) if progress is not None else _PROGRESS()
    options.progress = callback
    error = C.error_buffer()
    with record._lock:
        pointer = lib.gateau_review_record(record._record, ctypes.byref(options), error,
                                           len(error))
    if not pointer:
        raise GateauError(_text(error.value))
    try:
        return Review(C.take_string(lib.gateau_review_json(pointer)))
    finally:
        lib.gateau_review_free(pointer)

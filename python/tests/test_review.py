"""gateau.review: the numbers of `gateau review --json`, plain data that
copies, pickles and crosses threads, progress and cancellation, errors."""

import concurrent.futures
import copy
import json
import pickle

import pytest

import gateau


@pytest.fixture(scope="module")
def record_text(command):
    return command("random", "mice-cake", "--players", "2", "--seed", "6")


def test_same_numbers_as_the_command(command, record_text, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(record_text)
    printed = json.loads(command("review", path, "--iters", "100", "--seed", "3", "--json"))
    review = gateau.review(gateau.Record.from_text(record_text), iterations=100, seed=3)
    assert json.loads(review.json) == printed
    assert len(review.moves) == len(printed["moves"])
    for move, line in zip(review.moves, printed["moves"]):
        assert move.index == line["number"] - 1 and move.seat == line["seat"] - 1
        assert (move.move, move.best, move.verdict) == (line["move"], line["best"], line["class"])
        assert (move.win_played, move.loss, move.noise) == (line["win_played"], line["loss"],
                                                            line["noise"])
        assert (move.score_loss, move.sure_score_loss, move.by_score, move.judged_loss) == (
            line["score_loss"], line["sure_score_loss"], line["by_score"], line["judged_loss"])
        # The verdict reads the judged loss: the win chance's, or where it
        # is saturated possibly the score's worth, never less.
        assert move.judged_loss >= move.sure_loss
        assert move.by_score or move.judged_loss == move.sure_loss
    assert review.saturated == printed["saturated"]
    assert review.score_thresholds == printed["score_thresholds"]
    assert review.score_thresholds["mistake"] > review.score_thresholds["inaccuracy"] > 0
    for seat, summary in zip(review.seats, printed["seats"]):
        assert seat.accuracy == summary["accuracy"] and seat.mistake == summary["mistake"]


def test_plain_data_across_copies_pickles_and_threads(record_text):
    review = gateau.review(record_text, iterations=60, seat=1)
    assert {move.seat for move in review.moves} == {1}
    assert [seat.seat for seat in review.seats] == [1]
    assert copy.copy(review) == review and copy.deepcopy(review) == review
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(review, protocol)) == review
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda threads: gateau.review(record_text, iterations=60, seat=1,
                                                             threads=threads), [1, 2, 2, 1]))
    assert all(result == review for result in results)


def test_progress_and_cancel(record_text):
    seen = []
    review = gateau.review(record_text, iterations=40, threads=2, progress=lambda done, total:
                           seen.append((done, total)))
    assert seen == [(done, len(review.moves)) for done in range(1, len(review.moves) + 1)]
    calls = []
    with pytest.raises(gateau.GateauError, match="review: cancelled"):
        gateau.review(record_text, iterations=40, progress=lambda done, total:
                      calls.append(done) or False)
    assert len(calls) == 1


@pytest.mark.parametrize("arguments, message", [
    ({"repeats": 1}, "repeats must be from 2 to 16"),
    ({"threads": 0}, "threads must be from 1 to 64"),
    ({"seat": 2}, "there is no seat 2"),
    ({"iterations": 10, "ms": 10}, "not both"),
    ({"iterations": 0}, "iterations must be 1 or more"),
])
def test_bad_options_refused(record_text, arguments, message):
    with pytest.raises(gateau.GateauError, match=message):
        gateau.review(record_text, **arguments)


def test_bad_records_refused():
    with pytest.raises(gateau.GateauTypeError):
        gateau.review(42)
    with pytest.raises(gateau.GateauError, match="line 4"):
        gateau.review("game: mice-cake\nplayers: 2\n---\nnonsense\n")
    with pytest.raises(gateau.GateauError, match="no seat's move to review"):
        gateau.review("game: mice-cake\nplayers: 2\n---\n")

"""Batches: the same games as single states, outputs in place, errors."""

import numpy as np
import pytest

import gateau
from conftest import CASES


@pytest.mark.parametrize("name,players", CASES)
def test_a_batch_plays_the_games_single_states_play(name, players):
    game = gateau.load(name, players)
    batch = gateau.Batch(game, 3, seed=21)
    singles = [game.new_initial_state() for _ in range(3)]
    chance = [gateau.Rng(21, stream=i) for i in range(3)]
    chooser = np.random.default_rng(0)
    finished = 0
    observations = batch.observations  # the same array throughout: written in place
    for _ in range(4000):
        for i, state in enumerate(singles):
            while state.is_chance():
                state.apply(state.sample_chance(chance[i]))
            seat = state.current_player()
            assert batch.seats[i] == seat
            assert np.array_equal(batch.observations[i], state.observation(seat))
            assert np.array_equal(batch.masks[i], state.legal_mask(seat))
            assert list(batch.legal_actions[i, :batch.legal_counts[i]]) == \
                state.legal_actions(seat)
        actions = batch.random_actions(chooser)
        batch.step(actions)
        assert batch.observations is observations
        for i in range(3):
            singles[i].apply(int(actions[i]), singles[i].current_player())
            while singles[i].is_chance():
                singles[i].apply(singles[i].sample_chance(chance[i]))
            assert batch.done[i] == singles[i].is_terminal()
            if batch.done[i]:
                assert list(batch.rewards[i]) == singles[i].scores()
                assert [s for s in range(players) if batch.winners[i] >> s & 1] == \
                    singles[i].winners()
                singles[i] = game.new_initial_state()
                finished += 1
            else:
                assert not batch.rewards[i].any()
        if finished >= 3:
            break
    assert finished >= 3 and batch.games_finished == finished


def test_a_batch_without_observations_or_masks():
    batch = gateau.Batch("maries-table", 64, players=3, observations=False, masks=False)
    rng = np.random.default_rng(1)
    for _ in range(500):
        batch.step(batch.random_actions(rng))
    assert batch.observations is None and batch.games_finished > 0


def test_bad_batch_input():
    with pytest.raises(gateau.GateauError, match="a batch holds 1 to 1048576 games, not 0"):
        gateau.Batch("mice-cake", 0)
    batch = gateau.Batch("mice-cake", 2)
    with pytest.raises(gateau.GateauError, match="2 actions expected"):
        batch.step([1, 2, 3])
    legal = batch.legal_actions[:, 0].copy()
    legal[1] = 999
    with pytest.raises(gateau.GateauError, match="game 1: action 999 is not a legal action"):
        batch.step(legal)
    with pytest.raises(gateau.GateauError, match="there is no game 5"):
        batch.state(5)


class _FixedDraws:
    """A stand-in for a numpy Generator whose draws are all u."""

    def __init__(self, u):
        self.u = u

    def random(self, size, dtype=np.float64):
        return np.full(size, self.u, dtype)


@pytest.mark.parametrize("name,players", CASES)
def test_random_actions_reach_the_first_and_last_legal_action(name, players):
    batch = gateau.Batch(name, 16, players=players, seed=5, observations=False, masks=False)
    rng = np.random.default_rng(3)
    for _ in range(20):
        batch.step(batch.random_actions(rng))
    rows = range(batch.count)
    first = [batch.legal_actions[i, 0] for i in rows]
    last = [batch.legal_actions[i, batch.legal_counts[i] - 1] for i in rows]
    below_one = np.nextafter(np.float32(1), np.float32(0))  # the largest draw there is
    assert list(batch.random_actions(_FixedDraws(0.0))) == first
    assert list(batch.random_actions(_FixedDraws(below_one))) == last
    assert batch.random_actions(rng).dtype == np.int32


def test_random_actions_pick_every_legal_action():
    batch = gateau.Batch("piece-o-cake", 1, players=4, seed=2, observations=False, masks=False)
    rng = np.random.default_rng(4)
    while batch.legal_counts[0] < 3:
        batch.step(batch.random_actions(rng))
    legal = set(batch.legal_actions[0, :batch.legal_counts[0]])
    picked = {int(batch.random_actions(rng)[0]) for _ in range(50 * len(legal))}
    assert picked == legal


def test_step_takes_any_integer_sequence_and_refuses_other_numbers():
    batch = gateau.Batch("maries-table", 2, players=3, seed=1, observations=False, masks=False)
    batch.step([int(a) for a in batch.legal_actions[:, 0]])
    batch.step(batch.legal_actions[:, 0].astype(np.int64))
    batch.step(batch.legal_actions[:, 0].astype(np.uint8))
    with pytest.raises(gateau.GateauError, match="not 32-bit integers"):
        batch.step(batch.legal_actions[:, 0].astype(np.float64))
    wrapped = batch.legal_actions[:, 0].astype(np.int64) + 2**32  # the same low 32 bits
    with pytest.raises(gateau.GateauError, match="not 32-bit integers"):
        batch.step(wrapped)
    with pytest.raises(gateau.GateauError, match="2 actions expected"):
        batch.step(np.int32(1))

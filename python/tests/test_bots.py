"""Bots answer whole moves; arenas from Python give the command's report."""

import json
import os
import tempfile

import pytest

import gateau


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iters=200"])
def test_bots_play_whole_moves_to_the_end(spec):
    game = gateau.load("maries-table", 3)
    bot = gateau.Bot(spec, seed=4)
    rng = gateau.Rng(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        before = state.clone()
        move = bot.play(state, seat)
        assert move.text and before.move_text(move.actions, seat) == move.text
        assert move.seat == seat
        assert not state.in_move()
    assert state.winners()


def test_a_bot_cannot_move_for_a_seat_that_does_not_act():
    state = gateau.load("mice-cake").new_initial_state()
    with pytest.raises(gateau.GateauError, match="cannot start a move"):
        gateau.Bot("random").choose(state, 0)  # chance deals first


def test_arena_gives_the_numbers_of_the_command(command):
    seats = ["heuristic", "random", "random"]
    report = gateau.arena("maries-table", seats, games=30, seed=7, threads=2)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "report.json")
        command("arena", "maries-table", "--players", 3, "--seats", ",".join(seats),
                "--games", 30, "--seed", 7, "--threads", 1, "--json", path)
        with open(path) as file:
            written = file.read()
    assert report["json"] == written  # byte for byte, whatever the threads
    assert report["games"] == 30 and json.loads(written)["bots"] == report["bots"]


def test_arena_refuses_bad_line_ups():
    with pytest.raises(gateau.GateauError, match="2 bots for a 3-player game"):
        gateau.arena(gateau.load("maries-table", 3), ["random", "random"], games=2)
    with pytest.raises(gateau.GateauError, match="unknown bot"):
        gateau.arena("mice-cake", ["random", "wizard"], games=2)

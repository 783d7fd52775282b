#!/usr/bin/python3
"""Random play from Python against the C API, in one run.

    /usr/bin/python3 bench/bench_python.py [--seconds S] [--games maries-table:3,...]
                                            [--batch N]

For each game: the seats' actions per second (chance played, not counted)
of a uniformly random policy
  - C API: bench/bench_random_play.c (legal actions, pick, apply), and the
    same writing the observation and mask at every action, as a batch does;
  - Python, one step at a time: State.legal_actions(), random.choice,
    State.apply() (chance with State.sample_chance);
  - Python, batch API: gateau.Batch of N games, the random action picked
    with numpy from the legal actions, with observations and masks, and
    without them.
Run from the source tree after a Release build (build/), or set
GATEAU_LIBRARY and GATEAU_BENCH_RANDOM_PLAY.
"""

import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import numpy as np  # noqa: E402

import gateau  # noqa: E402


def c_rate(name, players, seconds, observe):
    program = os.environ.get("GATEAU_BENCH_RANDOM_PLAY",
                             os.path.join(HERE, "..", "build", "gateau_bench_random_play"))
    arguments = [program, name, str(players), str(seconds)] + (["observe"] if observe else [])
    output = subprocess.run(arguments, capture_output=True, text=True, check=True).stdout
    return float(output.split()[1])


def python_step_rate(name, players, seconds):
    game = gateau.load(name, players)
    chooser = random.Random(1)
    rng = gateau.Rng(1)
    actions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng), gateau.CHANCE)
            else:
                state.apply(chooser.choice(state.legal_actions()))
                actions += 1
    return actions / (time.perf_counter() - start)


def batch_rate(name, players, seconds, count, observations):
    batch = gateau.Batch(name, count, seed=1, players=players, observations=observations,
                         masks=observations)
    rng = np.random.default_rng(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        batch.step(batch.random_actions(rng))
        steps += 1
    return steps * count / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="piece-o-cake:4,maries-table:3,mice-cake:2,"
                                           "cake-master:4")
    parser.add_argument("--batch", type=int, default=1024)
    options = parser.parse_args()
    print("seat actions per second, random play, %.1f s each, batch of %d"
          % (options.seconds, options.batch))
    header = ("game", "C API", "C + obs", "Py step", "batch", "batch+obs", "batch/C",
              "batch+obs/C+obs")
    print("%-16s %11s %11s %9s %11s %11s %8s %8s" % header)
    for item in options.games.split(","):
        name, players = item.split(":")
        players = int(players)
        c_plain = c_rate(name, players, options.seconds, False)
        c_observe = c_rate(name, players, options.seconds, True)
        single = python_step_rate(name, players, options.seconds)
        plain = batch_rate(name, players, options.seconds, options.batch, False)
        observed = batch_rate(name, players, options.seconds, options.batch, True)
        print("%-16s %11.0f %11.0f %9.0f %11.0f %11.0f %7.0f%% %7.0f%%"
              % ("%s/%d" % (name, players), c_plain, c_observe, single, plain, observed,
                 100 * plain / c_plain, 100 * observed / c_observe))


if __name__ == "__main__":
    main()

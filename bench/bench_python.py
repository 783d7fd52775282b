#!/usr/bin/python3
"""Random play from Python against the C API, in one run.

    /usr/bin/python3 bench/bench_python.py [--seconds S] [--games maries-table:3,...]
                                            [--batch N] [--repeat N] [--wall]

For each game: the seats' actions per second (chance played, not counted)
of a uniformly random policy
  - C API: bench/bench_random_play.c (legal actions, pick, apply), and the
    same writing the observation and mask at every action, as a batch does;
  - Python, one step at a time: State.legal_actions(), random.choice,
    State.apply() (chance with State.sample_chance);
  - Python, batch API: gateau.Batch of N games, the random action picked
    with numpy from the legal actions, with observations and masks, and
    without them.
Rates are per second of the process's CPU time: on a machine shared with
other jobs the wall clock also counts the time a process waited for a core,
which changed the C column by a factor of two from one run to the next
(--wall: per second of wall time instead).  With --repeat N every figure is
measured N times, the C loop and the batch one after the other each time,
and the table shows medians (the ratios: the median of the N ratios).
Run from the source tree after a Release build (build/), or set
GATEAU_LIBRARY and GATEAU_BENCH_RANDOM_PLAY.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import numpy as np  # noqa: E402

import gateau  # noqa: E402


# The clock rates are counted in: time.process_time (CPU) or, with --wall,
# time.perf_counter.  Loops run for `seconds` of wall time either way.
CLOCK = time.process_time


def c_rate(name, players, seconds, observe):
    program = os.environ.get("GATEAU_BENCH_RANDOM_PLAY",
                             os.path.join(HERE, "..", "build", "gateau_bench_random_play"))
    arguments = [program, name, str(players), str(seconds)] + (["observe"] if observe else [])
    output = subprocess.run(arguments, capture_output=True, text=True, check=True).stdout
    rates = dict(line.split() for line in output.splitlines())
    key = "actions_per_second" if CLOCK is time.perf_counter else "cpu_actions_per_second"
    return float(rates[key])


def python_step_rate(name, players, seconds):
    game = gateau.load(name, players)
    chooser = random.Random(1)
    rng = gateau.Rng(1)
    actions, start, clock_start = 0, time.perf_counter(), CLOCK()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng), gateau.CHANCE)
            else:
                state.apply(chooser.choice(state.legal_actions()), state.current_player())
                actions += 1
    return actions / (CLOCK() - clock_start)


def batch_rate(name, players, seconds, count, observations):
    batch = gateau.Batch(name, count, seed=1, players=players, observations=observations,
                         masks=observations)
    rng = np.random.default_rng(1)
    steps, start, clock_start = 0, time.perf_counter(), CLOCK()
    while time.perf_counter() - start < seconds:
        batch.step(batch.random_actions(rng))
        steps += 1
    return steps * count / (CLOCK() - clock_start)


def measure(name, players, options):
    """The five rates and two ratios of one game: medians of options.repeat
    rounds, each measuring the C loop right before the batch it is
    compared with."""
    rounds = []
    for _ in range(options.repeat):
        c_plain = c_rate(name, players, options.seconds, False)
        plain = batch_rate(name, players, options.seconds, options.batch, False)
        c_observe = c_rate(name, players, options.seconds, True)
        observed = batch_rate(name, players, options.seconds, options.batch, True)
        single = python_step_rate(name, players, options.seconds)
        rounds.append((c_plain, c_observe, single, plain, observed, plain / c_plain,
                       observed / c_observe))
    return [statistics.median(column) for column in zip(*rounds)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="piece-o-cake:4,maries-table:3,mice-cake:2,"
                                           "cake-master:4")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--wall", action="store_true", help="rates per second of wall time")
    options = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if options.wall else time.process_time
    print("seat actions per %s second, random play, %.1f s each, batch of %d%s"
          % ("wall" if options.wall else "CPU", options.seconds, options.batch,
             ", medians of %d" % options.repeat if options.repeat > 1 else ""))
    header = ("game", "C API", "C + obs", "Py step", "batch", "batch+obs", "batch/C",
              "batch+obs/C+obs")
    print("%-16s %11s %11s %9s %11s %11s %8s %8s" % header)
    for item in options.games.split(","):
        name, players = item.split(":")
        players = int(players)
        c_plain, c_observe, single, plain, observed, ratio, observed_ratio = \
            measure(name, players, options)
        print("%-16s %11.0f %11.0f %9.0f %11.0f %11.0f %7.0f%% %7.0f%%"
              % ("%s/%d" % (name, players), c_plain, c_observe, single, plain, observed,
                 100 * ratio, 100 * observed_ratio), flush=True)


if __name__ == "__main__":
    main()

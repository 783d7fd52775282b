#!/usr/bin/python3
"""The time to review a whole game, and the search's noise, per game.

    nice -n 10 /usr/bin/python3 bench/bench_review.py [--games N] [--threads 1,2]
                                                      [--iters N] [--seats SPEC]

For each game (at the player count below): N games played by bots
(`gateau arena --records`, seats SPEC, default ismcts:iters=1000), then
`gateau review RECORD --json` on each at the default budget (or --iters),
once per thread count.  Reports per game: the moves reviewed, the wall and
CPU seconds of a whole game's review (median over the games), and the
noise (the standard deviation of a move's loss between the repeated
searches, in points of win chance) over every judged move: median, 90th
percentile and largest, and the median and 90th percentile over the
moves that differ from the search's best (the others' loss is often
exactly 0 in every repeat), with the verdicts counted.  Run from the source
tree after a Release build (build/), or set GATEAU_BINARY.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("GATEAU_BINARY", os.path.join(HERE, "build", "gateau"))
GAMES = [("piece-o-cake", 3), ("maries-table", 4), ("mice-cake", 2), ("cake-master", 3)]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play(game, players, count, seats, folder):
    subprocess.run([BINARY, "arena", game, "--players", str(players), "--seats",
                    ",".join([seats] * players), "--games", str(count), "--seed", "2026",
                    "--records", folder], check=True, capture_output=True)
    return sorted(os.path.join(folder, name) for name in os.listdir(folder))


def review(path, threads, iterations):
    arguments = [BINARY, "review", path, "--json", "--threads", str(threads)]
    if iterations:
        arguments += ["--iters", str(iterations)]
    cpu, wall = children_cpu(), time.monotonic()
    output = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
    return json.loads(output), time.monotonic() - wall, children_cpu() - cpu


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--iters", type=int, default=0)
    parser.add_argument("--seats", default="ismcts:iters=1000")
    options = parser.parse_args()
    thread_counts = [int(t) for t in options.threads.split(",")]
    print("budget: %s, %d games a row, seats %s" % (
        "%d iterations" % options.iters if options.iters else "default", options.games,
        options.seats))
    print("%-13s %3s %6s " % ("game", "pl", "moves") +
          " ".join("%9s %8s" % ("wall(%dt)" % t, "cpu(%dt)" % t) for t in thread_counts) +
          "   noise: median  p90    max   (points), not the best: median  p90  "
          "  good/inacc/mistake/blunder/forced")
    for game, players in GAMES:
        with tempfile.TemporaryDirectory() as folder:
            records = play(game, players, options.games, options.seats, folder)
            walls = {t: [] for t in thread_counts}
            cpus = {t: [] for t in thread_counts}
            noises, others, verdicts, moves = [], [], {}, []
            for path in records:
                for threads in thread_counts:
                    data, wall, cpu = review(path, threads, options.iters)
                    walls[threads].append(wall)
                    cpus[threads].append(cpu)
                moves.append(len(data["moves"]))
                for move in data["moves"]:
                    verdicts[move["class"]] = verdicts.get(move["class"], 0) + 1
                    if move["class"] != "forced":
                        noises.append(100 * move["noise"])
                        if move["move"] != move["best"]:
                            others.append(100 * move["noise"])
            print("%-13s %3d %6.0f " % (game, players, statistics.median(moves)) +
                  " ".join("%8.2fs %7.2fs" % (statistics.median(walls[t]), statistics.median(cpus[t]))
                           for t in thread_counts) +
                  "          %5.2f %6.2f %6.2f                       %5.2f %5.2f    %s" % (
                      statistics.median(noises), percentile(noises, 0.9), max(noises),
                      statistics.median(others), percentile(others, 0.9),
                      "/".join(str(verdicts.get(v, 0)) for v in
                               ("good", "inaccuracy", "mistake", "blunder", "forced"))))


if __name__ == "__main__":
    main()

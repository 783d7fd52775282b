#!/usr/bin/python3
"""The final margins behind src/review/score_worth.c: what a unit of final
score is worth in win chance between equal players (docs/review.md, "A seat
out of the running").

    nice -n 10 /usr/bin/python3 bench/review_margins.py [--games 40] [--seats ismcts:iters=1000]
                                                        [--only GAME]

For every game and player count: GAMES games with SEATS at every seat
(`gateau arena --records`, seed 2026), then each seat's final margin over
the best of the others.  Prints their mean and standard deviation, the
density at 0 of a normal law of that mean and spread (the worth of a unit,
in win chance), the thresholds in the game's unit, and for comparison the
share of margins within one unit of 0 over 3 (the density the records show,
rough with integer scores and ties).  Run from the source tree after a
Release build (build/), or set GATEAU_BINARY and GATEAU_LIBRARY.
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("GATEAU_BINARY", os.path.join(HERE, "build", "gateau"))
sys.path.insert(0, os.path.join(HERE, "python"))
import gateau  # noqa: E402  (after the path to the source tree's package)

PLAYER_COUNTS = [("piece-o-cake", [2, 3, 4, 5]), ("maries-table", [3, 4, 5]),
                 ("mice-cake", [2]), ("cake-master", [2, 3, 4, 5, 6])]
THRESHOLDS = (0.03, 0.06, 0.12)  # include/gateau/review.h


def margins(game, players, games, seats):
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([BINARY, "arena", game, "--players", str(players), "--seats",
                        ",".join([seats] * players), "--games", str(games), "--seed", "2026",
                        "--records", folder], check=True, capture_output=True)
        found = []
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name)) as f:
                scores = list(gateau.Record.from_text(f.read()).state.scores())
            for seat in range(players):
                found.append(scores[seat] - max(s for o, s in enumerate(scores) if o != seat))
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seats", default="ismcts:iters=1000")
    parser.add_argument("--only", help="one game's name")
    options = parser.parse_args()
    print("%d games each, seats %s" % (options.games, options.seats))
    print("%-13s %3s %7s %7s %9s   %s   %s" % ("game", "pl", "mean", "sd", "worth(pt)",
                                             "inaccuracy/mistake/blunder (unit)", "near 0"))
    for game, counts in PLAYER_COUNTS:
        if options.only and game != options.only:
            continue
        for players in counts:
            found = margins(game, players, options.games, options.seats)
            mean, deviation = statistics.mean(found), statistics.pstdev(found)
            worth = math.exp(-0.5 * (mean / deviation) ** 2) / (deviation * math.sqrt(2 * math.pi))
            near = sum(1 for m in found if abs(m) <= 1) / len(found) / 3
            print("%-13s %3d %7.2f %7.2f %9.2f   %s   %9.2f" % (
                game, players, mean, deviation, 100 * worth,
                " / ".join("%.2f" % (t / worth) for t in THRESHOLDS), 100 * near))


if __name__ == "__main__":
    main()

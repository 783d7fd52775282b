#!/usr/bin/python3
"""How often a review marks a `random` seat against searching ones, with and
without the score judged where the win chance is saturated (docs/review.md,
"A seat out of the running").

    nice -n 10 /usr/bin/python3 bench/review_random_seat.py GAME PLAYERS [--games 4]
        [--others ismcts:iters=400] [--iters N]

GAMES games (`gateau arena --records`, seed 7, the seats rotating) with one
`random` seat and OTHERS at the rest, each reviewed with `gateau review
--json` (at the default budget, or --iters).  For the random seat and the
others: the judged moves, the moves marked by the win chance alone (the
verdict the sure loss gives; before the score rule) and as reviewed, the
moves whose win chance was saturated, and the median win chance with the
best move.  Run from the source tree after a Release build (build/), or
set GATEAU_BINARY.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("GATEAU_BINARY", os.path.join(HERE, "build", "gateau"))
INACCURACY = 0.03  # include/gateau/review.h


def reviews(game, players, games, others, iterations):
    """[(the random seat from 1, the review)] for each game."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([BINARY, "arena", game, "--players", str(players), "--seats",
                        ",".join(["random"] + [others] * (players - 1)), "--games", str(games),
                        "--seed", "7", "--records", folder], check=True, capture_output=True)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            with open(path) as f:
                names = next(line for line in f if line.startswith("names:"))
            seat = [n.strip() for n in names[len("names:"):].split(",")].index("random") + 1
            arguments = [BINARY, "review", path, "--json"]
            if iterations:
                arguments += ["--iters", str(iterations)]
            output = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
            found.append((seat, json.loads(output)))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--others", default="ismcts:iters=400")
    parser.add_argument("--iters", type=int, default=0)
    options = parser.parse_args()
    counts = {kind: {"judged": 0, "win only": 0, "reviewed": 0, "saturated": 0, "win_best": []}
              for kind in ("random", "others")}
    for seat, review in reviews(options.game, options.players, options.games, options.others,
                                options.iters):
        for move in review["moves"]:
            if move["class"] == "forced":
                continue
            count = counts["random" if move["seat"] == seat else "others"]
            count["judged"] += 1
            marked_by_win = move["move"] != move["best"] and move["sure_loss"] >= INACCURACY
            count["win only"] += marked_by_win
            count["reviewed"] += move["class"] != "good"
            count["saturated"] += move["by_score"]
            count["win_best"].append(move["win_best"])
    print("%s, %d players, %d games, random against %s, review budget %s" % (
        options.game, options.players, options.games, options.others,
        options.iters or "default"))
    for kind, count in counts.items():
        print("  %-6s %3d judged moves, marked %3d by win chance alone, %3d as reviewed; "
              "%3d saturated; win chance with the best move, median %.3f" % (
                  kind, count["judged"], count["win only"], count["reviewed"], count["saturated"],
                  statistics.median(count["win_best"])))


if __name__ == "__main__":
    main()

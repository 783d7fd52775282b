#!/usr/bin/env python3
"""bot_tables.py: the markdown tables of docs/bots.md from bench/bot_tables.sh's
JSON results (gateau arena --json).

    python3 bench/bot_tables.py [RESULTS_DIR]
"""
import glob
import json
import os
import sys

TITLES = {
    "piece-o-cake": "piece o' Cake",
    "maries-table": "Marie's Table",
    "mice-cake": "Mice Cake",
    "cake-master": "Cake Master",
}
ORDER = list(TITLES)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
    rows = []
    for path in glob.glob(os.path.join(folder, "*.json")):
        with open(path) as f:
            data = json.load(f)
        hero = data["seats_listed"][0]
        others = data["seats_listed"][1]
        stats = {b["bot"]: b for b in data["bots"]}
        h = stats[hero]
        o = stats[others]
        rows.append((ORDER.index(data["game"]), data["players"], hero, others, data, h, o))
    rows.sort(key=lambda r: (r[0], r[1], r[2] != "heuristic"))
    print("| game | players | bot (1 seat) | against (N-1 seats) | games | win share | 95% interval "
          "| fair share | mean score | their mean score |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for _, players, hero, others, data, h, o in rows:
        low, high = h["win_interval"]
        print(f"| {TITLES[data['game']]} | {players} | {hero} | {others} | {data['games']} "
              f"| {h['win_share']:.3f} | [{low:.3f}, {high:.3f}] | {1 / players:.3f} "
              f"| {h['score_mean']:.1f} | {o['score_mean']:.1f} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""paired_arena.py: two arenas played at the same seed, compared game by game.

Two runs of `gateau arena ... --seed S --records DIR` with the same seed
play the same deals with the same seating; only the bot under test differs
(`ismcts` in one, `ismcts:infer=1` in the other).  The paired difference of
its win share, game by game, has a much narrower interval than the two
shares taken apart.  Each record's winner is read back with `gateau replay`.

    python3 bench/paired_arena.py GATEAU BASE_DIR BASE_BOT TRIED_DIR TRIED_BOT

Prints the games both runs finished, both win shares and the difference
with 95% intervals (normal approximation), then the same by the seat the
bot sat in.
"""
import math
import os
import re
import subprocess
import sys


def results(gateau, folder, bot):
    """{game number: (bot's seat, bot's win share)} of the finished games."""
    out = {}
    for name in sorted(os.listdir(folder)):
        number = re.fullmatch(r"game-(\d+)\.txt", name)
        if not number:
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as record:
            names = re.search(r"^names: (.*)$", record.read(4000), re.M).group(1).split(", ")
        shown = subprocess.run([gateau, "replay", path], capture_output=True, text=True).stdout
        winners = re.search(r"^Winners?: (.*)$", shown, re.M)
        if "the game is over" not in shown or not winners:
            continue  # cut short when the arena was stopped
        won = winners.group(1).split()  # specs hold no spaces: "Winners: heuristic ismcts"
        out[int(number.group(1))] = (names.index(bot), 1.0 / len(won) if bot in won else 0.0)
    return out


def interval(values):
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1))
    return mean, 1.96 * spread / math.sqrt(len(values))


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: paired_arena.py GATEAU BASE_DIR BASE_BOT TRIED_DIR TRIED_BOT")
    gateau, base_dir, base_bot, tried_dir, tried_bot = sys.argv[1:]
    base = results(gateau, base_dir, base_bot)
    tried = results(gateau, tried_dir, tried_bot)
    games = sorted(set(base) & set(tried))
    if not games:
        sys.exit("no game finished in both runs")
    pairs = [(base[g][0], base[g][1], tried[g][1]) for g in games]
    for label, rows in [("all seats", pairs)] + [
        (f"seat {s + 1}", [p for p in pairs if p[0] == s]) for s in sorted({p[0] for p in pairs})
    ]:
        if len(rows) < 2:
            continue
        b, bh = interval([r[1] for r in rows])
        t, th = interval([r[2] for r in rows])
        d, dh = interval([r[2] - r[1] for r in rows])
        print(f"{label}: {len(rows)} games, {base_bot} {b:.3f} +- {bh:.3f}, "
              f"{tried_bot} {t:.3f} +- {th:.3f}, difference {d:+.3f} +- {dh:.3f} (95%)")


if __name__ == "__main__":
    main()

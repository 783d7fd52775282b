#!/usr/bin/python3
"""level_ratings.py: ratings of the lobby's bot levels, measured (docs/bots.md,
"Levels").

    /usr/bin/python3 bench/level_ratings.py [--gateau build/gateau] [--out DIR]
        [--games G] [--seed S] [--threads T] [--resamples B]
        [--levels NAME=SPEC,...] [GAME:PLAYERS[:GAMES] ...]

For each game and player count, a round robin of the levels: one arena
(`gateau arena --shard 1/1 --part FILE`, seats rotated game by game) for
every way of seating PLAYERS of the levels (every combination when there
are more levels than seats; every level once and the remaining seats
doubled up when there are fewer) in every order round the table (the
rotation keeps each level's neighbours, so (a, b, c) and (a, c, b) are
two arenas: (PLAYERS-1)! of them for distinct levels).  The per-game results are read back
from the part files (the seating follows from the game's number, as
docs/cluster.md says), every pair of seats held by different levels
gives one placing (above, below or a tie: the arena's own rule), and a
Bradley-Terry model is fitted to all of them by Hunter's MM iterations,
with one virtual draw a pair, as `gateau arena` fits its ratings.

Ratings are on the Elo scale (200 points apart: the stronger places above
the weaker about 76% of the time), their mean set to 1500.  The 95%
intervals come from a bootstrap over games (each arena's games resampled
with replacement, B times, the model fitted again each time): games, not
placings, are resampled because the placings of one multi-player game are
not independent of each other.  GAMES, where given, is that game's number
of games per seating instead of --games (more where the levels are close,
as in Mice Cake, whose two-player seatings are cheap).  Beside each
level's rating: how often it placed above the level below where they met,
with a Wilson 95% interval.

The arenas are resumable: a part file already there is continued, not
replayed.  Prints a markdown table; writes OUT/levels.json for the lobby
(web/levels.json is a copy of it).
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys

import numpy

TITLES = {
    "piece-o-cake": "piece o' Cake",
    "maries-table": "Marie's Table",
    "mice-cake": "Mice Cake",
    "cake-master": "Cake Master",
}
DEFAULT_CONFIGURATIONS = ["piece-o-cake:3", "maries-table:4", "mice-cake:2", "cake-master:4"]


def seatings(levels, players):
    """Every way of seating `players` of the levels (indices), each a list,
    in every order round the table (see table_orders).

    >>> seatings(["beginner", "easy", "medium"], 3)
    [[0, 1, 2], [0, 2, 1]]
    >>> seatings(["a", "b"], 3)
    [[0, 1, 0], [0, 1, 1]]
    >>> len(seatings(["a", "b", "c", "d"], 4)), len(seatings(["a", "b", "c", "d"], 2))
    (6, 6)
    """
    count = len(levels)
    if players <= count:
        chosen = [list(c) for c in itertools.combinations(range(count), players)]
    else:
        extra = players - count
        if extra > count:
            raise SystemExit(f"level_ratings: {players} players need at least {players // 2 + 1} levels")
        chosen = [list(range(count)) + list(c) for c in itertools.combinations(range(count), extra)]
    return [order for seating in chosen for order in table_orders(seating)]


def table_orders(seating):
    """The different orders round the table of one seating, the first level
    kept first (the arena's rotation already moves everybody round, so two
    lists that differ only by a rotation play the same games).

    Rotating the seats keeps each level's neighbours: in a list (a, b, c)
    b always sits left of a, whatever the game's number.  In 3-player
    piece o' Cake that one fact decides most games when one seat plays at
    random (docs/bots.md, "Levels"), so a level must meet the others from
    every side: (N-1)! orders, fewer where a level sits twice.

    >>> table_orders([0, 1, 2])
    [[0, 1, 2], [0, 2, 1]]
    >>> table_orders([0, 1, 1])
    [[0, 1, 1]]
    >>> table_orders([0, 1, 0, 1])
    [[0, 1, 0, 1], [0, 1, 1, 0]]
    """
    orders, seen = [], set()
    for rest in itertools.permutations(seating[1:]):
        order = [seating[0], *rest]
        rotations = {tuple(order[i:] + order[:i]) for i in range(len(order))}
        if rotations & seen:
            continue
        seen |= rotations
        orders.append(order)
    return orders


def read_part(path):
    """The games of a part file: (game number, scores, winner seats) each."""
    games = []
    with open(path) as f:
        lines = f.read().splitlines()
    start = lines.index("columns game scores winners moves actions") + 1
    for line in lines[start:]:
        words = line.split(" ")
        number = int(words[0])
        scores = [int(s) for s in words[1].split(",")]
        winners = set() if words[2] == "-" else {int(w) - 1 for w in words[2].split(",")}
        games.append((number, scores, winners))
    games.sort()
    return games


def placed_above(scores, winners, s, t):
    """1 when seat s is placed above seat t, 0.5 for a tie, 0 below (the arena's rule)."""
    s_won, t_won = s in winners, t in winners
    if s_won != t_won:
        return 1.0 if s_won else 0.0
    if s_won or scores[s] == scores[t]:
        return 0.5
    return 1.0 if scores[s] > scores[t] else 0.0


def level_seats(number, seating, players):
    """The level at each seat of game `number` (1-based; the arena's rotation)."""
    level_at_seat = [0] * players
    for listed, level in enumerate(seating):
        level_at_seat[(listed + (number - 1) % players) % players] = level
    return level_at_seat


def win_shares(arenas_games, players, level_count):
    """Each level's win share over the seats it held, as a multiple of the
    fair share 1/players (a k-way shared win counts 1/k).

    >>> win_shares([([0, 1], [(1, [5, 3], {0}), (2, [5, 3], {0, 1})])], 2, 2)
    [1.5, 0.5]
    """
    won, held = [0.0] * level_count, [0] * level_count
    for seating, games in arenas_games:
        for number, _, winners in games:
            for seat, level in enumerate(level_seats(number, seating, players)):
                held[level] += 1
                if seat in winners:
                    won[level] += 1 / len(winners)
    return [players * won[i] / held[i] if held[i] else None for i in range(level_count)]


def game_placings(game, seating, players, level_count):
    """The pairwise table of one game: table[i][j] = placings of level i above j."""
    number, scores, winners = game
    level_at_seat = level_seats(number, seating, players)
    table = numpy.zeros((level_count, level_count))
    for s in range(players):
        for t in range(s + 1, players):
            a, b = level_at_seat[s], level_at_seat[t]
            if a == b:
                continue
            above = placed_above(scores, winners, s, t)
            table[a][b] += above
            table[b][a] += 1 - above
    return table


def bradley_terry(table, prior=1.0):
    """Strengths (geometric mean 1) by Hunter's MM, `prior` virtual draws a pair."""
    count = len(table)
    wins = table + prior / 2 * (1 - numpy.eye(count))
    meetings = wins + wins.T
    strength = numpy.ones(count)
    for _ in range(10000):
        denominator = (meetings / (strength[:, None] + strength[None, :])).sum(axis=1)
        updated = wins.sum(axis=1) / denominator
        updated /= math.exp(numpy.log(updated).mean())
        if numpy.max(numpy.abs(updated - strength) / strength) < 1e-12:
            return updated
        strength = updated
    return strength


def elo(strength):
    return 1500 + 400 * numpy.log10(strength)


def run_arena(options, game, players, games, seat_specs, part):
    command = [options.gateau, "arena", game, "--players", str(players), "--seats", ",".join(seat_specs),
               "--games", str(games), "--threads", str(options.threads), "--seed", str(options.seed),
               "--shard", "1/1", "--part", part]
    print("==", " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def rate(options, levels, game, players, games_per_seating):
    names = [name for name, _ in levels]
    specs = [spec for _, spec in levels]
    arenas = []  # per seating: the games' tables
    arenas_games = []  # per seating: (seating, its games)
    for seating in seatings(levels, players):
        label = "-".join(names[i] for i in seating)
        part = os.path.join(options.out, f"{game}-{players}-{label}.part")
        run_arena(options, game, players, games_per_seating, [specs[i] for i in seating], part)
        games_played = read_part(part)
        tables = [game_placings(g, seating, players, len(levels)) for g in games_played]
        arenas.append(numpy.array(tables))
        arenas_games.append((seating, games_played))
    shares = win_shares(arenas_games, players, len(levels))
    whole = sum(tables.sum(axis=0) for tables in arenas)
    ratings = elo(bradley_terry(whole))
    generator = numpy.random.default_rng(options.seed)
    resampled = []
    for _ in range(options.resamples):
        table = sum(tables[generator.integers(0, len(tables), len(tables))].sum(axis=0) for tables in arenas)
        resampled.append(elo(bradley_terry(table)))
    resampled = numpy.array(resampled)
    low = numpy.percentile(resampled, 2.5, axis=0)
    high = numpy.percentile(resampled, 97.5, axis=0)
    games = sum(len(tables) for tables in arenas)
    result = {"game": game, "players": players, "games": games, "games_per_seating": games_per_seating,
              "levels": []}
    for i, (name, spec) in enumerate(levels):
        entry = {"level": name, "spec": spec, "rating": round(float(ratings[i])),
                 "low": round(float(low[i])), "high": round(float(high[i])),
                 "win_share_of_fair": round(shares[i], 2)}
        if i > 0:
            met = whole[i][i - 1] + whole[i - 1][i]
            entry["above_previous"] = float(whole[i][i - 1] / met) if met else None
            entry["meetings_previous"] = int(round(met))
            if met:
                entry["above_previous_low"], entry["above_previous_high"] = wilson(whole[i][i - 1], met)
        result["levels"].append(entry)
    return result


def wilson(successes, trials, z=1.96):
    """The Wilson 95% interval of a share (ties counted half, as placings are).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return float(centre - half), float(centre + half)


def print_table(results):
    print("| game | players | games | level | bot | rating | 95% interval | placed above the level below "
          "| win share, times fair |")
    print("|---|---|---|---|---|---|---|---|---|")
    for result in results:
        for entry in result["levels"]:
            above = entry.get("above_previous")
            above_text = ""
            if above is not None:
                above_text = (f"{100 * above:.1f}% [{100 * entry['above_previous_low']:.1f}, "
                              f"{100 * entry['above_previous_high']:.1f}] of {entry['meetings_previous']}")
            print(f"| {TITLES[result['game']]} | {result['players']} | {result['games']} | {entry['level']} "
                  f"| `{entry['spec']}` | {entry['rating']} | [{entry['low']}, {entry['high']}] | {above_text} "
                  f"| {entry['win_share_of_fair']:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gateau", default="build/gateau")
    parser.add_argument("--out", default="bench/results/levels")
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--levels", default="random=random,easy=heuristic")
    parser.add_argument("configurations", nargs="*", default=DEFAULT_CONFIGURATIONS)
    options = parser.parse_args()
    levels = [tuple(item.split("=", 1)) for item in options.levels.split(",")]
    if len(levels) < 2 or any(len(level) != 2 or not all(level) for level in levels):
        parser.error("--levels takes NAME=SPEC,NAME=SPEC,...")
    os.makedirs(options.out, exist_ok=True)
    results = []
    for configuration in options.configurations:
        game, _, rest = configuration.partition(":")
        players, _, games = rest.partition(":")
        if game not in TITLES or not players.isdigit() or not (games == "" or games.isdigit()):
            parser.error(f"'{configuration}' is not GAME:PLAYERS or GAME:PLAYERS:GAMES")
        results.append(rate(options, levels, game, int(players), int(games) if games else options.games))
    print_table(results)
    with open(os.path.join(options.out, "levels.json"), "w") as f:
        json.dump({"seed": options.seed, "games_per_seating": options.games, "ratings": results}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

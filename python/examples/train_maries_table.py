#!/usr/bin/python3
"""A linear policy that learns to beat random players at Marie's Table.

    /usr/bin/python3 python/examples/train_maries_table.py [--minutes 3] [--svg FILE]

Seat 1 is the learner, seats 2 and 3 play uniformly random actions.  The
policy is a softmax over the legal actions of a linear function of the
seat's observation (numpy only), trained by REINFORCE: after each game,
every action the learner took is made more likely if the game was won
(reward 1, shared wins included) and less likely if lost, against a
running baseline.  Games are played 256 at a time by gateau.Batch, so the
engine's speed, not Python's, sets the pace.  The learning curve (win
rate of the learner against games played) is written as an SVG drawn by
hand, and the final policy is checked against random in fresh games.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import numpy as np  # noqa: E402

import gateau  # noqa: E402

LEARNER = 0


class LinearPolicy:
    def __init__(self, observation_size, action_count, rng):
        self.weights = np.zeros((action_count, observation_size), np.float32)
        self.bias = np.zeros(action_count, np.float32)
        self.rng = rng

    def probabilities(self, observations, masks):
        logits = observations @ self.weights.T + self.bias
        logits = np.where(masks.astype(bool), logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)

    def sample(self, observations, masks):
        probabilities = self.probabilities(observations, masks)
        cumulative = probabilities.cumsum(axis=1)
        draws = self.rng.random((len(observations), 1))
        actions = (cumulative < draws).sum(axis=1)
        return np.minimum(actions, probabilities.shape[1] - 1), probabilities

    def update(self, observations, actions, probabilities, advantages, rate):
        gradient = -probabilities
        gradient[np.arange(len(actions)), actions] += 1.0
        gradient *= advantages[:, None]
        self.weights += rate * (gradient.T @ observations) / len(actions)
        self.bias += rate * gradient.mean(axis=0)


def train(minutes, games_per_batch=256, rate=0.5, seed=1):
    game = gateau.load("maries-table", players=3)
    batch = gateau.Batch(game, games_per_batch, seed=seed)
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(game.observation_size, game.action_space_size, rng)
    episodes = [[] for _ in range(games_per_batch)]  # the learner's (obs, action, probs)
    pending = []  # finished games' steps and results, for the next update
    baseline, curve, wins, played = 1 / 3, [], [], 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        actions = batch.random_actions(rng)
        learner = np.flatnonzero(batch.seats == LEARNER)
        if len(learner):
            chosen, probabilities = policy.sample(batch.observations[learner],
                                                  batch.masks[learner])
            actions[learner] = chosen
            for row, index in enumerate(learner):
                episodes[index].append((batch.observations[index].copy(), chosen[row],
                                        probabilities[row]))
        batch.step(actions)
        for index in np.flatnonzero(batch.done):
            won = float(batch.winners[index] >> LEARNER & 1)
            wins.append(won)
            played += 1
            pending.append((episodes[index], won))
            episodes[index] = []
        if len(pending) >= games_per_batch:
            steps = [(step, won) for episode, won in pending for step in episode]
            observations = np.array([step[0] for step, _ in steps])
            chosen = np.array([step[1] for step, _ in steps])
            probabilities = np.array([step[2] for step, _ in steps])
            results = np.array([won for _, won in steps], np.float32)
            policy.update(observations, chosen, probabilities, results - baseline, rate)
            baseline = 0.9 * baseline + 0.1 * np.mean([won for _, won in pending])
            curve.append((played, float(np.mean(wins[-2000:]))))
            pending = []
    return game, policy, curve


def evaluate(game, policy, games=4000, seed=99):
    """The learner's win share over fresh games, greedy, against random."""
    batch = gateau.Batch(game, 500, seed=seed)
    rng = np.random.default_rng(seed)
    wins = finished = 0
    while finished < games:
        actions = batch.random_actions(rng)
        learner = np.flatnonzero(batch.seats == LEARNER)
        if len(learner):
            probabilities = policy.probabilities(batch.observations[learner],
                                                 batch.masks[learner])
            actions[learner] = probabilities.argmax(axis=1)
        batch.step(actions)
        done = np.flatnonzero(batch.done)
        wins += int(sum(batch.winners[done] >> LEARNER & 1))
        finished += len(done)
    return wins / finished


def write_svg(path, curve, final):
    """The learning curve as a small SVG line chart (no plotting library)."""
    width, height, margin = 640, 360, 50
    most = max(games for games, _ in curve)
    x = lambda games: margin + (width - 2 * margin) * games / most  # noqa: E731
    y = lambda share: height - margin - (height - 2 * margin) * share  # noqa: E731
    points = " ".join("%.1f,%.1f" % (x(g), y(s)) for g, s in curve)
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (width, height),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="24" font-size="15">Marie\'s Table, 3 players: a linear policy '
             '(seat 1) against two random players</text>' % margin]
    for share in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        lines.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                     % (margin, width - margin, y(share), y(share)))
        lines.append('<text x="%d" y="%.1f" text-anchor="end">%d%%</text>'
                     % (margin - 6, y(share) + 4, share * 100))
    lines.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#999" '
                 'stroke-dasharray="4 4"/>' % (margin, width - margin, y(1 / 3), y(1 / 3)))
    lines.append('<text x="%d" y="%.1f" fill="#777">a random player: 1/3</text>'
                 % (width - margin - 130, y(1 / 3) - 6))
    lines.append('<polyline fill="none" stroke="#c0392b" stroke-width="2" points="%s"/>'
                 % points)
    lines.append('<text x="%d" y="%d" text-anchor="middle">games played (win share over '
                 'the last 2000); greedy policy afterwards: %.0f%%</text>'
                 % (width / 2, height - 12, final * 100))
    for games in np.linspace(0, most, 5):
        lines.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                     % (x(games), height - margin + 16, games))
    lines.append("</svg>")
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--svg", default="maries_table_learning.svg")
    options = parser.parse_args()
    game, policy, curve = train(options.minutes)
    final = evaluate(game, policy)
    print("games played: %d; win share while learning, last 2000: %.1f%%; greedy policy "
          "against random: %.1f%% (random: 33%%)" % (curve[-1][0], 100 * curve[-1][1],
                                                     100 * final))
    write_svg(options.svg, curve, final)
    print("learning curve: %s" % options.svg)


if __name__ == "__main__":
    main()

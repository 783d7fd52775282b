"""Tasks for the spawn pool of test_copies.py: a module of its own, which a
spawned interpreter imports by name (it receives the arguments pickled)."""

import os

import gateau


def play_out(arguments):
    """Plays a received state to its end with a received bot; returns the
    record, the bot's generator and the process that did it."""
    state, bot, rng = arguments
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            bot.play(state)
    return state.to_record().text(), bot.rng.words, os.getpid()


def step_batch(arguments):
    """Steps a received batch with the given actions; returns its states' views."""
    batch, steps = arguments
    for actions in steps:
        batch.step(actions)
    return [batch.state(i).view() for i in range(batch.count)], batch.games_finished


def game_name(game):
    return repr(game), isinstance(game, gateau.Game)

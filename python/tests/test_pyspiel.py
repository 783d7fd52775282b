"""gateau.pyspiel: OpenSpiel's own example loop and a CFR-style tree walk
run with only the import changed; pyspiel's names, player ids and
argument orders."""

import random

import numpy as np
import pytest

import gateau
import gateau.pyspiel as pyspiel


def example_main(game_string):
    """The body of OpenSpiel's open_spiel/python/examples/example.py (main),
    line for line but for absl's flags (game_string is its --game_string)
    and the game its first assert looks for."""
    games_list = pyspiel.registered_names()
    assert "mice-cake" in games_list
    print("Registered names:")
    print(games_list)

    action_string = None

    print("Creating game: " + game_string)
    game = pyspiel.load_game(game_string)

    # Create the initial state
    state = game.new_initial_state()

    # Print the initial state
    print(str(state))

    while not state.is_terminal():
        # The state can be three different types: chance node,
        # simultaneous node, or decision node
        if state.is_chance_node():
            # Chance node: sample an outcome
            outcomes = state.chance_outcomes()
            num_actions = len(outcomes)
            print("Chance node, got " + str(num_actions) + " outcomes")
            action_list, prob_list = zip(*outcomes)
            action = np.random.choice(action_list, p=prob_list)
            print("Sampled outcome: ",
                  state.action_to_string(state.current_player(), action))
            state.apply_action(action)

        elif state.is_simultaneous_node():
            # Simultaneous node: sample actions for all players.
            random_choice = lambda a: np.random.choice(a) if a else [0]  # noqa: E731
            chosen_actions = [
                random_choice(state.legal_actions(pid))
                for pid in range(game.num_players())
            ]
            print("Chosen actions: ", [
                state.action_to_string(pid, action)
                for pid, action in enumerate(chosen_actions)
            ])
            state.apply_actions(chosen_actions)

        else:
            # Decision node: sample action for the single current player
            action = random.choice(state.legal_actions(state.current_player()))
            action_string = state.action_to_string(state.current_player(), action)
            print("Player ", state.current_player(), ", randomly sampled action: ",
                  action_string)
            state.apply_action(action)

        print(str(state))

    # Game is now done. Print utilities for each player
    returns = state.returns()
    for pid in range(game.num_players()):
        print("Utility for player {} is {}".format(pid, returns[pid]))
    return state


@pytest.mark.parametrize("game_string", ["mice_cake", "maries_table", "maries_table(players=5)",
                                         "cake_master(players=3)", "piece_o_cake(players=2)"])
def test_openspiels_example_runs_with_only_the_import_changed(game_string, capsys):
    np.random.seed(1)
    random.seed(1)
    state = example_main(game_string)
    out = capsys.readouterr().out
    assert "Chance node, got" in out and "randomly sampled action" in out
    if game_string.startswith("maries"):
        assert "Chosen actions" in out  # its votes are simultaneous nodes
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9 and max(returns) > 0
    assert [r > 0 or len(state.gateau.winners()) == len(returns) for r in returns]
    winners = state.gateau.winners()
    assert [seat for seat, r in enumerate(returns) if r > -1] == winners
    # The history is every action, chance included: it replays the game.
    again = pyspiel.load_game(game_string).new_initial_state()
    for player, action in state.full_history():
        if again.is_simultaneous_node():
            again.gateau.apply(action, player)  # one by one, each for its player
        else:
            assert again.current_player() in (player, pyspiel.CHANCE)
            again.apply_action(action)
    assert again.returns() == returns and again.history() == state.history()


def test_player_ids_are_pyspiels():
    assert (pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS, pyspiel.PlayerId.INVALID,
            pyspiel.PlayerId.TERMINAL) == (-1, -2, -3, -4)
    assert (pyspiel.CHANCE, pyspiel.SIMULTANEOUS, pyspiel.INVALID, pyspiel.TERMINAL) == \
        (-1, -2, -3, -4)


def test_games_are_described_as_pyspiel_describes_them():
    game = pyspiel.load_game("maries_table", {"players": 4})
    assert game.num_players() == 4 and game.num_distinct_actions() == 61
    kind = game.get_type()
    assert kind.short_name == "maries-table"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.min_utility() == -1 and game.max_utility() == 3 and game.utility_sum() == 0
    assert game.information_state_tensor_shape() == [game.observation_tensor_size()]
    assert str(game) == "maries-table(players=4)"
    assert str(pyspiel.load_game("piece-o-cake(players=3,rounds=2)")) == \
        "piece-o-cake(players=3,rounds=2)"
    assert pyspiel.load_game("mice-cake") == pyspiel.load_game("mice_cake()")
    assert [t.short_name for t in pyspiel.registered_games()] == pyspiel.registered_names()
    with pytest.raises(gateau.GateauError, match="unknown game 'tic-tac-toe'"):
        pyspiel.load_game("tic_tac_toe")
    with pytest.raises(gateau.GateauError, match="is not key=value"):
        pyspiel.load_game("mice_cake(2)")


def test_states_answer_as_pyspiel_states_do():
    game = pyspiel.load_game("piece_o_cake(players=3)")
    state = game.new_initial_state()
    assert state.is_initial_state() and state.is_chance_node()
    assert state.current_player() == pyspiel.CHANCE
    outcome = state.legal_actions()[0]
    assert state.legal_actions(pyspiel.CHANCE) == [a for a, _ in state.chance_outcomes()]
    assert state.action_to_string(pyspiel.CHANCE, outcome)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    action = state.legal_actions()[0]
    # (player, action), pyspiel's order; action_to_string(action) for the current player
    assert state.action_to_string(player, action) == state.action_to_string(action)
    assert state.string_to_action(player, state.action_to_string(player, action)) == action
    with pytest.raises(gateau.GateauError, match="outside the game's actions"):
        state.action_to_string(player, 999)
    assert state.legal_actions_mask(player)[action] == 1
    history = state.history()
    child = state.child(action)
    assert child.history() == history + [action] and state.history() == history
    assert child.full_history()[-1] == pyspiel.PlayerAction(player, action)
    assert child.history_str().endswith(str(action))
    assert state.is_player_node() and not state.is_simultaneous_node()
    # information: perfect recall strings (different for different pasts of
    # what the player saw), the observation tensor
    text = child.information_state_string(player)
    assert "---" in text and text != state.information_state_string(player)
    assert len(child.information_state_tensor(player)) == game.information_state_tensor_size()
    assert child.observation_string(player)
    with pytest.raises(gateau.GateauError, match="no player 3"):
        state.legal_actions(3)
    with pytest.raises(gateau.GateauError, match="chance has no information state"):
        state.information_state_string(pyspiel.CHANCE)


def test_the_end_of_a_game():
    state = pyspiel.load_game("mice_cake").new_initial_state()
    chooser = random.Random(3)
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([chooser.choice(state.legal_actions(p)) if state.legal_actions(p)
                                 else 0 for p in range(2)])
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.TERMINAL
    assert state.legal_actions() == [] and state.legal_actions(0) == []
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.scores() == state.gateau.scores()  # the game's own scores, kept apart
    with pytest.raises(gateau.GateauError, match="the game is over"):
        state.apply_action(0)


def simultaneous_node(players=3, seed=2):
    state = pyspiel.load_game("maries_table(players=%d)" % players).new_initial_state()
    chooser = random.Random(seed)
    while not state.is_simultaneous_node():
        state.apply_action(chooser.choice(state.legal_actions()))
    return state


def test_simultaneous_nodes():
    state = simultaneous_node()
    assert state.current_player() == pyspiel.SIMULTANEOUS
    # legal_actions() there: the flat joint actions (test_trial.py has more)
    assert state.legal_actions() == list(range(np.prod(
        [len(state.legal_actions(p)) for p in range(3) if state.legal_actions(p)])))
    with pytest.raises(gateau.GateauError, match="3 players"):
        state.apply_actions([0])
    choice = [state.legal_actions(p)[0] if state.legal_actions(p) else 0 for p in range(3)]
    bad = list(choice)
    bad[state.gateau.actors()[-1]] = 999
    with pytest.raises(gateau.GateauError):
        state.apply_actions(bad)
    before = state.history()
    state.apply_actions(choice)
    assert len(state.history()) == len(before) + len(
        [p for p in range(3) if choice[p] in simultaneous_node().legal_actions(p)])
    # Multi-action secret moves (Mice Cake) are turns, each seat's hidden.
    mice = pyspiel.load_game("mice_cake").new_initial_state()
    chooser = random.Random(1)
    while not mice.gateau.is_simultaneous() or mice.is_chance_node():
        mice.apply_action(chooser.choice(mice.legal_actions()))
    assert not mice.is_simultaneous_node() and mice.current_player() >= 0


def test_states_serialize_as_their_record():
    game = pyspiel.load_game("maries_table(players=3)")
    state = simultaneous_node()
    again = pyspiel.deserialize_state(game, state.serialize())
    assert again.history() == state.history()
    assert again.information_state_string(2) == state.information_state_string(2)


def test_resampled_states_keep_what_the_player_knows():
    state = simultaneous_node()
    sampled = state.resample_from_infostate(1, 5)
    assert sampled.observation_string(1) == state.observation_string(1)
    # the same information set, with a past of the same length
    # (test_trial.py's test_resample_stays_in_the_information_set: every game)
    assert sampled.information_state_string(1) == state.information_state_string(1)
    assert len(sampled.history()) == len(state.history())


def cfr_walk(state, player_reach, regrets, strategy_sums, depth):
    """One iteration of counterfactual regret minimization's tree walk
    (OpenSpiel's python/algorithms/cfr.py, _compute_counterfactual_regret_
    for_player, for every player at once), cut at depth plies: a cut
    state is worth its returns (0 before the end).  Chance nodes weigh
    their outcomes; simultaneous nodes are walked as their joint actions."""
    if state.is_terminal() or depth == 0:
        return np.array(state.returns())
    if state.is_chance_node():
        value = np.zeros(state.num_players())
        for action, probability in state.chance_outcomes():
            value += probability * cfr_walk(state.child(action), player_reach * 1, regrets,
                                            strategy_sums, depth - 1)
        return value
    if state.is_simultaneous_node():
        players = [p for p in range(state.num_players()) if state.legal_actions(p)]
        first = players[0]
        value = np.zeros(state.num_players())
        actions = state.legal_actions(first)
        for action in actions:  # the first player's actions, the others uniform
            child_value = np.zeros(state.num_players())
            rest = [state.legal_actions(p) for p in players[1:]]
            joint = [[]]
            for options in rest:
                joint = [j + [a] for j in joint for a in options]
            for others in joint:
                child = state.clone()
                chosen = [0] * state.num_players()
                chosen[first] = action
                for p, a in zip(players[1:], others):
                    chosen[p] = a
                child.apply_actions(chosen)
                child_value += cfr_walk(child, player_reach, regrets, strategy_sums,
                                        depth - 1) / len(joint)
            value += child_value / len(actions)
        return value
    player = state.current_player()
    key = state.information_state_string(player)
    actions = state.legal_actions()
    regret = regrets.setdefault(key, np.zeros(len(actions)))
    positive = np.maximum(regret, 0)
    policy = positive / positive.sum() if positive.sum() > 0 else \
        np.full(len(actions), 1 / len(actions))
    values = []
    for probability, action in zip(policy, actions):
        reach = player_reach.copy()
        reach[player] *= probability
        values.append(cfr_walk(state.child(action), reach, regrets, strategy_sums, depth - 1))
    values = np.array(values)
    value = policy @ values
    counterfactual = np.prod(np.delete(player_reach, player))
    regret += counterfactual * (values[:, player] - value[player])
    strategy_sums.setdefault(key, np.zeros(len(actions)))
    strategy_sums[key] += player_reach[player] * policy
    return value


def test_a_cfr_style_tree_walk():
    """CFR's walk, depth-limited, over a position near the end of a Mice
    Cake game (with chance below it) and over Marie's Table's votes (a
    simultaneous node): information-state strings key the regret tables,
    values stay zero-sum, regrets move."""
    game = pyspiel.load_game("mice_cake")
    state = game.new_initial_state()
    chooser = random.Random(4)
    while len(state.history()) < 200 and not state.is_terminal():
        state.apply_action(chooser.choice(state.legal_actions()))
    regrets, sums = {}, {}
    for _ in range(2):
        value = cfr_walk(state, np.ones(2), regrets, sums, depth=3)
        assert abs(value.sum()) < 1e-9
    assert regrets and sums

    votes = simultaneous_node(players=3)
    regrets, sums = {}, {}
    value = cfr_walk(votes, np.ones(3), regrets, sums, depth=2)
    assert abs(value.sum()) < 1e-9 and regrets

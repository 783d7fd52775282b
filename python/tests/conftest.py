"""Shared fixtures: the gateau command of the same build as the library
(GATEAU_BINARY, set by ctest; else the source tree's build/gateau)."""

import os
import subprocess

import pytest

import gateau

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every game at every player count.
CASES = [(info.name, players) for info in gateau.games()
         for players in range(info.min_players, info.max_players + 1)]


@pytest.fixture(scope="session")
def command():
    binary = os.environ.get("GATEAU_BINARY", os.path.join(REPOSITORY, "build", "gateau"))
    if not os.path.exists(binary):
        pytest.skip("the gateau command is not built (%s)" % binary)

    def run(*arguments, stdin=None):
        result = subprocess.run([binary, *map(str, arguments)], input=stdin, text=True,
                                capture_output=True, check=False)
        assert result.returncode == 0, result.stderr
        return result.stdout

    return run

"""The ctypes mirrors of the C structs (gateau/_library.py) against the
library's own layout, as tests/struct_layout.c prints it: a field added or
changed in C without its mirror would otherwise pass wrong memory silently."""

import ctypes
import os
import subprocess

import pytest

from gateau import _library as C
from conftest import REPOSITORY

MIRRORS = {
    "gateau_rng": C.Rng,
    "gateau_option_info": C.OptionInfo,
    "gateau_game_type": C.GameType,
    "gateau_bot_move": C.BotMove,
    "gateau_arena_config": C.ArenaConfig,
    "gateau_batch_outputs": C.BatchOutputs,
}


@pytest.fixture(scope="module")
def layout():
    """{"gateau_arena_config": size, "gateau_arena_config.seed": offset, ...}"""
    program = os.environ.get("GATEAU_STRUCT_LAYOUT",
                             os.path.join(REPOSITORY, "build", "tests", "gateau_struct_layout"))
    if not os.path.exists(program):
        pytest.skip("the struct layout program is not built (%s)" % program)
    output = subprocess.run([program], capture_output=True, text=True, check=True).stdout
    return {name: int(value) for name, value in (line.split() for line in output.splitlines())}


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_a_mirror_has_the_c_struct_size_and_fields(layout, name):
    mirror = MIRRORS[name]
    assert ctypes.sizeof(mirror) == layout[name], \
        "%s: %d bytes in C, %d in the ctypes mirror" % (name, layout[name], ctypes.sizeof(mirror))
    c_fields = {key.split(".", 1)[1]: offset for key, offset in layout.items()
                if key.startswith(name + ".")}
    mirror_fields = {field[0]: getattr(mirror, field[0]).offset for field in mirror._fields_}
    assert mirror_fields == c_fields


def test_every_mirror_is_checked(layout):
    structs = {key for key in layout if "." not in key}
    assert structs == set(MIRRORS)

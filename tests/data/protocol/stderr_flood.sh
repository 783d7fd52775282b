#!/bin/sh
# A bot that writes 2 MB of noise to its standard error, then plays as
# gateau engine (its argument).
yes "noise on the standard error, line after line" | head -c 2000000 >&2
exec "$1" engine --bot heuristic

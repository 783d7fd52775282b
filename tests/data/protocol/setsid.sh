#!/bin/sh
# A bot that starts a grandchild in a session of its own (setsid: it
# leaves the bot's process group), writes the grandchild's process id into
# the file named by its first argument, then plays as gateau engine (the
# second argument) and exits at the end: the grandchild stays behind
# unless gateau finds it.  The file is removed first, so that a bot
# started again (the arena's check, then the game) waits for its own
# grandchild, and written by a rename, so that it never holds half a
# number: a grandchild killed while writing left it empty once.
rm -f "$1"
setsid /bin/sh -c 'echo $$ > "$0.new" && mv "$0.new" "$0"; exec sleep 600' "$1" < /dev/null > /dev/null 2>&1 &
while [ ! -s "$1" ]; do sleep 0.01; done
exec "$2" engine --bot heuristic

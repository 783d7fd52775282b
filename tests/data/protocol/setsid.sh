#!/bin/sh
# A bot that starts a grandchild in a session of its own (setsid: it
# leaves the bot's process group), writes the grandchild's process id into
# the file named by its first argument, then plays as gateau engine (the
# second argument) and exits at the end: the grandchild stays behind
# unless gateau finds it.
setsid /bin/sh -c 'echo $$ > "$0"; exec sleep 600' "$1" < /dev/null > /dev/null 2>&1 &
while [ ! -s "$1" ]; do sleep 0.01; done
exec "$2" engine --bot heuristic

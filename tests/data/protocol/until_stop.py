#!/usr/bin/python3
"""A protocol 2 bot that plays the first legal line and answers its first
go only when told `stop N` (later ones at once).  In Python, whose buffered
reading takes the views in at once, so that its answer to stop depends on
nothing but being scheduled (a shell's read loop takes a byte at a time)."""
import sys

first = None
waiting = None  # the go awaiting its stop
asked = 0
for line in sys.stdin:
    keyword, _, rest = line.rstrip("\n").partition(" ")
    reply = None
    if keyword == "protocol":
        reply = "protocol 2\nname until_stop.py\nready"
    elif keyword == "legalcount":
        first = None
    elif keyword == "legal" and first is None:
        first = rest
    elif keyword == "go":
        number = rest.split()[0]
        asked += 1
        if asked == 1:
            waiting = number
        else:
            reply = "move %s %s" % (number, first)
    elif keyword == "stop" and rest == waiting:
        reply = "move %s %s" % (waiting, first)
        waiting = None
    elif keyword == "quit":
        break
    if reply:
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()

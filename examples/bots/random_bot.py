#!/usr/bin/python3
"""random_bot.py: a bot for gateau's bot protocol (docs/protocol.md), in
Python with the standard library only.

It plays a uniformly random move among the `legal` lines the controller
sends before each `go`, drawing from a generator seeded by the `go` line's
`rng` words, so that a seed fixes its games.  It keeps no state beyond the
current game: everything the seat knows is in the last `view` line.

    gateau play piece-o-cake --seats "human,ext:/usr/bin/python3 examples/bots/random_bot.py"
"""
import json
import random
import sys


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # a pipe is block-buffered: every answer is flushed


def main():
    legal = []
    view = None
    for line in sys.stdin:
        words = line.rstrip("\r\n").split(" ", 1)
        keyword, rest = words[0], words[1] if len(words) > 1 else ""
        if keyword == "protocol":
            send("name random_bot.py")
            send("ready")
        elif keyword == "newgame":
            legal = []
        elif keyword == "view":
            view = json.loads(rest)  # what the seat knows (unused by this bot)
        elif keyword == "legal":
            legal.append(rest)
        elif keyword == "go":
            fields = rest.split()
            seed = 0
            if "rng" in fields:
                at = fields.index("rng")
                seed = int("".join(fields[at + 1:at + 5]), 16)
            if legal:
                send("move " + random.Random(seed).choice(legal))
            else:
                send("error no legal moves were listed")
            legal = []
        elif keyword == "quit":
            break
        # move, hidden, state, end, error and unknown lines: nothing to answer


if __name__ == "__main__":
    main()

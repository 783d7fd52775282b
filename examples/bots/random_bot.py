#!/usr/bin/python3
"""random_bot.py: a bot for gateau's bot protocol (docs/protocol.md), in
Python with the standard library only.

It plays a uniformly random move among the `legal` lines the controller
sends before each `go` (among those shown, when `legalcount` says the list
was cut), drawn from the generator whose state `go` sends in its `rng`
field: xoshiro256**, as gateau's own bots draw.  It sends the state back
after drawing (`rng N ...`), so the next `go` brings new words: without
that, every `go` of the game would bring the same words again, and the bot
would make the same choice at every alike decision.  It keeps no state
beyond the current game: everything the seat knows is in the last `view`.

It speaks protocol 2 and, to a controller that offers only that, 1.

    gateau play piece-o-cake --seats "human,ext:/usr/bin/python3 examples/bots/random_bot.py"
"""
import json
import sys

SPOKEN = 2  # the highest protocol version this bot speaks
MASK = (1 << 64) - 1


def rotate_left(word, bits):
    return ((word << bits) | (word >> (64 - bits))) & MASK


class Xoshiro256:
    """xoshiro256** (Blackman and Vigna, 2018), gateau's generator
    (src/core/rng.c, include/gateau/rng.h): its state is four 64-bit words."""

    def __init__(self, words):
        self.s = list(words)

    def next(self):
        s = self.s
        result = (rotate_left((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotate_left(s[3], 45)
        return result

    def below(self, bound):
        """Uniform in [0, bound), as gateau_rng_below draws it (Lemire's
        multiply and reject: one draw, rarely more)."""
        product = (self.next() >> 32) * bound
        low = product & 0xFFFFFFFF
        if low < bound:
            threshold = ((1 << 32) - bound) % bound
            while low < threshold:
                product = (self.next() >> 32) * bound
                low = product & 0xFFFFFFFF
        return product >> 32

    def words(self):
        return " ".join("%016x" % word for word in self.s)


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # a pipe is block-buffered: every answer is flushed


def handshake(rest, version):
    """protocol V: the controller speaks 1 to V; answer in the highest
    version both speak.  Returns the version spoken from now on."""
    words = rest.split()
    offered = int(words[0]) if words and words[0].isdigit() else 0
    if offered < 1:
        send("error protocol '%s': random_bot.py speaks protocol 1 and %d" % (rest, SPOKEN))
        return version
    version = min(offered, SPOKEN)
    if version >= 2:
        send("protocol %d" % version)  # protocol 1 had no such line
    send("name random_bot.py")
    send("ready")
    return version


def go(fields, version, legal, own):
    """go N move K ms MS left MS rng W1 W2 W3 W4 (protocol 1: go K ms ...):
    one reply, numbered with N in protocol 2."""
    prefix = fields[0] + " " if version >= 2 and fields else ""
    if not legal:
        send("error " + prefix + "no legal moves were listed")
        return
    rng = own
    if "rng" in fields:
        at = fields.index("rng")
        rng = Xoshiro256(int(word, 16) for word in fields[at + 1:at + 5])
    move = legal[rng.below(len(legal))]
    if rng is not own:
        send("rng " + prefix + rng.words())  # the words after drawing: the rule of docs/protocol.md
    send("move " + prefix + move)


def main():
    version = 1  # until the handshake says otherwise
    legal = []
    view = None
    own = Xoshiro256([1, 2, 3, 4])  # for a go without rng words
    for line in sys.stdin:
        keyword, _, rest = line.rstrip("\r\n").partition(" ")
        if keyword == "protocol":
            version = handshake(rest, version)
        elif keyword == "newgame" or keyword == "legalcount":
            legal = []
        elif keyword == "view":
            view = json.loads(rest)  # what the seat knows (unused by this bot)
        elif keyword == "legal":
            legal.append(rest)
        elif keyword == "go":
            go(rest.split(), version, legal, own)
            legal = []
        elif keyword == "isready" and version >= 2:
            send(("readyok " + rest).strip())
        elif keyword == "quit":
            break
        # move, hidden, end, error, stop (it answers at once) and unknown
        # lines: nothing to answer


if __name__ == "__main__":
    main()

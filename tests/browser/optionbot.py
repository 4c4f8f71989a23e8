#!/usr/bin/env python3
"""A UMI engine for the options-dialog test: it declares one option of every
kind (combo, string, check, spin, button) and a Level and writes every line it is sent
to the file named by its argument. It searches nothing: `go` gets one info
line, `stop` a `bestmove (none)` (in play it thinks until it is stopped)."""

import sys

with open(sys.argv[1], "a", buffering=1) as received:
    for line in sys.stdin:
        received.write(line)
        words = line.split()
        if not words:
            continue
        if words[0] == "umi":
            print("id name OptionBot")
            print("games bohnenspiel bohnenspiel-hemprich bosh kimasai kujifunza")
            print("option name Style type combo default solid var solid var wild var random")
            print("option name Book File type string default <empty>")
            print("option name Careful type check default true")
            print("option name Depth type spin default 3 min 1 max 9")
            print("option name Clear Hash type button")
            print("option name Level type spin default 20 min 1 max 20")
            print("umiok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            print("info depth 1 score cp 7 nodes 1 nps 1", flush=True)
        elif words[0] == "stop":
            print("bestmove (none)", flush=True)
        elif words[0] == "quit":
            break

#!/usr/bin/env python3
"""The code footprint of two contenders: distinct 64-byte code lines each executes, from callgrind outputs
made with --dump-instr=yes (what `instructions.sh --footprint` runs).

    python3 Benchmarks/footprint.py CONTENDER.out BASELINE.out FRAMES [TOP]

A line is counted when its instructions ran at least FRAMES/2 times in all, as a second figure at least
FRAMES/100 times: roughly the code run in every other frame (the working set a loop over such frames keeps
in the instruction cache), and what a block of a hundred mixed frames touches. The counts are executions,
not frames: a loop in a rarely taken path (a table growing) can reach the threshold in a few frames. Printed: both contenders' footprints, the lines
only CONTENDER executes, and those lines by function (a line goes to the first function seen in it).
Unlike a simulated miss count, these figures barely move with where the linker places the code.
"""

import collections
import re
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)

LINE_BITS = 6  # 64-byte cache lines
POSITION = re.compile(r"^(0x[0-9a-fA-F]+|[+-]\d+|\*)\s")
NAMED = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def load(path):
    """Self instruction counts per code address, and the function of each address."""
    counts = collections.Counter()
    function_of = {}
    names = {}
    function = None
    address = 0
    after_call = False
    with open(path, errors="replace") as lines:
        for line in lines:
            text = line.rstrip("\n")
            named = NAMED.match(text)
            if named:
                if named.group(2):
                    names[named.group(1)] = named.group(2)
                if text.startswith("fn="):
                    function = names.get(named.group(1), named.group(1))
                continue
            if text.startswith("fn="):
                function = text[3:]
                continue
            if text.startswith("calls="):
                after_call = True  # the next cost line is the call's inclusive cost
                continue
            position = POSITION.match(text)
            if not position:
                continue
            token = position.group(1)
            if token.startswith("0x"):
                address = int(token, 16)
            elif token != "*":
                address += int(token)  # subposition compression: relative to the last address
            if after_call:
                after_call = False
                continue
            fields = text.split()
            counts[address] += int(fields[2]) if len(fields) > 2 else 0
            function_of.setdefault(address, function)
    return counts, function_of


def lines(counts, minimum):
    return {address >> LINE_BITS for address, count in counts.items() if count >= minimum}


def kib(n):
    return f"{n} lines ({n * (1 << LINE_BITS) / 1024:.1f} KiB)"


def main():
    contender, baseline, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    counts, function_of = load(contender)
    base, _ = load(baseline)
    every, some = max(1, frames // 2), max(1, frames // 100)
    mine, theirs = lines(counts, every), lines(base, every)
    mine_some, theirs_some = lines(counts, some), lines(base, some)
    print(f"code footprint per frame (lines run in >= half of {frames} frames): "
          f"baseline {kib(len(theirs))}, contender {kib(len(mine))}, contender only {kib(len(mine - theirs))}")
    print(f"lines run in >= 1 % of the frames: baseline {kib(len(theirs_some))}, contender {kib(len(mine_some))}, "
          f"contender only {kib(len(mine_some - theirs_some))}")
    owner = {}
    for address in sorted(counts):
        if counts[address] >= every:
            owner.setdefault(address >> LINE_BITS, function_of[address])
    by_function = collections.Counter(owner[line] for line in mine - theirs)
    for function, n in by_function.most_common(top):
        print(f"{n:5d}  {function[:160]}")


if __name__ == "__main__":
    main()

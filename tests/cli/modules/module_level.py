#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# A script-like module: constants computed at import, a main block, globals.
"""Module-level code around converted functions."""

from __future__ import annotations

import sys

SQUARES = [i * i for i in range(10)]
LIMIT = 50
if LIMIT > 10:
    MODE = "large"
else:
    MODE = "small"

TABLE = {}
for _k in range(5):
    TABLE[_k] = _k * 3


def lookup(key: int) -> int:
    if key in TABLE:
        return TABLE[key]
    return -1


def below_limit(values: list[int]) -> list[int]:
    out = []
    for v in values:
        if v >= LIMIT:
            break
        out.append(v)
    return out


def describe() -> str:
    return f"{MODE} mode, {len(SQUARES)} squares"


def main(argv):
    total = 0
    for arg in argv:
        total += lookup(int(arg)) if arg.isdigit() else 0
    print("total", total)
    print(below_limit(SQUARES))
    print(describe())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

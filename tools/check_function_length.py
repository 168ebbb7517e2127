#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""No function of the suite's code is longer than 120 lines (tables excepted).

A long function is where a second job hides; the limit keeps each one readable in one
screenful or two. Looks at the definitions that start at column 0 (the code's style:
namespaces are not indented) in harness/, kernels/, numerics/, reference/ and tools/;
initialisers (`... = {`, the probe tables, `kRegistered = [] {`) are tables, not functions.
Tests are left out: a test's body is its table of cases.

    tools/check_function_length.py [ROOT] [--max N]      exit 0 clean, 1 with the list
"""
import re
import subprocess
import sys

DIRS = ("harness/", "kernels/", "numerics/", "reference/", "tools/")
NOT_FUNCTIONS = re.compile(r"^(namespace|struct|class|enum|union|extern|template\s*<[^>]*>\s*(struct|class)|#)")


def long_functions(path, limit):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i, found = 0, []
    while i < len(lines):
        line = lines[i]
        head = "\n".join(lines[max(0, i - 3):i + 1])
        starts = (line and not line[0].isspace() and line.rstrip().endswith("{") and "(" in head
                  and not NOT_FUNCTIONS.match(line) and "=" not in line.split("(")[0])
        if not starts:
            i += 1
            continue
        depth, j = 0, i
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0 and j > i:
                break
            j += 1
        if j - i + 1 > limit:
            found.append((j - i + 1, i + 1, line.strip()[:90]))
        i = j + 1
    return found


def main():
    args = sys.argv[1:]
    limit = 120
    if "--max" in args:
        k = args.index("--max")
        limit = int(args[k + 1])
        del args[k:k + 2]
    root = args[0] if args else "."
    files = subprocess.run(["git", "-C", root, "ls-files", "*.cpp", "*.cu", "*.hpp", "*.cuh"],
                           capture_output=True, text=True, check=True).stdout.split()
    bad = 0
    for f in files:
        if not f.startswith(DIRS):
            continue
        for n, at, text in long_functions(f"{root}/{f}", limit):
            print(f"{f}:{at}: {n} lines (at most {limit}): {text}")
            bad += 1
    if bad:
        print(f"check_function_length: {bad} function(s) over {limit} lines: split each into steps with names")
        return 1
    print(f"check_function_length: every function in {', '.join(DIRS)} is at most {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the floors of harness/ (docs/architecture.md): a file in one harness folder may
include headers of its own folder and of the folders below it, never of a folder above.

Which folder a header belongs to is where the file is: harness/<folder>/include/<path>
for `#include "<path>"`, harness/<folder>/src/<name> for a private header. An include that
names no harness header (a system header, reference/, numerics/) is not the harness's to
judge. Exit 0 when every include keeps the order, 1 with one line per violation, 2 when
the tree is not as expected (a folder on disk that FLOORS does not name, or the reverse).

  tools/check_harness_layering.py [REPO_ROOT]
"""
import pathlib
import re
import sys

# Lowest first. A folder may include itself and everything before it in this list.
FLOORS = ["core", "records", "expectations", "nvml", "runner", "report"]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
SOURCE_SUFFIXES = {".hpp", ".h", ".cuh", ".cpp", ".cu", ".cc"}


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    harness = root / "harness"
    on_disk = sorted(p.name for p in harness.iterdir() if (p / "include").is_dir() or (p / "src").is_dir())
    if sorted(FLOORS) != on_disk:
        print(f"harness folders on disk {on_disk} differ from the floors {FLOORS}: "
              "update FLOORS in tools/check_harness_layering.py (and docs/architecture.md)")
        return 2
    rank = {folder: i for i, folder in enumerate(FLOORS)}

    public = {}   # "gpuconform/x.hpp" -> folder
    private = {}  # (folder, "x.hpp") -> folder
    files = []    # (folder, path)
    for folder in FLOORS:
        for sub in ("include", "src"):
            base = harness / folder / sub
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*")):
                if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                    continue
                files.append((folder, path))
                if sub == "include":
                    name = path.relative_to(base).as_posix()
                    if name in public and public[name] != folder:
                        print(f"{name} is a header of both {public[name]} and {folder}")
                        return 2
                    public[name] = folder
                else:
                    private[(folder, path.name)] = folder

    violations = []
    for folder, path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in INCLUDE.finditer(text):
            name = match.group(1)
            owner = public.get(name) or private.get((folder, name))
            if owner is None or rank[owner] <= rank[folder]:
                continue
            line = text.count("\n", 0, match.start()) + 1
            violations.append(f"{path.relative_to(root)}:{line}: {folder} includes \"{name}\" of {owner}, "
                              f"a higher floor ({' < '.join(FLOORS)})")
    for v in violations:
        print(v)
    if violations:
        return 1
    print(f"harness layering ok: {len(files)} files, floors {' < '.join(FLOORS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the C++/CUDA a change touches against .clang-format (the style the code is written
# in): clang-format --dry-run --Werror on every C++/CUDA file that differs from a base ref,
# limited to the lines the change added or modified, so untouched older lines that predate
# .clang-format never fail a change. Exit 0 clean, 1 with clang-format's findings, 2 when it
# cannot run (no clang-format, no such ref).
#
#   tools/check_format.sh [BASE_REF]        # default: $GPUCONFORM_FORMAT_BASE, else origin/main, else HEAD
#   tools/check_format.sh --whole-files [BASE_REF]   # every line of the changed files
#
# The comparison is against the working tree, so uncommitted edits count; untracked files are
# checked whole. Fix a finding with `clang-format -i FILE` (or `git clang-format BASE_REF`).
set -euo pipefail

whole=0
if [[ "${1:-}" == "--whole-files" ]]; then
  whole=1
  shift
fi
cd "$(git rev-parse --show-toplevel)"

clang_format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check_format: $clang_format not found (apt-get install clang-format; tools/bootstrap.sh does)" >&2
  exit 2
fi

base="${1:-${GPUCONFORM_FORMAT_BASE:-}}"
if [[ -z "$base" ]]; then
  if git rev-parse --verify --quiet origin/main >/dev/null; then base=origin/main; else base=HEAD; fi
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "check_format: '$base' is not a commit" >&2
  exit 2
fi
# The merge base, as a pull request's diff is taken.
base="$(git merge-base "$base" HEAD 2>/dev/null || echo "$base")"

is_source() { [[ "$1" =~ \.(cpp|hpp|h|cc|cu|cuh)$ && "$1" != tests/fuzz/corpus/* ]]; }

# Per changed file, the line ranges the change added or modified, from one diff with rename
# detection (a moved file counts only its edited lines): "FILE START:END ..." lines.
ranges() {
  git diff -U0 -M --diff-filter=d "$base" | awk '
    /^\+\+\+ / { if (file != "") print file, lines; file = substr($0, 7); lines = ""; next }
    /^@@ / { split($3, r, ","); start = substr(r[1], 2); count = (r[2] == "" ? 1 : r[2]);
             if (count > 0) lines = lines " " start ":" (start + count - 1) }
    END { if (file != "") print file, lines }'
}

status=0
checked=0
check() {  # FILE [--lines=...]...
  local file="$1"
  shift
  is_source "$file" && [[ -f "$file" ]] || return 0
  checked=$((checked + 1))
  "$clang_format" --dry-run --Werror "$@" "$file" || status=1
}
while read -r file spans; do
  [[ -n "$spans" ]] || continue
  args=()
  if [[ $whole == 0 ]]; then
    for span in $spans; do args+=("--lines=$span"); done
  fi
  check "$file" "${args[@]}"
done < <(ranges)
while read -r file; do
  [[ -n "$file" ]] && check "$file"
done < <(git ls-files --others --exclude-standard)
if [[ $status == 0 ]]; then
  echo "check_format: $checked changed file(s) formatted as .clang-format says (base $(git rev-parse --short "$base"))"
else
  echo "check_format: the lines above differ from .clang-format; clang-format -i FILE (or git clang-format $base) fixes them" >&2
fi
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package_docs_check.sh WORK_DIR: the man page and the bash completion are in the gpuconform
# .deb that package_check.sh made in WORK_DIR/out and unpacked into WORK_DIR/root:
#   - usr/share/man/man1/gpuconform.1.gz, gzip, a .TH GPUCONFORM 1 page with a section per
#     subcommand of the packaged binary's --help (and man renders it without a warning, where
#     man is installed);
#   - usr/share/bash-completion/completions/gpuconform: bash syntax, and it completes
#     subcommands and options (`gpuconform li` -> lint list, `gpuconform list --cov` -> --coverage).
# Exit 77 (skipped) when the packages were not made (no dpkg-deb: package_check.sh skipped).
set -euo pipefail
work="$1"
shopt -s nullglob
debs=("$work"/out/gpuconform_*.deb)
if ((${#debs[@]} != 1)) || [[ ! -x "$work/root/usr/bin/gpuconform" ]]; then
  echo "skipped: no gpuconform .deb in $work/out (package.deb_installs_and_lists makes it; it skips without dpkg-dev)"
  exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
dpkg-deb -c "${debs[0]}" >"$work/docs-contents.txt"
grep -qE ' \./usr/share/man/man1/gpuconform\.1\.gz$' "$work/docs-contents.txt" ||
  fail "the .deb has no usr/share/man/man1/gpuconform.1.gz"
grep -qE ' \./usr/share/bash-completion/completions/gpuconform$' "$work/docs-contents.txt" ||
  fail "the .deb has no usr/share/bash-completion/completions/gpuconform"
man_page="$work/root/usr/share/man/man1/gpuconform.1.gz"
gzip -t "$man_page" || fail "gpuconform.1.gz is not gzip"
zcat "$man_page" >"$work/gpuconform.1"
grep -q '^\.TH GPUCONFORM 1 ' "$work/gpuconform.1" || fail "no .TH GPUCONFORM 1 line"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" FILES; do
  grep -q "^\.SH \"*$section" "$work/gpuconform.1" || fail "no $section section"
done
# One subsection per subcommand the packaged binary lists.
commands="$("$work/root/usr/bin/gpuconform" --help | sed -n '/^Subcommands:/,$p' | sed -n 's/^  \([a-z][a-z0-9_-]*\) .*/\1/p')"
[[ -n "$commands" ]] || fail "gpuconform --help lists no subcommand"
for c in $commands; do
  grep -q "^\.SS \"gpuconform $c\"" "$work/gpuconform.1" || fail "the man page has no section for 'gpuconform $c'"
done
grep -q '^\.SS "gpuconform vectors check"' "$work/gpuconform.1" || fail "no section for 'gpuconform vectors check'"
grep -q -- '\\-\\-coverage' "$work/gpuconform.1" || fail "the man page lacks list's --coverage"
if command -v man >/dev/null; then
  warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man_page" 2>&1 >/dev/null || true)"
  [[ -z "$warnings" ]] || fail "man reports: $warnings"
  LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man_page" 2>/dev/null | grep -q 'gpuconform list' || fail "man renders no 'gpuconform list'"
fi

completion="$work/root/usr/share/bash-completion/completions/gpuconform"
bash -n "$completion" || fail "the completion file is not valid bash"
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpuconform; echo "${COMPREPLY[*]}"' \
    _ "$completion" "$@"
}
[[ "$(complete_words gpuconform li)" == "lint list" ]] || fail "'gpuconform li' completes to '$(complete_words gpuconform li)'"
[[ "$(complete_words gpuconform list --cov)" == "--coverage" ]] || fail "'gpuconform list --cov' completes to '$(complete_words gpuconform list --cov)'"
[[ "$(complete_words gpuconform vectors ch)" == "check" ]] || fail "'gpuconform vectors ch' completes to '$(complete_words gpuconform vectors ch)'"
[[ "$(complete_words gpuconform run --level quick --fil)" == "--filter" ]] || fail "'run ... --fil' completes to '$(complete_words gpuconform run --level quick --fil)'"
echo "ok: man page ($(wc -l <"$work/gpuconform.1") lines, $(echo "$commands" | wc -w) subcommands) and bash completion"

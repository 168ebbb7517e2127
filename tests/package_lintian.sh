#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package_lintian.sh WORK_DIR: lintian reports no error (E:) on either .deb package_check.sh
# made in WORK_DIR/out; warnings and notes are printed, not failed. Exit 77 (skipped) without
# lintian (Debian package `lintian`; tools/bootstrap.sh installs it) or without the packages.
set -euo pipefail
work="$1"
if ! command -v lintian >/dev/null; then
  echo "skipped: lintian is not installed (Debian package lintian; tools/bootstrap.sh installs it)"
  exit 77
fi
shopt -s nullglob
debs=("$work"/out/gpuconform_*.deb "$work"/out/gpuconform-golden_*.deb)
if ((${#debs[@]} != 2)); then
  echo "skipped: the two .debs are not in $work/out (package.deb_installs_and_lists makes them; it skips without dpkg-dev)"
  exit 77
fi
status=0
for deb in "${debs[@]}"; do
  # lintian exits non-zero on errors (and, by default, on nothing else).
  lintian --tag-display-limit 0 "$deb" >"$work/lintian-$(basename "$deb").txt" 2>&1 || true
  errors=$(grep -c '^E: ' "$work/lintian-$(basename "$deb").txt" || true)
  warnings=$(grep -c '^W: ' "$work/lintian-$(basename "$deb").txt" || true)
  echo "$(basename "$deb"): $errors error(s), $warnings warning(s)"
  sed 's/^/  /' "$work/lintian-$(basename "$deb").txt"
  ((errors == 0)) || status=1
done
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shell_check.sh syntax|shellcheck FILE...: `bash -n` every file, or shellcheck it (errors
# and warnings; exit 77, skipped, where shellcheck is not installed).
mode="$1"
shift
if [[ "$mode" == syntax ]]; then
  status=0
  for f in "$@"; do bash -n "$f" || status=1; done
  exit $status
fi
if ! command -v shellcheck >/dev/null; then
  echo "skipped: shellcheck is not installed (Debian package shellcheck)"
  exit 77
fi
exec shellcheck -S warning -s bash -x "$@"

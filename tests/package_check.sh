#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package_check.sh BUILD_DIR WORK_DIR: makes the packages of an already built tree (cpack,
# as `cmake --build BUILD_DIR --target package` does), then checks
#   - the gpuconform .deb's Depends (from dpkg-shlibdeps) name fmt, MPFR and GMP;
#   - the golden vectors are in gpuconform-golden, not in gpuconform;
#   - both unpacked into an empty root (dpkg -x), the CLI there runs
#     `gpuconform list --arch sm_90` from its own share/gpuconform/expectations;
#   - the .tar.gz holds the binary and the golden vectors;
#   - both .debs: /usr/share/doc/<package>/copyright (machine-readable, Apache-2.0) and
#     changelog.Debian.gz (gzip, its first entry the package's version); the version
#     comes from git describe when the source is a git checkout (not the bare project
#     version), with a Debian revision; the binary is stripped.
# The packages stay in WORK_DIR/out for package_lintian.sh and package_docs_check.sh
# (ctest fixture gpuconform_packages).
# Exit 77 (skipped) without dpkg-deb or dpkg-shlibdeps (Debian's dpkg-dev).
set -euo pipefail
build="$(readlink -f "$1")" work="$2"
for tool in dpkg-deb dpkg-shlibdeps cpack; do
  if ! command -v "$tool" >/dev/null; then
    echo "skipped: $tool is not installed (Debian packages dpkg-dev, cmake)"
    exit 77
  fi
done
rm -rf "$work" && mkdir -p "$work/root"
start=$SECONDS
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/out" >cpack.log 2>&1) ||
  { cat "$work/cpack.log"; exit 1; }
echo "cpack: $((SECONDS - start)) s"
shopt -s nullglob
debs=("$work"/out/gpuconform_*.deb)
golden=("$work"/out/gpuconform-golden_*_all.deb)
tgz=("$work"/out/gpuconform-*-Linux.tar.gz)
[[ ${#debs[@]} -eq 1 && ${#golden[@]} -eq 1 && ${#tgz[@]} -eq 1 ]] ||
  { echo "expected one gpuconform .deb, one gpuconform-golden .deb and one .tar.gz; got:"; ls -l "$work/out"; exit 1; }

depends="$(dpkg-deb -f "${debs[0]}" Depends)"
echo "Depends: $depends"
for lib in libfmt libmpfr libgmp gpuconform-golden; do
  [[ "$depends" == *"$lib"* ]] || { echo "Depends lacks $lib"; exit 1; }
done
# Listings go to files first: `grep -q` on a pipe would end dpkg-deb early (SIGPIPE).
dpkg-deb -c "${debs[0]}" >"$work/deb.txt"
dpkg-deb -c "${golden[0]}" >"$work/golden.txt"
if grep -q 'expectations/golden/' "$work/deb.txt"; then
  echo "the gpuconform package holds golden vectors: they belong to gpuconform-golden"; exit 1
fi
grep -q 'share/gpuconform/expectations/golden/sm_90/.*\.xz$' "$work/golden.txt" ||
  { echo "gpuconform-golden holds no golden vector"; exit 1; }

dpkg -x "${debs[0]}" "$work/root"
dpkg -x "${golden[0]}" "$work/root"
# Nothing from the build or source tree: no override of the expectations' location.
env -u GPUCONFORM_EXPECTATIONS "$work/root/usr/bin/gpuconform" list --arch sm_90 >"$work/list.txt" 2>&1 ||
  { echo "installed gpuconform list --arch sm_90 failed:"; cat "$work/list.txt"; exit 1; }
grep -q '^latency\.alu\.fma\.rn\.f32 ' "$work/list.txt" ||
  { echo "list printed no sm_90 entry:"; head "$work/list.txt"; exit 1; }
head -n 3 "$work/list.txt"
# ... read from the unpacked root, not from the source tree this build still has.
"$work/root/usr/bin/gpuconform" list --arch sm_90 --json >"$work/list.json"
grep -q "\"at\": \"$work/root/usr/share/gpuconform/expectations/sm_90.toml:" "$work/list.json" ||
  { echo "the installed gpuconform did not read its own expectations:"; grep -m 1 '"at"' "$work/list.json"; exit 1; }

# Version: <upstream>-1, the upstream part from git describe in a checkout.
version="$(dpkg-deb -f "${debs[0]}" Version)"
golden_version="$(dpkg-deb -f "${golden[0]}" Version)"
echo "Version: $version"
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*-1$ ]] || { echo "version '$version' is not <upstream>-1"; exit 1; }
[[ "$golden_version" == "$version" ]] || { echo "gpuconform-golden is $golden_version, gpuconform $version"; exit 1; }
[[ "$(dpkg-deb -f "${debs[0]}" Depends)" == *"gpuconform-golden (= $version)"* ]] ||
  { echo "Depends does not name gpuconform-golden (= $version)"; exit 1; }
source_dir="$(dirname "$(readlink -f "$0")")/.."
if command -v git >/dev/null && git -C "$source_dir" rev-parse HEAD >/dev/null 2>&1; then
  project_version="$(sed -n 's/^project(gpuconform VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")"
  [[ "${version%-1}" != "$project_version" ]] || [[ -n "$(git -C "$source_dir" tag --points-at HEAD 'v*')" ]] ||
    { echo "version $version is the bare project version: git describe was not used"; exit 1; }
  [[ "$version" == *"$(git -C "$source_dir" rev-parse --short=12 HEAD)"* || "$version" != *+git* ]] ||
    { echo "version $version does not name HEAD $(git -C "$source_dir" rev-parse --short=12 HEAD)"; exit 1; }
fi
# Copyright and changelog in each package's doc directory.
for pkg in gpuconform gpuconform-golden; do
  doc="$work/root/usr/share/doc/$pkg"
  [[ -f "$doc/copyright" ]] || { echo "$pkg has no /usr/share/doc/$pkg/copyright"; exit 1; }
  head -n 1 "$doc/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    { echo "$pkg's copyright file is not machine-readable (DEP-5)"; exit 1; }
  grep -q '^License: Apache-2.0$' "$doc/copyright" || { echo "$pkg's copyright names no Apache-2.0"; exit 1; }
  gzip -t "$doc/changelog.Debian.gz" || { echo "$pkg has no valid changelog.Debian.gz"; exit 1; }
  zcat "$doc/changelog.Debian.gz" | head -n 1 | grep -qF "$pkg ($version) " ||
    { echo "$pkg's changelog does not start with '$pkg ($version)':"; zcat "$doc/changelog.Debian.gz" | head -n 3; exit 1; }
done
if command -v file >/dev/null; then
  file -L "$work/root/usr/bin/gpuconform" | grep -q ', stripped' ||
    { echo "the packaged binary is not stripped: $(file -L "$work/root/usr/bin/gpuconform")"; exit 1; }
fi

tar -tzf "${tgz[0]}" >"$work/tgz.txt"
grep -q '/bin/gpuconform$' "$work/tgz.txt" && grep -q 'expectations/golden/sm_90/' "$work/tgz.txt" ||
  { echo "the .tar.gz lacks the binary or the golden vectors"; exit 1; }
echo "ok ($((SECONDS - start)) s)"

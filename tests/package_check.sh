#!/usr/bin/env bash
# package_check.sh BUILD_DIR WORK_DIR: makes the packages of an already built tree (cpack,
# as `cmake --build BUILD_DIR --target package` does), then checks
#   - the gpuconform .deb's Depends (from dpkg-shlibdeps) name fmt, MPFR and GMP;
#   - the golden vectors are in gpuconform-golden, not in gpuconform;
#   - both unpacked into an empty root (dpkg -x), the CLI there runs
#     `gpuconform list --arch sm_90` from its own share/gpuconform/expectations;
#   - the .tar.gz holds the binary and the golden vectors.
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
tar -tzf "${tgz[0]}" >"$work/tgz.txt"
grep -q '/bin/gpuconform$' "$work/tgz.txt" && grep -q 'expectations/golden/sm_90/' "$work/tgz.txt" ||
  { echo "the .tar.gz lacks the binary or the golden vectors"; exit 1; }
echo "ok ($((SECONDS - start)) s)"

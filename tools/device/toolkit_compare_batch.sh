#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 22 item 6, a toolkit upgrade validated on one board (docs/toolkit-upgrade.md):
#   1. the node: GPU, driver, gcc, cmake, ninja, nvcc;
#   2. the second toolkit (CUDA 12.4, .carry/toolkit/cuda-12.4.tar.xz) and the host
#      dependencies the node lacks (.carry/toolkit/deps.tar.xz), both from
#      tools/device/stage_toolkit.sh, unpacked under $WORK;
#   3. a build of the CLI only with that nvcc: 90a-real, Release, tests off, otherwise the
#      normal build's options; the host compiler chosen here (nvcc 12.4 takes gcc <= 13: an
#      installed g++-13/12/11 when gcc is newer, else -allow-unsupported-compiler). What PTX
#      ISA 8.4 lacks (mma.sp::ordered_metadata, FP8 mma.sync with an f16 accumulator) is
#      compiled out there and its probes are unsupported (kernels/common/ptx_features.cuh):
#      listed in toolkit/build-gaps-cuda12.txt;
#   4. `run --filter 'numeric.scalar.*' --filter 'numeric.math.*' --level standard` with the
#      carried CUDA 13.0 build (BUILD_DIR) and with the 12.4 build, on the same GPU, each into
#      a run record; the 13.0 side runs even when the 12.4 build failed;
#   5. `compare` of the two records (13.0 the baseline), as text and JSON: every max-ulp or
#      error value that differs is MOVED (BETTER/WORSE), every changed verdict is listed;
#   6. the SASS of the scalar kernels of both binaries (cuobjdump) and, per kernel, whether
#      the instructions differ, with opcode counts on each side.
# Results: $OUT/toolkit.tgz (records, logs, compare, SASS) and $OUT/toolkit-log.txt.
# Exit: 0 done, 1 the 12.4 configure, build or run failed (the log says which step), 2 unusable.
# The 13.0 run goes first; the build has BUILD_LIMIT seconds (420), so that the whole call
# fits a 600 s command with the 12.4 run, compare and SASS after it.
# PREBUILT12=PATH skips steps 2-3: a gpuconform binary built with nvcc 12.4 on the CPU machine
# (docs/toolkit-upgrade.md, "Building with an older toolkit"; the same shared libraries as the
# 13.0 build), carried with the tree; the node then spends no build time.
# Usage: [DEVICE=0] [JOBS=16] [BUILD_LIMIT=420] [PREBUILT12=PATH] tools/device/toolkit_compare_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" toolkit-log.txt
DEVICE=${DEVICE:-0}
JOBS=${JOBS:-16}
WORK=${WORK:-/tmp/gpuconform-toolkit}
CARRY=.carry/toolkit
R=$OUT/toolkit
mkdir -p "$R" "$WORK"
filters=(--filter 'numeric.scalar.*' --filter 'numeric.math.*')
status=0
step() { echo "== $* ($(date -u +%T))"; }
fail12() {
  echo "CUDA 12.4 SIDE FAILED: $*"
  status=1
}

step "node"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version --format=csv
for t in gcc g++ g++-13 g++-12 g++-11 cmake ninja nvcc cuobjdump pkg-config python3; do
  printf '%-10s %s\n' "$t" "$(command -v "$t" > /dev/null 2>&1 && "$t" --version 2>&1 | head -n 1 || echo '(none)')"
done
"$G" --version 2>&1 | head -3

# -- 4a. the CUDA 13.0 run first: its record is there whatever the 12.4 side does, and it
# cannot be cut short by a slow build under the call's time limit ---------------------------------------------------------------------
name=$(evidence_name toolkit)
run_side() {  # run_side TAG BINARY
  local s rc
  step "run $1: --level standard on GPU $DEVICE"
  s=$(date +%s.%N)
  timeout 150 "$2" run "${filters[@]}" --device "$DEVICE" --out-dir "$R/run-$1" --record "$R/$name-$1.jsonl" \
    > "$R/run-$1.txt" 2>&1
  rc=$?
  echo "$1 exit $rc wall $(elapsed "$s") s"
  grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$R/run-$1.txt" | cut -c1-300
  [ "$rc" -le 1 ] || tail -5 "$R/run-$1.txt"
  return "$rc"
}
run_side cuda13 "$G"

if [ -n "${PREBUILT12:-}" ]; then
  step "the prebuilt CUDA 12.4 binary $PREBUILT12"
  ok12=1
  if [ -x "$PREBUILT12" ] && "$PREBUILT12" --version; then
    G12=$PREBUILT12
    ldd "$G12" | grep -E 'cuda|fmt|mpfr|gmp|lzma|not found'
    "$G12" list --arch sm_90 --level long 2> /dev/null | grep -F 'built with CUDA' > "$R/build-gaps-cuda12.txt"
    echo "$(wc -l < "$R/build-gaps-cuda12.txt") probes unsupported by this build (toolkit/build-gaps-cuda12.txt)"
  else
    fail12 "PREBUILT12=$PREBUILT12 is not a gpuconform binary that runs here"
    ok12=0
  fi
else
# -- 2. unpack ---------------------------------------------------------------------------
TK=$WORK/cuda-12.4
DEPS=$WORK/deps/usr
B12=$WORK/build-cuda12
ok12=1
step "unpack the CUDA 12.4 toolkit and the host dependencies"
s=$(date +%s.%N)
if [ ! -f "$CARRY/cuda-12.4.tar.xz" ] || [ ! -f "$CARRY/deps.tar.xz" ]; then
  fail12 "no $CARRY/cuda-12.4.tar.xz or $CARRY/deps.tar.xz (make them with tools/device/stage_toolkit.sh and carry .carry/toolkit)"
  ok12=0
else
  rm -rf "$TK" "$WORK/deps"
  if ! timeout 120 tar -C "$WORK" -xJf "$CARRY/cuda-12.4.tar.xz" || ! timeout 60 tar -C "$WORK" -xJf "$CARRY/deps.tar.xz"; then
    fail12 "unpacking $CARRY failed"
    ok12=0
  fi
fi
echo "unpacked in $(elapsed "$s") s"
if [ "$ok12" = 1 ]; then
  cat "$TK/SOURCES.txt" 2> /dev/null
  if ! "$TK/bin/nvcc" --version | tail -2; then
    fail12 "$TK/bin/nvcc does not run"
    ok12=0
  fi
fi

# -- 3. configure and build with nvcc 12.4 -------------------------------------------------
if [ "$ok12" = 1 ]; then
  cuda_flags=""
  host=()
  gmajor=$(gcc -dumpversion 2> /dev/null | cut -d. -f1)
  if [ -n "$gmajor" ] && [ "$gmajor" -gt 13 ]; then
    for c in g++-13 g++-12 g++-11; do
      if command -v "$c" > /dev/null 2>&1; then
        host=(-DCMAKE_CUDA_HOST_COMPILER="$(command -v "$c")")
        break
      fi
    done
    [ ${#host[@]} = 0 ] && cuda_flags="-allow-unsupported-compiler"
  fi
  echo "gcc $gmajor: CUDA host compiler ${host[*]:-gcc (default)} ${cuda_flags:+with $cuda_flags}"
  # pkg-config for MPFR and GMP: the node's own or the carried pkgconf, reading only the
  # carried .pc files (their /usr paths under the sysroot $WORK/deps).
  pc=$(command -v pkg-config || true)
  if [ -z "$pc" ]; then
    mkdir -p "$WORK/bin"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$DEPS/lib/x86_64-linux-gnu" "$DEPS/bin/pkgconf" > "$WORK/bin/pkg-config"
    chmod +x "$WORK/bin/pkg-config"
    pc=$WORK/bin/pkg-config
  fi
  step "configure (CLI only, 90a-real, Release, nvcc 12.4)"
  rm -rf "$B12"
  s=$(date +%s.%N)
  # CUDA_cudart_static_LIBRARY (PIN_CUDART=1): the 12.4 runtime, never a 13.0 libcudart_static.a
  # that FindCUDAToolkit would find first through a PATH entry such as /usr/local/cuda/bin (CMake
  # 3.25 here); CMake 4.4 on the lent nodes fails its FindCUDAToolkit with the pin ("Unknown CMake
  # command _CUDAToolkit_find_and_add_import_lib"), so it is off by default. CUDA_CUDART: the
  # staged toolkit has no shared libcudart, which FindCUDAToolkit requires to call it found.
  PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR="$DEPS/lib/x86_64-linux-gnu/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$WORK/deps" \
    timeout 300 cmake -S . -B "$B12" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUCONFORM_BUILD_TESTS=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90a-real -DCMAKE_CUDA_COMPILER="$TK/bin/nvcc" "${host[@]}" \
    -DCMAKE_CUDA_FLAGS="$cuda_flags" -DCUDAToolkit_ROOT="$TK" \
    ${PIN_CUDART:+-DCUDA_cudart_static_LIBRARY="$TK/lib64/libcudart_static.a"} -DCMAKE_PREFIX_PATH="$DEPS" \
    -DCUDA_CUDART="$TK/lib64/libcudart_static.a" \
    -DPKG_CONFIG_EXECUTABLE="$pc" > "$R/configure-cuda12.txt" 2>&1
  rc=$?
  echo "configure exit $rc ($(elapsed "$s") s)"
  if [ "$rc" != 0 ]; then
    tail -30 "$R/configure-cuda12.txt"
    fail12 "configure exit $rc (toolkit/configure-cuda12.txt)"
    ok12=0
  else
    grep -E '^CMAKE_CUDA_COMPILER_VERSION|^set\(CMAKE_CUDA_COMPILER_VERSION' "$B12"/CMakeFiles/*/CMakeCUDACompiler.cmake
  fi
fi
if [ "$ok12" = 1 ]; then
  step "build gpuconform -j$JOBS"
  s=$(date +%s.%N)
  timeout "${BUILD_LIMIT:-420}" ninja -C "$B12" -j "$JOBS" -k 0 gpuconform > "$R/build-cuda12.txt" 2>&1
  rc=$?
  echo "build exit $rc ($(elapsed "$s") s)"
  if [ "$rc" != 0 ]; then
    grep -E 'FAILED' "$R/build-cuda12.txt" | head -20; grep -E ' error' "$R/build-cuda12.txt" | sort -u | head -30
    tail -10 "$R/build-cuda12.txt"
    fail12 "build exit $rc (toolkit/build-cuda12.txt)"
    ok12=0
  else
    G12=$B12/bin/gpuconform
    ldd "$G12" | grep -E 'cuda|fmt|mpfr|gmp|lzma|not found'
    "$G12" --version 2>&1 | head -3
    # What 12.4 cannot assemble is compiled out (kernels/common/ptx_features.cuh: mma.sp::
    # ordered_metadata, FP8 mma.sync with an f16 accumulator) and its probes are unsupported,
    # saying so; none is in the compared families, so the list is the build's, not a failure.
    "$G12" list --arch sm_90 --level long 2> /dev/null | grep -F 'built with CUDA' > "$R/build-gaps-cuda12.txt"
    echo "$(wc -l < "$R/build-gaps-cuda12.txt") probes unsupported by this build (toolkit/build-gaps-cuda12.txt):"
    cut -c1-220 "$R/build-gaps-cuda12.txt" | head -5
  fi
fi

fi

# -- 4b. the CUDA 12.4 run
if [ "$ok12" = 1 ]; then
  run_side cuda12 "$G12"
  [ $? -le 1 ] || fail12 "run exit (toolkit/run-cuda12.txt)"
fi

# -- 5. compare ----------------------------------------------------------------------------
if [ -s "$R/$name-cuda13.jsonl" ] && [ -s "$R/$name-cuda12.jsonl" ]; then
  step "compare (baseline CUDA 13.0, candidate CUDA 12.4)"
  "$G" compare "$R/$name-cuda13.jsonl" "$R/$name-cuda12.jsonl" --color never > "$R/compare.txt" 2>&1
  echo "compare exit $? (0 nothing moved, 1 something did)"
  "$G" compare "$R/$name-cuda13.jsonl" "$R/$name-cuda12.jsonl" --format json > "$R/compare.json" 2>&1
  "$G" compare "$R/$name-cuda13.jsonl" "$R/$name-cuda12.jsonl" --all --color never > "$R/compare-all.txt" 2>&1
  cat "$R/compare.txt"
  # The worst input of every max-ulp entry on each side: the same maximum may sit at
  # another input after a library change.
  python3 - "$R/$name-cuda13.jsonl" "$R/$name-cuda12.jsonl" << 'PY' | tee "$R/worst-inputs.txt"
import json, sys
def load(p):
    out = {}
    for line in open(p):
        j = json.loads(line)
        if j.get("record", "test") == "test" and "probe" in j and j.get("measured"):
            n = j["measured"].get("notes", {})
            out[j["probe"]] = (j["measured"].get("value"), n.get("worst_input", ""), n.get("max_real_ulp_error", ""))
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
diff = [p for p in sorted(a) if p in b and a[p] != b[p]]
print(f"{len(diff)} of {len(set(a) & set(b))} probes differ in value, worst input or real-ulp error:")
for p in diff:
    print(f"{p}\n  13.0: {a[p][0]}  {a[p][1]}  real {a[p][2]}\n  12.4: {b[p][0]}  {b[p][1]}  real {b[p][2]}")
PY
else
  echo "no compare: a run record is missing"
fi

# -- 6. SASS -------------------------------------------------------------------------------
CUOBJDUMP=${GPUCONFORM_CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
if [ -x "$CUOBJDUMP" ]; then
  step "SASS of the scalar kernels"
  for side in cuda13 cuda12; do
    bin=$G
    [ "$side" = cuda12 ] && bin=${G12:-}
    [ -n "$bin" ] && [ -x "$bin" ] || continue
    timeout 60 "$CUOBJDUMP" -sass "$bin" 2> /dev/null |
      awk '/Function : / {keep = ($0 ~ /scan_|eval_f64_math|evaluate_worst/)} keep' > "$R/sass-$side.txt"
    echo "$side: $(grep -c 'Function :' "$R/sass-$side.txt") scalar kernels"
  done
  [ -s "$R/sass-cuda12.txt" ] && python3 - "$R/sass-cuda13.txt" "$R/sass-cuda12.txt" << 'PY' | tee "$R/sass-diff.txt"
import collections, re, subprocess, sys
def kernels(p):
    out, name = {}, None
    for line in open(p):
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1); out[name] = []; continue
        m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line)
        if name and m:  # the instruction without address or encoding; branch targets relative
            out[name].append(re.sub(r"0x[0-9a-f]+", "0x_", m.group(1)))
    return out
def demangled(k):
    # The mangled names carry each build's anonymous-namespace hash (and CUDA 13 adds an internal-
    # linkage marker), so the same kernel has another name in each build: pair them demangled,
    # where an anonymous namespace is "(anonymous namespace)". c++filt comes with binutils.
    names = list(k)
    try:
        plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                               check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return k
    return {p: k[n] for n, p in zip(names, plain)} if len(plain) == len(names) else k
a, b = demangled(kernels(sys.argv[1])), demangled(kernels(sys.argv[2]))
ops = lambda ins: collections.Counter(i.split()[0] if not i.startswith("@") else i.split()[1] for i in ins)
changed = [k for k in sorted(a) if k in b and a[k] != b[k]]
print(f"{len(changed)} of {len(set(a) & set(b))} scalar kernels have other SASS under CUDA 12.4"
      f" ({len(set(a) - set(b))} only in 13.0, {len(set(b) - set(a))} only in 12.4)")
for k in changed:
    oa, ob = ops(a[k]), ops(b[k])
    delta = {o: (oa[o], ob[o]) for o in sorted(set(oa) | set(ob)) if oa[o] != ob[o]}
    print(f"{k}: {len(a[k])} -> {len(b[k])} instructions; opcodes 13.0 -> 12.4: "
          + ", ".join(f"{o} {x}->{y}" for o, (x, y) in delta.items()))
PY
else
  echo "no cuobjdump on this node: no SASS comparison"
fi

# The whole SASS listings (about 20 MB compressed) stay on the node; sass-diff.txt holds what changed.
tar -C "$OUT" -czf "$OUT/toolkit.tgz" --exclude='sass-cuda1*.txt' toolkit
ls -la "$OUT"
[ "$status" = 0 ] && echo "toolkit comparison done" || echo "toolkit comparison: the CUDA 12.4 side failed (above)"
exit "$status"

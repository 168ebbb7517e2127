#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stages a second CUDA toolkit (12.4) and the host build dependencies into .carry/toolkit/,
# for toolkit_compare_batch.sh to build the CLI with on a GPU node (docs/toolkit-upgrade.md).
#
# Why not the pip wheel: nvidia-cuda-nvcc-cu12 (12.0 to 12.9) ships only ptxas, libnvvm,
# libdevice and the crt/ headers: no nvcc driver, cicc, cudafe++, fatbinary or nvlink, so
# CMake cannot use it as a CUDA compiler. Debian's non-free nvidia-cuda-toolkit 12.4.131
# (trixie) is NVIDIA's 12.4.1 toolkit with every one of those, nvidia-cuda-dev its runtime
# headers and libcudart_static.a, libcu++-dev the <nv/target> they include. The packages are
# downloaded (never installed) through an apt configuration of their own under CACHE, so
# the machine's apt sources are left alone.
#
# Writes .carry/toolkit/cuda-12.4.tar.xz (cuda-12.4/: bin/ nvcc nvcc.profile cudafe++ ptxas
# fatbinary nvlink, nvvm/bin/cicc, nvvm/libdevice, include/, lib64/libcudart_static.a;
# about 24 MB) and .carry/toolkit/deps.tar.xz (deps/usr/: the headers, CMake package files,
# pkg-config files and link-time libraries of fmt, nlohmann-json, CLI11, Eigen3, mpreal,
# toml++, pugixml (static), MPFR, GMP and liblzma that a GPU node lacks, and pkgconf; about
# 2 MB). The xz step takes about 3 minutes on one core.
# Usage: [CACHE=/tmp/gpuconform-tk-cache] tools/device/stage_toolkit.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE=${CACHE:-/tmp/gpuconform-tk-cache}
DEST=.carry/toolkit
TK_VERSION=12.4.131~12.4.1-2
DEV_VERSION=12.4.127~12.4.1-2
mkdir -p "$CACHE/lists/partial" "$CACHE/archives/partial" "$DEST"

apt_opts=(-o "Dir::Etc::SourceList=$CACHE/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$CACHE/lists" -o "Dir::Cache=$CACHE" -o Dir::State::status=/var/lib/dpkg/status)
echo "deb http://deb.debian.org/debian trixie main contrib non-free" > "$CACHE/sources.list"
debs=(nvidia-cuda-toolkit_"$TK_VERSION" nvidia-cuda-dev_"$DEV_VERSION" libcu++-dev_)
missing=0
for d in "${debs[@]}"; do compgen -G "$CACHE/debs/${d//\~/?}*.deb" > /dev/null || missing=1; done
if [ "$missing" = 1 ]; then
  echo "== apt-get download (nvidia-cuda-dev is about 930 MB)"
  apt-get "${apt_opts[@]}" update > "$CACHE/apt-update.log" 2>&1
  mkdir -p "$CACHE/debs"
  (cd "$CACHE/debs" && apt-get "${apt_opts[@]}" download "nvidia-cuda-toolkit=$TK_VERSION" \
    "nvidia-cuda-dev=$DEV_VERSION" libcu++-dev 2>&1 | grep -v '^W: Download is performed unsandboxed')
fi

x=$CACHE/extract
rm -rf "$x"
mkdir -p "$x"
dpkg-deb -x "$CACHE"/debs/nvidia-cuda-toolkit_*.deb "$x"
dpkg-deb -x "$CACHE"/debs/libcu++-dev_*.deb "$x"
dpkg-deb --fsys-tarfile "$CACHE"/debs/nvidia-cuda-dev_*.deb |
  tar -x -C "$x" ./usr/include ./usr/lib/x86_64-linux-gnu/libcudart_static.a ./usr/lib/x86_64-linux-gnu/libcudadevrt.a

echo "== cuda-12.4/"
tk=$CACHE/stage/cuda-12.4
rm -rf "$CACHE/stage"
mkdir -p "$tk/bin" "$tk/nvvm/bin" "$tk/nvvm/libdevice" "$tk/include" "$tk/lib64"
cp "$x/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$tk/bin/"
cp -r "$x/usr/lib/nvidia-cuda-toolkit/bin/crt" "$tk/bin/"  # link.stub, prelink.stub
cp "$x/usr/lib/nvidia-cuda-toolkit/bin/cicc" "$tk/nvvm/bin/"
for b in cudafe++ ptxas fatbinary nvlink bin2c; do cp "$x/usr/bin/$b" "$tk/bin/"; done
cp "$x/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" "$tk/nvvm/libdevice/"
cp "$x/usr/lib/x86_64-linux-gnu/libcudart_static.a" "$x/usr/lib/x86_64-linux-gnu/libcudadevrt.a" "$tk/lib64/"
# The runtime's headers (what NVIDIA's cuda_cudart and cuda_nvcc components install), not
# those of the libraries (cuBLAS, cuFFT, NPP, ...): the project includes none of those.
(cd "$x/usr/include" && tar -cf - --exclude='cublas*' --exclude='cufft*' --exclude='curand*' \
  --exclude='cusolver*' --exclude='cusparse*' --exclude='npp*' --exclude='nvjpeg*' --exclude='nvblas*' \
  --exclude='nvtx3' --exclude='nvToolsExt*' --exclude='cuda-gdb' --exclude='nvrtc*' --exclude='nvJitLink*' \
  --exclude='nvFatbin*' --exclude='cudalibxt*' --exclude='nv_decode*' --exclude='cupti*' --exclude='nvml*' \
  --exclude='nvperf*' --exclude='generated_*' --exclude='Openacc' --exclude='Openmp' --exclude='CL' \
  --exclude='thrust' --exclude='cub' --exclude='cuda' --exclude='nv' .) | tar -x -C "$tk/include"
cp -r "$x/usr/include/nv" "$tk/include/"  # <nv/target>, from libcu++ (CCCL 2.3, CUDA 12.4's)
# The toolkit's own nvcc.profile, relative to bin/ (Debian's points into /usr).
cat > "$tk/bin/nvcc.profile" << 'EOF'
TOP              = $(_HERE_)/..

CICC_PATH        = $(TOP)/nvvm/bin
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice

LD_LIBRARY_PATH += $(TOP)/lib:
PATH            += $(CICC_PATH):$(_HERE_):

INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"

CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
"$tk/bin/nvcc" --version | tail -2
cat > "$CACHE/stage/cuda-12.4/SOURCES.txt" << EOF
Debian trixie non-free: nvidia-cuda-toolkit $TK_VERSION, nvidia-cuda-dev $DEV_VERSION
(include/ and lib64/ only); trixie main: libcu++-dev $(dpkg-deb -f "$CACHE"/debs/libcu++-dev_*.deb Version) (include/nv only).
Staged by tools/device/stage_toolkit.sh on $(date -u +%F).
EOF

echo "== deps/ (from this machine's -dev packages)"
dp=$CACHE/stage/deps
mkdir -p "$dp"
files=()
for pkg in libfmt-dev nlohmann-json3-dev libcli11-dev libeigen3-dev libmpfrc++-dev libtomlplusplus-dev \
           libpugixml-dev libmpfr-dev libgmp-dev liblzma-dev; do
  dpkg -s "$pkg" > /dev/null 2>&1 || { echo "missing $pkg: apt-get install $pkg"; exit 1; }
  while IFS= read -r f; do
    case "$f" in
      */share/doc/* | */share/man/* | */share/lintian/* | */share/pkgconfig/*.pc) continue ;;
    esac
    [ -f "$f" ] || [ -L "$f" ] || continue
    files+=("${f#/}")
  done < <(dpkg -L "$pkg")
done
tar -C / -cf - "${files[@]}" | tar -C "$dp" -xf -
# The link-time libraries the -dev packages only symlink to (same sonames as on the node,
# where its own copies are loaded at run time; pugixml.so only because its CMake file names
# it: the build links pugixml statically), and pkgconf for a node without pkg-config.
for so in /usr/lib/x86_64-linux-gnu/libfmt.so.9* /usr/lib/x86_64-linux-gnu/libmpfr.so.6* \
          /usr/lib/x86_64-linux-gnu/libgmp.so.10* /usr/lib/x86_64-linux-gnu/liblzma.so.5* \
          /usr/lib/x86_64-linux-gnu/libpkgconf.so.3* /usr/lib/x86_64-linux-gnu/libpugixml.so.1*; do
  cp -a "$so" "$dp/usr/lib/x86_64-linux-gnu/"
done
# liblzma's dev symlink points at /lib/...: make every dev symlink relative.
for l in "$dp"/usr/lib/x86_64-linux-gnu/*.so; do
  [ -L "$l" ] && ln -sfn "$(basename "$(readlink "$l")")" "$l"
done
mkdir -p "$dp/usr/bin"
cp /usr/bin/pkgconf "$dp/usr/bin/"
# Eigen's unsupported/ and the static MPFR/GMP archives are not needed.
rm -rf "$dp/usr/include/eigen3/unsupported" "$dp"/usr/lib/x86_64-linux-gnu/lib{mpfr,gmp,gmpxx}.a
du -sh "$tk" "$dp"

echo "== xz"
tar -C "$CACHE/stage" -cf - deps | xz -9 -T1 > "$DEST/deps.tar.xz"
tar -C "$CACHE/stage" -cf - cuda-12.4 | xz -9e -T1 > "$DEST/cuda-12.4.tar.xz"
ls -la "$DEST"
du -ch "$DEST"/* | tail -1

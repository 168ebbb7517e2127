#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing (Debian/Ubuntu packages), then configures and
# builds gpuconform with the `default` preset into ./build. Safe to rerun:
# it installs nothing that is already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build ccache g++ pkg-config libgtest-dev libgmock-dev libeigen3-dev
          libmpfr-dev libmpfrc++-dev libgmp-dev libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
          liblzma-dev xz-utils libpugixml-dev
          clang libclang-rt-dev    # clang + libFuzzer runtime: the fuzz tests (tests/fuzz)
          chromium                 # headless browser: the report screenshot test (tests/report)
          prometheus shellcheck python3-yaml   # promtool, recipe checks (tests/outputs_tests.cmake)
          dpkg-dev file            # dpkg-shlibdeps for the .deb's Depends (cmake/GpuconformPackaging.cmake)
          lintian man-db           # the packages' lint and the man page's rendering (tests/package_*.sh)
          clang-format)            # tools/check_format.sh (.clang-format) on the lines a change touches
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if ! command -v nvcc >/dev/null; then
  echo "bootstrap: nvcc not found: install the CUDA toolkit (12.8 or newer) and put its bin/ on PATH" >&2
  exit 2
fi

cmake --preset default >/dev/null
cmake --build --preset default

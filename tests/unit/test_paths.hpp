// SPDX-License-Identifier: Apache-2.0
#pragma once
// Paths of the fixtures the unit tests read. The directory comes from CMake
// (GPUCONFORM_TEST_FIXTURES_DIR), not from __FILE__: with ccache's base_dir
// set, __FILE__ is a path relative to the build directory.
#include <string>

namespace gpuconform::test {

inline std::string fixtures_dir() { return GPUCONFORM_TEST_FIXTURES_DIR; }

inline std::string fixture(const std::string& name) { return fixtures_dir() + "/" + name; }

}  // namespace gpuconform::test

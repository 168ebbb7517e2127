#pragma once
// Paths of the fixtures the unit tests read. CMake passes the absolute directory: __FILE__
// is relative when ccache rewrites paths (base_dir), which made the fixtures depend on the
// directory the tests ran in.
#include <string>

namespace gpuconform::test {

inline std::string fixtures_dir() {
#ifdef GPUCONFORM_TEST_FIXTURES_DIR
  return GPUCONFORM_TEST_FIXTURES_DIR;
#else
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("/unit/")) + "/fixtures";
#endif
}

inline std::string fixture(const std::string& name) { return fixtures_dir() + "/" + name; }

}  // namespace gpuconform::test

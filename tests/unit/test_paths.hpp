#pragma once
// Paths of the fixtures the unit tests read, resolved from this file's location.
#include <string>

namespace gpuconform::test {

inline std::string fixtures_dir() {
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("/unit/")) + "/fixtures";
}

inline std::string fixture(const std::string& name) { return fixtures_dir() + "/" + name; }

}  // namespace gpuconform::test

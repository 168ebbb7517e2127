// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/ctest_resources.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace gpuconform {
namespace {

// A whole non-negative decimal integer, or -1 (atoi would read "1x" or "" as a device).
long parse_ordinal(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return -1;
  errno = 0;
  const long v = std::strtol(text.c_str(), nullptr, 10);
  return errno == 0 && v <= 1'000'000 ? v : -1;
}

std::string value(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  return v ? v : "";
}

DeviceChoice error(std::string text) {
  DeviceChoice c;
  c.error = std::move(text);
  return c;
}

// CTEST_RESOURCE_GROUP_0_GPUS: "id:N,slots:S", several allocations separated by ';'.
// A group asks for one GPU ("gpus:1"), so exactly one allocation is expected.
DeviceChoice from_ctest(const EnvLookup& env) {
  const std::string count = value(env, "CTEST_RESOURCE_GROUP_COUNT");
  if (parse_ordinal(count) < 1)
    return error("CTEST_RESOURCE_GROUP_COUNT=" + count + " but a GPU test group needs one resource group (gpus:1)");
  std::string types = "," + value(env, "CTEST_RESOURCE_GROUP_0") + ",";
  if (types.find(",gpus,") == std::string::npos)
    return error("CTEST_RESOURCE_GROUP_0=" + value(env, "CTEST_RESOURCE_GROUP_0") +
                 " names no \"gpus\" resource; the test's RESOURCE_GROUPS must be \"gpus:1\"");
  const std::string alloc = value(env, "CTEST_RESOURCE_GROUP_0_GPUS");
  const auto bad = [&] {
    return error("CTEST_RESOURCE_GROUP_0_GPUS=\"" + alloc +
                 "\" is not one GPU allocation \"id:N,slots:S\" with N a CUDA ordinal (gpuconform resources "
                 "writes such a spec file)");
  };
  if (alloc.find(';') != std::string::npos) return bad();
  long id = -1;
  bool slots = false;
  std::istringstream fields(alloc);
  for (std::string field; std::getline(fields, field, ',');) {
    if (field.rfind("id:", 0) == 0 && id < 0) {
      id = parse_ordinal(field.substr(3));
      if (id < 0) return bad();
    } else if (field.rfind("slots:", 0) == 0 && !slots) {
      if (parse_ordinal(field.substr(6)) < 1) return bad();
      slots = true;
    } else {
      return bad();
    }
  }
  if (id < 0 || !slots) return bad();
  DeviceChoice c;
  c.index = static_cast<int>(id);
  c.source = "CTEST_RESOURCE_GROUP_0_GPUS";
  c.from_ctest = true;
  return c;
}

}  // namespace

std::string ctest_resource_spec_json(int gpu_count) {
  nlohmann::ordered_json gpus = nlohmann::ordered_json::array();
  for (int i = 0; i < gpu_count; ++i) gpus.push_back({{"id", std::to_string(i)}, {"slots", 1}});
  nlohmann::ordered_json spec = {{"version", {{"major", 1}, {"minor", 0}}},
                                 {"local", nlohmann::ordered_json::array({{{"gpus", gpus}}})}};
  return spec.dump(2) + "\n";
}

DeviceChoice choose_device(const EnvLookup& env) {
  const char* count = env("CTEST_RESOURCE_GROUP_COUNT");
  if (count && *count) return from_ctest(env);
  const std::string device = value(env, "GPUCONFORM_DEVICE");
  if (device.empty()) {
    DeviceChoice c;
    c.source = "default";
    return c;
  }
  const long index = parse_ordinal(device);
  if (index < 0) return error("GPUCONFORM_DEVICE=" + device + " is not a GPU ordinal (0, 1, ...)");
  DeviceChoice c;
  c.index = static_cast<int>(index);
  c.source = "GPUCONFORM_DEVICE";
  return c;
}

}  // namespace gpuconform

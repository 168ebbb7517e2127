// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host side of a CUPTI range-profiler session (counter_session.cpp): the
// refusal every failed CUPTI call becomes, and the host object that turns
// metric names into a config image and a decoded counter-data image into
// values. Private to kernels/common; only with CUPTI headers.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cupti_api.hpp"

#if GPUCONFORM_HAVE_CUPTI

namespace gpuconform::kernels::cupti {

// CUPTI (or the driver under it) refused: the session ends with this text.
class Refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws Refused naming `call` and CUPTI's result, unless r is CUPTI_SUCCESS.
void check(const Api& a, CUptiResult r, const char* call);

// The names' C strings, for CUPTI's const char** parameters (valid while `names` is).
std::vector<const char*> c_names(const std::vector<std::string>& names);

// cuptiProfilerHostInitialize .. cuptiProfilerHostDeinitialize for one chip.
class Host {
 public:
  Host(const Api& a, const std::string& chip, const std::vector<std::uint8_t>& availability);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Whether the chip has `metric`; when not, CUPTI's answer in `why` (INVALID_METRIC_NAME,
  // or whatever else it said: an optional metric is then dropped, not fatal).
  bool knows(const std::string& metric, std::string& why) const;
  // The config image that schedules `metrics`, and the passes it needs.
  std::vector<std::uint8_t> config_image(const std::vector<std::string>& metrics);
  std::size_t passes(std::vector<std::uint8_t>& config) const;
  // The metrics' values in range `range` of a decoded counter-data image.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& data, std::size_t range,
                               const std::vector<std::string>& metrics) const;

 private:
  const Api& a_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
};

}  // namespace gpuconform::kernels::cupti

#endif

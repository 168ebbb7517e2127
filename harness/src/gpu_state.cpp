// Placeholder implementation of gpu_state.hpp: NVML not read yet (the real
// loader replaces this file).
#include "gpuconform/gpu_state.hpp"

#include "gpuconform/run_record.hpp"

namespace gpuconform {

nlohmann::json GpuState::to_json() const { return {{"nvml", nvml}, {"nvml_error", nvml_error}, {"time", time}}; }

GpuState read_gpu_state(const DeviceInfo&) {
  GpuState s;
  s.nvml_error = "NVML reading not implemented yet";
  s.time = utc_timestamp();
  return s;
}

std::string Disturbance::text() const {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}
nlohmann::json Disturbance::to_json() const { return reasons; }

struct StateWatch::Impl {};
StateWatch::StateWatch(const DeviceInfo&) : impl_(std::make_unique<Impl>()) {}
StateWatch::~StateWatch() = default;
void StateWatch::start() {}
Disturbance StateWatch::stop() { return {}; }

Verdict downgrade_for_disturbance(Verdict verdict, Family, const Disturbance&) { return verdict; }

}  // namespace gpuconform

// SPDX-License-Identifier: Apache-2.0
// A stand-in for `gpuconform worker` with no GPU: it speaks the runner's
// protocol (runner_protocol.hpp) and misbehaves on demand, so the runner's
// time limits, kills and restarts are tested on the CPU
// (tests/unit/runner_supervisor_test.cpp). What it does for each probe id:
//   fake.pass / fake.fail  finishes with that verdict
//   fake.hang              never finishes (sleeps)
//   fake.crash             aborts while running (SIGABRT)
//   fake.lost              finishes failed and exits as if the CUDA context were lost
//   fake.garbage           writes a line that is not JSON
//   fake.vanish            exits 0 in the middle of the probe
//   fake.linger            finishes (pass), then hangs instead of starting the next probe
//   fake.value             passes with a measured value (the worker's pid mod 97: runs differ)
//   fake.big               passes with a record line of about 1 MB (interleaving tests)
//   fake.board             passes, except on GPU 2 (hangs) and GPU 3 (aborts): one bad board
//   fake.rendezvous        passes once $GPUCONFORM_FAKE_RENDEZVOUS_COUNT workers (GPUs) have
//                          reached it at the same time (files in $GPUCONFORM_FAKE_RENDEZVOUS_DIR),
//                          fails after 20 s otherwise: proof that GPUs run concurrently
//   fake.peers             passes with the reason "peers: 1,2" (its --peer arguments) and a
//                          marker file in $GPUCONFORM_FAKE_PEERS_DIR while it runs: the pair
//                          phase's proof of which GPUs it was given and that nothing overlaps
// `--device 9` cannot be opened; `--device 8` opens but its worker never reports.
// Each GPU has its own UUID, "GPU-fake-<device>".
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gpuconform/runner.hpp"

using namespace gpuconform;

int main(int argc, char** argv) {
  int fd = WorkerProcess::kReportFd, device = 0;
  bool describe = false;
  std::vector<std::string> probes;
  std::string peers;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report-fd" && i + 1 < argc) fd = std::atoi(argv[++i]);
    else if (a == "--device" && i + 1 < argc) device = std::atoi(argv[++i]);
    else if (a == "--probe" && i + 1 < argc) probes.push_back(argv[++i]);
    else if (a == "--describe") describe = true;
    else if (a == "--peer" && i + 1 < argc) peers += (peers.empty() ? "" : ",") + std::string(argv[++i]);
  }
  auto emit = [&](WorkerEvent e) { write_worker_event(fd, e); };
  if (device == 9) {
    emit({WorkerEventKind::device_error, {}, {}, {}, "fake GPU 9 has fallen off the bus"});
    return kWorkerExitNoDevice;
  }
  if (device == 8) {
    for (;;) ::pause();
  }
  DeviceInfo info;
  info.index = device;
  info.name = "Fake GPU";
  info.cc_major = 9;
  info.cc_minor = 9;
  info.uuid = "GPU-fake-" + std::to_string(device);
  emit({WorkerEventKind::device, {}, {}, info, {}});
  if (describe) return kWorkerExitDone;
  for (const std::string& id : probes) {
    emit({WorkerEventKind::starting, id, {}, {}, {}});
    // Like the real worker's record_json: the device in every line.
    const nlohmann::json device_json = {{"index", device}, {"uuid", info.uuid}, {"name", info.name}};
    auto finish = [&](const char* verdict) {
      emit({WorkerEventKind::finished, id,
            {{"probe", id}, {"verdict", verdict}, {"reason", "fake"}, {"seconds", 0.0}, {"device", device_json}}, {}, {}});
    };
    if (id == "fake.pass") finish("pass");
    else if (id == "fake.peers") {
      // Another worker's marker present means two pair or node probes overlapped.
      const char* dir = std::getenv("GPUCONFORM_FAKE_PEERS_DIR");
      const auto marker = std::filesystem::path(dir ? dir : "/nonexistent") / std::to_string(::getpid());
      const bool alone = !dir || std::filesystem::is_empty(dir);
      if (dir) std::ofstream(marker) << "running\n";
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (dir) std::filesystem::remove(marker);
      emit({WorkerEventKind::finished, id,
            {{"probe", id}, {"verdict", alone ? "pass" : "fail"}, {"reason", "peers: " + peers}, {"seconds", 0.0},
             {"device", device_json}},
            {}, {}});
    } else if (id == "fake.value") {
      const double value = static_cast<double>(::getpid() % 97);
      emit({WorkerEventKind::finished, id,
            {{"probe", id}, {"verdict", "pass"}, {"reason", "fake"}, {"seconds", 0.0},
             {"measured", {{"value", value}, {"unit", "cycles"}}}, {"device", device_json}},
            {}, {}});
    } else if (id == "fake.big") {
      emit({WorkerEventKind::finished, id,
            {{"probe", id}, {"verdict", "pass"}, {"reason", std::string(1 << 20, 'x')}, {"seconds", 0.0},
             {"device", device_json}},
            {}, {}});
    } else if (id == "fake.board") {
      if (device == 2) for (;;) ::pause();
      if (device == 3) std::abort();
      finish("pass");
    } else if (id == "fake.rendezvous") {
      const char* dir = std::getenv("GPUCONFORM_FAKE_RENDEZVOUS_DIR");
      const char* count = std::getenv("GPUCONFORM_FAKE_RENDEZVOUS_COUNT");
      if (!dir || !count) return kWorkerExitFatal;
      std::ofstream(std::filesystem::path(dir) / std::to_string(device)) << "here\n";
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      auto arrived = [&] {
        return std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{});
      };
      while (arrived() < std::atol(count) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      finish(arrived() >= std::atol(count) ? "pass" : "fail");
    }
    else if (id == "fake.fail") finish("fail");
    else if (id == "fake.hang") for (;;) ::pause();
    else if (id == "fake.crash") std::abort();
    else if (id == "fake.lost") {
      finish("fail");
      return kWorkerExitContextLost;
    } else if (id == "fake.garbage") {
      const char text[] = "this is not json\n";
      if (::write(fd, text, sizeof text - 1) < 0) return 1;
      for (;;) ::pause();
    } else if (id == "fake.linger") {
      finish("pass");
      for (;;) ::pause();
    } else if (id == "fake.vanish") {
      return 0;
    } else {
      emit({WorkerEventKind::fatal, {}, {}, {}, "the fake worker knows no probe " + id});
      return kWorkerExitFatal;
    }
  }
  emit({WorkerEventKind::done, {}, {}, {}, {}});
  return kWorkerExitDone;
}

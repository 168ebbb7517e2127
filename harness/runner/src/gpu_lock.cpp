// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpuconform {
namespace {

int open_lock_file(const std::string& path) {
  // Read-only is enough for flock, so another user can lock a file this one created.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open the GPU lock file " + path + ": " + std::strerror(errno));
  return fd;
}

bool try_lock(int fd) {
  int r;
  do r = ::flock(fd, LOCK_EX | LOCK_NB);
  while (r != 0 && errno == EINTR);
  return r == 0;
}

}  // namespace

GpuLock::GpuLock(const std::string& path, const std::function<void()>& on_wait) : fd_(open_lock_file(path)) {
  if (try_lock(fd_)) {
    held_ = true;
    return;
  }
  if (on_wait) on_wait();
  int r;
  do r = ::flock(fd_, LOCK_EX);
  while (r != 0 && errno == EINTR);
  if (r != 0) {
    ::close(fd_);
    throw std::runtime_error("cannot lock " + path + ": " + std::strerror(errno));
  }
  held_ = true;
}

GpuLock::GpuLock(const std::string& path) : fd_(open_lock_file(path)) { held_ = try_lock(fd_); }

GpuLock::~GpuLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

std::string gpu_lock_path(const std::string& uuid) {
  std::string name;
  for (char c : uuid) name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return "/tmp/gpuconform-" + (name.empty() ? "unknown" : name) + ".lock";
}

}  // namespace gpuconform

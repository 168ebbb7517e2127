// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gpuconform {

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // A dot file: node_exporter reads only *.prom, and a listing hides it.
  const std::string temp = fmt::format("{}.{}.tmp.{}", dir, name, ::getpid());
  auto fail = [&](const char* what) {
    const int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {} {}: {}", path, what, temp, std::strerror(saved)));
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("creating");
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("writing");
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  if (::close(fd) != 0 || !synced) fail("flushing");
  if (std::rename(temp.c_str(), path.c_str()) != 0) fail("renaming");
}

}  // namespace gpuconform

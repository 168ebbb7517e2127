// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "gpuconform/selftest_injection.hpp"

extern char** environ;

namespace gpuconform {
namespace {

[[noreturn]] void fail_errno(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

}  // namespace

std::string describe_exit_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with code {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("ended with wait status {}", status);
}

WorkerProcess::WorkerProcess(const WorkerCommand& command, const std::vector<std::string>& args) {
  // The workers inherit the environment: self-test fault injection, if set, is announced
  // before the first one starts (docs/selftest.md).
  selftest::announce_injection_once();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail_errno("cannot create the worker pipe");
  // The write end goes to descriptor kReportFd in the worker. Move it above
  // that number first: dup2 onto itself would keep its close-on-exec flag.
  const int write_end = ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
  ::close(fds[1]);
  if (write_end < 0) {
    ::close(fds[0]);
    fail_errno("cannot set up the worker pipe");
  }
  fd_ = fds[0];

  std::vector<std::string> argv_text;
  argv_text.push_back(command.exe);
  argv_text.insert(argv_text.end(), command.args.begin(), command.args.end());
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end, kReportFd);
  posix_spawnattr_init(&attr);
  // Its own process group: a timeout kills the worker and anything it started.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);  // a worker whose parent is gone dies on its next report
  posix_spawnattr_setsigdefault(&attr, &defaults);
  const int rc = ::posix_spawn(&pid_, command.exe.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(write_end);  // the worker holds the only write end now: its exit closes the pipe
  if (rc != 0) {
    ::close(fd_);
    fd_ = -1;
    reaped_ = true;
    throw std::runtime_error(fmt::format("cannot start the worker {}: {}", command.exe, std::strerror(rc)));
  }
}

WorkerProcess::~WorkerProcess() {
  if (!reaped_) {
    kill();
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (fd_ >= 0) ::close(fd_);
}

WorkerProcess::Read WorkerProcess::next(Clock::time_point deadline, WorkerEvent& event) {
  for (;;) {
    if (std::optional<std::string> line = lines_.next_line()) {
      event = decode_worker_event(*line);
      return Read::event;
    }
    if (fd_ < 0) return Read::closed;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Read::timeout;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000LL * 60 * 60)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      fail_errno("cannot wait for the worker");
    }
    if (ready == 0) continue;  // re-check the deadline
    char buf[65536];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      fail_errno("cannot read from the worker");
    }
    if (n == 0) {  // every write end closed: the worker exited or died (a partial last line is dropped)
      ::close(fd_);
      fd_ = -1;
      return Read::closed;
    }
    lines_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
  }
}

void WorkerProcess::kill() {
  if (reaped_ || pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);  // in case it left its group
}

std::string WorkerProcess::wait(std::chrono::milliseconds grace) {
  if (reaped_) return "had already been reaped";
  int status = 0;
  const auto until = Clock::now() + grace;
  for (;;) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) fail_errno("cannot wait for the worker");
    if (Clock::now() >= until) {
      kill();
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      reaped_ = true;
      return describe_exit_status(status) + fmt::format(" (it did not exit within {} s and was killed)",
                                                        std::chrono::duration<double>(grace).count());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reaped_ = true;
  return describe_exit_status(status);
}

}  // namespace gpuconform

// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/sass.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

#include "gpuconform/atomic_file.hpp"

namespace gpuconform::sass {
namespace {

bool arch_matches(std::string_view section, std::string_view want) {
  if (section == want) return true;
  // Arch-specific and family-specific code of the same capability.
  return section.size() == want.size() + 1 && section.substr(0, want.size()) == want &&
         (section.back() == 'a' || section.back() == 'f');
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// One instruction line: `        /*0070*/  @!P0 FFMA R5, R5, R2, R3 ;   /* 0x... */`.
bool parse_instruction(std::string_view line, Instruction& out) {
  line = trim(line);
  if (line.size() < 4 || line.substr(0, 2) != "/*") return false;
  const auto close = line.find("*/");
  if (close == std::string_view::npos) return false;
  const std::string_view address = line.substr(2, close - 2);
  if (address.empty() || !std::all_of(address.begin(), address.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    return false;
  std::string_view rest = trim(line.substr(close + 2));
  const auto semicolon = rest.find(';');
  if (semicolon == std::string_view::npos) return false;
  rest = trim(rest.substr(0, semicolon));
  if (!rest.empty() && rest.front() == '@') {  // predicate guard: @P0, @!UP1, @PT
    const auto space = rest.find(' ');
    if (space == std::string_view::npos) return false;
    rest = trim(rest.substr(space));
  }
  const auto space = rest.find(' ');
  out.opcode = std::string(rest.substr(0, space));
  out.operands = space == std::string_view::npos ? std::string() : std::string(trim(rest.substr(space)));
  return !out.opcode.empty() && std::isupper(static_cast<unsigned char>(out.opcode.front()));
}

bool reads_clock(const Instruction& i) {
  return i.operands.find("SR_CLOCKLO") != std::string::npos || i.operands.find("SR_CLOCKHI") != std::string::npos;
}

// Runs a command and returns its standard output; `status` gets the exit code.
std::string capture(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    status = -1;
    return out;
  }
  char buf[8192];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int raw = ::pclose(pipe);
  status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

}  // namespace

std::map<std::string, std::vector<Instruction>> parse_dump(std::string_view text, std::string_view arch) {
  std::map<std::string, std::vector<Instruction>> functions;
  bool in_arch = false;
  std::vector<Instruction>* current = nullptr;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.rfind("code for ", 0) == 0) {
      in_arch = arch_matches(trim(line.substr(9)), arch);
      current = nullptr;
    } else if (line.rfind("Function : ", 0) == 0) {
      current = in_arch ? &functions[std::string(trim(line.substr(11)))] : nullptr;
    } else if (current) {
      Instruction ins;
      if (parse_instruction(line, ins)) current->push_back(std::move(ins));
    }
    if (end == text.size()) break;
  }
  return functions;
}

std::vector<Instruction> timed_region(const std::vector<Instruction>& function) {
  std::size_t first = function.size(), last = 0;
  int reads = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    if (!reads_clock(function[i])) continue;
    ++reads;
    first = std::min(first, i);
    last = i;
  }
  if (reads < 2) return function;
  return {function.begin() + static_cast<std::ptrdiff_t>(first) + 1, function.begin() + static_cast<std::ptrdiff_t>(last)};
}

Histogram histogram(const std::vector<Instruction>& instructions) {
  Histogram h;
  for (const Instruction& i : instructions) ++h[i.opcode];
  return h;
}

std::string format_histogram(const Histogram& h) {
  std::vector<std::pair<std::string, int>> items(h.begin(), h.end());
  std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [op, n] : items) out += fmt::format("{}{}:{}", out.empty() ? "" : " ", op, n);
  return out;
}

Histogram parse_histogram(std::string_view text) {
  Histogram h;
  std::istringstream in{std::string(text)};
  std::string token;
  while (in >> token) {
    const auto colon = token.rfind(':');
    if (colon == std::string::npos || colon == 0) continue;
    try {
      std::size_t used = 0;
      const int n = std::stoi(token.substr(colon + 1), &used);
      if (used == token.size() - colon - 1 && n > 0) h[token.substr(0, colon)] += n;
    } catch (...) {
    }
  }
  return h;
}

std::vector<std::string> missing_opcodes(const std::vector<std::string>& expected, const Histogram& observed) {
  std::vector<std::string> missing;
  for (const std::string& want : expected) {
    bool found = false;
    for (const auto& [op, n] : observed)
      if (op == want || (op.size() > want.size() && op.compare(0, want.size(), want) == 0 && op[want.size()] == '.'))
        found = true;
    if (!found) missing.push_back(want);
  }
  return missing;
}

std::string find_cuobjdump() {
  if (const char* env = std::getenv("GPUCONFORM_CUOBJDUMP"); env && *env) return executable(env) ? env : "";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs{std::string(path)};
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && executable(dir + "/cuobjdump")) return dir + "/cuobjdump";
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home && *home && executable(std::string(home) + "/bin/cuobjdump"))
      return std::string(home) + "/bin/cuobjdump";
  return executable("/usr/local/cuda/bin/cuobjdump") ? "/usr/local/cuda/bin/cuobjdump" : "";
}

std::string kernel_name(const void* kernel) {
  const char* name = nullptr;
  if (cudaFuncGetName(&name, kernel) != cudaSuccess || !name) {
    cudaGetLastError();
    return {};
  }
  return name;
}

namespace {

// "<kernel>\t<note>" per line: the timed-region histogram of every kernel of
// this executable for one architecture.
using NoteIndex = std::map<std::string, std::string>;

std::atomic<bool> cold_disassembly_allowed{true};

std::string cache_dir() {
  if (const char* d = std::getenv("GPUCONFORM_SASS_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/gpuconform";
  if (const char* d = std::getenv("HOME"); d && *d) return std::string(d) + "/.cache/gpuconform";
  return "/tmp/gpuconform-sass";
}

// This executable's path (cuobjdump must be given it: in the child process
// /proc/self/exe would name cuobjdump itself).
std::string exe_path() {
  char path[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

// Identifies this build of the executable: path, size and modification time.
std::string exe_key() {
  struct stat st {};
  const std::string path = exe_path();
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return {};
  const std::string id = fmt::format("{}|{}|{}", path, st.st_size, static_cast<long long>(st.st_mtime));
  return fmt::format("{:016x}", std::hash<std::string>{}(id));
}

bool load_index(const std::string& file, NoteIndex& index) {
  std::ifstream in(file);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) index[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return !index.empty();
}

// Disassembles this executable once (the ELF section whose target matches
// `arch`) and keeps every kernel's timed-region histogram.
NoteIndex build_index(const std::string& tool, const std::string& arch, std::string& why) {
  int status = 0;
  const std::string exe = exe_path();
  if (exe.empty() || exe.find('\'') != std::string::npos) {
    why = "unavailable: cannot name this executable for cuobjdump";
    return {};
  }
  const std::string elves = capture(fmt::format("'{}' --list-elf '{}' 2>/dev/null", tool, exe), status);
  std::string section;
  static const std::regex elf_arch(R"(\.(sm_[0-9]+[af]?)\.cubin)");
  for (std::sregex_iterator it(elves.begin(), elves.end(), elf_arch), end; it != end; ++it)
    if (arch_matches((*it)[1].str(), arch)) {
      section = (*it)[1].str();
      break;
    }
  NoteIndex index;
  if (section.empty()) {
    why = fmt::format("unavailable: this executable holds no {} code", arch);
    return index;
  }
  const std::string text = capture(
      fmt::format("'{}' --dump-sass --gpu-architecture {} '{}' 2>/dev/null", tool, section, exe), status);
  for (const auto& [name, instructions] : parse_dump(text, arch))
    index[name] = format_histogram(histogram(timed_region(instructions)));
  if (index.empty()) why = fmt::format("unavailable: {} listed no {} functions (exit {})", tool, section, status);
  return index;
}

void save_index(const std::string& file, const NoteIndex& index) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  std::string text;
  for (const auto& [name, note] : index) text += name + '\t' + note + '\n';
  try {
    write_file_atomically(file, text);  // a concurrent reader sees all or nothing
  } catch (const std::exception&) {
    // A cache: without it the next run disassembles again.
  }
}

}  // namespace

std::string timed_region_note(const void* kernel, const std::string& arch) {
  if (find_cuobjdump().empty()) return std::string(kNoCuobjdump) + " (install the CUDA toolkit's cuobjdump or set GPUCONFORM_CUOBJDUMP)";
  const std::string name = kernel_name(kernel);
  if (name.empty()) return "unavailable: cudaFuncGetName could not name the kernel";
  return timed_region_note(name, arch);
}

std::string timed_region_note(const std::string& name, const std::string& arch) {
  static std::mutex mutex;
  static std::map<std::string, NoteIndex> indexes;  // per architecture
  static std::map<std::string, std::string> failures;
  const std::string tool = find_cuobjdump();
  if (tool.empty()) return std::string(kNoCuobjdump) + " (install the CUDA toolkit's cuobjdump or set GPUCONFORM_CUOBJDUMP)";
  std::lock_guard<std::mutex> lock(mutex);
  if (!indexes.count(arch) && !failures.count(arch)) {
    // One disassembly per build of the executable, shared by every process
    // (each ctest test is one): the first writes the index, the rest read it.
    const std::string key = exe_key();
    const std::string file = key.empty() ? std::string() : fmt::format("{}/{}-{}.tsv", cache_dir(), key, arch);
    NoteIndex index;
    if (file.empty() || !load_index(file, index)) {
      std::string why;
      if (cold_disassembly_allowed) {
        index = build_index(tool, arch, why);
      } else {
        why = fmt::format("unavailable: not disassembled (a --level quick run reads only a cached disassembly; "
                          "a standard run fills the cache in {})", cache_dir());
      }
      if (index.empty()) failures[arch] = why;
      else if (!file.empty()) save_index(file, index);
    }
    if (!index.empty()) indexes[arch] = std::move(index);
  }
  if (auto f = failures.find(arch); f != failures.end()) return f->second;
  const NoteIndex& index = indexes[arch];
  if (auto it = index.find(name); it != index.end()) return it->second;
  return fmt::format("unavailable: no {} code for {} in this executable", arch, name);
}

void allow_cold_disassembly(bool allowed) { cold_disassembly_allowed = allowed; }

void load_disassembly(const std::string& arch) {
  if (!find_cuobjdump().empty()) (void)timed_region_note(std::string(), arch);  // builds or loads the index
}

std::string check_expected_opcodes(const Expectation& expected, const Measurement& measured) {
  if (expected.sass.empty()) return {};
  const std::string* note = measured.find_note("sass");
  if (!note || note->rfind(std::string(kNoCuobjdump), 0) == 0 || note->rfind("unavailable:", 0) == 0) return {};
  const auto missing = missing_opcodes(expected.sass, parse_histogram(*note));
  if (missing.empty()) return {};
  std::string list;
  for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
  return fmt::format("expected SASS opcode(s) {} not in the timed code ({}); it ran: {}", list, expected.where.str(),
                     *note);
}

}  // namespace gpuconform::sass

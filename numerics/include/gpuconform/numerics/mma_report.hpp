// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bit-for-bit comparison of MMA outputs with a model, shared by the GPU probes (GPU vs
// model) and `gpuconform vectors check` (file vs model): counts per input class and the
// first mismatches, each with every input of its row and column in hex, enough to replay
// the case on the CPU.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

class MismatchReport {
 public:
  explicit MismatchReport(VectorVariant v, std::size_t shown = 5) : v_(std::move(v)), shown_(shown) {}

  // Compares the M x N outputs of one instance. `where` names it ("line 12"); `got_name`
  // and `want_name` name the two sides in messages ("file", "model").
  void compare(std::string_view where, std::string_view klass, const std::vector<std::uint64_t>& a,
               const std::vector<std::uint64_t>& b, const std::vector<std::uint64_t>& c,
               const std::uint64_t* got, const std::uint64_t* want, std::string_view got_name,
               std::string_view want_name);

  std::uint64_t mismatches() const { return mismatches_; }
  std::uint64_t compared() const { return compared_; }
  const std::vector<std::string>& examples() const { return examples_; }
  // "normal: 0/51200, probe: 2/3072": mismatched/compared per class ("probe:x" counts as probe).
  std::string by_class() const;

 private:
  VectorVariant v_;
  std::size_t shown_;
  std::uint64_t mismatches_ = 0, compared_ = 0;
  std::vector<std::string> examples_;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>, std::less<>> classes_;
};

}  // namespace gpuconform::numerics

// SPDX-License-Identifier: Apache-2.0
#include "topology/layout_analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

namespace gpuconform::topology {
namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<std::size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  }
  void unite(int a, int b) { parent[find(a)] = find(b); }
};

bool valid_sm(int sm, int sm_count) { return sm >= 0 && sm < sm_count; }

}  // namespace

std::vector<int> GpcMap::sizes() const {
  std::vector<int> out;
  for (const auto& g : gpcs) out.push_back(static_cast<int>(g.size()));
  return out;
}

std::string id_ranges(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j == i ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return out;
}

std::string GpcMap::describe() const {
  std::string out;
  for (std::size_t g = 0; g < gpcs.size(); ++g)
    out += fmt::format("{}GPC {} ({} SMs): {}", g ? "; " : "", g, gpcs[g].size(), id_ranges(gpcs[g]));
  return out;
}

GpcMap group_by_cluster(int sm_count, const std::vector<std::vector<int>>& clusters) {
  if (sm_count <= 0) throw std::invalid_argument("group_by_cluster: no SMs");
  UnionFind uf(sm_count);
  std::vector<bool> seen(static_cast<std::size_t>(sm_count), false);
  for (const auto& c : clusters)
    for (int sm : c) {
      if (!valid_sm(sm, sm_count))
        throw std::invalid_argument(fmt::format("a cluster ran on SM {}, outside 0..{}", sm, sm_count - 1));
      seen[sm] = true;
      uf.unite(sm, c.front());
    }
  std::map<int, std::vector<int>> by_root;
  for (int sm = 0; sm < sm_count; ++sm)
    if (seen[sm]) by_root[uf.find(sm)].push_back(sm);
  GpcMap map;
  for (auto& [root, sms] : by_root) map.gpcs.push_back(std::move(sms));
  std::sort(map.gpcs.begin(), map.gpcs.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  map.gpc_of_sm.assign(static_cast<std::size_t>(sm_count), -1);
  for (std::size_t g = 0; g < map.gpcs.size(); ++g)
    for (int sm : map.gpcs[g]) map.gpc_of_sm[sm] = static_cast<int>(g);
  return map;
}

GpcCount count_gpcs(const GpcMap& map) {
  GpcCount c;
  for (const auto& g : map.gpcs) (g.size() > 2 ? c.multi_tpc : c.singleton_tpcs)++;
  return c;
}

TpcMap pair_tpcs(int sm_count, const std::vector<std::vector<std::pair<int, int>>>& launches) {
  std::vector<std::set<int>> partners(static_cast<std::size_t>(sm_count));
  for (const auto& launch : launches)
    for (auto [a, b] : launch) {
      if (!valid_sm(a, sm_count) || !valid_sm(b, sm_count))
        throw std::invalid_argument(fmt::format("a size-2 cluster ran on SMs {} and {}, outside 0..{}", a, b,
                                                sm_count - 1));
      if (a == b) continue;  // both CTAs on one SM: says nothing about TPCs
      partners[a].insert(b);
      partners[b].insert(a);
    }
  TpcMap t;
  for (int sm = 0; sm < sm_count; ++sm) {
    const auto& p = partners[sm];
    if (p.size() > 1) {
      t.inconsistent.push_back(sm);
    } else if (p.empty()) {
      t.unpaired.push_back(sm);
    } else {
      const int other = *p.begin();
      if (partners[other].size() == 1 && sm < other) t.pairs.emplace_back(sm, other);
      // other inconsistent: this SM is reported through it; other > sm: added from sm's side
      if (partners[other].size() > 1) t.inconsistent.push_back(sm);
    }
  }
  return t;
}

std::vector<std::string> layout_violations(int sm_count, const GpcMap& first, const GpcMap& second,
                                           const TpcMap& tpcs, int max_cluster) {
  std::vector<std::string> v;
  const auto sizes = first.sizes();
  const int sum = std::accumulate(sizes.begin(), sizes.end(), 0);
  if (sum != sm_count) {
    std::vector<int> missing;
    for (int sm = 0; sm < sm_count; ++sm)
      if (first.gpc_of_sm[sm] < 0) missing.push_back(sm);
    v.push_back(fmt::format("the GPCs hold {} SMs, the device has {} (never in a cluster: SM {})", sum, sm_count,
                            id_ranges(missing)));
  }
  if (first.gpcs != second.gpcs)
    v.push_back(fmt::format("two independent mapping passes disagree: [{}] against [{}]",
                            fmt::join(first.sizes(), ","), fmt::join(second.sizes(), ",")));
  if (max_cluster > 0 && (sizes.empty() || sizes.front() < max_cluster))
    v.push_back(fmt::format("no GPC holds {} SMs, yet a cluster of {} CTAs at one CTA per SM ran", max_cluster,
                            max_cluster));
  // SMs seen with several partners are not a violation: on H100 and H200 boards size-2
  // clusters were not pinned to fixed SM pairs (41-56 consistent pairs of 66 TPCs per
  // pass, 2026-11-25), so the pairs are a lower bound of the TPCs, not a map of them.
  for (auto [a, b] : tpcs.pairs)
    if (first.gpc_of_sm[a] != first.gpc_of_sm[b])
      v.push_back(fmt::format("TPC (SM {}, SM {}) spans GPC {} and GPC {}", a, b, first.gpc_of_sm[a],
                              first.gpc_of_sm[b]));
  if (2 * static_cast<int>(tpcs.pairs.size()) + static_cast<int>(tpcs.unpaired.size()) +
          static_cast<int>(tpcs.inconsistent.size()) != sm_count)
    v.push_back(fmt::format("{} TPC pairs, {} unpaired and {} inconsistent SMs do not add up to {} SMs",
                            tpcs.pairs.size(), tpcs.unpaired.size(), tpcs.inconsistent.size(), sm_count));
  return v;
}

L2Split analyze_l2_matrix(const std::vector<int>& sms, const std::vector<double>& to_a, const std::vector<double>& to_b,
                          double min_ratio, const std::vector<int>& gpc_of_sm) {
  if (sms.size() != to_a.size() || sms.size() != to_b.size() || sms.empty())
    throw std::invalid_argument("analyze_l2_matrix: rows of different lengths");
  L2Split s;
  std::vector<int> one_class;
  int count[2] = {0, 0};
  for (std::size_t r = 0; r < sms.size(); ++r) {
    const int p = to_a[r] <= to_b[r] ? 0 : 1;
    s.partition.push_back(p);
    ++count[p];
    s.near.push_back(std::min(to_a[r], to_b[r]));
    s.far.push_back(std::max(to_a[r], to_b[r]));
    if (!(s.far.back() >= min_ratio * s.near.back())) one_class.push_back(sms[r]);
  }
  if (!one_class.empty())
    s.violations.push_back(fmt::format("SM {} see no second latency class (far < {:.2f} x near)", id_ranges(one_class),
                                       min_ratio));
  for (int p = 0; p < 2; ++p)
    if (count[p] == 0) s.violations.push_back(fmt::format("no SM is near partition {}", p ? "B" : "A (SM 0's)"));
  if (!gpc_of_sm.empty()) {
    std::map<int, std::set<int>> partitions_of_gpc;
    for (std::size_t r = 0; r < sms.size(); ++r)
      if (sms[r] >= 0 && static_cast<std::size_t>(sms[r]) < gpc_of_sm.size() && gpc_of_sm[sms[r]] >= 0)
        partitions_of_gpc[gpc_of_sm[sms[r]]].insert(s.partition[r]);
    for (const auto& [gpc, parts] : partitions_of_gpc)
      if (parts.size() > 1) s.violations.push_back(fmt::format("GPC {} has SMs near both L2 partitions", gpc));
  }
  return s;
}

CurveShape check_contention_curve(const std::vector<double>& sms, const std::vector<double>& latency,
                                  const std::vector<double>& throughput, double tol) {
  if (sms.size() != latency.size() || sms.size() != throughput.size() || sms.empty())
    throw std::invalid_argument("check_contention_curve: curves of different lengths");
  CurveShape c;
  double highest = latency.front();
  std::size_t highest_at = 0;
  for (std::size_t i = 1; i < latency.size(); ++i) {
    if (latency[i] < (1 - tol) * highest)
      c.violations.push_back(fmt::format("latency fell from {:.1f} at {:.0f} SMs to {:.1f} at {:.0f} SMs", highest,
                                         sms[highest_at], latency[i], sms[i]));
    if (latency[i] > highest) highest = latency[i], highest_at = i;
  }
  const double best = *std::max_element(throughput.begin(), throughput.end());
  while (c.saturation + 1 < throughput.size() && throughput[c.saturation] < 0.9 * best) ++c.saturation;
  for (std::size_t i = c.saturation; i < throughput.size(); ++i)
    if (throughput[i] < 0.5 * best)
      c.violations.push_back(fmt::format("throughput collapsed to {:.3g} at {:.0f} SMs (best {:.3g}, reached 90% at "
                                         "{:.0f} SMs)", throughput[i], sms[i], best, sms[c.saturation]));
  return c;
}

std::string join_violations(const std::vector<std::string>& violations) {
  if (violations.empty()) return {};
  return fmt::format("{} violation{}: {}", violations.size(), violations.size() == 1 ? "" : "s",
                     fmt::join(violations, "; "));
}

}  // namespace gpuconform::topology

namespace gpuconform::topology {

std::vector<std::string> placement_violations(const std::vector<int>& sm_of_block, int sm_count, int per_sm) {
  std::vector<int> count(static_cast<std::size_t>(sm_count), 0);
  std::vector<int> outside;
  for (int sm : sm_of_block) {
    if (sm >= 0 && sm < sm_count) ++count[sm];
    else outside.push_back(sm);
  }
  std::map<int, std::vector<int>> by_count;  // blocks run -> SMs, for the SMs that differ
  for (int sm = 0; sm < sm_count; ++sm)
    if (count[sm] != per_sm) by_count[count[sm]].push_back(sm);
  std::vector<std::string> v;
  for (const auto& [n, sms] : by_count)
    v.push_back(fmt::format("SM {} ran {} block{} (expected {})", id_ranges(sms), n, n == 1 ? "" : "s", per_sm));
  if (!outside.empty()) v.push_back(fmt::format("{} blocks reported an SM id outside 0..{}", outside.size(), sm_count - 1));
  return v;
}

}  // namespace gpuconform::topology

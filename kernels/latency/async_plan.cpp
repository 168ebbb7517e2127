// SPDX-License-Identifier: Apache-2.0
#include "latency/async_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace gpuconform::kernels::plan {

std::vector<std::uint32_t> ordered_cycle(std::size_t n) {
  if (n == 0) throw std::invalid_argument("ordered_cycle: no nodes");
  std::vector<std::uint32_t> next(n);
  for (std::size_t i = 0; i < n; ++i) next[i] = static_cast<std::uint32_t>((i + 1) % n);
  return next;
}

std::vector<unsigned long long> warm_then_timed(const std::vector<unsigned long long>& warm,
                                                const std::vector<unsigned long long>& timed) {
  if (timed.empty()) throw std::invalid_argument("warm_then_timed: no timed nodes");
  const std::unordered_set<unsigned long long> timed_set(timed.begin(), timed.end());
  if (timed_set.size() != timed.size()) throw std::invalid_argument("warm_then_timed: a timed node repeats");
  std::unordered_set<unsigned long long> warm_set;
  for (unsigned long long w : warm) {
    if (timed_set.count(w)) throw std::invalid_argument("warm_then_timed: a warm node is also timed");
    if (!warm_set.insert(w).second) throw std::invalid_argument("warm_then_timed: a warm node repeats");
  }
  std::vector<unsigned long long> out(warm);
  out.insert(out.end(), timed.begin(), timed.end());
  return out;
}

std::vector<unsigned long long> lines_outside(unsigned long long bytes, unsigned long long line, std::size_t count,
                                              const std::vector<unsigned long long>& exclude) {
  if (line == 0) throw std::invalid_argument("lines_outside: zero line size");
  const unsigned long long total = bytes / line;
  const std::unordered_set<unsigned long long> ex(exclude.begin(), exclude.end());
  if (total < ex.size() + count) throw std::invalid_argument("lines_outside: the range has too few free lines");
  std::vector<unsigned long long> out;
  const unsigned long long step = std::max<unsigned long long>(1, total / (count + 1));
  for (unsigned long long i = step / 2; out.size() < count && i < total; i += step) {
    unsigned long long j = i;  // the next free line at or after i
    while (j < total && ex.count(j * line)) ++j;
    if (j < total && (out.empty() || out.back() != j * line)) out.push_back(j * line);
  }
  for (unsigned long long j = 0; out.size() < count && j < total; ++j)  // a dense exclusion: fill from the start
    if (!ex.count(j * line) && std::find(out.begin(), out.end(), j * line) == out.end()) out.push_back(j * line);
  return out;
}

double per_step_cycles(long long t_short, long long t_long, int n) {
  if (n <= 0) throw std::invalid_argument("per_step_cycles: no steps");
  if (t_long <= t_short)
    throw std::invalid_argument("per_step_cycles: the 2N-step chain (" + std::to_string(t_long) +
                                " cycles) was not longer than the N-step one (" + std::to_string(t_short) + ")");
  return static_cast<double>(t_long - t_short) / n;
}

double one_way_cycles(long long cycles, int rounds) {
  if (rounds <= 0 || cycles <= 0) throw std::invalid_argument("one_way_cycles: no round trips timed");
  return static_cast<double>(cycles) / (2.0 * rounds);
}

Tma2dPlan plan_tma_2d(unsigned long long bytes, unsigned elem_bytes, unsigned long long row_elems, unsigned box_w,
                      unsigned box_h) {
  if (elem_bytes == 0 || (elem_bytes & (elem_bytes - 1)) != 0 || elem_bytes > 8)
    throw std::invalid_argument("plan_tma_2d: element size must be 1, 2, 4 or 8 bytes");
  if (box_w < 1 || box_w > 256 || box_h < 1 || box_h > 256)
    throw std::invalid_argument("plan_tma_2d: box dimensions must be 1..256 elements");
  if ((static_cast<unsigned long long>(box_w) * elem_bytes) % 16 != 0)
    throw std::invalid_argument("plan_tma_2d: the box's inner dimension must span a multiple of 16 bytes");
  if (row_elems == 0 || row_elems % box_w != 0)
    throw std::invalid_argument("plan_tma_2d: a row must hold a whole number of boxes");
  Tma2dPlan p;
  p.width = row_elems;
  p.row_bytes = row_elems * elem_bytes;
  if (p.row_bytes % 16 != 0 || p.row_bytes >= (1ull << 40))
    throw std::invalid_argument("plan_tma_2d: the row stride must be a multiple of 16 bytes below 2^40");
  p.box_w = box_w;
  p.box_h = box_h;
  p.tile_bytes = static_cast<unsigned long long>(box_w) * box_h * elem_bytes;
  p.tiles_x = row_elems / box_w;
  p.tiles_y = bytes / p.row_bytes / box_h;
  p.height = p.tiles_y * box_h;
  if (p.tiles_y == 0) throw std::invalid_argument("plan_tma_2d: the buffer holds no full row of tiles");
  if (p.width >= (1ull << 32) || p.height >= (1ull << 32))
    throw std::invalid_argument("plan_tma_2d: a dimension reaches 2^32 elements");
  return p;
}

void tile_coordinates(const Tma2dPlan& p, unsigned long long t, unsigned& x, unsigned& y) {
  if (t >= p.tiles()) throw std::out_of_range("tile_coordinates: tile outside the pass");
  x = static_cast<unsigned>((t % p.tiles_x) * p.box_w);
  y = static_cast<unsigned>((t / p.tiles_x) * p.box_h);
}

}  // namespace gpuconform::kernels::plan

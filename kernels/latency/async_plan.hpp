// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side plans of the issue-23 probes (no CUDA): the chase orders of the
// asynchronous-copy and L2-miss latencies, the ping-pong arithmetic of the
// DSMEM store latency and the tile plan of the 2-D tensor-map TMA stream.
// Unit-tested in tests/unit/kernels/async_plan_test.cpp.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuconform::kernels::plan {

// next[] of a single cycle that visits nodes 0, 1, ..., n-1 in order and
// returns to 0 (ChaseBuffer::place's format). n >= 1.
std::vector<std::uint32_t> ordered_cycle(std::size_t n);

// A chase order for a first-touch lap: `warm` nodes (untimed: they bring the
// TLB entries of the pages in) followed by `timed` nodes, as one cycle.
// Returns the node offsets in visiting order; the lap starts at offsets[0] and
// the timed hops are the last timed.size() of them. Throws
// std::invalid_argument when a warm line is also a timed line (it would hit).
std::vector<unsigned long long> warm_then_timed(const std::vector<unsigned long long>& warm,
                                                const std::vector<unsigned long long>& timed);

// `count` line offsets (multiples of `line`) of [0, bytes) that are not in
// `exclude`, spread evenly over the range (deterministic).
std::vector<unsigned long long> lines_outside(unsigned long long bytes, unsigned long long line, std::size_t count,
                                              const std::vector<unsigned long long>& exclude);

// Per-step cycles of a dependent chain timed at n and 2n steps:
// (t_long - t_short) / n. Throws std::invalid_argument for n <= 0 or a
// non-positive difference (a clock that went backwards or a chain that was
// shortened).
double per_step_cycles(long long t_short, long long t_long, int n);

// One-way latency of a ping-pong between two CTAs: `rounds` round trips took
// `cycles`; each round trip is two one-way store-to-observe hops.
double one_way_cycles(long long cycles, int rounds);

// The 2-D tensor-map view of a device buffer that throughput.tma.tensor_2d
// streams: rows of `row_elems` elements of `elem_bytes`, tiles of box_w x box_h
// elements, as many whole tiles as fit in `bytes`.
struct Tma2dPlan {
  unsigned long long width = 0;       // elements per row (dimension 0)
  unsigned long long height = 0;      // rows (dimension 1), a multiple of box_h
  unsigned long long row_bytes = 0;   // global stride of dimension 1
  unsigned box_w = 0, box_h = 0;      // tile, elements
  unsigned long long tile_bytes = 0;  // box_w x box_h x elem_bytes
  unsigned long long tiles_x = 0, tiles_y = 0;
  unsigned long long tiles() const { return tiles_x * tiles_y; }
  unsigned long long bytes() const { return tiles() * tile_bytes; }  // bytes one pass reads
};

// Checks the TMA rules of cuTensorMapEncodeTiled for an uninterleaved,
// unswizzled 2-D map (box dimensions 1..256, inner box bytes a multiple of 16,
// row stride a multiple of 16 below 2^40, dimensions below 2^32) and returns
// the plan, or throws std::invalid_argument naming the rule.
Tma2dPlan plan_tma_2d(unsigned long long bytes, unsigned elem_bytes, unsigned long long row_elems, unsigned box_w,
                      unsigned box_h);

// Tile t (0 <= t < tiles()) of a pass: its coordinates {x, y} in elements,
// row-major over tiles, so consecutive tiles are consecutive in memory along a
// row of tiles.
void tile_coordinates(const Tma2dPlan& p, unsigned long long t, unsigned& x, unsigned& y);

}  // namespace gpuconform::kernels::plan

// SPDX-License-Identifier: Apache-2.0
// Host side and helper kernels of the pointer-chase mechanism (pointer_chase.cuh).
#include "latency/pointer_chase.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpuconform::kernels::chase_dev {

__global__ void write_nodes_kernel(char* base, const unsigned long long* offsets, const unsigned* next, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    *reinterpret_cast<unsigned long long*>(base + offsets[i]) =
        reinterpret_cast<unsigned long long>(base + offsets[next[i]]);
}

__global__ void flush_kernel(const int4* buf, unsigned long long count, int4* sink) {
  int acc = 0;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const int4 v = __ldcg(buf + i);
    acc ^= v.x ^ v.w;
  }
  if (acc == 0x5eed) sink->x = acc;  // practically never
}

ChaseBuffer::ChaseBuffer(std::size_t bytes) : buffer_(bytes) { GC_CUDA_CHECK(cudaMemset(buffer_.get(), 0x5A, bytes)); }

unsigned long long ChaseBuffer::place(const std::vector<unsigned long long>& offsets,
                                      const std::vector<std::uint32_t>& next, std::uint32_t start) {
  if (offsets.size() != next.size() || offsets.empty()) throw std::invalid_argument("ChaseBuffer::place: bad plan");
  for (unsigned long long o : offsets)
    if (o % 8 != 0 || o + 8 > bytes()) throw std::invalid_argument("ChaseBuffer::place: node outside the buffer");
  DeviceBuffer<unsigned long long> d_offsets(offsets);
  DeviceBuffer<unsigned> d_next(std::vector<unsigned>(next.begin(), next.end()));
  const unsigned n = static_cast<unsigned>(offsets.size());
  write_nodes_kernel<<<(n + 255) / 256, 256>>>(base(), d_offsets.get(), d_next.get(), n);
  GC_CUDA_CHECK_LAUNCH();
  return reinterpret_cast<unsigned long long>(base() + offsets[start]);
}

std::vector<unsigned long long> spread_start_addresses(const ChaseBuffer& buf,
                                                       const std::vector<unsigned long long>& offsets,
                                                       const std::vector<std::uint32_t>& next, std::size_t units) {
  if (offsets.size() != next.size()) throw std::invalid_argument("spread_start_addresses: bad plan");
  std::vector<unsigned long long> out;
  for (std::uint32_t node : placement::spread_starts(next, 0, units))
    out.push_back(reinterpret_cast<unsigned long long>(buf.base() + offsets[node]));
  return out;
}

template <Level L>
ChaseResult run_chase(const ChaseArgs& args, int grid_sms, bool want_trace) {
  if (args.timed_hops <= 0) throw std::invalid_argument("run_chase: no timed hops");
  DeviceBuffer<long long> result(3);
  DeviceBuffer<unsigned> claimed(1);
  DeviceBuffer<unsigned> trace(want_trace ? kMaxTrace : 0);
  GC_CUDA_CHECK(cudaMemset(claimed.get(), 0, sizeof(unsigned)));
  GC_CUDA_CHECK(cudaMemset(result.get(), 0xFF, 3 * sizeof(long long)));
  ChaseArgs a = args;
  a.claimed = claimed.get();
  a.result = result.get();
  a.trace = want_trace ? trace.get() : nullptr;
  const int grid = a.target_sm >= 0 ? 2 * grid_sms : 1;
  if (want_trace)
    chase_kernel<L, true><<<grid, kChaseThreads>>>(a);
  else
    chase_kernel<L, false><<<grid, kChaseThreads>>>(a);
  GC_CUDA_CHECK_LAUNCH();
  const auto r = result.download();
  if (r[0] < 0)
    throw std::runtime_error("the chase block never ran on SM " + std::to_string(a.target_sm) +
                             " (pinning by %smid failed)");
  ChaseResult out;
  const int hops = want_trace ? std::min(a.timed_hops, kMaxTrace) : a.timed_hops;
  out.cycles_per_hop = static_cast<double>(r[0]) / hops;
  out.sm = static_cast<int>(r[1]);
  if (want_trace) {
    out.trace = trace.download();
    out.trace.resize(static_cast<std::size_t>(hops));
  }
  return out;
}

template <Level L>
placement::Launch run_chase_on_every_sm(const ChaseArgs& args, every_sm::SlotSet& slots,
                                        const std::vector<unsigned long long>& starts) {
  if (args.timed_hops <= 0) throw std::invalid_argument("run_chase_on_every_sm: no timed hops");
  ChaseArgs a = args;
  a.every = slots.arm(starts);
  a.target_sm = -1;
  chase_kernel<L, false><<<slots.grid(), kChaseThreads>>>(a);
  GC_CUDA_CHECK_LAUNCH();
  return slots.collect(a.timed_hops);
}

template placement::Launch run_chase_on_every_sm<Level::l2>(const ChaseArgs&, every_sm::SlotSet&,
                                                            const std::vector<unsigned long long>&);
template placement::Launch run_chase_on_every_sm<Level::atom_add>(const ChaseArgs&, every_sm::SlotSet&,
                                                                  const std::vector<unsigned long long>&);
template placement::Launch run_chase_on_every_sm<Level::atom_cas>(const ChaseArgs&, every_sm::SlotSet&,
                                                                  const std::vector<unsigned long long>&);

template ChaseResult run_chase<Level::l1>(const ChaseArgs&, int, bool);
template ChaseResult run_chase<Level::l2>(const ChaseArgs&, int, bool);
template ChaseResult run_chase<Level::atom_add>(const ChaseArgs&, int, bool);
template ChaseResult run_chase<Level::atom_cas>(const ChaseArgs&, int, bool);

void set_l1_carveout(int shared_percent) {
  GC_CUDA_CHECK(cudaFuncSetAttribute(chase_kernel<Level::l1, false>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     shared_percent));
}

L2Flusher::L2Flusher(std::int64_t l2_bytes, int sm_count)
    : buf_(static_cast<std::size_t>(2 * l2_bytes) / sizeof(int4)), sink_(1), grid_(4 * sm_count) {
  GC_CUDA_CHECK(cudaMemset(buf_.get(), 0x3C, buf_.bytes()));
}

void L2Flusher::flush() {
  flush_kernel<<<grid_, 512>>>(buf_.get(), buf_.size(), sink_.get());
  GC_CUDA_CHECK_LAUNCH();
}

}  // namespace gpuconform::kernels::chase_dev

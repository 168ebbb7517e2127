// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/sparse_mma.hpp"

#include <fmt/format.h>

#include <atomic>
#include <stdexcept>

#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_a.hpp"

namespace gpuconform::numerics {
namespace {

int width_of(const VectorVariant& v) { return sparse::chunk_width(element_bits(v.ab_type)); }

std::atomic<sparse::MetaLayout> g_layout{sparse::MetaLayout::kColumnHalves};

}  // namespace

sparse::MetaLayout metadata_layout() { return g_layout.load(); }
void set_metadata_layout(sparse::MetaLayout layout) { g_layout.store(layout); }

void metadata_words(int k, int ab_bits, int selector, const std::uint8_t* nibbles, std::uint32_t* words) {
  const sparse::MetaFamily family = sparse::meta_family(k, ab_bits);
  const int chunks = k / sparse::chunk_width(ab_bits);
  const sparse::MetaLayout layout = g_layout.load();
  for (int lane = 0; lane < 32; ++lane) {
    std::uint32_t word = 0;
    for (int n = 0; n < 8; ++n) {
      const sparse::MetaSlot s = layout == sparse::MetaLayout::kColumnHalves
                                     ? sparse::meta_at(family, lane, n, selector)
                                     : sparse::meta_alternative(layout, family, lane, n, selector);
      const unsigned value = s.row < 0 ? sparse::kDecoyNibble : nibbles[s.row * chunks + s.chunk];
      word |= static_cast<std::uint32_t>(value) << (4 * n);
    }
    words[lane] = word;
  }
}

VectorVariant dense_variant(const VectorVariant& v) {
  VectorVariant c = v;
  c.instruction = v.instruction == "wgmmasp" ? "wgmma" : "mma";
  c.qualifiers.clear();
  for (const std::string& q : v.qualifiers)
    if (q != "sel0" && q != "sel1") c.qualifiers.push_back(q);
  c.name = c.arithmetic_name();
  return c;
}

VectorVariant compressed_variant(const VectorVariant& v) {
  VectorVariant c = v;
  c.k = v.k / 2;
  return dense_variant(c);
}

std::vector<KeptSet> kept_sets(const VectorVariant& v) {
  if (width_of(v) == 2) return {{1, {0, 0}}, {1, {1, 1}}};
  return {{2, {0, 1}}, {2, {0, 2}}, {2, {0, 3}}, {2, {1, 2}}, {2, {1, 3}}, {2, {2, 3}}};
}

void sparsify(const VectorVariant& v, std::vector<std::uint64_t>& a, ref::Rng& rng) {
  const std::vector<KeptSet> sets = kept_sets(v);
  const int width = width_of(v);
  for (int i = 0; i < v.m; ++i)
    for (int c = 0; c < v.k / width; ++c) {
      const KeptSet& s = sets[rng() % sets.size()];
      for (int p = 0; p < width; ++p)
        if (p != s.pos[0] && p != s.pos[s.count - 1]) a[static_cast<std::size_t>(i) * v.k + c * width + p] = 0;
    }
}

std::vector<int> kept_positions(const VectorVariant& v, const std::uint64_t* a, int row, const std::uint8_t* metadata) {
  if (metadata) {  // the file's own: a kept zero stays where the file says
    const int width = width_of(v), keep = width / 2, chunks = v.k / width;
    std::vector<int> positions;
    for (int c = 0; c < chunks; ++c) {
      const unsigned nibble = metadata[static_cast<std::size_t>(row) * chunks + c];
      sparse::Kept kept{{0, 0}};
      if (!sparse::kept_of(width, nibble, kept))
        throw std::invalid_argument(
            fmt::format("{}: row {} chunk {}: metadata {:x} is not a defined kept set", v.name, row, c, nibble));
      for (int j = 0; j < keep; ++j) positions.push_back(c * width + kept.pos[j]);
    }
    return positions;
  }
  std::vector<std::uint64_t> kept(static_cast<std::size_t>(v.k / 2));
  std::vector<std::uint8_t> nibbles(static_cast<std::size_t>(v.k / width_of(v)));
  std::vector<int> positions(static_cast<std::size_t>(v.k / 2));
  if (!sparse::compress_row(a + static_cast<std::size_t>(row) * v.k, v.k, element_bits(v.ab_type), kept.data(),
                            nibbles.data(), positions.data()))
    throw std::invalid_argument(fmt::format("{}: row {} of A has more than {} non-zero elements in a chunk of {}: "
                                            "not structured-sparse",
                                            v.name, row, width_of(v) / 2, width_of(v)));
  return positions;
}

MmaInstance scatter_probe(const VectorVariant& v, const MmaInstance& half, int pattern) {
  const std::vector<KeptSet> sets = kept_sets(v);
  const int width = width_of(v), keep = width / 2, hk = v.k / 2;
  MmaInstance out;
  out.klass = half.klass;
  out.a.assign(v.a_count(), 0);
  out.b.assign(v.b_count(), 0);
  out.c = half.c;
  for (int c = 0; c < v.k / width; ++c) {
    const std::uint64_t* values = half.a.data() + c * keep;
    // The preferred set, else the first that the compression reads back as `values`.
    for (std::size_t tried = 0; tried < sets.size(); ++tried) {
      const KeptSet& s = sets[tried == 0 ? (static_cast<std::size_t>(pattern) + c) % sets.size() : tried - 1];
      std::uint64_t chunk[4] = {};
      for (int j = 0; j < keep; ++j) chunk[s.pos[j]] = values[j];
      sparse::Kept chosen{{0, 0}};
      sparse::choose_kept(chunk, width, chosen);
      bool same = true;
      for (int j = 0; j < keep; ++j) same &= chosen.pos[j] == s.pos[j];
      if (!same) continue;
      for (int j = 0; j < keep; ++j) out.a[c * width + s.pos[j]] = values[j];
      break;
    }
  }
  for (int i = 1; i < v.m; ++i)
    for (int k = 0; k < hk; ++k)
      if (half.a[static_cast<std::size_t>(i) * hk + k] != 0)
        throw std::logic_error("scatter_probe: rows 1.. of a probe's A must be zero");
  const std::vector<int> kept = kept_positions(v, out.a.data(), 0);  // row 0 decides where B goes
  for (int j = 0; j < v.n; ++j)
    for (int k = 0; k < hk; ++k)
      out.b[static_cast<std::size_t>(j) * v.k + kept[k]] = half.b[static_cast<std::size_t>(j) * hk + k];
  return out;
}

void compressed_mma(const ref::TensorCoreModel& m, const VectorVariant& v, const std::uint64_t* a,
                    const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d, const std::uint8_t* metadata) {
  const int hk = v.k / 2;
  std::vector<std::uint64_t> ka(static_cast<std::size_t>(hk)), kb(static_cast<std::size_t>(hk));
  for (int i = 0; i < v.m; ++i) {
    const std::vector<int> kept = kept_positions(v, a, i, metadata);
    for (int k = 0; k < hk; ++k) ka[k] = a[static_cast<std::size_t>(i) * v.k + kept[k]];
    for (int j = 0; j < v.n; ++j) {
      for (int k = 0; k < hk; ++k) kb[k] = b[static_cast<std::size_t>(j) * v.k + kept[k]];
      d[i * v.n + j] = ref::dot(m, hk, ka.data(), kb.data(), c[i * v.n + j]);
    }
  }
}

const ref::TensorCoreModel* sparse_default_model(std::string_view arch, const VectorVariant& v) {
  if (!float_format(v.ab_type) || !float_format(v.d_type)) return nullptr;
  return ref::default_model(arch, compressed_variant(v).arithmetic_name());
}

std::vector<ref::MmaRecord> compressed_records(const VectorVariant& v, const std::vector<ref::MmaRecord>& records,
                                               const std::vector<std::vector<std::uint8_t>>& metadata) {
  if (!metadata.empty() && metadata.size() != records.size())
    throw std::logic_error("compressed_records: one metadata vector per record, or none");
  const int hk = v.k / 2;
  std::vector<ref::MmaRecord> out;
  out.reserve(records.size() * static_cast<std::size_t>(v.m));
  for (std::size_t n = 0; n < records.size(); ++n) {
    const ref::MmaRecord& r = records[n];
    for (int i = 0; i < v.m; ++i) {
      std::vector<int> kept;
      try {
        kept = kept_positions(v, r.a.data(), i, metadata.empty() ? nullptr : metadata[n].data());
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("instance {} ({}): {}", n, r.klass, e.what()));
      }
      ref::MmaRecord row;
      row.klass = r.klass;
      row.a.resize(static_cast<std::size_t>(hk));
      row.b.resize(static_cast<std::size_t>(hk) * v.n);
      for (int k = 0; k < hk; ++k) row.a[k] = r.a[static_cast<std::size_t>(i) * v.k + kept[k]];
      for (int j = 0; j < v.n; ++j)
        for (int k = 0; k < hk; ++k)
          row.b[static_cast<std::size_t>(j) * hk + k] = r.b[static_cast<std::size_t>(j) * v.k + kept[k]];
      row.c.assign(r.c.begin() + i * v.n, r.c.begin() + (i + 1) * v.n);
      row.d.assign(r.d.begin() + i * v.n, r.d.begin() + (i + 1) * v.n);
      out.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace gpuconform::numerics

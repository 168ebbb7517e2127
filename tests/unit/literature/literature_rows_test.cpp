// SPDX-License-Identifier: Apache-2.0
// Issue 23: every printed row of the seed papers' tables (seed 000 Tables I-V, seed 001 Tables 3-15
// and the figure values its text prints, seed 003's printed values) is judged or deliberately not:
// an entry of the named expectation file (or peak table) or an [[omitted]] record there saying why.
// The rows are data, typed from the papers (seed000_rows.tsv, seed001_rows.tsv, seed003_rows.tsv
// beside this file): row id, the citation token the record's source must name, the printed values,
// the file, the ids. A row fails when an id has neither an entry nor an omission, when no record
// of the row cites its table, or when a printed value appears in none of the row's records (a
// numeric field equal to it, or the value as a token of the source, note or reason text).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpuconform/expectation.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

std::string rows_dir() { return test::fixtures_dir() + "/../unit/literature"; }
std::string expectations_dir() { return GPUCONFORM_TEST_EXPECTATIONS_DIR; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

struct Row {
  std::string file_line;  // "seed000_rows.tsv:12"
  std::string id, cite, file;
  std::vector<std::string> values, ids;
};

std::vector<Row> read_rows(const std::string& name) {
  std::vector<Row> rows;
  std::ifstream in(rows_dir() + "/" + name);
  EXPECT_TRUE(in) << "cannot read " << rows_dir() << "/" << name;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cols = split(line, '\t');
    EXPECT_EQ(cols.size(), 5u) << name << ":" << n << ": expected 5 tab-separated columns";
    if (cols.size() != 5) continue;
    rows.push_back(
        Row{name + ":" + std::to_string(n), cols[0], cols[1], cols[3], split(cols[2], ';'), split(cols[4], ',')});
  }
  return rows;
}

// The texts and numbers one id contributes to a row's check.
struct Record {
  std::string source, text;  // text: source + note (+ reason)
  std::vector<double> numbers;
};

// One expectation file or peak table, parsed once.
struct LiteratureFile {
  std::map<std::string, Record> entries, omitted;
  std::vector<Diagnostic> diagnostics;
};

const LiteratureFile& load(const std::string& rel) {
  static std::map<std::string, std::unique_ptr<LiteratureFile>> cache;
  auto& slot = cache[rel];
  if (slot) return *slot;
  slot = std::make_unique<LiteratureFile>();
  LiteratureFile& f = *slot;
  const std::string path = expectations_dir() + "/" + rel;
  if (rel.rfind("peaks/", 0) == 0) {
    const PeakTable t = parse_peak_file(path, f.diagnostics);
    for (const auto& [id, p] : t.entries)
      f.entries[id] = Record{p.source, p.source + " " + p.note, {p.per_sm_per_clock}};
    return f;
  }
  const Registry& reg = Registry::instance();
  const ExpectationFile e = parse_expectation_file(
      path, f.diagnostics, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
  for (const Expectation& x : e.entries) {
    Record r{x.source, x.source + " " + x.note, {}};
    for (const auto& v : {x.value, x.min, x.max, x.min_fraction})
      if (v) r.numbers.push_back(*v);
    f.entries[x.probe_id] = r;
  }
  for (const Omission& o : e.omitted) f.omitted[o.id] = Record{o.source, o.source + " " + o.reason + " " + o.note, {}};
  return f;
}

// `v` as a token of `text`: not inside a longer number (no digit or '.' before it, no digit or
// decimal part after it).
bool has_token(const std::string& text, const std::string& v) {
  for (std::size_t at = text.find(v); at != std::string::npos; at = text.find(v, at + 1)) {
    const char before = at == 0 ? ' ' : text[at - 1];
    const std::size_t end = at + v.size();
    const char after = end < text.size() ? text[end] : ' ';
    const char after2 = end + 1 < text.size() ? text[end + 1] : ' ';
    const bool digit_before = std::isdigit(static_cast<unsigned char>(before)) || before == '.';
    const bool digit_after = std::isdigit(static_cast<unsigned char>(after)) ||
                             (after == '.' && std::isdigit(static_cast<unsigned char>(after2)));
    // A word token ("Table I") must not run into a longer word ("Table II").
    const bool word_after =
        std::isalpha(static_cast<unsigned char>(v.back())) && std::isalnum(static_cast<unsigned char>(after));
    if (!digit_before && !digit_after && !word_after) return true;
  }
  return false;
}

bool numeric_equal(const std::string& v, const std::vector<double>& numbers) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') return false;
  for (double n : numbers)
    if (n == x) return true;
  return false;
}

// Checks every row of one list; returns the number of rows it read.
std::size_t check_rows(const std::string& list) {
  const std::vector<Row> rows = read_rows(list);
  for (const Row& row : rows) {
    SCOPED_TRACE(row.file_line + " (" + row.id + ")");
    const LiteratureFile& f = load(row.file);
    if (!f.diagnostics.empty()) {
      ADD_FAILURE() << row.file << ": " << f.diagnostics.front().str();
      continue;
    }
    std::vector<const Record*> records;
    for (const std::string& id : row.ids) {
      const auto e = f.entries.find(id);
      const auto o = f.omitted.find(id);
      if (e != f.entries.end())
        records.push_back(&e->second);
      else if (o != f.omitted.end())
        records.push_back(&o->second);
      else
        ADD_FAILURE() << "'" << id << "' has neither an entry nor an [[omitted]] record in expectations/" << row.file;
    }
    if (records.empty()) continue;
    bool cited = false;
    for (const Record* r : records) cited |= has_token(r->source, row.cite);
    EXPECT_TRUE(cited) << "no record of the row names '" << row.cite << "' in its source";
    for (const std::string& v : row.values) {
      bool found = false;
      for (const Record* r : records) found |= numeric_equal(v, r->numbers) || has_token(r->text, v);
      EXPECT_TRUE(found) << "the printed value '" << v << "' appears in none of the row's records";
    }
  }
  return rows.size();
}

// Rows per table as the papers print them: a row lost from a list fails here.
std::map<std::string, int> rows_per_table(const std::string& list) {
  std::map<std::string, int> n;
  for (const Row& row : read_rows(list)) ++n[row.id.substr(0, row.id.find('/'))];
  return n;
}

TEST(LiteratureRows, Seed000TablesIToVAreEntriesOrOmitted) {
  EXPECT_EQ(check_rows("seed000_rows.tsv"), 130u);
  const std::map<std::string, int> expected = {{"I", 4}, {"II", 5}, {"III", 7}, {"IV", 4}, {"V", 110}};
  EXPECT_EQ(rows_per_table("seed000_rows.tsv"), expected);
}

TEST(LiteratureRows, Seed001Tables3To15AndPrintedFiguresAreEntriesOrOmitted) {
  check_rows("seed001_rows.tsv");
  std::map<std::string, int> n = rows_per_table("seed001_rows.tsv");
  const std::map<std::string, int> tables = {{"3", 9},  {"4", 9},  {"5", 3},  {"6", 8},  {"7", 8},  {"8", 5}, {"9", 3},
                                             {"10", 2}, {"11", 6}, {"12", 3}, {"13", 3}, {"14", 3}, {"15", 3}};
  for (const auto& [table, count] : tables) EXPECT_EQ(n[table], count) << "Table " << table;
  const std::map<std::string, int> figures = {{"Fig6", 3},  {"Fig7", 1},  {"Fig10", 1},
                                              {"Fig11", 1}, {"Fig15", 6}, {"Fig20", 1}};
  for (const auto& [figure, count] : figures) EXPECT_EQ(n[figure], count) << figure;
}

TEST(LiteratureRows, Seed003PrintedValuesAreEntriesOrOmitted) { EXPECT_EQ(check_rows("seed003_rows.tsv"), 24u); }

// The checker itself: a value inside a longer number is no match, an exact one is.
TEST(LiteratureRows, TokenMatchIgnoresLongerNumbers) {
  EXPECT_TRUE(has_token("Table V gives 2-18 cycles", "2-18"));
  EXPECT_TRUE(has_token("(4,3) 27.4 cycles", "4,3"));
  EXPECT_FALSE(has_token("Table V gives 290 cycles", "29"));
  EXPECT_FALSE(has_token("24.7 cycles", "24"));
  EXPECT_FALSE(has_token("0.994 of peak", "994"));
  EXPECT_TRUE(has_token("at 32 KiB.", "32"));
  EXPECT_FALSE(has_token("Table II, row 'add.f16'", "Table I"));
  EXPECT_TRUE(has_token("Table I, row '# instrs 1'", "Table I"));
  EXPECT_TRUE(numeric_equal("23.0", {23}));
  EXPECT_FALSE(numeric_equal("23.0 cycles", {23}));
}

}  // namespace
}  // namespace gpuconform

#include "core/sweep.h"

#include <cmath>

#include "core/compiled.h"
#include "core/crossings.h"
#include "core/enum_names.h"

namespace fl {

std::string_view sweep_key_name(SweepKey k) {
  switch (k) {
    case SweepKey::Tokens: return "tokens";
    case SweepKey::KvLen: return "kv_len";
    case SweepKey::Batch: return "batch";
  }
  return "";
}

std::optional<SweepKey> sweep_key_named(std::string_view name) { return enum_named(kSweepKeys, sweep_key_name, name); }

int64_t sweep_key_max(SweepKey k) {
  switch (k) {
    case SweepKey::Tokens: return Limits::kMaxTokens;
    case SweepKey::KvLen: return Limits::kMaxKvLen;
    case SweepKey::Batch: return Limits::kMaxBatch;
  }
  return 1;
}

std::vector<int64_t> log_spaced(int64_t from, int64_t to, int points) {
  if (points < 2 || points > kMaxSweepPoints)
    throw ConfigError("points", Text::ErrRangeReal, {"points", std::to_string(points), "2", std::to_string(kMaxSweepPoints)});
  if (from < 1 || to <= from || to - from + 1 < points)
    throw ConfigError("from", Text::ErrSweepRange, {std::to_string(from), std::to_string(to), std::to_string(points)});
  std::vector<int64_t> out;
  const double lo = std::log(static_cast<double>(from)), hi = std::log(static_cast<double>(to));
  for (int i = 0; i < points; ++i) {
    // The last point is `to` exactly; a repeated value moves up by one, and
    // the points still left always fit below `to`.
    int64_t v = i == points - 1 ? to : std::llround(std::exp(lo + (hi - lo) * i / (points - 1)));
    if (!out.empty()) v = std::max(v, out.back() + 1);
    v = std::min(v, to - (points - 1 - i));
    out.push_back(v);
  }
  return out;
}

namespace {

template <class Config>  // AnalysisConfig, const or not
auto& field_of(Config& c, SweepKey k) {
  switch (k) {
    case SweepKey::Tokens: return c.tokens;
    case SweepKey::KvLen: return c.kv_len;
    case SweepKey::Batch: return c.batch;
  }
  return c.batch;
}

}  // namespace

int64_t& swept_field(AnalysisConfig& c, SweepKey k) { return field_of(c, k); }
int64_t swept_value(const AnalysisConfig& c, SweepKey k) { return field_of(c, k); }

std::vector<int64_t> sweep_values(const AnalysisConfig& c, const SweepRequest& r) {
  const bool decode = c.demo == 3;
  if (c.demo != 2 && c.demo != 3) throw ConfigError("demo", Text::ErrSweepDemo, {std::to_string(c.demo)});
  if ((decode && r.key == SweepKey::Tokens) || (!decode && r.key == SweepKey::KvLen))
    throw ConfigError("sweep", Text::ErrSweepUnused, {std::string(sweep_key_name(r.key)), decode ? "decode" : "prefill"});
  return log_spaced(r.from, r.to > 0 ? r.to : sweep_key_max(r.key), r.points);
}

SweepPoint sweep_point(const AnalysisConfig& c, SweepKey key, int64_t value, PhaseCompiler& compiler) {
  AnalysisConfig point = c;
  swept_field(point, key) = value;
  validate(point);
  SweepPoint p{value, {}, {}};
  const bool decode = c.demo == 3;
  for (const Partition& part : cost_shown_phase(compiler.phase(point, decode), point)) {
    p.partitions.push_back(part.cost);
    p.matmuls.push_back(matmul_times(part.kernels, point.hw));
  }
  return p;
}

Sweep empty_sweep(const AnalysisConfig& c, SweepKey key) {
  std::vector<PartitionId> ids(std::begin(kAllPartitions), std::end(kAllPartitions));
  if (const std::optional<PartitionId> id = compiler_partition(c.shown_compiler())) ids.push_back(*id);
  Sweep s{key, c.demo == 3, c.hw, c.traced_attention(), std::move(ids), {}, static_cast<bool>(c.source)};
  // Whether a layer from source matches attention does not depend on the
  // swept sizes: one compile of its phase says.
  if (c.source) s.flash_matched = holds_attention(*compile_phase(c, s.decode).graphs[3]);
  return s;
}

Text sweep_partition_text(const Sweep& s, PartitionId id) {
  return partition_text(id, s.attention, s.own_layer, s.flash_matched);
}

Sweep sweep(const AnalysisConfig& c, const SweepRequest& r) {
  Sweep out = empty_sweep(c, r.key);
  PhaseCompiler compiler;
  for (int64_t v : sweep_values(c, r)) out.points.push_back(sweep_point(c, r.key, v, compiler));
  return out;
}

}  // namespace fl

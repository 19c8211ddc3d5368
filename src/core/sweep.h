// A sweep: the four partitions of one phase costed at many values of one
// size (T, S or the batch), for the charts and `fusionlab --sweep`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"

namespace fl {

enum class SweepKey { Tokens, KvLen, Batch };
inline constexpr SweepKey kSweepKeys[] = {SweepKey::Tokens, SweepKey::KvLen, SweepKey::Batch};
std::string_view sweep_key_name(SweepKey k);  // "tokens", "kv_len", "batch": the settings' keys
std::optional<SweepKey> sweep_key_named(std::string_view name);  // the key of that name, if any
int64_t sweep_key_max(SweepKey k);            // the key's largest valid value (config.h's Limits)

// The configuration's field a key sweeps (c.tokens, c.kv_len, c.batch).
int64_t& swept_field(AnalysisConfig& c, SweepKey k);
int64_t swept_value(const AnalysisConfig& c, SweepKey k);

inline constexpr int kMaxSweepPoints = 4096;

struct SweepRequest {
  SweepKey key = SweepKey::Tokens;
  int points = 64;
  int64_t from = 1;
  int64_t to = 0;  // 0: the key's maximum
};

struct SweepPoint {
  int64_t value;                        // of the swept key
  std::vector<GraphCost> partitions;    // in the order of the sweep's `partitions`
  std::vector<MatmulTimes> matmuls;     // the same partitions' matmul kernels
};

struct Sweep {
  SweepKey key;
  bool decode;  // demo 3's phase, else demo 2's
  Hardware hw;  // the GPU the points are costed on
  AttentionForm attention;  // how the swept layer writes attention: what the partitions hold
  std::vector<PartitionId> partitions;  // the lines: the lecture's four, then the chosen compiler's
  std::vector<SweepPoint> points;  // ascending values
  bool own_layer = false;          // a layer from source (partition_text)
  bool flash_matched = true;       // its FlashAttention partition holds an attention op
};

// A sweep of `c` over `key` with no points yet (its partitions those a view of `c` shows).
Sweep empty_sweep(const AnalysisConfig& c, SweepKey key);

// The partition's name in the sweep's language, for the layer it sweeps.
Text sweep_partition_text(const Sweep& s, PartitionId id);

// `points` distinct integers from `from` to `to`, spaced evenly on a log
// scale (rounded; where rounding would repeat a value, the next integer).
// Throws ConfigError when the range cannot hold them.
std::vector<int64_t> log_spaced(int64_t from, int64_t to, int points);

// Sweeps `c` (demo 2: prefill, demo 3: decode) over the request: the four
// partitions and, under a compiler other than the lecture's rules, its kernels. Throws
// ConfigError for a key the phase does not use (T in decode, S in prefill),
// a bad range, or a point the configuration refuses.
Sweep sweep(const AnalysisConfig& c, const SweepRequest& request);

// The same in steps, for a caller that spreads the work over frames: the
// values the request sweeps (checked as above), then one point at a time.
// T, S and the batch are bound in graphs compiled once (`compiler` keeps them).
class PhaseCompiler;
std::vector<int64_t> sweep_values(const AnalysisConfig& c, const SweepRequest& request);
SweepPoint sweep_point(const AnalysisConfig& c, SweepKey key, int64_t value, PhaseCompiler& compiler);

}  // namespace fl

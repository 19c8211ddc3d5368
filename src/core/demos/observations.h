// What the demos say about their results. Each observation is chosen by
// conditions computed from the results: the id names the claim (stable, for
// tests and for readers of `--json`), the text says it with the numbers.
#pragma once

#include <functional>
#include <optional>

#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"
#include "core/report.h"

namespace fl::demos {

// What the observations' words mean, as fractions.
struct Claim {
  static constexpr double kAlmostAll = 0.80;    // "almost all" of a total
  static constexpr double kMost = 0.50;         // "mostly", "most of it"
  static constexpr double kAlike = 0.10;        // "about the same": spread over the largest
  static constexpr double kSmall = 0.10;        // "only", "little", "barely": a share of a total
  static constexpr double kSetsLatency = 0.50;  // fixed-cost share at which the kernel count sets the latency
};

// Demos 2 and 3: the four partitions `ps` of the configuration's prefill or decode.
// `flash_unfused`: the FlashAttention partition's kernels with fusion off
// (asked for only when the sentence needs them).
std::vector<Observation> prefill_observations(const AnalysisConfig& c, const std::vector<Partition>& ps,
                                              const std::function<std::vector<Kernel>()>& flash_unfused);
// `weights` and `kv`: the bytes of the traced graph's parameters and of its KV cache.
std::vector<Observation> decode_observations(const AnalysisConfig& c, const std::vector<Partition>& ps, int64_t weights,
                                             int64_t kv);

// With a compiler chosen (a fifth partition in `ps`): its kernels beside the
// lecture's fused partition, the copies it makes, and where its matmuls take no epilogue.
std::optional<Observation> compiler_observation(const AnalysisConfig& c, const std::vector<Partition>& ps);

// With a compiler chosen, where its configuration was measured on the H200
// (core/measured): the measured call beside the compiler's partition.
std::optional<Observation> measured_observation(const AnalysisConfig& c, bool decode, const std::vector<Partition>& ps);

// Whether a whole model of `c` fits the GPU, with its numbers (the report's text).
Observation memory_observation(const MemoryReport& memory);

}  // namespace fl::demos

// What each fused kernel absorbed. The partition's own graph with fusion
// turned off gives one kernel per op; after fusion, each of those runs inside
// the fused kernel that holds its node. The roofline draws an arrow from
// every op's point to its fused kernel's point.
#pragma once

#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"

namespace fl {

struct AbsorbedKernel {
  Kernel alone;         // the op as its own kernel (fusion off)
  size_t fused_kernel;  // index into the partition's kernels
};

// One entry per op kernel of `p.graph` unfused, in execution order.
std::vector<AbsorbedKernel> absorbed_kernels(const Partition& p, const Binding& bind);

// The partition `id` of the configuration's prefill (or decode) graph, as
// demos 2 and 3 build it, and what its kernels absorbed.
struct AbsorbedPartition {
  Partition partition;
  std::vector<AbsorbedKernel> absorbed;
};
AbsorbedPartition absorbed_partition(const AnalysisConfig& c, bool decode, PartitionId id);

}  // namespace fl

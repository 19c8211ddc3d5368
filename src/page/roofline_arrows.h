// The roofline's arrows: for a fused partition, every op run alone (fusion
// off) and the fused kernel that runs it (core/explain/absorbed.h). Computed
// when the toggle is on, and kept until the results or the choice change.
#pragma once

#include <string>
#include <vector>

#include "page/state.h"

namespace fl::web {

struct ArrowSource {
  KernelKind kind;  // the op's kernel kind, alone
  double flops = 0, bytes = 0, t = 0;
  size_t fused = 0;  // index of the fused kernel that absorbed it
};

struct RooflineArrows {
  std::vector<ArrowSource> sources;  // empty for a partition that is not fused
  std::string error;                 // what the core refused, if anything
};

// What partition `partition` (0..3, the seed's order) of the shown results
// absorbed, in prefill or decode.
const RooflineArrows& ArrowsFor(const State& state, bool decode, int partition);

}  // namespace fl::web

// The roofline's arrows: for a fused partition, every op run alone (fusion
// off) and the fused kernel that runs it (core/explain/absorbed.h). Computed
// when the toggle is on, and kept until the results or the choice change.
#pragma once

#include "page/state.h"

namespace fl::web {

// What partition `partition` (0..3, the seed's order) of the shown results
// absorbed, in prefill or decode; kept in state.caches until the results or
// the choice change.
const RooflineArrows& ArrowsFor(State& state, bool decode, int partition);

}  // namespace fl::web

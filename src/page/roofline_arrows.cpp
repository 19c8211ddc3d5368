#include "page/roofline_arrows.h"

#include <exception>

#include "core/cost.h"
#include "core/explain/absorbed.h"

namespace fl::web {

const RooflineArrows& ArrowsFor(State& state, bool decode, int partition) {
  RooflineArrowsCache& cache = state.caches.arrows;
  RooflineArrows& arrows = cache.arrows;
  if (cache.generation == state.results_generation && cache.decode == decode && cache.partition == partition) return arrows;
  cache.generation = state.results_generation;
  cache.decode = decode;
  cache.partition = partition;
  arrows = {};
  const auto id = static_cast<PartitionId>(partition);
  if (id != PartitionId::Fused && id != PartitionId::FusedFlash) return arrows;
  try {
    // The settings the shown results were computed for, not the ones being edited.
    const AnalysisConfig c = MakeAnalysisConfig(state.computed, decode ? 3 : 2);
    for (const AbsorbedKernel& a : absorbed_partition(c, decode, id).absorbed)
      arrows.sources.push_back({a.alone.kind, a.alone.flops(),
                                static_cast<double>(a.alone.bytes()), kernel_time(a.alone, c.hw), a.fused_kernel});
  } catch (const std::exception& e) {
    arrows.error = e.what();
  }
  return arrows;
}

}  // namespace fl::web

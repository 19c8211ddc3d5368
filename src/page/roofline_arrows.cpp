#include "page/roofline_arrows.h"

#include <exception>

#include "core/cost.h"
#include "core/explain/absorbed.h"

namespace fl::web {

namespace {

struct CacheKey {
  int generation = -1;
  bool decode = false;
  int partition = -1;
  bool operator==(const CacheKey&) const = default;
};

}  // namespace

const RooflineArrows& ArrowsFor(const State& state, bool decode, int partition) {
  static CacheKey cached;
  static RooflineArrows arrows;
  const CacheKey key{state.results_generation, decode, partition};
  if (key == cached) return arrows;
  cached = key;
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

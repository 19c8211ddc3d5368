// fuse() in three steps, each in src/core/fusion/: grouping (the merge
// rules), ordering (a launch order) and measuring (FLOPs, bytes, ends).
#include "core/fusion.h"

#include <iterator>

#include "core/fusion/grouping.h"
#include "core/fusion/measuring.h"
#include "core/fusion/ordering.h"

namespace fl {

std::string_view kernel_kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return "pointwise";
    case KernelKind::Rowwise: return "rowwise";
    case KernelKind::MatMul: return "matmul";
    case KernelKind::Attention: return "attention";
    case KernelKind::KVWrite: return "kv_write";
    case KernelKind::Embedding: return "embedding";
  }
  return "?";
}

namespace {

struct BoundaryInfo {
  std::string_view name;
  Text text;
};
// In the order of the enum.
constexpr BoundaryInfo kBoundaryInfo[] = {
    {"fusion_off", Text::WhyFusionOff},
    {"matmul_no_prologue", Text::WhyMatmulNoPrologue},
    {"reduction_after_matmul", Text::WhyReductionAfterMatmul},
    {"opaque_kernel", Text::WhyOpaque},
    {"iteration_space", Text::WhyIterationSpace},
    {"one_anchor_per_kernel", Text::WhyOneAnchor},
    {"would_cycle", Text::WhyCycle},
    {"graph_output", Text::WhyOutput},
    {"switched_off", Text::WhySwitchedOff},
    {"inductor_extern", Text::WhyInductorExtern},
    {"inductor_split_reduction", Text::WhyInductorSplit},
    {"inductor_loops", Text::WhyInductorLoops},
    {"inductor_memory_deps", Text::WhyInductorMemoryDeps},
    {"inductor_max_fusion_size", Text::WhyInductorMaxFusionSize},
    {"inductor_no_shared_data", Text::WhyInductorNoSharedData},
    {"inductor_template_fusion", Text::WhyInductorTemplateFusion},
};
static_assert(std::size(kBoundaryInfo) == std::size(kBoundaries));

}  // namespace

std::string_view boundary_name(Boundary b) { return kBoundaryInfo[static_cast<size_t>(b)].name; }
Text boundary_text(Boundary b) { return kBoundaryInfo[static_cast<size_t>(b)].text; }

std::vector<Kernel> fuse(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  const fusion::Grouping grouping = fusion::group_nodes(g, opt, bind);
  return fusion::measure_kernels(g, grouping, fusion::launch_order(g, grouping), grouping.numel, bind);
}

}  // namespace fl

// fuse() in three steps, each in src/core/fusion/: grouping (the merge
// rules), ordering (a launch order) and measuring (FLOPs, bytes, ends).
#include "core/fusion.h"

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

std::string_view boundary_name(Boundary b) {
  switch (b) {
    case Boundary::FusionOff: return "fusion_off";
    case Boundary::MatmulNoPrologue: return "matmul_no_prologue";
    case Boundary::ReductionAfterMatmul: return "reduction_after_matmul";
    case Boundary::OpaqueKernel: return "opaque_kernel";
    case Boundary::IterationSpace: return "iteration_space";
    case Boundary::OneAnchorPerKernel: return "one_anchor_per_kernel";
    case Boundary::WouldCycle: return "would_cycle";
    case Boundary::GraphOutput: return "graph_output";
    case Boundary::SwitchedOff: return "switched_off";
  }
  return "?";
}

std::vector<Kernel> fuse(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  const fusion::Grouping grouping = fusion::group_nodes(g, opt, bind);
  return fusion::measure_kernels(g, grouping, fusion::launch_order(g, grouping), bind);
}

}  // namespace fl

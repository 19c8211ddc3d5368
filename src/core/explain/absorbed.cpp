#include "core/explain/absorbed.h"

#include <stdexcept>


namespace fl {

std::vector<AbsorbedKernel> absorbed_kernels(const Partition& p, const Binding& bind) {
  std::vector<size_t> kernel_of(p.graph->size(), SIZE_MAX);
  for (size_t k = 0; k < p.kernels.size(); ++k)
    for (NodeId id : p.kernels[k].nodes) kernel_of[static_cast<size_t>(id)] = k;
  FuseOptions unfused;
  unfused.enable = false;
  std::vector<AbsorbedKernel> out;
  for (Kernel& alone : fuse(*p.graph, unfused, bind)) {
    // Unfused, a kernel is one op (and the views it reads through): its last node.
    const size_t fused = kernel_of[static_cast<size_t>(alone.nodes.back())];
    if (fused == SIZE_MAX) throw std::logic_error("absorbed_kernels: an op that no fused kernel runs");
    out.push_back({std::move(alone), fused});
  }
  return out;
}

AbsorbedPartition absorbed_partition(const AnalysisConfig& c, bool decode, PartitionId id) {
  AbsorbedPartition out{make_partition(id, c.traced_graph(decode), c.binding(), c.hw), {}};
  out.absorbed = absorbed_kernels(out.partition, c.binding());
  return out;
}

}  // namespace fl

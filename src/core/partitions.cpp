#include "core/partitions.h"

#include "core/passes/passes.h"
#include "core/pipeline.h"

namespace fl {

std::string_view partition_key(PartitionId id) {
  switch (id) {
    case PartitionId::Eager: return "eager";
    case PartitionId::Decomposed: return "decomposed";
    case PartitionId::Fused: return "fused";
    case PartitionId::FusedFlash: return "fused_flash";
  }
  return "?";
}

Text partition_text(PartitionId id) {
  switch (id) {
    case PartitionId::Eager: return Text::PartEager;
    case PartitionId::Decomposed: return Text::PartDecomposed;
    case PartitionId::Fused: return Text::PartFused;
    case PartitionId::FusedFlash: return Text::PartFlash;
  }
  return Text::PartEager;
}

Partition make_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw) {
  Partition p{id, {}, {}, {}};
  switch (id) {
    case PartitionId::Eager: p.graph = traced; break;
    case PartitionId::Decomposed: p.graph = decompose(traced).graph; break;
    case PartitionId::Fused: p.graph = optimize(traced, false); break;
    case PartitionId::FusedFlash: p.graph = optimize(traced, true); break;
  }
  FuseOptions opt;
  opt.enable = id == PartitionId::Fused || id == PartitionId::FusedFlash;
  p.kernels = fuse(p.graph, opt, bind);
  p.cost = graph_cost(p.kernels, hw);
  return p;
}

std::vector<Partition> four_partitions(const Graph& traced, const Binding& bind, const Hardware& hw) {
  std::vector<Partition> out;
  for (PartitionId id : kAllPartitions) out.push_back(make_partition(id, traced, bind, hw));
  return out;
}

}  // namespace fl

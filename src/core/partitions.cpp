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

namespace {
Partition finish(PartitionId id, Graph g, const Binding& bind, const Hardware& hw) {
  FuseOptions opt;
  opt.enable = id == PartitionId::Fused || id == PartitionId::FusedFlash;
  Partition p{id, std::move(g), {}, {}};
  p.kernels = fuse(p.graph, opt, bind);
  p.cost = graph_cost(p.kernels, hw);
  return p;
}
}  // namespace

Partition make_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw) {
  switch (id) {
    case PartitionId::Eager: return finish(id, traced, bind, hw);
    case PartitionId::Decomposed: return finish(id, decompose(traced).graph, bind, hw);
    case PartitionId::Fused: return finish(id, optimize(traced, false), bind, hw);
    case PartitionId::FusedFlash: break;
  }
  return finish(id, optimize(traced, true), bind, hw);
}

std::vector<Partition> four_partitions(const Graph& traced, const Binding& bind, const Hardware& hw) {
  Graph decomposed = decompose(traced).graph;  // shared by the decomposed and the fused partitions
  Graph fused = optimize_decomposed(decomposed);
  std::vector<Partition> out;
  out.push_back(finish(PartitionId::Eager, traced, bind, hw));
  out.push_back(finish(PartitionId::Decomposed, std::move(decomposed), bind, hw));
  out.push_back(finish(PartitionId::Fused, std::move(fused), bind, hw));
  out.push_back(finish(PartitionId::FusedFlash, optimize(traced, true), bind, hw));
  return out;
}

}  // namespace fl

#include "core/partitions.h"

#include <algorithm>

#include "core/inductor/partition.h"

#include "core/passes/passes.h"
#include "core/pipeline.h"

namespace fl {

std::optional<PartitionId> compiler_partition(Compiler c) {
  switch (c) {
    case Compiler::Lecture: return std::nullopt;
    case Compiler::Inductor: return PartitionId::Inductor;
    case Compiler::GptFast: return PartitionId::GptFast;
  }
  return std::nullopt;
}

std::optional<Compiler> partition_compiler(PartitionId id) {
  for (Compiler c : kCompilers)
    if (compiler_partition(c) == id) return c;
  return std::nullopt;
}

std::string_view partition_key(PartitionId id) {
  switch (id) {
    case PartitionId::Eager: return "eager";
    case PartitionId::Decomposed: return "decomposed";
    case PartitionId::Fused: return "fused";
    case PartitionId::FusedFlash: return "fused_flash";
    case PartitionId::Inductor: return "inductor";
    case PartitionId::GptFast: return "gpt_fast";
  }
  return "?";
}

namespace {
Text lecture_partition_text(PartitionId id) {
  switch (id) {
    case PartitionId::Eager: return Text::PartEager;
    case PartitionId::Decomposed: return Text::PartDecomposed;
    case PartitionId::Fused: return Text::PartFused;
    case PartitionId::FusedFlash: return Text::PartFlash;
    case PartitionId::Inductor: return Text::PartInductor;
    case PartitionId::GptFast: return Text::PartGptFast;
  }
  return Text::PartEager;
}
}  // namespace

Text partition_text(PartitionId id, AttentionForm form, bool own_layer, bool flash_matched) {
  if (id == PartitionId::Eager && own_layer) return Text::PartEagerOwnLayer;
  if (id == PartitionId::FusedFlash && own_layer && !flash_matched) return Text::PartFlashNothingMatched;
  if (id == PartitionId::Eager && form == AttentionForm::Sdpa) return Text::PartEagerSdpa;       // no softmax
  if (id == PartitionId::FusedFlash && form == AttentionForm::Math) return Text::PartFlashUnmatched;  // nothing matched
  return lecture_partition_text(id);
}

bool holds_attention(const Graph& g) {
  return std::any_of(g.nodes().begin(), g.nodes().end(), [](const Node& n) { return n.op == Op::Attention; });
}

namespace {
Partition finish(PartitionId id, std::shared_ptr<const Graph> g, const Binding& bind, const Hardware& hw) {
  Partition p{id, std::move(g), {}, {}};
  p.kernels = fuse(*p.graph, partition_fuse_options(id), bind);
  p.cost = graph_cost(p.kernels, hw);
  return p;
}

std::shared_ptr<const Graph> shared(Graph g) { return std::make_shared<const Graph>(std::move(g)); }
}  // namespace

FuseOptions partition_fuse_options(PartitionId id) {
  FuseOptions opt;
  opt.enable = id == PartitionId::Fused || id == PartitionId::FusedFlash;
  return opt;
}

Partition make_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw) {
  switch (id) {
    case PartitionId::Eager: return finish(id, shared(traced), bind, hw);
    case PartitionId::Decomposed: return finish(id, shared(decompose(traced).graph), bind, hw);
    case PartitionId::Fused: return finish(id, shared(optimize(traced, false)), bind, hw);
    case PartitionId::FusedFlash: break;
    case PartitionId::Inductor: return inductor::inductor_partition(id, traced, bind, hw, {});
    case PartitionId::GptFast: {
      inductor::Options gpt_fast;
      gpt_fast.gemv_as_reduction = true;
      return inductor::inductor_partition(id, traced, bind, hw, gpt_fast);
    }
  }
  return finish(id, shared(optimize(traced, true)), bind, hw);
}

PartitionGraphs optimize_partitions(const Graph& traced) {
  Graph decomposed = decompose(traced).graph;  // shared by the decomposed and the fused partitions
  Graph fused = optimize_decomposed(decomposed);
  return {shared(traced), shared(std::move(decomposed)), shared(std::move(fused)), shared(optimize(traced, true))};
}

std::vector<Partition> cost_partitions(const PartitionGraphs& graphs, const Binding& bind, const Hardware& hw) {
  std::vector<Partition> out;
  out.reserve(graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) out.push_back(finish(kAllPartitions[i], graphs[i], bind, hw));
  return out;
}

std::vector<Partition> four_partitions(const Graph& traced, const Binding& bind, const Hardware& hw) {
  return cost_partitions(optimize_partitions(traced), bind, hw);
}

}  // namespace fl

// The four partitions the seed compares, built from one traced graph.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/compilers.h"
#include "core/cost.h"
#include "core/fusion.h"
#include "core/i18n.h"
#include "core/model.h"

namespace fl {

enum class PartitionId {
  Eager,       // traced graph, not fused: composites are one kernel each
  Decomposed,  // decomposed, not fused
  Fused,       // standard pipeline without attention matching, fused
  FusedFlash,  // standard pipeline with attention matched to FlashAttention, fused
  Inductor,    // a model of torch.compile's default mode (core/inductor), after the four when chosen
  GptFast,     // the same model with gpt-fast's setting, likewise
};
inline constexpr PartitionId kAllPartitions[] = {PartitionId::Eager, PartitionId::Decomposed, PartitionId::Fused,
                                                 PartitionId::FusedFlash};
// Every partition a view can show, in PartitionId's order: the lecture's four, then a compiler's.
inline constexpr PartitionId kPartitionIds[] = {PartitionId::Eager, PartitionId::Decomposed, PartitionId::Fused,
                                                PartitionId::FusedFlash, PartitionId::Inductor, PartitionId::GptFast};
// The partition of a compiler's kernels, shown after the lecture's four (none for the lecture's rules).
std::optional<PartitionId> compiler_partition(Compiler c);
// The compiler whose kernels a partition is (none for the lecture's four).
std::optional<Compiler> partition_compiler(PartitionId id);

std::string_view partition_key(PartitionId id);  // "eager", "decomposed", "fused", "fused_flash"
// The partition's name for a layer whose attention is written in `form`:
// what it holds there (under SDPA eager has no softmax; the math form's
// attention is not matched to FlashAttention). `own_layer`: a layer from
// source, whose composite ops are its own (eager is not named after Llama's),
// and whose attention may not match (`flash_matched`: the FlashAttention
// partition's graph holds an attention op).
Text partition_text(PartitionId id, AttentionForm form, bool own_layer = false, bool flash_matched = true);

// Whether `g` holds an attention op (FlashAttention, or the layer's SDPA call).
bool holds_attention(const Graph& g);

struct Partition {
  PartitionId id;
  std::shared_ptr<const Graph> graph;  // the graph the kernels index into (shared by every costing of it)
  std::vector<Kernel> kernels;
  GraphCost cost;
};

Partition make_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw);
std::vector<Partition> four_partitions(const Graph& traced, const Binding& bind, const Hardware& hw);

// The same in two steps, as a compiler with dynamic shapes works: the four
// graphs are optimised once from a graph traced with symbolic sizes, then
// fused and costed under each binding of the symbols (grouping and measuring
// only: the passes do not run again).
using PartitionGraphs = std::array<std::shared_ptr<const Graph>, std::size(kAllPartitions)>;
PartitionGraphs optimize_partitions(const Graph& traced);
std::vector<Partition> cost_partitions(const PartitionGraphs& graphs, const Binding& bind, const Hardware& hw);

// The fusion options of a partition (fused or one kernel per op).
FuseOptions partition_fuse_options(PartitionId id);

}  // namespace fl

// The lecture's merge rules, declared once: may a node of one kind join the
// kernel of a producer of another kind, and if not, why not. Read by the
// grouping step, by the "why" of each kernel end (its Boundary), and printed
// as the rules' documentation (`fusionlab --rules`).
#pragma once

#include <cstdint>
#include <span>

#include "core/fusion.h"
#include "core/i18n.h"
#include "core/op.h"

namespace fl::fusion {

// What the two loops must share when the rules allow a merge.
enum class SpaceMatch : uint8_t {
  SameSpace,     // the consumer loops over the kernel's space (the same number of elements)
  SpaceOrRows,   // ... or over its rows: one value per row of the reduction before it
  ReducesSpace,  // the reduction reads the kernel's space, row by row: the kernel becomes rowwise
  SameRows,      // the reduction reads the kernel's space over the same rows (softmax's second pass)
};

// The switch of FuseOptions a merge needs on (the ablation turns them off).
enum class MergeSwitch : uint8_t {
  InliningOrFusion,  // a pointwise producer computed inside its consumer
  Fusion,            // a reduction's epilogue or a second reduction over the same rows
  MatmulEpilogue,    // a pointwise consumer of a matmul in its kernel
};

struct MergeRule {
  KernelKind producer;  // the kind of kernel the producer is in
  OpKind consumer;      // Pointwise (a view realised as a copy included), Reduction, MatMul or Opaque
  bool allowed;
  Boundary refused;     // when not allowed: why the value crosses HBM instead
  SpaceMatch space;     // when allowed: what the loops must share
  MergeSwitch needs;    // when allowed: the switch it needs on
};

// Every (producer kernel kind, consumer kind) pair, once.
std::span<const MergeRule> merge_rules();
const MergeRule& merge_rule(KernelKind producer, OpKind consumer);

// The rule's condition and switch, said in words; ids for JSON.
Text space_match_text(SpaceMatch m);
Text merge_switch_text(MergeSwitch s);
std::string_view space_match_name(SpaceMatch m);    // "same_space", ...
std::string_view merge_switch_name(MergeSwitch s);  // "inlining_or_fusion", ...
std::string_view consumer_kind_name(OpKind k);      // "pointwise", "reduction", "matmul", "opaque"

inline constexpr OpKind kConsumerKinds[] = {OpKind::Pointwise, OpKind::Reduction, OpKind::MatMul, OpKind::Opaque};

}  // namespace fl::fusion

#include "core/fusion/rules.h"

#include <stdexcept>

namespace fl::fusion {

namespace {

constexpr MergeRule joins(KernelKind p, OpKind c, SpaceMatch space, MergeSwitch needs) {
  return {p, c, true, Boundary::OneAnchorPerKernel, space, needs};
}
constexpr MergeRule never(KernelKind p, OpKind c, Boundary why) {
  return {p, c, false, why, SpaceMatch::SameSpace, MergeSwitch::Fusion};
}

using K = KernelKind;
using C = OpKind;
using B = Boundary;

// No prologue fusion: a matmul reads its operands from HBM, whatever made them.
// Attention, kv_write and the embedding are handwritten kernels that take nothing in.
constexpr MergeRule kRules[] = {
    joins(K::Pointwise, C::Pointwise, SpaceMatch::SameSpace, MergeSwitch::InliningOrFusion),
    joins(K::Pointwise, C::Reduction, SpaceMatch::ReducesSpace, MergeSwitch::InliningOrFusion),
    never(K::Pointwise, C::MatMul, B::MatmulNoPrologue),
    never(K::Pointwise, C::Opaque, B::OpaqueKernel),

    joins(K::Rowwise, C::Pointwise, SpaceMatch::SpaceOrRows, MergeSwitch::Fusion),
    joins(K::Rowwise, C::Reduction, SpaceMatch::SameRows, MergeSwitch::Fusion),
    never(K::Rowwise, C::MatMul, B::MatmulNoPrologue),
    never(K::Rowwise, C::Opaque, B::OpaqueKernel),

    joins(K::MatMul, C::Pointwise, SpaceMatch::SameSpace, MergeSwitch::MatmulEpilogue),
    never(K::MatMul, C::Reduction, B::ReductionAfterMatmul),  // a row spans many output tiles
    never(K::MatMul, C::MatMul, B::MatmulNoPrologue),
    never(K::MatMul, C::Opaque, B::OpaqueKernel),

    never(K::Attention, C::Pointwise, B::OpaqueKernel),
    never(K::Attention, C::Reduction, B::OpaqueKernel),
    never(K::Attention, C::MatMul, B::MatmulNoPrologue),
    never(K::Attention, C::Opaque, B::OpaqueKernel),

    never(K::KVWrite, C::Pointwise, B::OpaqueKernel),
    never(K::KVWrite, C::Reduction, B::OpaqueKernel),
    never(K::KVWrite, C::MatMul, B::MatmulNoPrologue),
    never(K::KVWrite, C::Opaque, B::OpaqueKernel),

    never(K::Embedding, C::Pointwise, B::OpaqueKernel),
    never(K::Embedding, C::Reduction, B::OpaqueKernel),
    never(K::Embedding, C::MatMul, B::MatmulNoPrologue),
    never(K::Embedding, C::Opaque, B::OpaqueKernel),
};

}  // namespace

std::span<const MergeRule> merge_rules() { return kRules; }

const MergeRule& merge_rule(KernelKind producer, OpKind consumer) {
  for (const MergeRule& r : kRules)
    if (r.producer == producer && r.consumer == consumer) return r;
  throw std::logic_error("no merge rule for this producer and consumer");
}

Text boundary_text(Boundary b) {
  switch (b) {
    case Boundary::FusionOff: return Text::WhyFusionOff;
    case Boundary::MatmulNoPrologue: return Text::WhyMatmulNoPrologue;
    case Boundary::ReductionAfterMatmul: return Text::WhyReductionAfterMatmul;
    case Boundary::OpaqueKernel: return Text::WhyOpaque;
    case Boundary::IterationSpace: return Text::WhyIterationSpace;
    case Boundary::OneAnchorPerKernel: return Text::WhyOneAnchor;
    case Boundary::WouldCycle: return Text::WhyCycle;
    case Boundary::GraphOutput: return Text::WhyOutput;
    case Boundary::SwitchedOff: return Text::WhySwitchedOff;
  }
  return Text::WhyOneAnchor;
}

Text space_match_text(SpaceMatch m) {
  switch (m) {
    case SpaceMatch::SameSpace: return Text::RuleSameSpace;
    case SpaceMatch::SpaceOrRows: return Text::RuleSpaceOrRows;
    case SpaceMatch::ReducesSpace: return Text::RuleReducesSpace;
    case SpaceMatch::SameRows: return Text::RuleSameRows;
  }
  return Text::RuleSameSpace;
}

Text merge_switch_text(MergeSwitch s) {
  switch (s) {
    case MergeSwitch::InliningOrFusion: return Text::RuleSwitchInliningOrFusion;
    case MergeSwitch::Fusion: return Text::RuleSwitchFusion;
    case MergeSwitch::MatmulEpilogue: return Text::RuleSwitchMatmulEpilogue;
  }
  return Text::RuleSwitchFusion;
}

std::string_view space_match_name(SpaceMatch m) {
  switch (m) {
    case SpaceMatch::SameSpace: return "same_space";
    case SpaceMatch::SpaceOrRows: return "space_or_rows";
    case SpaceMatch::ReducesSpace: return "reduces_space";
    case SpaceMatch::SameRows: return "same_rows";
  }
  return "?";
}

std::string_view merge_switch_name(MergeSwitch s) {
  switch (s) {
    case MergeSwitch::InliningOrFusion: return "inlining_or_fusion";
    case MergeSwitch::Fusion: return "fusion";
    case MergeSwitch::MatmulEpilogue: return "matmul_epilogue";
  }
  return "?";
}

std::string_view consumer_kind_name(OpKind k) {
  switch (k) {
    case OpKind::Pointwise: return "pointwise";
    case OpKind::Reduction: return "reduction";
    case OpKind::MatMul: return "matmul";
    case OpKind::Opaque: return "opaque";
    case OpKind::Source: return "source";
    case OpKind::View: return "view";
  }
  return "?";
}

}  // namespace fl::fusion

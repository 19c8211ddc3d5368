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

namespace {

struct Named {
  std::string_view name;  // stable, for JSON
  Text text;              // said in words
};
// In the order of each enum.
constexpr Named kSpaceMatches[] = {{"same_space", Text::RuleSameSpace},
                                   {"space_or_rows", Text::RuleSpaceOrRows},
                                   {"reduces_space", Text::RuleReducesSpace},
                                   {"same_rows", Text::RuleSameRows}};
constexpr Named kMergeSwitches[] = {{"inlining_or_fusion", Text::RuleSwitchInliningOrFusion},
                                    {"fusion", Text::RuleSwitchFusion},
                                    {"matmul_epilogue", Text::RuleSwitchMatmulEpilogue}};

}  // namespace

Text space_match_text(SpaceMatch m) { return kSpaceMatches[static_cast<size_t>(m)].text; }
std::string_view space_match_name(SpaceMatch m) { return kSpaceMatches[static_cast<size_t>(m)].name; }
Text merge_switch_text(MergeSwitch s) { return kMergeSwitches[static_cast<size_t>(s)].text; }
std::string_view merge_switch_name(MergeSwitch s) { return kMergeSwitches[static_cast<size_t>(s)].name; }

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

#include "core/op.h"

namespace fl {

namespace {

enum Trait : uint8_t { kBinary = 1, kComposite = 2, kWeightOperand = 4, kAnyDtypeInputs = 8, kMaskOperand = 16, kOptionalMask = 32 };

struct OpInfo {
  std::string_view name;
  std::string_view label;
  OpKind kind;
  uint8_t arity;
  uint8_t traits;
};

constexpr OpInfo kOps[] = {
#define FL_OP(id, name, label, kind, arity, traits) {name, label, OpKind::kind, arity, traits},
#include "core/ops.def"
};

const OpInfo& info(Op op) { return kOps[static_cast<size_t>(op)]; }

}  // namespace

OpKind op_kind(Op op) { return info(op).kind; }
std::string_view op_name(Op op) { return info(op).name; }
std::string_view op_label(Op op) { return info(op).label; }
size_t arity(Op op) { return info(op).arity; }
bool is_binary_pointwise(Op op) { return (info(op).traits & kBinary) != 0; }
bool is_composite(Op op) { return (info(op).traits & kComposite) != 0; }
bool takes_optional_mask(Op op) { return (info(op).traits & kOptionalMask) != 0; }

bool reads_other_dtype(Op op, size_t input) {
  const uint8_t traits = info(op).traits;
  return (traits & kAnyDtypeInputs) || ((traits & (kWeightOperand | kMaskOperand)) && input == 1) ||
         ((traits & kOptionalMask) && input == info(op).arity);
}

}  // namespace fl

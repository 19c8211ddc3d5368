// The operations of the graph IR and what the compiler needs to know of each.
// Each op is declared once, in ops.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fl {

enum class Op : uint8_t {
#define FL_OP(id, name, label, kind, arity, traits) id,
#include "core/ops.def"
};

inline constexpr size_t kOpCount = 0
#define FL_OP(id, name, label, kind, arity, traits) +1
#include "core/ops.def"
    ;

// Ordered like TVM's op patterns: fusing two groups yields the larger kind.
enum class OpKind : uint8_t { Source, View, Pointwise, Reduction, MatMul, Opaque };

OpKind op_kind(Op op);
std::string_view op_name(Op op);   // the IR's: "rmsnorm"
std::string_view op_label(Op op);  // in prose: "RMSNorm"
size_t arity(Op op);  // how many inputs
bool is_binary_pointwise(Op op);
bool is_composite(Op op);
// One input more than arity() may follow: a boolean mask over the keys (attention).
bool takes_optional_mask(Op op);
// Inputs that may have another dtype than the result: weights (fp8 weights
// feeding bf16 activations), an embedding's table and integer ids, a cast's
// input and a boolean mask.
bool reads_other_dtype(Op op, size_t input);

}  // namespace fl

// The operations of the graph IR and what the compiler needs to know of each.
#pragma once

#include <cstdint>
#include <string_view>

namespace fl {

enum class Op : uint8_t {
  // sources: no kernel; read from HBM by whoever uses them
  Input, Param, Const,
  // pointwise (elementwise or injective: one output element from a few input elements)
  Add, Sub, Mul, Div, Neg, Exp, Rsqrt, Cos, Sin, RotPairs, CausalMask,
  // row reductions over the last axis, keeping it as size 1
  Sum, Mean, Max,
  // views: new indexing over the same storage, never a kernel
  Reshape, Transpose, RepeatKV,
  // contraction over the last axis of a and the second-to-last of b, batched
  MatMul,
  // composites, as eager PyTorch runs them (one handwritten kernel each)
  RMSNorm, Softmax, SiLU,
  // opaque kernels
  Attention, KVWrite,
  // token ids (N) gather rows of a table (V, d): (N, d)
  Embedding,
};

// Ordered like TVM's op patterns: fusing two groups yields the larger kind.
enum class OpKind : uint8_t { Source, View, Pointwise, Reduction, MatMul, Opaque };

OpKind op_kind(Op op);
std::string_view op_name(Op op);
bool is_binary_pointwise(Op op);
bool is_composite(Op op);
// Inputs that may have another dtype than the result: weights (fp8 weights
// feeding bf16 activations) and an embedding's table and integer ids.
bool reads_other_dtype(Op op, size_t input);

}  // namespace fl

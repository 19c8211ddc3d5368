// The compiler passes, one per file. Each takes a graph and returns the new
// graph with the number of rewrites it made; none changes what the graph
// computes (the interpreter tests check that on real values).
#pragma once

#include "core/passes/rebuild.h"

namespace fl {

// matmul(Q, Kᵀ) → scale → causal mask → softmax → matmul(·, V) becomes one
// attention op (a FlashAttention kernel). A compiler cannot derive
// FlashAttention by fusion: it needs the online-softmax rewrite, so Inductor
// and XLA pattern-match attention and call a handwritten kernel.
PassResult match_attention(const Graph& g);

// Composite ops into primitives: RMSNorm, softmax, SiLU.
PassResult decompose(const Graph& g);

// Common-subexpression elimination: equal nodes on equal inputs become one.
PassResult cse(const Graph& g);

// Nodes whose inputs are all constants become constants (computed when the
// constants have values, otherwise precomputed ahead of time, shape only).
PassResult constant_fold(const Graph& g);

// Algebraic identities: x*1, x+0, x/c → x*(1/c), -(-x), view chains, ...
PassResult simplify(const Graph& g);

// RMSNorm's weight multiply folded into the projections that consume it:
// matmul(x̂ * w, W) = matmul(x̂, diag(w) W), so the norm kernel writes x̂ only.
PassResult fold_norm_weight(const Graph& g);

}  // namespace fl

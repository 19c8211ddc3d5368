// The reference interpreter: runs a graph on real float32 values.
//
// It is the ground truth for every rewrite: a pass (fusion, constant folding,
// decomposition) is correct when run() gives the same values before and after
// it, up to float rounding. It is written for clarity on small shapes, not for
// speed, and computes everything in float32 whatever the nodes' dtypes say.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/graph.h"

namespace fl {

// A concrete tensor: evaluated shape and row-major data (a rank-0 tensor holds one value).
struct TensorValue {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

// Values for the graph's Input nodes, by their attrs.name.
using Feeds = std::map<std::string, TensorValue>;

// Evaluates one node given the values of its inputs, in order; symbolic dims
// (Reshape targets, mask offsets, KVWrite rows) are evaluated under `b`.
// Param/Const nodes return their bound `value`; an Input node has no value
// here (run() takes it from the feeds). Throws std::runtime_error on operand
// values that do not fit the op, and UnboundSymbol on a symbol `b` lacks.
// Used by run() and by constant folding.
TensorValue eval_node(const Node& n, const std::vector<const TensorValue*>& inputs, const Binding& b);

// Runs the whole graph and returns the values of g.outputs(), in order.
// Input nodes take their Feeds entry, which must have the node's shape
// evaluated under `b`; Param/Const nodes must carry a value. Errors name the
// node (UnboundSymbol is rethrown unchanged). Every computed shape is checked
// against the node's inferred shape, so a disagreement with infer_shape throws.
std::vector<TensorValue> run(const Graph& g, const Feeds& feeds, const Binding& b = {});

}  // namespace fl

// The graph IR: tensor operations in SSA form, stored in topological order.
//
// A node's inputs always come earlier in `nodes`, so a single forward walk
// visits producers before consumers; passes build a new graph in one walk.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dim.h"
#include "core/op.h"
#include "core/origin.h"

namespace fl {

using NodeId = int32_t;
// Every op takes at most three operands, so they fit inside the node.
using NodeInputs = SmallVector<NodeId, 3>;
// A transpose's axis order.
using Perm = SmallVector<int, 4>;

enum class DType : uint8_t { BF16, FP16, FP32, FP8, I32, Bool };
int64_t dtype_bytes(DType t);
std::string_view dtype_name(DType t);

struct Attrs {
  std::string name;      // Input / Param: the tensor's name
  Perm perm;             // Transpose: output axis i is input axis perm[i]
  double value = 0;      // a scalar Const: its value
  double eps = 0;        // RMSNorm, LayerNorm: added to the mean square
  double scale = 0;      // Attention: the scores' scale
  Dim mask_offset;       // CausalMask, Attention: query i sees keys j <= i + mask_offset
  Dim row;               // KVWrite: the cache row written
  int64_t n_rep = 1;     // RepeatKV: each head repeated n_rep times (GQA)
  int64_t slice_begin = 0;  // Slice: the first column of the last axis it keeps
  bool operator==(const Attrs& o) const {
    return name == o.name && perm == o.perm && value == o.value && eps == o.eps && scale == o.scale &&
           mask_offset == o.mask_offset && row == o.row && n_rep == o.n_rep && slice_begin == o.slice_begin;
  }
};

using Values = std::shared_ptr<const std::vector<float>>;

struct Node {
  Op op;
  NodeInputs inputs;
  Shape shape;
  DType dtype = DType::BF16;
  Attrs attrs;
  Values value;  // bound constant value (real-valued params and folded constants)
  // A constant, or computed from constants only: cast for free at compile
  // time, so it never decides (or breaks) an op's dtype.
  bool constant_expr = false;
  Origin origin = Origin::None;  // the step of the layer's code that made it
};

// The same node: op, operands, shape, dtype, attributes and bound value (by content).
bool operator==(const Node& a, const Node& b);

// A shape or operand error found while building or verifying a graph.
struct GraphError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Graph {
 public:
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(NodeId id) const { return nodes_.at(static_cast<size_t>(id)); }
  size_t size() const { return nodes_.size(); }
  const std::vector<NodeId>& outputs() const { return outputs_; }
  void set_outputs(std::vector<NodeId> outs) { outputs_ = std::move(outs); }

  // Appends a node after checking its inputs and inferring its shape and
  // dtype (`dtype` is used by sources, embeddings and casts).
  NodeId add(Op op, NodeInputs inputs, Attrs attrs = {}, Shape shape = {}, DType dtype = DType::BF16);
  // The origin the nodes added from now on get (the tracer's step, a pass's
  // node being rewritten).
  void set_origin(Origin o) { origin_ = o; }
  Origin origin() const { return origin_; }
  // Appends a node known to be valid (a copy from another graph whose inputs
  // were remapped to values of the same shapes): no shape inference.
  NodeId append(Node n) {
    nodes_.push_back(std::move(n));
    return static_cast<NodeId>(nodes_.size() - 1);
  }
  // The same for a copy of another graph's node, made in place, with its
  // inputs mapped through `remap` (old id -> id here).
  template <class Remap>
  NodeId append_copy(const Node& n, Remap&& remap) {
    Node& copy = nodes_.emplace_back(n);
    for (NodeId& i : copy.inputs) i = remap(i);
    return static_cast<NodeId>(nodes_.size() - 1);
  }
  void reserve(size_t n) { nodes_.reserve(n); }
  // Keeps the nodes where `keep` is set, in order, remapping inputs and
  // outputs (every kept node's inputs must be kept); returns how many went.
  size_t keep_only(const std::vector<char>& keep);
  NodeId input(const std::string& name, Shape shape, DType dtype = DType::BF16);
  NodeId param(const std::string& name, Shape shape, Values value = nullptr, DType dtype = DType::BF16);
  NodeId constant(Shape shape, Values value, DType dtype = DType::BF16);
  NodeId scalar(double v);
  // Direct access that skips every check: for tests of verify().
  Node& mutable_node(NodeId id) { return nodes_.at(static_cast<size_t>(id)); }
  void set_value(NodeId id, Values v) { nodes_.at(static_cast<size_t>(id)).value = std::move(v); }

  // Number of consumers of each node (outputs count as one more).
  std::vector<int> use_counts() const;

  // The same nodes in the same order, and the same outputs.
  bool operator==(const Graph& o) const { return nodes_ == o.nodes_ && outputs_ == o.outputs_; }

 private:
  std::vector<Node> nodes_;
  std::vector<NodeId> outputs_;
  Origin origin_ = Origin::None;
};

// Shape of `op` applied to inputs of the given shapes; throws GraphError.
// `declared` is the target shape of a Reshape and the shape of a source.
Shape infer_shape(Op op, std::span<const Shape* const> in, const Attrs& a, const Shape& declared);

// Checks every invariant: inputs exist and come earlier, arity, shapes agree
// with the op, constant values match their shapes. Throws GraphError.
void verify(const Graph& g);

// Human-readable listing, one node a line (`%7 = matmul(%3, %5) : (16, 128)`).
std::string dump(const Graph& g);
std::string node_str(const Graph& g, NodeId id);

}  // namespace fl

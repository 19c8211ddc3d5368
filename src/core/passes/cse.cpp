// cse: common-subexpression elimination by hash-consing.
//
// 1. Walk forward; remap each node's inputs to their canonical nodes.
// 2. Key = (op, inputs, attrs, shape, dtype, value). A node whose key was seen
//    is replaced by the earlier node.
// Inputs and params are distinct tensors even when equal in shape; constants
// are equal only when both carry equal values (a shape-only constant could
// hold anything, so it is never merged).
#include <unordered_map>

#include "core/passes/passes.h"

namespace fl {

namespace {

struct Key {
  const Node* node;     // the node in the source graph (for attrs, shape, value)
  NodeInputs inputs;  // canonical inputs in the new graph
};

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

struct KeyHash {
  size_t operator()(const Key& k) const {
    size_t h = static_cast<size_t>(k.node->op);
    for (NodeId i : k.inputs) h = mix(h, static_cast<size_t>(i));
    h = mix(h, std::hash<double>{}(k.node->attrs.value));
    h = mix(h, std::hash<double>{}(k.node->attrs.eps));
    h = mix(h, std::hash<double>{}(k.node->attrs.scale));
    h = mix(h, k.node->shape.size());
    return h;
  }
};

bool same_value(const Values& a, const Values& b) {
  if (!a || !b) return false;
  return a == b || *a == *b;
}

struct KeyEq {
  bool operator()(const Key& a, const Key& b) const {
    const Node &x = *a.node, &y = *b.node;
    if (x.op != y.op || a.inputs != b.inputs || x.dtype != y.dtype || !(x.attrs == y.attrs) || x.shape != y.shape)
      return false;
    if (x.op == Op::Const) return same_value(x.value, y.value);
    return true;
  }
};

}  // namespace

PassResult cse(const Graph& g) {
  Rebuilder rb(g);
  std::unordered_map<Key, NodeId, KeyHash, KeyEq> seen;
  seen.reserve(g.size());
  int rewrites = 0;
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    if (n.op == Op::Input || n.op == Op::Param) {
      rb.copy(id);
      continue;
    }
    Key key{&n, {}};
    for (NodeId i : n.inputs) key.inputs.push_back(rb[i]);
    if (auto it = seen.find(key); it != seen.end()) {
      rb.map(id, it->second);
      ++rewrites;
      continue;
    }
    seen.emplace(std::move(key), rb.copy(id));
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl

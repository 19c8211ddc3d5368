// cse: common-subexpression elimination by hash-consing.
//
// 1. Walk forward; remap each node's inputs to their canonical nodes.
// 2. Key = (op, inputs, attrs, shape, dtype, value). A node whose key was seen
//    is replaced by the earlier node.
// Inputs and params are distinct tensors even when equal in shape; constants
// are equal only when both carry equal values (a shape-only constant could
// hold anything, so it is never merged).
#include <optional>
#include <vector>

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

// The keys seen, in an open-addressing table made once per pass: a
// node-based hash map allocated an entry for every node of every graph.
class Seen {
 public:
  explicit Seen(size_t keys) {
    size_t n = 8;
    while (n < 2 * keys) n *= 2;  // at most half full
    slots_.resize(n);
  }
  // The node kept for a key equal to `k`, if one was inserted.
  std::optional<NodeId> find(const Key& k, size_t hash) const {
    for (size_t i = hash & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (!s.key.node) return std::nullopt;
      if (s.hash == hash && KeyEq{}(s.key, k)) return s.id;
    }
  }
  // After find(k, hash) found nothing.
  void insert(Key k, size_t hash, NodeId id) {
    size_t i = hash & (slots_.size() - 1);
    while (slots_[i].key.node) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {hash, std::move(k), id};
  }

 private:
  struct Slot {
    size_t hash = 0;
    Key key{nullptr, {}};  // key.node null: empty
    NodeId id = -1;
  };
  std::vector<Slot> slots_;
};

}  // namespace

PassResult cse(const Graph& g) {
  Rebuilder rb(g);
  Seen seen(g.size());
  int rewrites = 0;
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    if (n.op == Op::Input || n.op == Op::Param) {
      rb.copy(id);
      continue;
    }
    Key key{&n, {}};
    for (NodeId i : n.inputs) key.inputs.push_back(rb[i]);
    const size_t hash = KeyHash{}(key);
    if (auto earlier = seen.find(key, hash)) {
      rb.map(id, *earlier);
      ++rewrites;
      continue;
    }
    seen.insert(std::move(key), hash, rb.copy(id));
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl

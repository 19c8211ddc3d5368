// diff_graphs: match the new graph's nodes to the old graph's, in order.
//
// 1. A node's local signature: op, dtype, shape and attributes.
// 2. Walk the new graph forward (inputs first). A node is unchanged when an
//    unmatched old node has its signature and the old counterparts of its
//    inputs; rewritten when an unmatched old node has its signature but other
//    inputs; added otherwise.
// 3. Old nodes left unmatched were removed.
#include "core/explain/pass_diff.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <vector>

namespace fl {

namespace {

// Two nodes alike apart from their operands: op, dtype, shape and attributes.
bool alike(const Node& a, const Node& b) {
  return a.op == b.op && a.dtype == b.dtype && a.shape == b.shape && a.attrs == b.attrs;
}

uint64_t bits_of(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);  // std::bit_cast: not in the page's libc++
  return b;
}

// A hash of what `alike` compares (a symbolic size hashes as one value:
// equality tells them apart).
size_t local_hash(const Node& n) {
  size_t h = static_cast<size_t>(n.op);
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  mix(static_cast<size_t>(n.dtype));
  for (const Dim& d : n.shape) mix(d.is_constant() ? static_cast<size_t>(d.constant()) : 0x5bd1e995u);
  mix(std::hash<std::string>{}(n.attrs.name));
  for (int p : n.attrs.perm) mix(static_cast<size_t>(p));
  for (double x : {n.attrs.value, n.attrs.eps, n.attrs.scale}) mix(static_cast<size_t>(bits_of(x)));
  mix(static_cast<size_t>(n.attrs.n_rep));
  mix(static_cast<size_t>(n.attrs.slice_begin));
  return h;
}

// A node's signature, with or without its operands (ids in the old graph).
struct Key {
  const Node* node;
  NodeInputs inputs;
  bool with_inputs;
  size_t hash;
  bool operator==(const Key& o) const {
    return with_inputs == o.with_inputs && (!with_inputs || inputs == o.inputs) && alike(*node, *o.node);
  }
};
struct KeyHash {
  size_t operator()(const Key& k) const { return k.hash; }
};

Key local_key(const Node& n) { return {&n, {}, false, local_hash(n)}; }

Key exact_key(const Node& n, const NodeInputs& inputs) {
  size_t h = local_hash(n);
  for (NodeId in : inputs) h = h * 31 + static_cast<size_t>(in + 1);
  return {&n, inputs, true, h};
}

}  // namespace

StageDiff diff_graphs(const Graph& before, const Graph& after) {
  // Old nodes by (signature, old inputs) and by signature alone, each in
  // graph order; `take` hands out the first one not matched yet.
  struct Queue {
    std::vector<NodeId> ids;
    size_t head = 0;
  };
  std::unordered_map<Key, Queue, KeyHash> exact, by_signature;
  exact.reserve(before.size());
  by_signature.reserve(before.size());
  for (size_t i = 0; i < before.size(); ++i) {
    const Node& n = before.nodes()[i];
    exact[exact_key(n, n.inputs)].ids.push_back(static_cast<NodeId>(i));
    by_signature[local_key(n)].ids.push_back(static_cast<NodeId>(i));
  }
  std::vector<char> used(before.size(), 0);
  std::vector<NodeId> old_of(after.size(), -1);
  auto take = [&](Queue& q) -> NodeId {
    while (q.head < q.ids.size() && used[static_cast<size_t>(q.ids[q.head])]) ++q.head;
    if (q.head == q.ids.size()) return -1;
    NodeId id = q.ids[q.head++];
    used[static_cast<size_t>(id)] = 1;
    return id;
  };

  StageDiff d;
  for (size_t i = 0; i < after.size(); ++i) {
    const Node& n = after.nodes()[i];
    NodeInputs old_inputs;
    for (NodeId in : n.inputs) old_inputs.push_back(old_of[static_cast<size_t>(in)]);
    NodeId match = -1;
    if (auto it = exact.find(exact_key(n, old_inputs)); it != exact.end()) match = take(it->second);
    if (match < 0) {
      if (auto it = by_signature.find(local_key(n)); it != by_signature.end() && (match = take(it->second)) >= 0)
        d.rewritten.push_back(static_cast<NodeId>(i));
      else
        d.added.push_back(static_cast<NodeId>(i));
    }
    old_of[i] = match;
  }
  for (size_t i = 0; i < before.size(); ++i)
    if (!used[i]) d.removed.push_back(static_cast<NodeId>(i));
  return d;
}

}  // namespace fl

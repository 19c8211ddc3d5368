#include "core/regional.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace fl {

namespace {

bool is_digit(char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }

// A name with every layer number moved by `by`: "l1.attn_norm*l1.wq" becomes
// "l3.attn_norm*l3.wq" for by = 2 (a folded weight names both of its
// parameters). Names without a layer prefix are left as they are.
std::string renumbered(const std::string& name, int64_t by) {
  std::string out;
  out.reserve(name.size() + 2);
  for (size_t i = 0; i < name.size();) {
    const bool word_start = i == 0 || !std::isalnum(static_cast<unsigned char>(name[i - 1]));
    size_t end = i + 1;
    while (end < name.size() && is_digit(name[end])) ++end;
    if (word_start && name[i] == 'l' && end > i + 1 && end < name.size() && name[end] == '.') {
      out += 'l';
      out += std::to_string(std::stoll(name.substr(i + 1, end - i - 1)) + by);
      i = end;
    } else {
      out += name[i++];
    }
  }
  return out;
}

// The operands of `later` that are those of `earlier` moved by `by` (bits),
// or nullopt when `later` is not `earlier` so moved, its names renumbered.
std::optional<uint8_t> moved_operands(const Node& earlier, const Node& later, NodeId by, int64_t renumber) {
  Node expected = earlier;
  expected.attrs.name = renumbered(earlier.attrs.name, renumber);
  expected.inputs = later.inputs;
  if (!(expected == later) || earlier.inputs.size() != later.inputs.size()) return std::nullopt;
  uint8_t moves = 0;
  for (size_t i = 0; i < earlier.inputs.size(); ++i) {
    if (later.inputs[i] == earlier.inputs[i] + by) moves = static_cast<uint8_t>(moves | (1u << i));
    else if (later.inputs[i] != earlier.inputs[i]) return std::nullopt;
  }
  return moves;
}

// Reads the repeat from `three`'s third layer and epilogue against `two`'s
// second layer and epilogue.
std::optional<Repeat> read_repeat(const Graph& two, const Graph& three, NodeId last, NodeId block) {
  Repeat r{last, block, {}, {}};
  for (NodeId i = last - block; i < last; ++i) {
    auto moves = moved_operands(two.node(i), three.node(i + block), block, 1);
    if (!moves) return std::nullopt;
    r.layer_moves.push_back(*moves);
  }
  for (NodeId i = last; i < static_cast<NodeId>(two.size()); ++i) {
    auto moves = moved_operands(two.node(i), three.node(i + block), block, 0);
    if (!moves) return std::nullopt;
    r.epilogue_moves.push_back(*moves);
  }
  return r;
}

Node moved(const Node& n, uint8_t moves, NodeId by) {
  Node out = n;
  for (size_t i = 0; i < out.inputs.size(); ++i)
    if (moves & (1u << i)) out.inputs[i] += by;
  return out;
}

Graph stamp(const Graph& two, const Repeat& r, int64_t layers) {
  const std::vector<Node>& nodes = two.nodes();
  const NodeId layer_start = r.last - r.block;
  const NodeId added = static_cast<NodeId>(layers - 2) * r.block;
  Graph out;
  out.reserve(nodes.size() + static_cast<size_t>(added));
  for (NodeId i = 0; i < r.last; ++i) out.append(nodes[static_cast<size_t>(i)]);
  for (int64_t k = 2; k < layers; ++k) {
    const NodeId by = static_cast<NodeId>(k - 1) * r.block;
    for (NodeId i = layer_start; i < r.last; ++i) {
      Node n = moved(nodes[static_cast<size_t>(i)], r.layer_moves[static_cast<size_t>(i - layer_start)], by);
      if (!n.attrs.name.empty()) n.attrs.name = renumbered(n.attrs.name, k - 1);  // params and inputs only
      out.append(std::move(n));
    }
  }
  for (size_t i = static_cast<size_t>(r.last); i < nodes.size(); ++i)
    out.append(moved(nodes[i], r.epilogue_moves[i - static_cast<size_t>(r.last)], added));
  // Outputs the repeated layer writes (decode's caches) are repeated for each
  // further layer, after its own; the epilogue's move along.
  const std::vector<NodeId>& outs = two.outputs();
  std::vector<NodeId> stamped;
  auto in_layer = [&](NodeId o) { return o >= layer_start && o < r.last; };
  for (size_t i = 0; i < outs.size();) {
    if (!in_layer(outs[i])) {
      stamped.push_back(outs[i] >= r.last ? outs[i] + added : outs[i]);
      ++i;
      continue;
    }
    size_t end = i;
    while (end < outs.size() && in_layer(outs[end])) ++end;
    for (int64_t k = 1; k < layers; ++k)
      for (size_t j = i; j < end; ++j) stamped.push_back(outs[j] + static_cast<NodeId>(k - 1) * r.block);
    i = end;
  }
  out.set_outputs(std::move(stamped));
  return out;
}

}  // namespace

std::optional<LayerRepeat> LayerRepeat::read(const Graph& two, const Graph& three) {
  if (three.size() <= two.size()) return std::nullopt;
  const auto& a = two.nodes();
  const auto& b = three.nodes();
  // `three`'s third layer begins at or before the first node where the two
  // differ: its first nodes may equal those of `two`'s epilogue (both begin
  // with an RMSNorm of the last layer's output).
  const NodeId first_difference = static_cast<NodeId>(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin());
  const NodeId block = static_cast<NodeId>(b.size() - a.size());
  for (NodeId last = first_difference; last >= 2 * block && last > first_difference - block; --last) {
    const std::optional<Repeat> r = read_repeat(two, three, last, block);
    if (!r || !(stamp(two, *r, 3) == three)) continue;  // not one more of the same layer
    return LayerRepeat(two, std::move(*r));
  }
  return std::nullopt;
}

Graph LayerRepeat::graph(int64_t layers) const { return layers == 2 ? two_ : stamp(two_, repeat_, layers); }

}  // namespace fl

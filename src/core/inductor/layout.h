// Strides through a chain of views, as PyTorch computes them: whether an
// extern call (cuBLAS mm / bmm) can read a viewed tensor in place, or whether
// Inductor must first copy it into a contiguous buffer (a `clone` kernel).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/graph.h"

namespace fl::inductor {

struct Layout {
  std::vector<int64_t> sizes, strides;
  static Layout contiguous(std::vector<int64_t> sizes);
};

// The layout `shape` has as a view of `from`, if strides can express it
// (PyTorch's view rule: merged dims must be contiguous with each other).
std::optional<Layout> reshaped(const Layout& from, const std::vector<int64_t>& shape);
Layout transposed(const Layout& from, const Perm& perm);

// The layout of view node `id` over its storage (laid out as `base`), or
// nothing when some view on the way needs a copy: a GQA repeat (an expand
// with stride 0 merged into the head axis) or a reshape strides cannot express.
std::optional<Layout> view_layout(const Graph& g, NodeId id, const Layout& base, const std::vector<std::vector<int64_t>>& shapes);

}  // namespace fl::inductor

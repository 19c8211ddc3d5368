#include "core/inductor/layout.h"

namespace fl::inductor {

Layout Layout::contiguous(std::vector<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * sizes[i];
  return {std::move(sizes), std::move(strides)};
}

// PyTorch's rule (ATen's computeStride): walk both shapes from the last dim,
// one contiguous chunk of the old tensor at a time; each chunk must be
// covered exactly by whole dims of the new shape.
std::optional<Layout> reshaped(const Layout& from, const std::vector<int64_t>& shape) {
  Layout out{shape, std::vector<int64_t>(shape.size(), 1)};
  if (from.sizes.empty()) return out;
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_stride = from.strides.back(), tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(from.sizes.size()) - 1; d >= 0; --d) {
    const size_t i = static_cast<size_t>(d);
    tensor_numel *= from.sizes[i];
    const bool chunk_ends = d == 0 || (from.sizes[i - 1] != 1 && from.strides[i - 1] != tensor_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || shape[static_cast<size_t>(view_d)] == 1)) {
      out.strides[static_cast<size_t>(view_d)] = view_numel * chunk_stride;
      view_numel *= shape[static_cast<size_t>(view_d)];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (d > 0) {
      chunk_stride = from.strides[i - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Layout transposed(const Layout& from, const Perm& perm) {
  Layout out{std::vector<int64_t>(perm.size()), std::vector<int64_t>(perm.size())};
  for (size_t i = 0; i < perm.size(); ++i) {
    out.sizes[i] = from.sizes[static_cast<size_t>(perm[i])];
    out.strides[i] = from.strides[static_cast<size_t>(perm[i])];
  }
  return out;
}

std::optional<Layout> view_layout(const Graph& g, NodeId id, const Layout& base, const std::vector<std::vector<int64_t>>& shapes) {
  const Node& n = g.node(id);
  if (op_kind(n.op) != OpKind::View) return base;
  std::optional<Layout> in = view_layout(g, n.inputs[0], base, shapes);
  if (!in) return std::nullopt;
  switch (n.op) {
    case Op::Reshape: return reshaped(*in, shapes[static_cast<size_t>(id)]);
    case Op::Transpose: return transposed(*in, n.attrs.perm);
    case Op::Slice: {  // fewer columns, the same strides (and an offset)
      Layout out = *in;
      out.sizes.back() = shapes[static_cast<size_t>(id)].back();
      return out;
    }
    case Op::RepeatKV:  // the heads' expand merged into the head axis: stride 0 cannot merge
      if (n.attrs.n_rep == 1) return in;
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace fl::inductor

#include "core/fusion/repeated.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace fl {

namespace {

using fusion::ExtentGuard;
using fusion::Traffic;

// One kernel of a layout with its traffic: what is stamped as one.
struct KernelRecord {
  Kernel kernel;
  std::vector<Traffic> reads, writes;
  bool operator==(const KernelRecord&) const = default;
};

// Every node and kernel a record refers to, in one fixed order: f(ref, true)
// for a kernel's index, f(ref, false) for a node.
template <class F>
void for_each_ref(KernelRecord& r, F&& f) {
  for (NodeId& n : r.kernel.nodes) f(n, false);
  for (KernelEdge& e : r.kernel.ends) {
    f(e.tensor, false);
    f(e.consumer, true);  // -1, the graph's output, stays
  }
  for (std::vector<Traffic>* list : {&r.reads, &r.writes})
    for (Traffic& t : *list) {
      f(t.elements, false);
      f(t.tensor, false);
    }
}

template <class F>
void for_each_ref(ExtentGuard& g, F&& f) {
  f(g.a.node, false);  // -1, no extent, stays
  f(g.b.node, false);
  f(g.placing, false);
}

// A plan cut where its layers begin and end: the prologue and first layer,
// each further layer, the epilogue. Kernels by their first node, guards by
// the node that made them.
struct Sections {
  std::vector<std::vector<KernelRecord>> kernels;
  std::vector<std::vector<ExtentGuard>> guards;
};

// Which section node `n` of the graph of `layers` layers is in.
size_t section_of(const LayerRepeat& repeat, int64_t layers, NodeId n) {
  if (n < repeat.layer_begin(2)) return 0;
  return static_cast<size_t>(std::min<int64_t>((n - repeat.layer_begin(2)) / repeat.block() + 1, layers));
}

// nullopt when a section's kernels do not run one after the other.
std::optional<Sections> cut(const FusionPlan& plan, const LayerRepeat& repeat, int64_t layers) {
  const size_t count = static_cast<size_t>(layers) + 1;
  Sections s{std::vector<std::vector<KernelRecord>>(count), std::vector<std::vector<ExtentGuard>>(count)};
  size_t last = 0;
  for (size_t k = 0; k < plan.layout.kernels.size(); ++k) {
    const Kernel& kernel = plan.layout.kernels[k];
    const size_t at = section_of(repeat, layers, kernel.nodes.front());
    if (at < last) return std::nullopt;
    last = at;
    auto traffic = [](const fusion::TrafficLists& l, size_t i) {
      const auto span = l.of(i);
      return std::vector<Traffic>(span.begin(), span.end());
    };
    s.kernels[at].push_back({kernel, traffic(plan.layout.reads, k), traffic(plan.layout.writes, k)});
  }
  last = 0;
  for (const ExtentGuard& g : plan.guards) {
    const size_t at = section_of(repeat, layers, g.placing);
    if (at < last) return std::nullopt;
    last = at;
    s.guards[at].push_back(g);
  }
  return s;
}

// How far a reference moves per layer added: nodes by the layer's nodes, kernels by its kernels.
struct Step {
  NodeId nodes;
  int kernels;
};

// Every reference of `items`, in for_each_ref's order, with whether it names a kernel.
template <class T>
std::vector<std::pair<int, bool>> refs(std::vector<T> items) {
  std::vector<std::pair<int, bool>> out;
  for (T& item : items) for_each_ref(item, [&](auto& ref, bool kernel) { out.push_back({static_cast<int>(ref), kernel}); });
  return out;
}

// Which references of `one` move when a layer is added, read against the
// same section `more` with one more layer: each either stays or moves by one
// layer's step. nullopt when a reference does neither.
template <class T>
std::optional<std::vector<bool>> moves(const std::vector<T>& one, const std::vector<T>& more, Step step) {
  if (one.size() != more.size()) return std::nullopt;
  const std::vector<std::pair<int, bool>> a = refs(one), b = refs(more);
  if (a.size() != b.size()) return std::nullopt;
  std::vector<bool> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const auto [was, kernel] = a[i];
    const int by = kernel ? step.kernels : static_cast<int>(step.nodes);
    if (b[i].first == was + by) out[i] = true;
    else if (b[i].first != was) return std::nullopt;
  }
  return out;
}

// Each of `items`, its moving references moved by `layers` layers' steps, to `add`.
template <class T, class Add>
void add_moved(const std::vector<T>& items, const std::vector<bool>& moving, Step step, int64_t layers, Add&& add) {
  size_t i = 0;
  for (const T& original : items) {
    T item = original;
    for_each_ref(item, [&](auto& ref, bool kernel) {
      const int64_t by = (kernel ? step.kernels : static_cast<int64_t>(step.nodes)) * layers;
      if (moving[i++]) ref = static_cast<std::remove_reference_t<decltype(ref)>>(ref + by);
    });
    add(std::move(item));
  }
}

// The plan of three layers, cut, with what moves in each section: prologue
// and first layer, second layer (the one repeated), third (the last), epilogue.
// The first section refers to later ones only by its values' readers.
struct Template {
  Sections three;
  std::array<std::vector<bool>, 4> kernel_moves, guard_moves;  // the first section's: none
  Step step;
};

// The prologue's and first layer's kernels for `added` more layers: a value
// that every layer reads (RoPE's tables, the mask: read in the last layer
// too) has readers in each; the readers in the last layer and the epilogue
// move along.
std::vector<KernelRecord> head(const Template& t, int64_t added) {
  const int middle = static_cast<int>(t.three.kernels[0].size());           // where the second layer's kernels begin
  const int last = middle + static_cast<int>(t.three.kernels[1].size());    // the third's
  const int epilogue = last + static_cast<int>(t.three.kernels[2].size());  // the epilogue's
  std::vector<KernelRecord> out = t.three.kernels[0];
  for (KernelRecord& r : out) {
    auto read_by_last_layer = [&](NodeId tensor) {
      return std::any_of(r.kernel.ends.begin(), r.kernel.ends.end(),
                         [&](const KernelEdge& e) { return e.tensor == tensor && e.consumer >= last && e.consumer < epilogue; });
    };
    std::vector<KernelEdge> ends;
    for (size_t i = 0; i < r.kernel.ends.size();) {
      const KernelEdge& e = r.kernel.ends[i];
      if (e.consumer >= middle && e.consumer < last && read_by_last_layer(e.tensor)) {  // once per middle layer
        size_t run = i;
        while (run < r.kernel.ends.size() && r.kernel.ends[run].consumer >= middle && r.kernel.ends[run].consumer < last &&
               r.kernel.ends[run].tensor == e.tensor)
          ++run;
        for (int64_t j = 0; j <= added; ++j)
          for (size_t k = i; k < run; ++k) {
            KernelEdge moved = r.kernel.ends[k];
            moved.consumer += static_cast<int>(j) * t.step.kernels;
            ends.push_back(moved);
          }
        i = run;
        continue;
      }
      KernelEdge moved = e;
      if (e.consumer >= last) moved.consumer += static_cast<int>(added) * t.step.kernels;
      ends.push_back(moved);
      ++i;
    }
    r.kernel.ends = std::move(ends);
  }
  return out;
}

// Section i of the three-layer plan against its place in the four-layer one.
constexpr size_t kInFour[] = {0, 2, 3, 4};

FusionPlan stamp(const Template& t, const FusionPlan& three, const LayerRepeat& repeat, int64_t layers) {
  const int64_t added = layers - 3;  // layers beyond the template's three
  FusionPlan out{three.options, t.three.guards[0], {}, {}};  // the first section's guards: its own nodes only
  out.layout.kernels.reserve(three.layout.kernels.size() + static_cast<size_t>(added * t.step.kernels));
  auto add_kernel = [&](KernelRecord&& r) {
    out.layout.kernels.push_back(std::move(r.kernel));
    for (auto [list, lists] : {std::pair{&r.reads, &out.layout.reads}, std::pair{&r.writes, &out.layout.writes}}) {
      lists->list.insert(lists->list.end(), list->begin(), list->end());
      lists->start.push_back(lists->list.size());
    }
  };
  auto add_guard = [&](ExtentGuard&& g) { out.guards.push_back(g); };
  auto section = [&](size_t i, int64_t by) {
    add_moved(t.three.kernels[i], t.kernel_moves[i], t.step, by, add_kernel);
    add_moved(t.three.guards[i], t.guard_moves[i], t.step, by, add_guard);
  };
  for (KernelRecord& r : head(t, added)) add_kernel(std::move(r));
  for (int64_t j = 0; j <= added; ++j) section(1, j);  // layers 2 .. N - 1
  section(2, added);                                   // the last layer
  section(3, added);
  // Element counts: the nodes up to the last layer's as in three layers, the
  // last layer's again for each layer added, then the epilogue's.
  const size_t third = static_cast<size_t>(repeat.layer_begin(3)), epilogue = static_cast<size_t>(repeat.layer_begin(4));
  out.numels.append(three.numels, 0, epilogue);
  for (int64_t j = 0; j < added; ++j) out.numels.append(three.numels, third, epilogue);
  out.numels.append(three.numels, epilogue, three.numels.size());
  return out;
}

}  // namespace

std::optional<FusionPlan> plan_repeated_fusion(const LayerRepeat& repeat, int64_t layers, const FuseOptions& opt,
                                               const Binding& bind) {
  if (layers < 4) return std::nullopt;
  const FusionPlan three = plan_fusion(repeat.graph(3), opt, bind);
  const FusionPlan four = plan_fusion(repeat.graph(4), opt, bind);
  std::optional<Sections> cut_three = cut(three, repeat, 3), cut_four = cut(four, repeat, 4);
  if (!cut_three || !cut_four || four.layout.kernels.size() <= three.layout.kernels.size()) return std::nullopt;
  const int kernels_per_layer = static_cast<int>(four.layout.kernels.size() - three.layout.kernels.size());
  Template t{std::move(*cut_three), {}, {}, {repeat.block(), kernels_per_layer}};
  // Sections of three: 0 prologue and layer 1, 1 layer 2, 2 layer 3, 3 epilogue.
  for (size_t i = 1; i < 4; ++i) {
    auto k = moves(t.three.kernels[i], cut_four->kernels[kInFour[i]], t.step);
    auto g = moves(t.three.guards[i], cut_four->guards[kInFour[i]], t.step);
    if (!k || !g) return std::nullopt;
    t.kernel_moves[i] = std::move(*k);
    t.guard_moves[i] = std::move(*g);
  }
  if (!(stamp(t, three, repeat, 4) == four)) return std::nullopt;  // not one more of the same layer
  return stamp(t, three, repeat, layers);
}

}  // namespace fl

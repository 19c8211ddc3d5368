// What the fuzz targets share: failing loudly, comparing interpreter outputs,
// and the invariants every partition of every graph must satisfy.
//
// A broken invariant prints what broke and aborts, so libFuzzer saves the
// input as a crash (crash-<sha1>) that reproduces it: `./fuzz_target crash-...`.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/cost.h"
#include "core/fusion.h"
#include "core/graph.h"
#include "core/interp.h"
#include "core/settings.h"

namespace fl::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "\n==== fuzz invariant broken ====\n%s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define FL_FUZZ_CHECK(cond, ...)                                                        \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::ostringstream fl_fuzz_os_;                                                   \
      fl_fuzz_os_ << __FILE__ << ":" << __LINE__ << ": " #cond "\n" << __VA_ARGS__;     \
      ::fl::fuzz::fail(fl_fuzz_os_.str());                                              \
    }                                                                                   \
  } while (0)

// Two doubles equal up to a relative tolerance (costs are sums in another order).
inline bool near(double a, double b, double rel = 1e-9) {
  return std::fabs(a - b) <= rel * std::max({std::fabs(a), std::fabs(b), 1e-300});
}

// Empty when two configurations compute the same thing (reals equal up to
// rounding), else the fields that differ.
inline std::string config_differences(const AnalysisConfig& a, const AnalysisConfig& b) {
  std::ostringstream os;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (!(x == y)) os << name << " " << x << " then " << y << "; ";
  };
  auto real = [&](const char* name, double x, double y) {
    if (!near(x, y)) os << name << " " << x << " then " << y << "; ";
  };
  field("demo", a.demo, b.demo);
  field("lang", static_cast<int>(a.lang), static_cast<int>(b.lang));
  field("d", a.model.d, b.model.d);
  field("heads", a.model.H, b.model.H);
  field("kv_heads", a.model.G, b.model.G);
  field("head_dim", a.model.dh, b.model.dh);
  field("ffn", a.model.f, b.model.f);
  field("model_key", a.model_key, b.model_key);
  field("layers", a.layers, b.layers);
  field("vocab", a.vocab, b.vocab);
  field("tied_embeddings", a.tied_embeddings, b.tied_embeddings);
  field("whole_model", a.whole_model, b.whole_model);
  field("tokens", a.tokens, b.tokens);
  field("kv_len", a.kv_len, b.kv_len);
  field("batch", a.batch, b.batch);
  field("act", dtype_name(a.act), dtype_name(b.act));
  field("weights", dtype_name(a.weights), dtype_name(b.weights));
  field("hardware_key", a.hardware_key, b.hardware_key);
  real("matmul_flops", a.hw.matmul_flops, b.hw.matmul_flops);
  real("other_flops", a.hw.other_flops, b.hw.other_flops);
  real("bandwidth", a.hw.bandwidth, b.hw.bandwidth);
  real("launch", a.hw.launch, b.hw.launch);
  real("memory", a.hw.memory, b.hw.memory);
  real("graph_launch", a.hw.graph_launch, b.hw.graph_launch);
  return os.str();
}

inline std::string settings_str(const AnalysisConfig& c) {
  std::string out;
  for (const auto& [k, v] : settings_of(c)) out += (out.empty() ? "" : "&") + k + "=" + v;
  return out;
}

// A number near the edges that validation must get right: range limits and
// their neighbours, 32- and 64-bit wrap-arounds, signs, tiny and huge reals.
inline double edge_real(FuzzedDataProvider& in) {
  static constexpr double kReals[] = {0,     -0.0,  0.01,  0.1,   0.5,    1,       2.5,  67,    989,  3.35,
                                      4,     1e3,   1e4,   1e5,   1e5 + 1, 1e-320, 1e-9, 1e300, -1,   0.099999999,
                                      1e308, 5e-324, 1e12,  1e-6,  100000.00000000001};
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0: return kReals[in.ConsumeIntegralInRange<size_t>(0, std::size(kReals) - 1)];
    case 1: return in.ConsumeFloatingPointInRange<double>(-1e6, 1e6);
    default: return in.ConsumeFloatingPoint<double>();
  }
}

inline int64_t edge_int(FuzzedDataProvider& in) {
  static constexpr int64_t kInts[] = {0, 1, 2, 3, 4, 8, 16, 128, 1000, 1001, 1024, 1025, 4096, 65536, 65537, 131072,
                                      131073, 262144, 262145, 1048576, 1048577, -1, -2, 4294967296LL, 4294967297LL,
                                      4294967298LL, 4294967295LL, 2147483648LL, -2147483648LL,
                                      std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0: return kInts[in.ConsumeIntegralInRange<size_t>(0, std::size(kInts) - 1)];
    case 1: return in.ConsumeIntegralInRange<int64_t>(-4, 4200);
    default: return in.ConsumeIntegral<int64_t>();
  }
}

// A JSON value of any type, numbers near the edges.
inline nlohmann::json edge_json(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 9)) {
    case 0: case 1: case 2: case 3: return edge_int(in);
    case 4: return static_cast<uint64_t>(edge_int(in));  // 2^63 .. 2^64-1 as unsigned
    case 5: case 6: return edge_real(in);
    case 7: return std::to_string(edge_int(in));
    case 8: return in.ConsumeBool();
    default: return in.ConsumeBool() ? nlohmann::json() : nlohmann::json::array({edge_int(in)});
  }
}

// Random values for every Input of `g`, shapes evaluated under `bind`: in
// [-1, 1], or token ids below the vocabulary for an embedding's ids.
inline Feeds random_feeds(const Graph& g, const Binding& bind, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<int64_t> vocab(g.size(), 0);  // ids node -> rows of the table it indexes
  for (const Node& n : g.nodes())
    if (n.op == Op::Embedding)
      vocab[static_cast<size_t>(n.inputs[1])] = g.node(n.inputs[0]).shape[0].eval(bind);
  Feeds feeds;
  for (size_t id = 0; id < g.size(); ++id) {
    const Node& n = g.nodes()[id];
    if (n.op != Op::Input || feeds.count(n.attrs.name)) continue;
    TensorValue t{eval_shape(n.shape, bind), {}};
    int64_t count = 1;
    for (int64_t d : t.shape) count *= d;
    t.data.resize(static_cast<size_t>(count));
    for (float& x : t.data)
      x = vocab[id] > 0 ? static_cast<float>(std::uniform_int_distribution<int64_t>(0, vocab[id] - 1)(rng)) : u(rng);
    feeds[n.attrs.name] = std::move(t);
  }
  return feeds;
}

// Empty when `got` equals `ref` within `tol` relative to `scale` (or to the
// largest |ref| of each output when scale is 0); NaN and infinities must sit
// in the same places. Otherwise a description of the first difference.
inline std::string compare(const std::vector<TensorValue>& ref, const std::vector<TensorValue>& got, double tol,
                           double scale = 0) {
  if (ref.size() != got.size())
    return std::to_string(ref.size()) + " outputs, then " + std::to_string(got.size());
  for (size_t o = 0; o < ref.size(); ++o) {
    const TensorValue &a = ref[o], &b = got[o];
    if (a.shape != b.shape || a.data.size() != b.data.size()) return "output " + std::to_string(o) + ": shape differs";
    double s = scale;
    if (s == 0) {
      s = 1e-6;
      for (float x : a.data)
        if (std::isfinite(x)) s = std::max(s, static_cast<double>(std::fabs(x)));
    }
    for (size_t i = 0; i < a.data.size(); ++i) {
      const float x = a.data[i], y = b.data[i];
      bool same;
      if (std::isnan(x) || std::isnan(y)) same = std::isnan(x) && std::isnan(y);
      else if (std::isinf(x) || std::isinf(y)) same = x == y;
      else same = std::fabs(static_cast<double>(x) - static_cast<double>(y)) <= tol * s;
      if (!same) {
        std::ostringstream os;
        os << "output " << o << " element " << i << ": " << x << " then " << y << " (scale " << s << ", tolerance "
           << tol << ")";
        return os.str();
      }
    }
  }
  return {};
}

// The node whose buffer a value lives in: views resolved to their source
// when they are free (inlined as indexing), else their own copy.
inline std::vector<NodeId> storage_of(const Graph& g, bool views_free) {
  std::vector<NodeId> s(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    s[i] = views_free && op_kind(n.op) == OpKind::View ? s[static_cast<size_t>(n.inputs[0])] : static_cast<NodeId>(i);
  }
  return s;
}

// Ops that run in a kernel: everything but sources, and views unless they are free.
inline bool in_a_kernel(Op op, bool views_free) {
  return op_kind(op) != OpKind::Source && !(views_free && op_kind(op) == OpKind::View);
}

// One partition on its own: every op that runs in exactly one kernel,
// sources (and free views) in none, kernels in an executable order, costs
// that add up and a roofline that bounds each kernel from below.
inline void check_partition(const Graph& g, const std::vector<Kernel>& ks, const Hardware& hw, const std::string& what,
                            bool views_free = true) {
  const std::vector<NodeId> storage = storage_of(g, views_free);
  std::vector<int> kernel_of(g.size(), -1);
  for (size_t ki = 0; ki < ks.size(); ++ki) {
    const Kernel& k = ks[ki];
    FL_FUZZ_CHECK(!k.nodes.empty(), what << ": kernel " << ki << " is empty");
    FL_FUZZ_CHECK(std::is_sorted(k.nodes.begin(), k.nodes.end()), what << ": kernel " << ki << " not in graph order");
    for (NodeId id : k.nodes) {
      FL_FUZZ_CHECK(id >= 0 && static_cast<size_t>(id) < g.size(), what << ": kernel " << ki << " names %" << id);
      FL_FUZZ_CHECK(in_a_kernel(g.node(id).op, views_free), what << ": " << node_str(g, id) << " is in kernel " << ki);
      FL_FUZZ_CHECK(kernel_of[static_cast<size_t>(id)] < 0,
                    what << ": " << node_str(g, id) << " in kernels " << kernel_of[static_cast<size_t>(id)] << " and " << ki);
      kernel_of[static_cast<size_t>(id)] = static_cast<int>(ki);
    }
    FL_FUZZ_CHECK(k.reads >= 0 && k.writes >= 0, what << ": kernel " << ki << " moves negative bytes");
    FL_FUZZ_CHECK(std::isfinite(k.matmul_flops) && k.matmul_flops >= 0 && std::isfinite(k.other_flops) && k.other_flops >= 0,
                  what << ": kernel " << ki << " FLOPs " << k.matmul_flops << " + " << k.other_flops);
    for (const KernelEdge& e : k.ends)
      FL_FUZZ_CHECK(e.consumer == -1 || (e.consumer > static_cast<int>(ki) && e.consumer < static_cast<int>(ks.size())),
                    what << ": kernel " << ki << " hands %" << e.tensor << " to kernel " << e.consumer);
    // The roofline: no kernel is faster than its bytes or its FLOPs allow.
    const double t = kernel_time(k, hw);
    FL_FUZZ_CHECK(t >= static_cast<double>(k.bytes()) / hw.bandwidth * (1 - 1e-12), what << ": kernel " << ki << " t " << t);
    FL_FUZZ_CHECK(t >= k.matmul_flops / hw.matmul_flops * (1 - 1e-12), what << ": kernel " << ki << " t " << t);
    FL_FUZZ_CHECK(t >= k.other_flops / hw.other_flops * (1 - 1e-12), what << ": kernel " << ki << " t " << t);
  }
  for (size_t i = 0; i < g.size(); ++i)
    if (in_a_kernel(g.nodes()[i].op, views_free))
      FL_FUZZ_CHECK(kernel_of[i] >= 0, what << ": " << node_str(g, static_cast<NodeId>(i)) << " is in no kernel");
  // Executable order: a kernel reads only what earlier kernels (or sources) wrote.
  for (size_t ki = 0; ki < ks.size(); ++ki)
    for (NodeId id : ks[ki].nodes)
      for (NodeId in : g.node(id).inputs) {
        int src = kernel_of[static_cast<size_t>(storage[static_cast<size_t>(in)])];
        FL_FUZZ_CHECK(src <= static_cast<int>(ki),
                      what << ": kernel " << ki << " (" << node_str(g, id) << ") reads kernel " << src << "'s output");
      }
  GraphCost c = graph_cost(ks, hw);
  int64_t bytes = 0;
  double flops = 0, t = 0;
  for (const Kernel& k : ks) bytes += k.bytes(), flops += k.flops(), t += kernel_time(k, hw);
  FL_FUZZ_CHECK(c.kernels == static_cast<int>(ks.size()) && c.bytes == bytes && near(c.flops, flops) && near(c.t, t) &&
                    near(c.overhead, static_cast<double>(ks.size()) * hw.launch) && near(c.t_total, c.t + c.overhead),
                what << ": graph_cost does not add up its kernels");
}

// Fusion on and off over one graph, and every ablation of the fusion rules:
// all partitions valid; fusion never adds a kernel or a byte to the unfused
// partition (views as free or as copies alike), and leaves the FLOPs alone.
// `ablations` false: only the default rules and fusion off (views free).
inline void check_fusion(const Graph& g, const Binding& bind, const Hardware& hw, const std::string& what,
                         bool ablations = true) {
  for (bool inlining : {true, false}) {
    if (!inlining && !ablations) break;
    FuseOptions off;
    off.enable = false;
    off.inlining = inlining;
    const std::vector<Kernel> unfused = fuse(g, off, bind);
    const std::string w = what + (inlining ? "" : " (views as copies)");
    check_partition(g, unfused, hw, w + " unfused", inlining);
    size_t ops = 0;
    for (const Node& n : g.nodes()) ops += in_a_kernel(n.op, inlining);
    FL_FUZZ_CHECK(unfused.size() == ops, w << ": unfused has " << unfused.size() << " kernels, " << ops << " ops");
    const GraphCost u = graph_cost(unfused, hw);
    for (int mask = ablations ? 0 : 3; mask < 4; ++mask) {
      FuseOptions opt;
      opt.inlining = inlining;
      opt.fusion = mask & 1;
      opt.matmul_epilogues = mask & 2;
      const std::string v = w + " fusion=" + std::to_string(opt.fusion) + " epilogues=" + std::to_string(opt.matmul_epilogues);
      const std::vector<Kernel> fused = fuse(g, opt, bind);
      check_partition(g, fused, hw, v, inlining);
      const GraphCost f = graph_cost(fused, hw);
      FL_FUZZ_CHECK(f.kernels <= u.kernels, v << ": fused " << f.kernels << " kernels, unfused " << u.kernels);
      FL_FUZZ_CHECK(f.bytes <= u.bytes, v << ": fused " << f.bytes << " bytes, unfused " << u.bytes << "\n" << dump(g));
      FL_FUZZ_CHECK(near(f.flops, u.flops), v << ": fused " << f.flops << " FLOPs, unfused " << u.flops);
    }
  }
}

}  // namespace fl::fuzz

// The fusion rules on small graphs, one rule at a time, and byte counting.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string_view>

#include "core/cost.h"
#include "core/ends_by_reason.h"
#include "core/fusion.h"
#include "core/fusion/rules.h"
#include "core/trace.h"

using namespace fl;

namespace {
Kernel only(const std::vector<Kernel>& ks) {
  REQUIRE(ks.size() == 1);
  return ks[0];
}
}  // namespace

TEST_CASE("a pointwise chain is one kernel that reads its input once and writes its output") {
  Graph g;
  Tensor x(&g, g.input("x", {64, 32}));  // 2048 elements, 4 KB in bf16
  Tensor y = exp(-x) * x + x;
  g.set_outputs({y.id()});
  Kernel k = only(fuse(g));
  CHECK(k.kind == KernelKind::Pointwise);
  CHECK(k.label == "neg+exp+mul+add");
  CHECK(k.reads == 4096);
  CHECK(k.writes == 4096);

  auto unfused = fuse(g, {false});
  CHECK(unfused.size() == 4);
  CHECK(graph_cost(unfused).bytes > k.bytes());
  CHECK(unfused[0].ends[0].why == Boundary::FusionOff);
}

TEST_CASE("a reduction takes its pointwise prologue and epilogue: one rowwise kernel") {
  Graph g;
  Tensor x(&g, g.input("x", {16, 128}));
  Tensor y = x * rsqrt(mean(x * x) + 1e-5);
  g.set_outputs({y.id()});
  Kernel k = only(fuse(g));
  CHECK(k.kind == KernelKind::Rowwise);
  CHECK(k.label == "square+mean+add+rsqrt+mul");
  CHECK(k.reads == 16 * 128 * 2);
  CHECK(k.writes == 16 * 128 * 2);
}

TEST_CASE("a matmul takes a pointwise epilogue but no prologue") {
  Graph g;
  Tensor x(&g, g.input("x", {8, 16}));
  Tensor w(&g, g.param("w", {16, 4}));
  Tensor r(&g, g.input("r", {8, 4}));
  Tensor y = matmul(exp(x), w) + r;
  g.set_outputs({y.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].label == "exp");
  CHECK(ks[1].label == "matmul+add");
  CHECK(ks[1].kind == KernelKind::MatMul);
  REQUIRE(ks[0].ends.size() == 1);
  CHECK(ks[0].ends[0].why == Boundary::MatmulNoPrologue);
  CHECK(ks[0].ends[0].consumer == 1);
  CHECK(ks[1].reads == (8 * 16 + 16 * 4 + 8 * 4) * 2);
  CHECK(ks[1].matmul_flops == 2.0 * 8 * 4 * 16);
}

TEST_CASE("a reduction after a matmul starts a new kernel and says why") {
  Graph g;
  Tensor q(&g, g.input("q", {2, 8, 4})), k(&g, g.input("k", {2, 8, 4})), v(&g, g.input("v", {2, 8, 4}));
  Tensor s = matmul(q, transpose(k, {0, 2, 1})) * 0.5;
  Tensor o = matmul(softmax(causal_mask(s, 0)), v);
  g.set_outputs({o.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 3);
  // The mask's only user is a reduction, so it runs as the reduction's prologue.
  CHECK(ks[0].label == "matmul+mul");
  CHECK(ks[1].label == "causal_mask+softmax");
  CHECK(ks[1].kind == KernelKind::Rowwise);
  CHECK(ks[2].kind == KernelKind::MatMul);
  REQUIRE(!ks[0].ends.empty());
  CHECK(ks[0].ends[0].why == Boundary::ReductionAfterMatmul);
  CHECK(ks[1].ends[0].why == Boundary::MatmulNoPrologue);
  // The transpose is a view: k is read once, at its own size.
  CHECK(ks[0].reads == 2 * (2 * 8 * 4 * 2));
}

TEST_CASE("views take no kernel and are read through their storage") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 2, 8}));
  Tensor y = exp(reshape(transpose(x, {1, 0, 2}), {2, 32}));
  g.set_outputs({y.id()});
  Kernel k = only(fuse(g));
  CHECK(k.nodes.size() == 1);
  CHECK(k.reads == 64 * 2);
}

TEST_CASE("attention and kv_write are kernels of their own") {
  Graph g;
  Dim S = Dim::symbol("S");
  Tensor cache(&g, g.input("cache", {2, S, 4}));
  Tensor fresh(&g, g.input("fresh", {2, 1, 4}));
  Tensor q(&g, g.input("q", {2, 1, 4}));
  Tensor all = kv_write(cache, exp(fresh), Dim::symbol("P"));
  Tensor o = q.apply(Op::Attention, {all, all}, [] { Attrs a; a.scale = 0.5; return a; }());
  g.set_outputs({o.id(), all.id()});
  auto ks = fuse(g, {}, {{"S", 100}});
  REQUIRE(ks.size() == 3);
  CHECK(ks[1].kind == KernelKind::KVWrite);
  CHECK(ks[1].writes == 2 * 4 * 2);            // one row per head, not the cache
  CHECK(ks[2].reads == (2 * 4 + 2 * 100 * 4) * 2);  // q, and the whole cache once
  CHECK(ks[0].ends[0].why == Boundary::OpaqueKernel);
}

namespace {
// The reason recorded for `tensor` leaving kernel `k` towards `consumer` (-1: the graph's output).
std::optional<Boundary> why_leaves(const Kernel& k, NodeId tensor, int consumer) {
  for (const KernelEdge& e : k.ends)
    if (e.tensor == tensor && e.consumer == consumer) return e.why;
  return std::nullopt;
}
}  // namespace

TEST_CASE("a pointwise consumer over another iteration space starts a kernel: IterationSpace") {
  Graph g;
  Tensor r(&g, g.input("r", {64, 1}));  // 64 elements
  Tensor x(&g, g.input("x", {64, 32}));  // 2048 elements
  Tensor scale = exp(r);
  Tensor y = scale + x;  // broadcast: loops over 2048
  g.set_outputs({y.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].label == "exp");
  CHECK(ks[1].label == "add");
  CHECK(why_leaves(ks[0], scale.id(), 1) == Boundary::IterationSpace);
  // Over the same space, the two join: the reason is the space, nothing else.
  Graph same;
  Tensor r2(&same, same.input("r", {64, 32})), x2(&same, same.input("x", {64, 32}));
  same.set_outputs({(exp(r2) + x2).id()});
  CHECK(fuse(same).size() == 1);
}

TEST_CASE("a consumer of two matmuls joins one of them: OneAnchorPerKernel for the other") {
  Graph g;
  Tensor x(&g, g.input("x", {8, 16}));
  Tensor a = matmul(x, Tensor(&g, g.param("wa", {16, 4})));
  Tensor b = matmul(x, Tensor(&g, g.param("wb", {16, 4})));
  Tensor y = a + b;
  g.set_outputs({y.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].label == "matmul");
  CHECK(ks[1].label == "matmul+add");  // the add is the later matmul's epilogue
  CHECK(why_leaves(ks[0], a.id(), 1) == Boundary::OneAnchorPerKernel);
}

TEST_CASE("a merge that would make two kernels wait on each other is refused: WouldCycle") {
  Graph g;
  Tensor x(&g, g.input("x", {8, 16}));
  Tensor a = exp(x);
  Tensor b = -a;  // a's kernel
  Tensor m = matmul(a, Tensor(&g, g.param("w", {16, 16})));  // reads a: no prologue, a kernel of its own
  Tensor y = b + m;  // could join b's kernel by space, but that kernel would then wait on m's
  g.set_outputs({y.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].label == "exp+neg");
  CHECK(ks[1].label == "matmul+add");
  CHECK(why_leaves(ks[0], a.id(), 1) == Boundary::MatmulNoPrologue);
  CHECK(why_leaves(ks[0], b.id(), 1) == Boundary::WouldCycle);
}

TEST_CASE("the layer's result leaves its kernel for HBM: GraphOutput, also when another kernel reads it") {
  Graph g;
  Tensor x(&g, g.input("x", {8, 16}));
  Tensor a = exp(x);
  Tensor m = matmul(a, Tensor(&g, g.param("w", {16, 4})));
  g.set_outputs({a.id(), m.id()});
  auto ks = fuse(g);
  REQUIRE(ks.size() == 2);
  CHECK(why_leaves(ks[0], a.id(), 1) == Boundary::MatmulNoPrologue);
  CHECK(why_leaves(ks[0], a.id(), -1) == Boundary::GraphOutput);
  CHECK(why_leaves(ks[1], m.id(), -1) == Boundary::GraphOutput);
  CHECK(ks[0].writes == 8 * 16 * 2);  // written once for both readers
}

TEST_CASE("costing with an unbound symbol is a clear error") {
  Graph g;
  Tensor x(&g, g.input("x", {Dim::symbol("S"), 4}));
  g.set_outputs({exp(x).id()});
  CHECK_THROWS_AS(fuse(g), UnboundSymbol);
  CHECK_NOTHROW(fuse(g, {}, {{"S", 3}}));
}

TEST_CASE("kernel time is the roofline: the larger of compute and memory time") {
  Kernel k;
  k.reads = 3350;  // 1 ns at 3.35 TB/s
  k.matmul_flops = 989e3 * 5;  // 5 ns on tensor cores
  CHECK(kernel_time(k) == Approx(5e-9));
  k.reads = 3350 * 10;
  CHECK(kernel_time(k) == Approx(10e-9));
  GraphCost c = graph_cost({k, k});
  CHECK(c.kernels == 2);
  CHECK(c.t_total == Approx(2 * 10e-9 + 2 * 4e-6));
}

TEST_CASE("the merge rules name every pair of producer kernel and consumer once, and say why each refusal") {
  for (KernelKind p : kKernelKinds)
    for (OpKind c : fusion::kConsumerKinds) {
      int n = 0;
      for (const fusion::MergeRule& r : fusion::merge_rules()) n += r.producer == p && r.consumer == c;
      INFO(kernel_kind_name(p) << " -> " << fusion::consumer_kind_name(c));
      CHECK(n == 1);
      const fusion::MergeRule& r = fusion::merge_rule(p, c);
      // Only a merge the rules allow can be refused later for its sizes, its switch, a cycle or another anchor.
      if (!r.allowed)
        CHECK((r.refused == Boundary::MatmulNoPrologue || r.refused == Boundary::ReductionAfterMatmul ||
               r.refused == Boundary::OpaqueKernel));
    }
  CHECK(fusion::merge_rules().size() == std::size(kKernelKinds) * std::size(fusion::kConsumerKinds));
}

TEST_CASE("every boundary has its own name and its own words") {
  std::set<std::string_view> names;
  std::set<Text> texts;
  for (Boundary b : kBoundaries) {
    CHECK(names.insert(boundary_name(b)).second);
    CHECK(texts.insert(boundary_text(b)).second);
  }
  CHECK(boundary_name(Boundary::SwitchedOff) == "switched_off");  // the last entry lines up with the enum
  CHECK(boundary_text(Boundary::SwitchedOff) == Text::WhySwitchedOff);
}

TEST_CASE("a kernel's ends grouped by reason: each reason once, in the order met, its readers without the caller") {
  const std::vector<KernelEdge> ends{{1, 3, Boundary::InductorExtern}, {2, 7, Boundary::InductorLoops},
                                     {1, 5, Boundary::InductorExtern}, {2, -1, Boundary::GraphOutput}};
  const std::vector<EndsOfReason> r = ends_by_reason(ends);
  REQUIRE(r.size() == 3);
  CHECK(r[0].why == Boundary::InductorExtern);
  CHECK(r[0].readers == std::vector<int>{3, 5});
  CHECK(r[1].readers == std::vector<int>{7});
  CHECK(r[2].why == Boundary::GraphOutput);
  CHECK(r[2].readers.empty());
}

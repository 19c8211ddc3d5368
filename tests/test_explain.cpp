// The views that explain the compiler: pass diffs and pseudo-kernels.
#include <catch2/catch.hpp>

#include <set>

#include "core/explain/absorbed.h"
#include "core/explain/pass_diff.h"
#include "core/explain/pseudo_kernel.h"
#include "core/model.h"
#include "core/partitions.h"
#include "core/passes/passes.h"
#include "core/trace.h"

using namespace fl;

TEST_CASE("a pass diff names what was added, rewritten and removed") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor y = exp(x / 2.0);
  g.set_outputs({(-y).id()});
  Graph s = simplify(g).graph;  // x / 2 → x * 0.5
  StageDiff d = diff_graphs(g, s);
  // added: the scalar 0.5 and the mul; rewritten: exp now reads the mul; removed: the div and 2.
  CHECK(d.added.size() == 2);
  CHECK(d.rewritten.size() == 1);  // exp; the neg after it still reads the (same) exp
  CHECK(d.removed.size() == 2);
  CHECK(s.node(d.added.back()).op == Op::Mul);
  CHECK(g.node(d.removed.back()).op == Op::Div);

  StageDiff none = diff_graphs(g, g);
  CHECK(none.added.empty());
  CHECK(none.rewritten.empty());
  CHECK(none.removed.empty());
}

TEST_CASE("pseudo-kernels show loads, on-chip work and stores") {
  Graph g = prefill_layer(kSmallCfg, 16, 0, ParamMode::shapes());
  Partition p = make_partition(PartitionId::Fused, g, {}, kH100);
  std::string norm = pseudo_kernel(*p.graph, p.kernels[0], 0);
  CHECK(norm.find("for row in range(16)") != std::string::npos);
  CHECK(norm.find("load(x)") != std::string::npos);
  CHECK(norm.find("mean(") != std::string::npos);
  CHECK(norm.find("store(") != std::string::npos);
  std::string q = pseudo_kernel(*p.graph, p.kernels[1], 1);
  CHECK(q.find("dot(") != std::string::npos);
  CHECK(q.find("rot_pairs(") != std::string::npos);
  // One store per tensor written to HBM: the Q kernel writes only the rotated q.
  size_t stores = 0;
  for (size_t at = q.find("store("); at != std::string::npos; at = q.find("store(", at + 1)) ++stores;
  std::set<NodeId> written;
  for (const KernelEdge& e : p.kernels[1].ends) written.insert(e.tensor);
  CHECK(stores == written.size());
}

TEST_CASE("every op of a fused partition lands in exactly one fused kernel") {
  AnalysisConfig c = AnalysisConfig::for_demo(2);  // Llama-3.1-8B prefill
  for (bool decode : {false, true})
    for (PartitionId id : kAllPartitions) {
      INFO((decode ? "decode " : "prefill ") << partition_key(id));
      AbsorbedPartition a = absorbed_partition(c, decode, id);
      const std::vector<Kernel>& fused = a.partition.kernels;
      std::vector<int> absorbed_by(fused.size(), 0);
      double flops_alone = 0, flops_fused = 0;
      int64_t bytes_alone = 0;
      for (const AbsorbedKernel& k : a.absorbed) {
        REQUIRE(k.fused_kernel < fused.size());
        ++absorbed_by[k.fused_kernel];
        flops_alone += k.alone.flops();
        bytes_alone += k.alone.bytes();
      }
      for (const Kernel& k : fused) flops_fused += k.flops();
      for (int n : absorbed_by) CHECK(n >= 1);  // no fused kernel out of nothing
      CHECK(flops_alone == Approx(flops_fused));  // fusion moves work, it does not remove it
      CHECK(bytes_alone >= a.partition.cost.bytes);
      if (id == PartitionId::Eager || id == PartitionId::Decomposed) {
        // Not fused: every kernel absorbed itself and nothing else.
        REQUIRE(a.absorbed.size() == fused.size());
        for (size_t i = 0; i < fused.size(); ++i) {
          CHECK(a.absorbed[i].fused_kernel == i);
          CHECK(a.absorbed[i].alone.bytes() == fused[i].bytes());
        }
      } else {
        CHECK(a.absorbed.size() > fused.size());
      }
    }
}

TEST_CASE("the absorbing partition is the one demos 2 and 3 report") {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  Graph g = prefill_layer(c.model, c.tokens, 0, ParamMode::shapes(), c.trace_options());
  std::vector<Partition> four = four_partitions(g, {}, c.hw);
  for (PartitionId id : {PartitionId::Fused, PartitionId::FusedFlash}) {
    Partition p = absorbed_partition(c, false, id).partition;
    const Partition& reported = four[static_cast<size_t>(id)];
    CHECK(p.kernels.size() == reported.kernels.size());
    CHECK(p.cost.bytes == reported.cost.bytes);
    CHECK(p.cost.t_total == Approx(reported.cost.t_total));
  }
}

// Compile once, cost many: graphs traced with T as a symbol and optimised once
// give, under any T, the kernels a trace at that T gives; a sweep of T or S
// runs the passes once.
#include <catch2/catch.hpp>

#include "core/analysis.h"
#include "core/compiled.h"
#include "core/fusion/plan.h"
#include "core/model.h"
#include "core/settings.h"
#include "core/sweep.h"
#include "core/trace.h"

using namespace fl;

namespace {

void check_same(const Partition& concrete, const Partition& compiled) {
  REQUIRE(compiled.kernels.size() == concrete.kernels.size());
  for (size_t k = 0; k < concrete.kernels.size(); ++k) {
    const Kernel &a = concrete.kernels[k], &b = compiled.kernels[k];
    INFO("kernel " << k << " " << a.label);
    CHECK(b.label == a.label);
    CHECK(b.kind == a.kind);
    CHECK(b.reads == a.reads);
    CHECK(b.writes == a.writes);
    CHECK(b.flops() == a.flops());
    CHECK(b.ends.size() == a.ends.size());
  }
  CHECK(compiled.cost.t_total == concrete.cost.t_total);
}

}  // namespace

TEST_CASE("prefill compiled with T and the batch symbols gives the kernels of a trace at each T and batch") {
  // T = 1 (one row), sizes equal to the model's own (d, f, the KV width), odd and large ones:
  // wherever two iteration spaces could coincide, the decisions must still be the same.
  const std::vector<std::vector<Setting>> configs = {
      {{"model", "small"}},
      {{"model", "llama-3.1-8b"}},
      {{"model", "llama-3.1-8b"}, {"weights_dtype", "fp8"}},
      {{"model", "llama-3.1-70b"}, {"layers", "2"}},
      {{"model", "small"}, {"layers", "all"}, {"tied_embeddings", "1"}},
  };
  for (const auto& settings : configs) {
    AnalysisConfig c = config_from_settings(settings);
    const CompiledPhase compiled = compile_phase(c, false);
    for (int64_t T : {1, 2, 3, 16, 32, 64, 127, 128, 512, 1024, 2048, 4096, 8192, 14336, 28672})
    for (int64_t B : {1, 3, 8}) {
      c.tokens = T;
      c.batch = B;
      INFO(c.model_key << " batch " << c.batch << (c.whole_model ? " whole model" : " one layer") << ", T = " << T);
      const std::vector<Partition> concrete = four_partitions(c.traced_graph(false), c.binding(), c.hw);
      const std::vector<Partition> costed = cost_phase(compiled, c);
      REQUIRE(compiled.compiled_for(c, false));
      for (size_t p = 0; p < concrete.size(); ++p) {
        INFO(partition_key(concrete[p].id));
        check_same(concrete[p], costed[p]);
      }
    }
  }
}

TEST_CASE("decode compiled with S and the batch symbols gives the kernels of a trace at each batch") {
  for (const auto& settings : std::vector<std::vector<Setting>>{{{"model", "small"}}, {{"model", "llama-3.1-8b"}},
                                                                 {{"model", "small"}, {"layers", "all"}}}) {
    AnalysisConfig c = config_from_settings(settings);
    const CompiledPhase compiled = compile_phase(c, true);
    for (int64_t S : {1, 64, 4096, 131072})
      for (int64_t B : {1, 2, 8, 64}) {
        c.kv_len = S;
        c.batch = B;
        INFO(c.model_key << (c.whole_model ? " whole model" : " one layer") << ", S = " << S << ", batch " << B);
        const std::vector<Partition> concrete = four_partitions(c.traced_graph(true), c.binding(), c.hw);
        const std::vector<Partition> costed = cost_phase(compiled, c);
        for (size_t p = 0; p < concrete.size(); ++p) {
          INFO(partition_key(concrete[p].id));
          check_same(concrete[p], costed[p]);
        }
      }
  }
}

TEST_CASE("a compiled phase is kept until what its trace depends on changes") {
  AnalysisConfig c = config_from_settings({{"demo", "2"}});
  PhaseCompiler compiler;
  compiler.phase(c, false);
  c.tokens = 8192;
  c.kv_len = 100;
  c.batch = 16;
  c.use_hardware("b200");
  compiler.phase(c, false);
  CHECK(compiler.compilations() == 1);  // T, S, the batch and the GPU are bound when costing
  compiler.phase(c, true);
  CHECK(compiler.compilations() == 2);  // decode is its own graph
  compiler.phase(c, false);
  CHECK(compiler.compilations() == 2);  // and the prefill is still kept beside it
  for (auto change : std::vector<std::pair<const char*, void (*)(AnalysisConfig&)>>{
           {"dtype", [](AnalysisConfig& x) { x.weights = DType::FP8; }},
           {"model", [](AnalysisConfig& x) { x.model.f += 128; }},
           {"layers", [](AnalysisConfig& x) { x.whole_model = true; }}}) {
    INFO(change.first);
    AnalysisConfig changed = c;
    change.second(changed);
    const int before = compiler.compilations();
    compiler.phase(changed, false);
    CHECK(compiler.compilations() == before + 1);
  }
}

TEST_CASE("analyze with a kept compiler says what a fresh analysis says, edit after edit") {
  // The JS API keeps one compiler across calls: each answer must be the one
  // `fusionlab --json` gives for that configuration alone.
  PhaseCompiler compiler;
  const std::vector<std::vector<Setting>> edits{
      {{"demo", "2"}},
      {{"demo", "2"}, {"tokens", "16"}},
      {{"demo", "2"}, {"tokens", "8192"}, {"batch", "4"}, {"hardware", "b200"}},
      {{"demo", "3"}, {"kv_len", "100"}},
      {{"demo", "3"}, {"kv_len", "32768"}, {"lang", "zh"}},
      {{"demo", "2"}, {"d", "2048"}, {"heads", "16"}},
      {{"demo", "2"}, {"tokens", "512"}, {"attention", "sdpa"}, {"compiler", "inductor"}, {"hardware", "h200"}},
      {{"demo", "3"}, {"model", "llama-3.1-70b"}, {"layers", "all"}},
      {{"demo", "1"}},
      {{"demo", "2"}},
  };
  for (const std::vector<Setting>& edit : edits) {
    const AnalysisConfig c = config_from_settings(edit);
    INFO(edit.front().second << ", " << edit.size() << " settings");
    CHECK(analyze(c, compiler) == analyze(c));
  }
  CHECK(compiler.compilations() == 6);  // prefill, decode, the smaller layer, sdpa, the 70B's decode, prefill again
}

TEST_CASE("a sweep of T, of S or of the batch compiles the phase once") {
  for (auto [demo, key] : {std::pair{"2", SweepKey::Tokens}, {"3", SweepKey::KvLen}, {"2", SweepKey::Batch}, {"3", SweepKey::Batch}}) {
    const AnalysisConfig c = config_from_settings({{"demo", demo}});
    PhaseCompiler compiler;
    for (int64_t v : sweep_values(c, {key, 16, 1, 0})) sweep_point(c, key, v, compiler);
    CHECK(compiler.compilations() == 1);
  }
}

TEST_CASE("a fusion decision that depends on a size is guarded: where the guard fails, the graph is fused anew") {
  // a = exp(x) loops over 8·T elements; b = a (as T×8×1) + z (1×1×S) over 8·T·S. b joins a's kernel
  // only where the two loops are the same size: at S = 1.
  Graph g;
  const Dim T = Dim::symbol("T"), S = Dim::symbol("S");
  Tensor x(&g, g.input("x", {T, 8})), z(&g, g.input("z", {1, 1, S}));
  Tensor a = exp(x);
  Tensor b = reshape(a, {T, 8, 1}) + z;
  g.set_outputs({a.id(), b.id()});

  const FusionPlan plan = plan_fusion(g, {}, {{"T", 16}, {"S", 4}});
  CHECK(!plan.guards.empty());
  for (int64_t t : {1, 16, 100})
    for (int64_t s : {1, 2, 4, 64}) {
      const Binding bind{{"T", t}, {"S", s}};
      INFO("T = " << t << ", S = " << s);
      const std::vector<Kernel> planned = fuse_planned(g, plan, bind), fresh = fuse(g, {}, bind);
      CHECK(planned.size() == (s == 1 ? 1u : 2u));
      REQUIRE(planned.size() == fresh.size());
      for (size_t k = 0; k < fresh.size(); ++k) {
        CHECK(planned[k].label == fresh[k].label);
        CHECK(planned[k].reads == fresh[k].reads);
        CHECK(planned[k].writes == fresh[k].writes);
      }
    }
  // Planned at S = 1, the guard fails everywhere else, and the fusion there is the fresh one.
  const FusionPlan joined = plan_fusion(g, {}, {{"T", 4}, {"S", 1}});
  CHECK(fuse_planned(g, joined, {{"T", 4}, {"S", 3}}).size() == 2);
  CHECK(fuse_planned(g, joined, {{"T", 9}, {"S", 1}}).size() == 1);
}

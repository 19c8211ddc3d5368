// Regional compilation (src/core/regional.cpp): a whole model compiled from
// its two- and three-layer versions is, node for node, the graph the passes
// make of the whole trace.
#include <catch2/catch.hpp>

#include "core/compiled.h"
#include "core/fusion/repeated.h"
#include "core/model.h"
#include "core/partitions.h"
#include "core/regional.h"

#include <optional>

using namespace fl;

namespace {

// The four partitions' graphs of the whole trace, optimised as one.
PartitionGraphs whole_trace(const AnalysisConfig& c, bool decode) {
  TraceOptions o = c.trace_options();
  o.symbolic_batch = true;
  o.batch = 1;
  return optimize_partitions(decode ? decode_layer(c.model, ParamMode::shapes(), o) : prefill_layer_symbolic(c.model, o));
}

// A whole model of `model`'s layers, and its four partitions' graphs with two and three layers.
struct TwoAndThree {
  AnalysisConfig c;
  PartitionGraphs two, three;
};

TwoAndThree two_and_three(const char* model, bool decode) {
  TwoAndThree t{AnalysisConfig::for_demo(decode ? 3 : 2), {}, {}};
  REQUIRE(t.c.use_model(model));
  t.c.whole_model = true;
  t.c.layers = 2;
  t.two = whole_trace(t.c, decode);
  t.c.layers = 3;
  t.three = whole_trace(t.c, decode);
  return t;
}

}  // namespace

TEST_CASE("a whole model compiled from its repeated layer is the graph of the whole trace", "[regional]") {
  for (const char* model : {"small", "llama-3.2-1b", "llama-3.1-8b", "qwen2.5-7b"}) {
    for (bool decode : {false, true}) {
      auto [c, two, three] = two_and_three(model, decode);
      for (int64_t layers : {4, 7}) {
        c.layers = layers;
        INFO(model << ", " << layers << " layers, " << (decode ? "decode" : "prefill"));
        const PartitionGraphs expected = whole_trace(c, decode);
        const CompiledPhase compiled = compile_phase(c, decode);
        for (size_t i = 0; i < expected.size(); ++i) {
          INFO("partition " << partition_key(kAllPartitions[i]));
          const std::optional<LayerRepeat> repeat = LayerRepeat::read(*two[i], *three[i]);
          REQUIRE(repeat.has_value());
          const Graph repeated = repeat->graph(layers);
          CHECK(repeated.size() == expected[i]->size());
          CHECK(repeated == *expected[i]);
          CHECK(*compiled.graphs[i] == *expected[i]);
        }
      }
    }
  }
}

TEST_CASE("a layer repeat gives back two and three layers as they are, and none is read from graphs that do not repeat", "[regional]") {
  auto [c, two, three] = two_and_three("small", false);
  for (size_t i = 0; i < two.size(); ++i) {
    const std::optional<LayerRepeat> repeat = LayerRepeat::read(*two[i], *three[i]);
    REQUIRE(repeat.has_value());
    CHECK(repeat->graph(2) == *two[i]);
    CHECK(repeat->graph(3) == *three[i]);
  }
  // The fused graph is not the eager one with a layer more.
  CHECK_FALSE(LayerRepeat::read(*two[0], *three[2]).has_value());
  // Nor is a model with another layer shape.
  c.model.f *= 2;
  const PartitionGraphs wider = whole_trace(c, false);
  CHECK_FALSE(LayerRepeat::read(*two[2], *wider[2]).has_value());
}

TEST_CASE("a whole model's fusion planned on its repeated layer is the plan of the whole graph", "[regional]") {
  for (const char* model : {"small", "llama-3.2-1b", "llama-3.1-8b", "qwen2.5-7b"}) {
    for (bool decode : {false, true}) {
      auto [c, two, three] = two_and_three(model, decode);
      for (size_t i = 0; i < two.size(); ++i) {
        const std::optional<LayerRepeat> repeat = LayerRepeat::read(*two[i], *three[i]);
        REQUIRE(repeat.has_value());
        // Each partition's own rules, and fusion off (what prefill's observations ask of the last).
        for (PartitionId rules : {kAllPartitions[i], PartitionId::Eager}) {
          const FuseOptions opt = partition_fuse_options(rules);
          for (int64_t layers : {4, 5, 9}) {
            INFO(model << ", " << layers << " layers, " << (decode ? "decode" : "prefill") << ", partition "
                       << partition_key(kAllPartitions[i]) << ", rules of " << partition_key(rules));
            const std::optional<FusionPlan> stamped = plan_repeated_fusion(*repeat, layers, opt, c.binding());
            REQUIRE(stamped.has_value());
            const FusionPlan whole = plan_fusion(repeat->graph(layers), opt, c.binding());
            CHECK(stamped->layout.kernels.size() == whole.layout.kernels.size());
            CHECK(*stamped == whole);
          }
        }
      }
    }
  }
}

TEST_CASE("fusion is not stamped for fewer than four layers", "[regional]") {
  const auto [c, two, three] = two_and_three("small", false);
  const std::optional<LayerRepeat> repeat = LayerRepeat::read(*two[2], *three[2]);
  REQUIRE(repeat.has_value());
  CHECK_FALSE(plan_repeated_fusion(*repeat, 3, FuseOptions{}, c.binding()).has_value());
}

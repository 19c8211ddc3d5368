// Every pass keeps the graph's meaning: on the small config with real weights,
// each stage of the pipeline computes what the traced layer computes.
#include <catch2/catch.hpp>

#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "helpers.h"

using namespace fl;
using namespace fl::test;


TEST_CASE("prefill: every stage computes the traced layer's output") {
  check_all_stages(prefill_layer(kSmallCfg, 8, 0, ParamMode::random(3)), prefill_feeds(kSmallCfg, 8), {});
}

TEST_CASE("prefill at a later position: RoPE tables fold correctly") {
  check_all_stages(prefill_layer(kSmallCfg, 5, 37, ParamMode::random(4)), prefill_feeds(kSmallCfg, 5), {});
}

TEST_CASE("decode: every stage computes the traced layer's output, caches included") {
  Graph g = decode_layer(kSmallCfg, ParamMode::random(5));
  check_all_stages(g, decode_feeds(kSmallCfg, 8), {{"S", 8}, {"P", 5}});
  check_all_stages(g, decode_feeds(kSmallCfg, 8), {{"S", 8}, {"P", 0}});
}

TEST_CASE("an MHA config (H = G) and a wider head also survive every pass") {
  LayerCfg mha{64, 4, 4, 16, 96};
  check_all_stages(prefill_layer(mha, 6, 0, ParamMode::random(6)), prefill_feeds(mha, 6), {});
}

TEST_CASE("the comparison can fail: a changed weight is detected") {
  Graph a = prefill_layer(kSmallCfg, 4, 0, ParamMode::random(1));
  Graph b = prefill_layer(kSmallCfg, 4, 0, ParamMode::random(2));
  Feeds f = prefill_feeds(kSmallCfg, 4);
  CHECK(relative_difference(run(a, f), run(b, f)) > 1e-2);
}

TEST_CASE("decode writes the new key and value at row P") {
  Graph g = decode_layer(kSmallCfg, ParamMode::random(5));
  Feeds f = decode_feeds(kSmallCfg, 8);
  auto out = run(g, f, {{"S", 8}, {"P", 3}});
  const TensorValue& k = out[1];
  const TensorValue& before = f.at("k_cache");
  int changed_rows = 0;
  for (int64_t row = 0; row < 8; ++row) {
    bool differs = false;
    for (int64_t i = 0; i < kSmallCfg.dh; ++i)
      differs = differs || k.data[static_cast<size_t>(row * kSmallCfg.dh + i)] != before.data[static_cast<size_t>(row * kSmallCfg.dh + i)];
    changed_rows += differs;
    if (differs) CHECK(row == 3);
  }
  CHECK(changed_rows == 1);
}

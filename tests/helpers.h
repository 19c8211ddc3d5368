// Shared test helpers: random feeds for the model's inputs, output comparison.
#pragma once

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/interp.h"
#include "core/model.h"
#include "core/pipeline.h"

namespace fl::test {

inline TensorValue random_tensor(std::vector<int64_t> shape, uint32_t seed, float scale = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  TensorValue t{std::move(shape), {}};
  int64_t n = 1;
  for (int64_t d : t.shape) n *= d;
  t.data.resize(static_cast<size_t>(n));
  for (float& x : t.data) x = u(rng);
  return t;
}

inline Feeds prefill_feeds(const LayerCfg& c, int64_t T) { return {{"x", random_tensor({T, c.d}, 7)}}; }

// Decode feeds for a cache of length S; cos and sin of one angle per pair.
inline Feeds decode_feeds(const LayerCfg& c, int64_t S) {
  Feeds f{{"x", random_tensor({1, c.d}, 11)},
          {"k_cache", random_tensor({c.G, S, c.dh}, 12)},
          {"v_cache", random_tensor({c.G, S, c.dh}, 13)}};
  TensorValue cs{{1, 1, c.dh}, {}}, sn{{1, 1, c.dh}, {}};
  for (int64_t i = 0; i < c.dh; ++i) {
    double angle = 0.3 * static_cast<double>(i / 2 + 1);
    cs.data.push_back(static_cast<float>(std::cos(angle)));
    sn.data.push_back(static_cast<float>(std::sin(angle)));
  }
  f["cos"] = cs;
  f["sin"] = sn;
  return f;
}

// Largest |a - b| relative to the largest |a|, over all outputs.
inline double relative_difference(const std::vector<TensorValue>& a, const std::vector<TensorValue>& b) {
  if (a.size() != b.size()) return INFINITY;
  double diff = 0, scale = 1e-12;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].shape != b[i].shape) return INFINITY;
    for (size_t k = 0; k < a[i].data.size(); ++k) {
      diff = std::max(diff, static_cast<double>(std::fabs(a[i].data[k] - b[i].data[k])));
      scale = std::max(scale, static_cast<double>(std::fabs(a[i].data[k])));
    }
  }
  return diff / scale;
}

// A file's whole text (shipped data, examples); fails the test if unreadable.
inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline int count_ops(const Graph& g, Op op) {
  int n = 0;
  for (const Node& node : g.nodes()) n += node.op == op;
  return n;
}

// Every stage of both pipelines (with and without attention matching)
// computes what the traced graph computes, within float tolerance.
// The boolean mask of the math attention form (1 where query i sees key j,
// j <= i + offset): (queries, keys).
inline Feeds with_causal_mask(Feeds f, int64_t queries, int64_t keys, int64_t offset) {
  TensorValue m{{queries, keys}, {}};
  for (int64_t i = 0; i < queries; ++i)
    for (int64_t j = 0; j < keys; ++j) m.data.push_back(j <= i + offset ? 1.0f : 0.0f);
  f["mask"] = std::move(m);
  return f;
}

inline void check_all_stages(const Graph& traced, const Feeds& feeds, const Binding& bind, double tolerance = 1e-4) {
  std::vector<TensorValue> reference = run(traced, feeds, bind);
  for (bool attention : {false, true})
    for (const StageResult& s : run_pipeline(traced, {attention, kLastStage, true})) {
      INFO("stage " << stage_name(s.stage) << (attention ? " (with attention matching)" : ""));
      CHECK(relative_difference(reference, run(s.graph, feeds, bind)) < tolerance);
    }
}

}  // namespace fl::test

// Batches, dtypes and whole models: the same meaning through every pass, and
// bytes that add up.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/partitions.h"
#include "core/pipeline.h"
#include "core/presets.h"
#include "helpers.h"

using namespace fl;
using namespace fl::test;

namespace {

TensorValue token_ids(int64_t n, int64_t vocab) {
  TensorValue t{{n}, {}};
  for (int64_t i = 0; i < n; ++i) t.data.push_back(static_cast<float>((i * 7 + 3) % vocab));
  return t;
}

}  // namespace

TEST_CASE("a batch of sequences keeps every pass exact, and sequences apart") {
  TraceOptions o;
  o.batch = 3;
  Graph g = prefill_layer(kSmallCfg, 4, 0, ParamMode::random(8), o);
  Feeds f{{"x", random_tensor({12, kSmallCfg.d}, 21)}};
  check_all_stages(g, f, {});

  // Sequence 1 alone gives the same rows as inside the batch: no attention across sequences.
  Graph one = prefill_layer(kSmallCfg, 4, 0, ParamMode::random(8));
  TensorValue x1{{4, kSmallCfg.d}, {f["x"].data.begin() + 4 * kSmallCfg.d, f["x"].data.begin() + 8 * kSmallCfg.d}};
  auto batched = run(g, f)[0];
  auto alone = run(one, {{"x", x1}})[0];
  for (size_t i = 0; i < alone.data.size(); ++i)
    CHECK(batched.data[4 * kSmallCfg.d + i] == Approx(alone.data[i]).margin(1e-5));
}

TEST_CASE("a batched decode keeps every pass exact") {
  TraceOptions o;
  o.batch = 2;
  Graph g = decode_layer(kSmallCfg, ParamMode::random(9), o);
  Feeds f = decode_feeds(kSmallCfg, 6);
  f["x"] = random_tensor({2, kSmallCfg.d}, 31);
  f["k_cache"] = random_tensor({2 * kSmallCfg.G, 6, kSmallCfg.dh}, 32);
  f["v_cache"] = random_tensor({2 * kSmallCfg.G, 6, kSmallCfg.dh}, 33);
  check_all_stages(g, f, {{"S", 6}, {"P", 4}});
}

TEST_CASE("a whole small model keeps every pass exact, tied or not") {
  for (bool tied : {false, true}) {
    TraceOptions o;
    o.layers = 2;
    o.vocab = 50;
    o.tied_embeddings = tied;
    Graph g = prefill_layer(kSmallCfg, 5, 0, ParamMode::random(10), o);
    CHECK(g.node(g.outputs()[0]).shape == Shape{5, 50});
    check_all_stages(g, {{"ids", token_ids(5, 50)}}, {});

    Graph d = decode_layer(kSmallCfg, ParamMode::random(11), o);
    Feeds f = decode_feeds(kSmallCfg, 4);
    f.erase("x");
    f["ids"] = token_ids(1, 50);
    for (const char* l : {"l0.", "l1."}) {
      f[std::string(l) + "k_cache"] = random_tensor({kSmallCfg.G, 4, kSmallCfg.dh}, 40);
      f[std::string(l) + "v_cache"] = random_tensor({kSmallCfg.G, 4, kSmallCfg.dh}, 41);
    }
    CHECK(d.outputs().size() == 5);  // logits and two caches per layer
    check_all_stages(d, f, {{"S", 4}, {"P", 2}});
  }
}

TEST_CASE("whole-model bytes and FLOPs are the layers' times N plus embedding and LM head") {
  const ModelPreset& m = *find_model("llama-3.1-8b");
  const int64_t T = 128, N = 4;
  TraceOptions whole;
  whole.layers = N;
  whole.vocab = m.vocab;
  Partition layer = make_partition(PartitionId::FusedFlash, prefill_layer(m.layer, T, 0, ParamMode::shapes()), {}, kH100);
  Partition model =
      make_partition(PartitionId::FusedFlash, prefill_layer(m.layer, T, 0, ParamMode::shapes(), whole), {}, kH100);
  const double d = static_cast<double>(m.layer.d), V = static_cast<double>(m.vocab);
  // embedding: ids (4 B each) and T rows read, T rows written; final norm: x read, x̂ written;
  // LM head: x̂ and the (d, V) matrix read, logits written.
  double extra_bytes = (4 * T + 2 * T * d + 2 * T * d) + (2 * T * d + 2 * T * d) + (2 * T * d + 2 * d * V + 2 * T * V);
  CHECK(static_cast<double>(model.cost.bytes) == Approx(N * static_cast<double>(layer.cost.bytes) + extra_bytes));
  double head_flops = 2.0 * T * d * V, norm_flops = 4.0 * T * d + 2.0 * T;
  CHECK(model.cost.flops == Approx(N * layer.cost.flops + head_flops + norm_flops));
  CHECK(model.cost.kernels == N * layer.cost.kernels + 3);
}

TEST_CASE("matmul FLOPs are the closed form in every partition, attention's included") {
  const LayerCfg c = kLlama8B;
  const double d = static_cast<double>(c.d), q = static_cast<double>(c.H * c.dh), kv = static_cast<double>(c.G * c.dh),
               f = static_cast<double>(c.f), H = static_cast<double>(c.H), dh = static_cast<double>(c.dh);
  // Q, K, V, O, gate, up and down over `rows` token rows: 2 FLOPs per multiply-add.
  auto projections = [&](double rows) { return 2 * rows * d * (q + 2 * kv) + 2 * rows * q * d + 3 * 2 * rows * d * f; };
  // QKᵀ and PV: every query row against every key of `keys`, per head (no causal halving in the count).
  auto attention = [&](double rows, double keys) { return 2 * 2 * H * rows * keys * dh; };
  auto check = [&](const Graph& g, const Binding& bind, double rows, double keys) {
    for (const Partition& p : four_partitions(g, bind, kH100)) {
      double matmul = 0;
      for (const Kernel& k : p.kernels) matmul += k.matmul_flops;
      INFO(partition_key(p.id) << " rows " << rows << " keys " << keys);
      CHECK(matmul == Approx(projections(rows) + attention(rows, keys)).epsilon(1e-12));
      if (p.id != PartitionId::FusedFlash) continue;
      // The matched attention kernel: its two matmuls on tensor cores, 5 FLOPs per score for the softmax.
      auto k = std::find_if(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) { return k.kind == KernelKind::Attention; });
      REQUIRE(k != p.kernels.end());
      CHECK(k->matmul_flops == Approx(attention(rows, keys)).epsilon(1e-12));
      CHECK(k->other_flops == Approx(5 * H * rows * keys).epsilon(1e-12));
    }
  };
  for (int64_t T : {16, 512}) check(prefill_layer(c, T, 0, ParamMode::shapes()), {}, static_cast<double>(T), static_cast<double>(T));
  TraceOptions batch;
  batch.batch = 4;
  check(decode_layer(c, ParamMode::shapes(), batch), {{"S", 1000}, {"P", 999}}, 4, 1000);
}

TEST_CASE("model_parameter_bytes is the traced whole model's parameter bytes, for every preset") {
  for (const ModelPreset& m : model_presets())
    for (DType weights : {DType::BF16, DType::FP8})
      for (bool tied : {false, true}) {
        TraceOptions o;
        o.layers = m.layers;
        o.vocab = m.vocab;
        o.tied_embeddings = tied;
        o.weights = weights;
        INFO(m.key << " weights " << dtype_bytes(weights) << " B, tied " << tied);
        CHECK(model_parameter_bytes(m.layer, m.layers, m.vocab, tied, o) ==
              parameter_bytes(decode_layer(m.layer, ParamMode::shapes(), o)));
      }
}

TEST_CASE("dtypes change bytes where they should") {
  LayerCfg c = kLlama8B;
  Graph bf16 = decode_layer(c, ParamMode::shapes());
  TraceOptions fp8;
  fp8.weights = DType::FP8;
  Graph q = decode_layer(c, ParamMode::shapes(), fp8);
  CHECK_NOTHROW(verify(q));
  int64_t matrices = 2 * (c.d * c.H * c.dh * 2 + c.d * c.G * c.dh * 2 + 3 * c.d * c.f);  // bf16 bytes
  CHECK(parameter_bytes(bf16) - parameter_bytes(q) == matrices / 2);
  auto bytes = [](const Graph& g) { return make_partition(PartitionId::FusedFlash, g, {{"S", 1024}}, kH100).cost.bytes; };
  CHECK(bytes(bf16) - bytes(q) == matrices / 2);

  TraceOptions fp32;
  fp32.act = fp32.weights = DType::FP32;
  Graph f = prefill_layer(c, 64, 0, ParamMode::shapes(), fp32);
  Partition p32 = make_partition(PartitionId::FusedFlash, f, {}, kH100);
  Partition p16 = make_partition(PartitionId::FusedFlash, prefill_layer(c, 64, 0, ParamMode::shapes()), {}, kH100);
  CHECK(p32.cost.bytes == 2 * p16.cost.bytes);
  CHECK(p32.cost.flops == p16.cost.flops);
  CHECK(p32.cost.t > 2 * p16.cost.t);  // twice the bytes, and no tensor cores for fp32
}

TEST_CASE("presets carry their published shapes") {
  CHECK(find_model("llama-3.1-405b")->layers == 126);
  CHECK(find_model("llama-3.1-405b")->layer == LayerCfg{16384, 128, 8, 128, 53248});
  CHECK(find_model("qwen2.5-7b")->layer.G == 4);
  CHECK(find_model("nope") == nullptr);
  CHECK(find_hardware("h100")->hw == kH100);
  for (const HardwarePreset& h : hardware_presets()) {
    CHECK_NOTHROW(validate(h.hw));
    CHECK(!h.source.empty());
  }
  for (const ModelPreset& m : model_presets()) CHECK_NOTHROW(validate(m.layer));
}

// Other configurations follow the same model: byte counts checked against a
// closed-form count written independently of the partitioner.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "core/analysis.h"
#include "core/model.h"
#include "core/partitions.h"
#include "json_helpers.h"

using namespace fl;

namespace {

struct Closed {
  double flash, fused;  // bytes
};

// Prefill, bf16. A = T·d, Q = T·H·dh, K = T·G·dh, F = T·f; RoPE tables T·dh each.
Closed closed_form_prefill(const LayerCfg& c, double T) {
  double A = T * c.d, Q = T * c.H * c.dh, K = T * c.G * c.dh, F = T * c.f, R = T * c.dh;
  double norm = 2 * A;
  double q = A + c.d * c.H * c.dh + 2 * R + Q;
  double k = A + c.d * c.G * c.dh + 2 * R + K;
  double v = A + c.d * c.G * c.dh + K;
  double attn = Q + 2 * K + Q;
  double o = Q + c.H * c.dh * c.d + A + A;
  double gate = A + c.d * c.f + F;
  double up = A + c.d * c.f + F + F;
  double down = F + c.f * c.d + A + A;
  double flash = 2 * norm + q + k + v + attn + o + gate + up + down;
  double scores = c.H * T * T;
  double unfused_attention = (Q + K + scores) + (2 * scores) + (scores + K + Q);
  return {2 * flash, 2 * (flash - attn + unfused_attention)};
}

}  // namespace

TEST_CASE("prefill bytes match the closed form for random configurations") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 20; ++trial) {
    int64_t G = 1 + rng() % 8, rep = 1 + rng() % 4, dh = 2 * (1 + rng() % 64);
    LayerCfg c{16 * static_cast<int64_t>(1 + rng() % 256), G * rep, G, dh, 8 * static_cast<int64_t>(1 + rng() % 1024)};
    int64_t T = 1 + static_cast<int64_t>(rng() % 4096);
    INFO("d=" << c.d << " H=" << c.H << " G=" << c.G << " dh=" << c.dh << " f=" << c.f << " T=" << T);
    Graph g = prefill_layer(c, T, 0, ParamMode::shapes());
    Closed expect = closed_form_prefill(c, static_cast<double>(T));
    CHECK(static_cast<double>(make_partition(PartitionId::FusedFlash, g, {}, kH100).cost.bytes) == Approx(expect.flash));
    CHECK(static_cast<double>(make_partition(PartitionId::Fused, g, {}, kH100).cost.bytes) == Approx(expect.fused));
  }
}

TEST_CASE("kernel counts do not depend on sizes") {
  for (LayerCfg c : {kSmallCfg, kLlama8B, LayerCfg{2048, 16, 16, 128, 5632}}) {
    Graph p = prefill_layer(c, 64, 0, ParamMode::shapes());
    CHECK(make_partition(PartitionId::FusedFlash, p, {}, kH100).cost.kernels == 10);
    CHECK(make_partition(PartitionId::Fused, p, {}, kH100).cost.kernels == 12);
    Graph d = decode_layer(c, ParamMode::shapes());
    CHECK(make_partition(PartitionId::FusedFlash, d, {{"S", 100}}, kH100).cost.kernels == 12);
    CHECK(make_partition(PartitionId::Decomposed, d, {{"S", 100}}, kH100).cost.kernels == 46);
  }
}

TEST_CASE("decode bytes grow with the KV length by exactly the cache read") {
  Graph d = decode_layer(kLlama8B, ParamMode::shapes());
  auto bytes_at = [&](int64_t S) { return make_partition(PartitionId::FusedFlash, d, {{"S", S}}, kH100).cost.bytes; };
  int64_t per_token = 2 * kLlama8B.G * kLlama8B.dh * 2;  // k and v rows, bf16
  CHECK(bytes_at(8192) - bytes_at(4096) == 4096 * per_token);
}

TEST_CASE("the roofline follows the hardware") {
  AnalysisConfig c = AnalysisConfig::for_demo(3);
  nlohmann::json base = analyzed(c);
  c.hw.bandwidth *= 2;
  nlohmann::json fast = analyzed(c);
  for (size_t i = 0; i < 4; ++i) {  // decode is memory-bound: twice the bandwidth, half the time
    CHECK(fast["partitions"][i]["t"].get<double>() == Approx(base["partitions"][i]["t"].get<double>() / 2).epsilon(0.02));
    CHECK(fast["partitions"][i]["overhead"] == base["partitions"][i]["overhead"]);
  }
  c = AnalysisConfig::for_demo(2);
  c.hw.launch = 0;
  nlohmann::json no_launch = analyzed(c);
  for (const auto& p : no_launch["partitions"]) CHECK(p["t_total"] == p["t"]);
}

TEST_CASE("the largest configurations either compute without overflow or are refused by name") {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.model = {Limits::kMaxHidden, 512, 8, 128, Limits::kMaxFfn};
  c.model_key = "custom";
  c.tokens = Limits::kMaxTokens;
  c.batch = Limits::kMaxBatch;
  // One layer at every limit: finite, positive (UBSan watches the integer arithmetic).
  nlohmann::json j = analyzed(c);
  for (const auto& p : j["partitions"]) {
    CHECK(p["bytes"].get<int64_t>() > 0);
    CHECK(std::isfinite(p["t_total"].get<double>()));
  }
  // The whole model of the most layers would leave 64 bits: refused, naming the field.
  c.whole_model = true;
  c.layers = Limits::kMaxLayers;
  try {
    analyzed(c);
    FAIL("expected the workload to be refused");
  } catch (const ConfigError& e) {
    CHECK(e.field == "tokens");
    CHECK(e.message(Lang::Zh).find("太大") != std::string::npos);
  }
  c = AnalysisConfig::for_demo(3);
  c.kv_len = Limits::kMaxKvLen;
  c.batch = Limits::kMaxBatch;
  nlohmann::json d = analyzed(c);
  CHECK(d["partitions"][0]["bytes"].get<int64_t>() > d["kv_cache_bytes"].get<int64_t>());
}

// The seed's figures, as SPEC §5 quotes them, from the same analyze() the CLI
// and the page use.
#include <catch2/catch.hpp>

#include "core/analysis.h"
#include "json_helpers.h"

using namespace fl;
using nlohmann::json;

namespace {
json demo(int n) {
  AnalysisConfig c = AnalysisConfig::for_demo(n);
  c.lang = Lang::En;
  return analyzed(c);
}
const json& part(const json& d, const char* id) {
  for (const json& p : d["partitions"])
    if (p["id"] == id) return p;
  FAIL("no partition " << id);
  return d;
}
double bytes(const json& p) { return p["bytes"].get<double>(); }
}  // namespace

TEST_CASE("demo 2: Llama-3.1-8B prefill at T = 2048") {
  json d = demo(2);
  REQUIRE(d["partitions"].size() == 4);
  CHECK(d["partitions"][0]["id"] == "eager");
  CHECK(d["partitions"][3]["id"] == "fused_flash");
  const json &eager = part(d, "eager"), &dec = part(d, "decomposed"), &fused = part(d, "fused"),
             &flash = part(d, "fused_flash");
  CHECK(bytes(dec) == Approx(5.8e9).epsilon(0.10));
  CHECK(dec["t_total"].get<double>() > eager["t_total"].get<double>());
  CHECK(bytes(fused) == Approx(2.1e9).epsilon(0.10));
  CHECK(bytes(flash) == Approx(1.0e9).epsilon(0.10));
  CHECK(d["score_bytes"] == 32LL * 2048 * 2048 * 2);
  CHECK(flash["overhead_share"].get<double>() < 0.10);  // "a few percent"
  CHECK(flash["speedup"].get<double>() > fused["speedup"].get<double>());
  REQUIRE(d["slowest"].size() == 4);
  for (size_t i = 1; i < 4; ++i) CHECK(d["slowest"][i - 1]["t"].get<double>() >= d["slowest"][i]["t"].get<double>());
  CHECK(d["observations"].size() == 4);
  // Tokens per second: T tokens a forward pass, over the model's 32 layers.
  CHECK(flash["tokens_per_s"].get<double>() == Approx(2048.0 / (32 * flash["t_total"].get<double>())));
}

TEST_CASE("demo 3: Llama-3.1-8B decode at S = 4096") {
  json d = demo(3);
  for (const json& p : d["partitions"]) {
    INFO(p["id"]);
    CHECK(p["t"].get<double>() == Approx(136e-6).epsilon(0.05));
    CHECK(bytes(p) >= d["weight_bytes"].get<double>() + d["kv_cache_bytes"].get<double>());
  }
  CHECK(d["weight_bytes"].get<double>() == Approx(436e6).epsilon(0.01));
  CHECK(d["kv_cache_bytes"] == 2LL * 8 * 4096 * 128 * 2);  // 16.8 MB
  const json &dec = part(d, "decomposed"), &flash = part(d, "fused_flash");
  CHECK(dec["kernels"].get<int>() == Approx(46).margin(6));
  CHECK(flash["kernels"].get<int>() == Approx(12).margin(2));
  CHECK(dec["overhead_share"].get<double>() > 0.5);
  CHECK(dec["overhead"].get<double>() > dec["t"].get<double>());
  CHECK(flash["overhead_share"].get<double>() >= 0.20);
  CHECK(flash["overhead_share"].get<double>() <= 0.30);
  CHECK(flash["tokens_per_s"].get<double>() == Approx(1.0 / (32 * flash["t_total"].get<double>())));
}

TEST_CASE("demo 1: the small layer's kernels are the ones SPEC 5.1 lists") {
  json d = demo(1);
  const json& ks = d["kernels"];
  REQUIRE(ks.size() >= 8);
  CHECK(ks[0]["kind"] == "rowwise");
  CHECK(ks[0]["label"] == "square+mean+add+rsqrt+mul");
  int rope = 0, attention = 0, residual = 0, silu = 0, gated = 0, kv = 0;
  for (const json& k : ks) {
    std::string label = k["label"];
    rope += k["kind"] == "matmul" && label.find("rot_pairs") != std::string::npos;
    attention += k["kind"] == "attention";
    residual += label == "matmul+add";
    silu += label == "matmul+neg+exp+add+div+mul";
    gated += label == "matmul+mul";
    kv += k["kind"] == "kv_write";
    CHECK(k["node_list"].size() == k["nodes"]);
  }
  CHECK(rope == 2);
  CHECK(attention == 1);
  CHECK(residual == 2);
  CHECK(silu == 1);
  CHECK(gated == 1);
  CHECK(kv == 0);
  CHECK(d["unfused"]["kernels"].get<int>() > d["fused"]["kernels"].get<int>());
  CHECK(d["unfused"]["bytes"].get<double>() > d["fused"]["bytes"].get<double>());
  CHECK(d["observations"].size() == 3);
}

TEST_CASE("demo 1: every kernel boundary says why") {
  json d = demo(1);
  for (const json& k : d["kernels"]) {
    CHECK(!k["ends"].empty());
    for (const json& e : k["ends"]) CHECK(!e["text"].get<std::string>().empty());
  }
}

TEST_CASE("demo 4: the paper's Table 4, exactly, with its source") {
  json d = demo(4);
  const double expected[][2] = {{1.91, 1.45}, {1.91, 1.28}, {1.85, 1.41}, {1.85, 1.45}, {1.83, 1.45},
                                {1.81, 1.37}, {1.68, 1.27}, {1.58, 1.31}, {0.80, 0.59}};
  REQUIRE(d["rows"].size() == 9);
  for (size_t i = 0; i < 9; ++i) {
    CHECK(d["rows"][i]["inference"].get<double>() == expected[i][0]);
    CHECK(d["rows"][i]["training"].get<double>() == expected[i][1]);
  }
  CHECK(d["rows"][8]["setting"] == "no fusion and no inlining");
  CHECK(d["source"].get<std::string>().find("ASPLOS 2024") != std::string::npos);
}

TEST_CASE("both languages give the same numbers") {
  AnalysisConfig zh = AnalysisConfig::for_demo(2), en = zh;
  en.lang = Lang::En;
  json a = analyzed(zh), b = analyzed(en);
  for (size_t i = 0; i < 4; ++i) CHECK(a["partitions"][i]["bytes"] == b["partitions"][i]["bytes"]);
  CHECK(a["observations"][0] != b["observations"][0]);
}

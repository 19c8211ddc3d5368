// The page's settings (src/web/settings.cpp): what its inputs show, and how
// edits and URLs change the workload.
#include <catch2/catch.hpp>

#include "core/presets.h"
#include "web/settings.h"

using namespace fl;
using namespace fl::web;

TEST_CASE("page inputs show a preset's numbers", "[page]") {
  Workload w = Workload::Default(2);  // Llama-3.1-8B on an H100
  CHECK(w.Value("d") == "4096");
  CHECK(w.Value("heads") == "32");
  CHECK(w.Value("kv_heads") == "8");
  CHECK(w.Value("head_dim") == "128");
  CHECK(w.Value("ffn") == "14336");
  CHECK(w.Value("matmul_tflops") == "989");
  CHECK(w.Value("bandwidth_tbs") == "3.35");
  CHECK(w.Value("memory_gb") == "80");

  ApplyConfig(w, {{"model", "llama-3.1-405b"}, {"hardware", "b200"}}, Lang::En);
  const ModelPreset* m = find_model("llama-3.1-405b");
  const HardwarePreset* h = find_hardware("b200");
  REQUIRE(m);
  REQUIRE(h);
  CHECK(w.Value("d") == std::to_string(m->layer.d));
  CHECK(w.Value("heads") == std::to_string(m->layer.H));
  CHECK(w.Value("ffn") == std::to_string(m->layer.f));
  CHECK(std::stod(w.Value("memory_gb")) == Approx(h->hw.memory / 1e9));
  CHECK(w.config.model_key == "llama-3.1-405b");
  CHECK(w.config.hardware_key == "b200");
}

TEST_CASE("a refused edit shows what was typed and keeps the last valid configuration", "[page]") {
  Workload w = Workload::Default(2);
  CHECK_THROWS_AS(ApplyConfig(w, {{"kv_heads", "5"}}, Lang::En), ConfigError);  // 32 heads, 5 KV heads
  CHECK(w.Value("kv_heads") == "5");
  CHECK(w.config.model.G == 8);
  CHECK(w.config.model_key == "llama-3.1-8b");

  ApplyConfig(w, {{"kv_heads", "4"}}, Lang::En);  // valid: a custom model
  CHECK(w.Value("kv_heads") == "4");
  CHECK(w.Value("d") == "4096");
  CHECK(w.config.model_key == "custom");
}

TEST_CASE("the page's state survives its URL", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "decode"}, {"model", "llama-3.1-70b"}, {"layers", "all"}, {"kv_len", "32768"},
                    {"hardware", "h200"}, {"partition", "3"}, {"lang", "en"}});
  Settings restored;
  ApplySettings(restored, ParseQuery(FormatQuery(SettingsPairs(s))));
  CHECK(restored == s);
  CHECK(restored.view == View::Decode);
  CHECK(restored.layer_workload.config.whole_model);
  CHECK(restored.layer_workload.Value("kv_len") == "32768");
}

TEST_CASE("the ablation view's URL carries the layer's configuration, which our ablation uses", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "ablation"}, {"launch_us", "0"}, {"model", "llama-3.1-70b"}});
  CHECK(s.layer_workload.config.hw.launch == 0);
  Settings restored;
  ApplySettings(restored, ParseQuery(FormatQuery(SettingsPairs(s))));
  CHECK(restored == s);
  CHECK(restored.layer_workload.config.hw.launch == 0);
  CHECK(restored.layer_workload.config.model_key == "llama-3.1-70b");
  CHECK(&ActiveWorkload(s) == &s.layer_workload);  // the sidebar edits what the ablation computes
}

TEST_CASE("JSON numbers reach the core as written, however large", "[page]") {
  const Pairs pairs = JsonPairs(nlohmann::json::parse(R"({"d": 18446744073709551615, "heads": -3, "tokens": 16})"));
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0] == Setting{"d", "18446744073709551615"});  // not -1
  CHECK(pairs[1] == Setting{"heads", "-3"});
  CHECK(pairs[2] == Setting{"tokens", "16"});
  Settings s;
  try {
    ApplySettings(s, pairs);
    FAIL("a hidden size of 2^64 - 1 was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field == "d");
  }
}

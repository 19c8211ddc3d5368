// The page's settings (src/web/settings.cpp): what its inputs show, and how
// edits and URLs change the workload.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/model_lang/llama_source.h"
#include "core/presets.h"
#include "core/units.h"
#include "page/field_labels.h"
#include "page/number_drag.h"
#include "page/settings.h"
#include "page/state.h"

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

TEST_CASE("links name the partition by its id, and older links' 0-based numbers still read", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "prefill"}, {"partition", "fused"}});
  CHECK(s.partition == 2);
  CHECK(FormatQuery(SettingsPairs(s)).find("partition=fused") != std::string::npos);
  CHECK(FormatQuery(SettingsPairs(s)).find("partition=fused_flash") == std::string::npos);
  ApplySettings(s, {{"partition", "3"}});
  CHECK(s.partition == 3);
  CHECK(FormatQuery(SettingsPairs(s)).find("partition=fused_flash") != std::string::npos);
  CHECK_THROWS_AS(ApplySettings(s, {{"partition", "4"}}), ConfigError);
  CHECK_THROWS_AS(ApplySettings(s, {{"partition", "flash"}}), ConfigError);
  CHECK(s.partition == 3);
  ApplySettings(s, {{"compiler", "inductor"}, {"partition", "inductor"}});  // the compiler's, after the four
  CHECK(FormatQuery(SettingsPairs(s)).find("partition=inductor") != std::string::npos);
  ApplySettings(s, {{"compiler", "gpt-fast"}});  // the fifth row is now gpt-fast's
  CHECK(FormatQuery(SettingsPairs(s)).find("partition=gpt_fast") != std::string::npos);
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

namespace {

// A valid value for `key` that differs from the preset's (kept valid: heads a
// multiple of KV heads, an even head size).
std::string edited_value(const std::string& key, const AnalysisConfig& c) {
  const LayerCfg& m = c.model;
  if (key == "d") return std::to_string(m.d + 64);
  if (key == "heads") return std::to_string(m.H + m.G);
  if (key == "kv_heads") return std::to_string(m.G == m.H ? 1 : m.G % 2 == 0 ? m.G / 2 : m.H);
  if (key == "head_dim") return std::to_string(m.dh + 2);
  if (key == "ffn") return std::to_string(m.f + 256);
  if (key == "model_layers") return std::to_string(c.layers + 1);
  if (key == "vocab") return std::to_string(c.vocab + 1);
  if (key == "tied_embeddings") return c.tied_embeddings ? "0" : "1";
  if (key == "matmul_tflops") return fmt_number(c.hw.matmul_flops / 1e12 + 100);
  if (key == "other_tflops") return fmt_number(c.hw.other_flops / 1e12 + 10);
  if (key == "bandwidth_tbs") return fmt_number(c.hw.bandwidth / 1e12 + 1);
  if (key == "launch_us") return fmt_number(c.hw.launch * 1e6 + 2);
  if (key == "graph_launch_us") return fmt_number(c.hw.graph_launch * 1e6 + 1);
  if (key == "memory_gb") return fmt_number(c.hw.memory / 1e9 + 16);
  FAIL("no edit for " << key);
  return "";
}

// Every value the page's inputs show, but `key`'s.
Pairs values_but(const AnalysisConfig& c, const std::string& key) {
  Pairs out = all_values_of(c);
  std::erase_if(out, [&](const Setting& kv) { return kv.first == key || kv.first == "demo"; });
  return out;
}

// Edits `key` of the preset `preset_key` (a "model" or "hardware") through
// setState's path and checks it against the CLI's configuration of the same
// values. Returns 1, for the count of cases walked.
int check_preset_edit(const char* preset_kind, const std::string& preset_key, const std::string& key) {
  INFO(preset_kind << " " << preset_key << ", edit " << key);
  Settings s;
  ApplySettings(s, {{"view", "decode"}, {"lang", "en"}, {preset_kind, preset_key}});
  const AnalysisConfig before = s.layer_workload.config;
  const std::string value = edited_value(key, before);
  ApplySettings(s, {{key, value}});
  const AnalysisConfig& after = s.layer_workload.config;
  CHECK(s.layer_workload.Value(key) == value);
  CHECK(values_but(after, key) == values_but(before, key));  // every other number stands

  AnalysisConfig cli = config_from_settings({{"demo", "3"}, {"lang", "en"}, {preset_kind, preset_key}, {key, value}});
  CHECK(all_values_of(cli) == all_values_of(MakeAnalysisConfig(s, 3)));
  CHECK(analyze(cli) == analyze(MakeAnalysisConfig(s, 3)));
  return 1;
}

}  // namespace

TEST_CASE("editing one number of a preset keeps every other number of it, as the CLI does", "[page]") {
  int cases = 0;
  for (const ModelPreset& m : model_presets())
    for (const char* key : {"d", "heads", "kv_heads", "head_dim", "ffn", "model_layers", "vocab", "tied_embeddings"})
      cases += check_preset_edit("model", std::string(m.key), key);
  for (const HardwarePreset& h : hardware_presets())
    for (const char* key : {"matmul_tflops", "other_tflops", "bandwidth_tbs", "launch_us", "graph_launch_us", "memory_gb"})
      cases += check_preset_edit("hardware", std::string(h.key), key);
  CHECK(cases == static_cast<int>(model_presets().size() * 8 + hardware_presets().size() * 6));
}

TEST_CASE("the issue's reproductions: B200 then 2 µs, 70B then f = 20480 or 32 heads", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "decode"}, {"hardware", "b200"}});
  ApplySettings(s, {{"launch_us", "2"}});
  const HardwarePreset* b200 = find_hardware("b200");
  REQUIRE(b200);
  CHECK(s.layer_workload.config.hw.bandwidth == b200->hw.bandwidth);
  CHECK(s.layer_workload.config.hw.matmul_flops == b200->hw.matmul_flops);
  CHECK(s.layer_workload.config.hw.launch == Approx(2e-6));

  ApplySettings(s, {{"model", "llama-3.1-70b"}});
  ApplySettings(s, {{"ffn", "20480"}});
  CHECK(s.layer_workload.config.model.d == 8192);
  CHECK(s.layer_workload.config.layers == 80);
  CHECK(s.layer_workload.config.model_key == "custom");
  ApplySettings(s, {{"model", "llama-3.1-70b"}});
  ApplySettings(s, {{"heads", "32"}});
  CHECK(s.layer_workload.config.model.d == 8192);
  CHECK(s.layer_workload.config.model.f == 28672);
  CHECK(s.layer_workload.config.model_key == "custom");

  // Choosing "custom" keeps the numbers on screen.
  ApplySettings(s, {{"model", "llama-3.1-70b"}, {"hardware", "b200"}});
  ApplySettings(s, {{"model", "custom"}, {"hardware", "custom"}});
  CHECK(s.layer_workload.config.model.d == 8192);
  CHECK(s.layer_workload.config.hw.bandwidth == b200->hw.bandwidth);
}

TEST_CASE("a refused value's message names fields by their labels on screen, and cuts a long echo", "[page]") {
  Workload w = Workload::Default(2);
  try {
    ApplyConfig(w, {{"heads", "12"}}, Lang::En);  // 8 KV heads
    FAIL("12 heads over 8 KV heads was accepted");
  } catch (const ConfigError& e) {
    const std::string en = LabelledMessage(e.text, e.args, "12", Lang::En);
    CHECK(en == "“H: query heads” (12) must be a multiple of “G: KV heads (GQA)” (8)");
    const std::string zh = LabelledMessage(e.text, e.args, "12", Lang::Zh);
    CHECK(zh.find("H：查询头数") != std::string::npos);
    CHECK(zh.find("kv_heads") == std::string::npos);
  }
  try {
    ApplyConfig(w, {{"d", "heads"}}, Lang::En);  // the typed value is echoed, not taken for a field
    FAIL("d = 'heads' was accepted");
  } catch (const ConfigError& e) {
    CHECK(LabelledMessage(e.text, e.args, "heads", Lang::En) == "“d: hidden size” must be an integer (got 'heads')");
  }
  Settings s;
  const std::string bogus(50000, 'x');
  try {
    ApplySettings(s, {{bogus, "1"}});
    FAIL("a bogus key was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.message(Lang::En).size() < 80);
    CHECK(e.field == bogus);  // the key itself is kept whole, to drop it from the URL
  }
}

TEST_CASE("a link holds the last valid configuration, never a refused value", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "decode"}, {"kv_len", "8192"}});
  CHECK_THROWS_AS(ApplyConfig(s.layer_workload, {{"kv_len", "-5"}}, Lang::En), ConfigError);
  CHECK(s.layer_workload.Value("kv_len") == "-5");  // the input shows what was typed
  const std::string query = FormatQuery(SettingsPairs(s));
  CHECK(query.find("kv_len=8192") != std::string::npos);
  CHECK(query.find("-5") == std::string::npos);
}

TEST_CASE("an embed's scale, controls and hidden buttons survive its URL, and bad ones are named", "[page]") {
  Settings s;
  ApplySettings(s, {{"view", "decode"}, {"embed", "1"}, {"scale", "1.5"}, {"controls", "kv_len,batch"}, {"hide", "buttons"},
                    {"theme", "dark"}});
  CHECK(s.scale == 1.5);
  CHECK(s.theme == Theme::Dark);
  CHECK(s.controls == std::vector<std::string>{"kv_len", "batch"});
  CHECK(s.hide_buttons);
  Settings restored;
  ApplySettings(restored, ParseQuery(FormatQuery(SettingsPairs(s))));
  CHECK(restored == s);
  const nlohmann::json state = PairsJson(SettingsPairs(s));
  CHECK(state["scale"] == 1.5);
  CHECK(state["controls"] == "kv_len,batch");
  CHECK(state["hide"] == "buttons");
  CHECK(state["theme"] == "dark");
  CHECK(FormatQuery(SettingsPairs(Settings{})).find("scale") == std::string::npos);  // 1 is not written
  CHECK(FormatQuery(SettingsPairs(Settings{})).find("theme") == std::string::npos);  // nor light

  for (const Pairs& bad : {Pairs{{"scale", "5"}}, Pairs{{"scale", "big"}}, Pairs{{"controls", "kv_len,colour"}},
                           Pairs{{"hide", "everything"}}, Pairs{{"theme", "blue"}}}) {
    INFO(bad[0].first << "=" << bad[0].second);
    try {
      ApplySettings(s, bad);
      FAIL("accepted");
    } catch (const ConfigError& e) {
      CHECK(e.field == bad[0].first);
    }
  }
  CHECK(s.scale == 1.5);  // all or nothing: a refused value changes nothing
}

TEST_CASE("a drag scales sizes and rates, adds to fixed costs, within the core's range", "[page][drag]") {
  const NumberRange& tokens = *find_number_range("tokens");
  CHECK(DraggedValue(tokens, 2048, 0, false) == 2048);
  CHECK(DraggedValue(tokens, 2048, kPxPerDoubling, false) == 4096);
  CHECK(DraggedValue(tokens, 2048, -kPxPerDoubling, false) == 1024);
  CHECK(DraggedValue(tokens, 2048, 0.5 * kPxPerDoubling, false) == std::round(2048 * std::sqrt(2.0)));
  CHECK(DraggedValue(tokens, 2048, 1e5, false) == Limits::kMaxTokens);
  CHECK(DraggedValue(tokens, 2048, -1e5, false) == 1);
  CHECK(DraggedValue(tokens, 2048, 0.4 * kPxPerDoubling, true) == 2048);  // snapped: powers of two
  CHECK(DraggedValue(tokens, 2048, 0.6 * kPxPerDoubling, true) == 4096);
  CHECK(DraggedValue(tokens, 2800, 0, true) == 2048);  // nearest in log2: 2^11.45

  const NumberRange& bandwidth = *find_number_range("bandwidth_tbs");
  CHECK(DraggedValue(bandwidth, 3.35, kPxPerDoubling, false) == Approx(6.7));
  CHECK(NumberText(bandwidth, DraggedValue(bandwidth, 3.35, 7, false)) == "4.1");  // three significant digits

  const NumberRange& launch = *find_number_range("launch_us");
  REQUIRE(Additive(launch));
  CHECK(DraggedValue(launch, 4, 20, false) == Approx(5));
  CHECK(DraggedValue(launch, 4, -1000, false) == 0);
  CHECK(DraggedValue(launch, 4, 13, true) == 5);  // 4.65: whole microseconds
  CHECK(NumberText(launch, DraggedValue(launch, 4, 3, false)) == "4.2");
}

TEST_CASE("arrow keys double and halve a size, and step a fixed cost", "[page][drag]") {
  const NumberRange& batch = *find_number_range("batch");
  CHECK(SteppedValue(batch, 8, +1) == 16);
  CHECK(SteppedValue(batch, 8, -1) == 4);
  CHECK(SteppedValue(batch, 1, -1) == 1);
  CHECK(SteppedValue(batch, 1, +1) == 2);
  CHECK(SteppedValue(batch, 3, -1) == 2);
  CHECK(SteppedValue(batch, Limits::kMaxBatch, +1) == Limits::kMaxBatch);
  const NumberRange& launch = *find_number_range("launch_us");
  CHECK(SteppedValue(launch, 4, +1) == Approx(4.5));
  CHECK(SteppedValue(launch, 0, -1) == 0);
  CHECK(NumberText(batch, 16) == "16");
}

TEST_CASE("a number resets to the preset last chosen, which is named again", "[page][reset]") {
  Workload w = Workload::Default(2);
  CHECK(w.PresetValue("tokens") == w.Value("tokens"));
  ApplyConfig(w, {{"model", "llama-3.1-70b"}, {"hardware", "b200"}}, Lang::En);
  const Workload chosen = w;
  ApplyConfig(w, {{"ffn", "20480"}}, Lang::En);
  REQUIRE(w.config.model_key == "custom");
  CHECK(w.PresetValue("ffn") == "28672");
  CHECK(ResetPairs(w, "ffn") == Pairs{{"model", "llama-3.1-70b"}});
  ApplyConfig(w, ResetPairs(w, "ffn"), Lang::En);
  CHECK(w.config.model_key == "llama-3.1-70b");
  CHECK(w == chosen);

  // Two numbers edited: resetting one leaves the other, and the model custom.
  ApplyConfig(w, {{"ffn", "20480"}}, Lang::En);
  ApplyConfig(w, {{"d", "4096"}}, Lang::En);
  CHECK(ResetPairs(w, "ffn") == Pairs{{"ffn", "28672"}});
  ApplyConfig(w, ResetPairs(w, "ffn"), Lang::En);
  CHECK(w.Value("d") == "4096");
  CHECK(w.config.model_key == "custom");

  ApplyConfig(w, {{"launch_us", "2"}}, Lang::En);
  REQUIRE(w.config.hardware_key == "custom");
  CHECK(w.PresetValue("launch_us") == fmt_number(find_hardware("b200")->hw.launch * 1e6));
  CHECK(ResetPairs(w, "launch_us") == Pairs{{"hardware", "b200"}});
  ApplyConfig(w, {{"tokens", "77"}}, Lang::En);
  CHECK(ResetPairs(w, "tokens") == Pairs{{"tokens", Workload::Default(2).Value("tokens")}});
}

TEST_CASE("every field the sidebar labels says what it means, in both languages", "[page]") {
  int labelled = 0;
  for (std::string_view key : setting_keys()) {
    if (!FieldLabel(key, Lang::En)) continue;
    INFO(key);
    ++labelled;
    const char* en = FieldHelp(key, Lang::En);
    const char* zh = FieldHelp(key, Lang::Zh);
    REQUIRE(en);
    REQUIRE(zh);
    CHECK(std::string_view(en).size() > 20);
    CHECK(std::string_view(en) != zh);
  }
  CHECK(labelled >= 19);
}

TEST_CASE("demo 1's stages are computed when the pass timeline opens, not for the kernels' view", "[page]") {
  State state;
  InitState(state, "view=kernels&lang=en", "en");
  REQUIRE(state.results.kernels.kernels.size() > 0);
  CHECK(state.results.kernels.stages.empty());
  ApplySettings(state.settings, {{"view", "passes"}});
  Recompute(state);
  CHECK(state.results.kernels.stages.size() > 1);
  // Back to the kernels: nothing is recomputed (a report without stages would have replaced them).
  ApplySettings(state.settings, {{"view", "kernels"}});
  Recompute(state);
  CHECK(state.results.kernels.stages.size() > 1);
}

TEST_CASE("a layer written as source travels in the page's URL, and a broken one keeps the last valid layer", "[page][source]") {
  // The 8B layer printed as source: the same layer, read from text.
  std::string source = lang::llama_source(kLlama8B, "edited");
  State state;
  InitState(state, "view=prefill&lang=en", "en");
  const int kernels = state.results.prefill.partitions.at(2).cost.kernels;
  ApplySettings(state.settings, {{"source", source}});
  Recompute(state);
  CHECK(state.results.prefill.partitions.at(2).cost.kernels == kernels);  // the printed preset: the same kernels
  CHECK(state.results.prefill.title.find("one custom source (4096, 32, 8, 128, 14336) layer") != std::string::npos);
  const std::string query = FormatQuery(SettingsPairs(state.settings));
  CHECK(query.find("source=") != std::string::npos);
  CHECK(query.find("&d=") == std::string::npos);  // the sizes are the source's
  State restored;
  InitState(restored, query, "en");
  CHECK(restored.settings == state.settings);
  // A broken edit is refused with its line, and the results stay those of the last valid layer.
  const Settings before = state.settings;
  CHECK_THROWS_AS(ApplySettings(state.settings, {{"source", source + "def broken(:\n"}}), ConfigError);
  CHECK(state.settings.layer_workload.config == before.layer_workload.config);
  // Choosing a preset leaves the source.
  ApplySettings(state.settings, {{"model", "llama-3.2-1b"}});
  CHECK(!state.settings.layer_workload.config.source);
}

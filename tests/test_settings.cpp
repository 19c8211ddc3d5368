// The one way in for configurations: every entry point's key=value pairs.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/compiled.h"
#include "core/config_keys.h"
#include "core/model_lang/model.h"
#include "core/settings.h"
#include "helpers.h"

using namespace fl;

namespace {
std::string field_of(const std::vector<Setting>& s) {
  try {
    config_from_settings(s);
  } catch (const ConfigError& e) {
    CHECK(!e.message(Lang::Zh).empty());
    CHECK(!e.message(Lang::En).empty());
    return e.field;
  }
  return "";
}
}  // namespace

TEST_CASE("settings apply presets before the values that override them, whatever the order") {
  AnalysisConfig a = config_from_settings({{"heads", "64"}, {"model", "llama-3.1-70b"}, {"kv_heads", "16"}});
  CHECK(a.model.d == 8192);
  CHECK(a.model.H == 64);
  CHECK(a.model.G == 16);
  CHECK(a.model_key == "custom");  // edited by hand
  AnalysisConfig b = config_from_settings({{"model", "llama-3.1-70b"}, {"hardware", "b200"}});
  CHECK(b.model_key == "llama-3.1-70b");
  CHECK(b.hardware_key == "b200");
  CHECK(b.hw.bandwidth == 8e12);
  CHECK(b.layers == 80);
}

TEST_CASE("settings_of round-trips every field") {
  AnalysisConfig c = config_from_settings({{"demo", "3"}, {"model", "qwen2.5-7b"}, {"batch", "4"}, {"dtype", "fp16"},
                                           {"weights_dtype", "fp8"}, {"layers", "all"}, {"kv_len", "8192"},
                                           {"bandwidth_tbs", "2.5"}, {"lang", "en"}});
  AnalysisConfig d = config_from_settings(settings_of(c));
  CHECK(d.demo == 3);
  CHECK(d.model == c.model);
  CHECK(d.model_key == "qwen2.5-7b");
  CHECK(d.whole_model);
  CHECK(d.layers == 28);
  CHECK(d.batch == 4);
  CHECK(d.act == DType::FP16);
  CHECK(d.weights == DType::FP8);
  CHECK(d.hw == c.hw);
  CHECK(d.hardware_key == "custom");
  CHECK(d.lang == Lang::En);
}

TEST_CASE("bad settings name their key") {
  CHECK(field_of({{"heads", "0"}}) == "heads");
  CHECK(field_of({{"heads", "-3"}}) == "heads");
  CHECK(field_of({{"heads", "6"}, {"kv_heads", "4"}}) == "kv_heads");
  CHECK(field_of({{"d", "abc"}}) == "d");
  CHECK(field_of({{"d", "12x"}}) == "d");
  CHECK(field_of({{"d", ""}}) == "d");
  CHECK(field_of({{"d", "99999999999999999999"}}) == "d");
  CHECK(field_of({{"bandwidth_tbs", "nan"}}) == "bandwidth_tbs");
  CHECK(field_of({{"bandwidth_tbs", " 3"}}) == "bandwidth_tbs");
  CHECK(field_of({{"launch_us", "inf"}}) == "launch_us");
  CHECK(field_of({{"model", "gpt"}}) == "model");
  CHECK(field_of({{"hardware", "tpu"}}) == "hardware");
  CHECK(field_of({{"dtype", "fp8"}}) == "dtype");
  CHECK(field_of({{"demo", "7"}}) == "demo");
  CHECK(field_of({{"lang", "fr"}}) == "lang");
  CHECK(field_of({{"colour", "red"}}) == "colour");
  CHECK(field_of({{"layers", "many"}}) == "layers");
  CHECK(field_of({{"model", "llama-3.1-8b"}}) == "");
  CHECK(field_of({{"compiler", "xla"}}) == "compiler");
  CHECK(field_of({{"compiler", "inductor"}, {"layers", "all"}}) == "compiler");  // the model compiles one layer
  CHECK(field_of({{"compiler", "inductor"}}) == "");
}

TEST_CASE("the compiler round-trips, and the lecture's rules, the default, stay out of links") {
  const AnalysisConfig c = config_from_settings({{"demo", "3"}, {"compiler", "inductor"}});
  CHECK(config_from_settings(settings_of(c)).compiler == Compiler::Inductor);
  for (const Setting& s : settings_of(config_from_settings({{"demo", "3"}}))) CHECK(s.first != "compiler");
}

TEST_CASE("a hardware number out of range is named with the numbers as typed") {
  try {
    config_from_settings({{"bandwidth_tbs", "1e9"}});
    FAIL("accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field == "bandwidth_tbs");
    CHECK(std::string(e.what()).find("between 0.01 and 1000 (got 1000000000)") != std::string::npos);
  }
}

TEST_CASE("a launch cost of -0 is 0") {
  AnalysisConfig c = config_from_settings({{"launch_us", "-0"}});
  CHECK_FALSE(std::signbit(c.hw.launch));
  for (const Setting& s : settings_of(c))
    if (s.first == "launch_us") CHECK(s.second == "0");
}

TEST_CASE("dtype sets the weights' dtype too, unless weights_dtype is given, in either order") {
  const AnalysisConfig both = config_from_settings({{"dtype", "fp16"}});
  CHECK(both.act == DType::FP16);
  CHECK(both.weights == DType::FP16);
  for (const std::vector<Setting>& s : {std::vector<Setting>{{"dtype", "fp32"}, {"weights_dtype", "fp8"}},
                                        std::vector<Setting>{{"weights_dtype", "fp8"}, {"dtype", "fp32"}}}) {
    const AnalysisConfig c = config_from_settings(s);
    CHECK(c.act == DType::FP32);
    CHECK(c.weights == DType::FP8);
  }
}

TEST_CASE("every value a key lists as a choice is accepted, and what it lists not is refused by it") {
  for (const ConfigKey& k : config_keys()) {
    const std::string choices = key_choices(k.key);
    for (size_t at = 0; at < choices.size();) {
      const size_t end = std::min(choices.find(", ", at), choices.size());
      const std::string value = choices.substr(at, end - at);
      INFO(k.key << " = " << value);
      CHECK_NOTHROW(config_from_settings({{std::string(k.key), value}}));
      at = end + 2;
    }
  }
  CHECK(field_of({{"dtype", "fp8"}}) == "dtype");  // fp8 stores weights only
  CHECK(key_choices("dtype").find("fp8") == std::string::npos);
  CHECK_NOTHROW(config_from_settings({{"weights_dtype", "fp8"}}));
}

TEST_CASE("every value of a configuration reads back as the same configuration") {
  AnalysisConfig c = config_from_settings({{"model", "qwen2.5-7b"}, {"hardware", "mi300x"}, {"tokens", "77"}, {"kv_len", "999"},
                                           {"batch", "3"}, {"weights_dtype", "fp8"}, {"launch_us", "2.5"}, {"layers", "all"}});
  const std::vector<Setting> values = all_values_of(c);
  CHECK(values.size() == config_keys().size() - 3);  // every key but the presets' names and the source (none here)
  const AnalysisConfig back = config_from_settings(values, c.demo);
  CHECK(all_values_of(back) == values);
}

TEST_CASE("a configuration edited as a form: a preset replaces its numbers, a number edited by hand makes it custom") {
  const AnalysisConfig base = config_from_settings({{"model", "llama-3.1-8b"}, {"layers", "all"}, {"dtype", "fp16"},
                                                    {"tokens", "512"}});
  // Choosing a model: its layer, its layer count, and the sizes kept.
  AnalysisConfig big = edit_config(base, {{"model", "llama-3.1-70b"}});
  CHECK(big.model_key == "llama-3.1-70b");
  CHECK(big.model.d == 8192);
  CHECK(big.whole_model);
  CHECK(big.layers == 80);
  CHECK(big.tokens == 512);
  CHECK(big.act == DType::FP16);
  CHECK(big.demo == base.demo);
  // A number by hand: the preset's other numbers stand, named custom.
  AnalysisConfig edited = edit_config(big, {{"ffn", "20480"}});
  CHECK(edited.model_key == "custom");
  CHECK(edited.model.f == 20480);
  CHECK(edited.model.d == 8192);
  // Choosing the model again brings its own number back.
  CHECK(edit_config(edited, {{"model", "llama-3.1-70b"}}) == big);
  // dtype sets the weights' dtype too, unless the same edit gives it.
  CHECK(edit_config(base, {{"dtype", "fp32"}}).weights == DType::FP32);
  CHECK(edit_config(base, {{"dtype", "fp32"}, {"weights_dtype", "fp8"}}).weights == DType::FP8);
  // "custom" as the model keeps the numbers, written out.
  AnalysisConfig custom = edit_config(big, {{"model", "custom"}});
  CHECK(custom.model_key == "custom");
  CHECK(custom.model == big.model);
  // A refused edit throws and names its key.
  try {
    edit_config(base, {{"kv_heads", "5"}});
    FAIL("32 heads over 5 KV heads was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.field == "kv_heads");
  }
}

TEST_CASE("the layer's source is a key of the configuration: read, linked, edited and refused like the others") {
  const std::string gpt2 = test::file_text(std::string(FUSIONLAB_SOURCE_DIR) + "/examples/models/gpt2.fl");
  const AnalysisConfig c = config_from_settings({{"demo", "2"}, {"source", gpt2}, {"tokens", "512"}});
  REQUIRE(c.source);
  CHECK(c.model == LayerCfg{768, 12, 12, 64, 3072});
  CHECK(c.model_key == "custom");
  // Linked as the source itself, without the sizes it defines; read back, the same layer.
  const std::vector<Setting> linked = settings_of(c);
  CHECK(std::count(linked.begin(), linked.end(), Setting{"source", gpt2}) == 1);
  for (const char* size : lang::kSizeNames)
    CHECK(std::none_of(linked.begin(), linked.end(), [&](const Setting& kv) { return kv.first == size; }));
  CHECK(config_from_settings(linked, 2) == c);
  // An edit of T reads the source again but is the same layer: the phase is not compiled again.
  const AnalysisConfig longer = edit_config(c, {{"tokens", "4096"}});
  CHECK(longer.source == c.source);
  CHECK(&*longer.source == &*c.source);  // not even read again
  PhaseCompiler compiler;
  compiler.phase(c, false);
  compiler.phase(longer, false);
  CHECK(compiler.compilations() == 1);
  // A preset's layer replaces the source; a size given besides it is refused, naming itself.
  const AnalysisConfig preset = edit_config(c, {{"model", "llama-3.1-8b"}});
  CHECK(!preset.source);
  CHECK(preset.model == kLlama8B);
  CHECK(field_of({{"source", gpt2}, {"d", "1024"}}) == "d");
  // A source that cannot be read, or traced, names its line and column.
  try {
    config_from_settings({{"source", "d = 64\nheads = 4 $\n"}});
    FAIL("read");
  } catch (const ConfigError& e) {
    CHECK(e.field == "source");
    CHECK(e.message(Lang::En) == "source: line 2, column 11: an unexpected character '$'");
  }
  const std::string sizes = "d = 64\nheads = 4\nkv_heads = 2\nhead_dim = 16\nffn = 128\nparam w[32, 64]\n";
  try {
    config_from_settings({{"source", sizes + "def layer(x):\n    return x @ w\n"}});  // (T, 64) @ (32, 64)
    FAIL("traced");
  } catch (const ConfigError& e) {
    CHECK(e.field == "source");
    CHECK(e.message(Lang::En).rfind("source: line 8, column ", 0) == 0);
  }
  // Traced again under another attention form, which the source may read.
  const AnalysisConfig lecture =
      config_from_settings({{"source", sizes + "def layer(x):\n    if attention == \"sdpa\":\n        return nowhere\n    return x\n"}});
  try {
    edit_config(lecture, {{"attention", "sdpa"}});
    FAIL("traced under sdpa");
  } catch (const ConfigError& e) {
    CHECK(e.field == "source");
    CHECK(e.message(Lang::En).rfind("source: line 9, column ", 0) == 0);
  }
}

// fuzz_config_json: bytes → JSON → what window.fusionlab.analyze(config) does
// with it (web/bindings.cpp: an object, JsonPairs, the core's one way in,
// fl::config_from_settings) → fl::analyze.
//
// Whatever the bytes, one of three things happens: the JSON does not parse,
// the config is refused with an exception that says why (ConfigError naming
// the key, in both languages, or std::invalid_argument for a non-object), or
// analyze returns JSON whose figures obey the model's invariants and that
// the page reads the same (demos 2 and 3: the typed report it draws
// serializes to exactly that JSON; demos 1 and 4: it parses). An accepted config is exactly what the JSON said, and
// survives the trip back through fl::settings_of (what a link or the CLI's
// options would say) unchanged. Anything else (a crash, a sanitizer report,
// another exception, an empty message, a broken invariant) aborts.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "fuzz_common.h"
#include "core/presets.h"
#include "core/report_json.h"
#include "core/settings.h"
#include "page/settings.h"

using nlohmann::json;
using namespace fl;
using fl::fuzz::near;

namespace {

double num(const json& j, const char* key) {
  FL_FUZZ_CHECK(j.contains(key) && j.at(key).is_number(), "missing number '" << key << "' in " << j.dump().substr(0, 400));
  double v = j.at(key).get<double>();
  FL_FUZZ_CHECK(std::isfinite(v), "'" << key << "' is " << v);
  return v;
}

// An accepted config must be exactly what the JSON said: no value silently
// wrapped, truncated or rounded into another valid one.
void check_taken_as_given(const json& in, const AnalysisConfig& cfg) {
  const std::pair<const char*, int64_t> ints[] = {
      {"demo", cfg.demo},       {"d", cfg.model.d},     {"heads", cfg.model.H},   {"kv_heads", cfg.model.G},
      {"head_dim", cfg.model.dh}, {"ffn", cfg.model.f}, {"tokens", cfg.tokens}, {"kv_len", cfg.kv_len},
      {"batch", cfg.batch}};
  for (auto [key, used] : ints)
    if (in.contains(key) && in.at(key).is_number_integer())
      FL_FUZZ_CHECK(in.at(key) == json(used), "\"" << key << "\": " << in.at(key).dump() << " was taken as " << used);
  const std::tuple<const char*, double, double> reals[] = {
      {"matmul_tflops", cfg.hw.matmul_flops, 1e12}, {"other_tflops", cfg.hw.other_flops, 1e12},
      {"bandwidth_tbs", cfg.hw.bandwidth, 1e12},    {"launch_us", cfg.hw.launch, 1e-6},
      {"graph_launch_us", cfg.hw.graph_launch, 1e-6}, {"memory_gb", cfg.hw.memory, 1e9}};
  for (auto [key, used, unit] : reals)
    if (in.contains(key) && in.at(key).is_number()) {
      double given = in.at(key).get<double>() * unit;
      FL_FUZZ_CHECK(given == used, "\"" << key << "\": " << in.at(key).dump() << " was taken as " << used / unit);
    }
}

// What a link, getState() or the CLI's options say about an accepted config
// (fl::settings_of) must give the same config back.
void check_round_trip(const AnalysisConfig& c, const json& in) {
  AnalysisConfig back;
  try {
    back = config_from_settings(settings_of(c), c.demo);
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("settings_of gives settings that config_from_settings refuses: ") + e.what() + "\n" +
                   fl::fuzz::settings_str(c) + "\nfrom " + in.dump());
  }
  const std::string diff = fl::fuzz::config_differences(c, back);
  FL_FUZZ_CHECK(diff.empty(), "config_from_settings(settings_of(c)) is not c: " << diff << "\n  c: " << in.dump()
                                  << "\n  settings_of(c): " << fl::fuzz::settings_str(c));
}

void check_kernel(const json& k, const Hardware& hw, const std::string& where) {
  const double reads = num(k, "reads"), writes = num(k, "writes"), flops = num(k, "flops"), t = num(k, "t");
  const double tc = num(k, "t_compute"), tm = num(k, "t_memory");
  FL_FUZZ_CHECK(reads >= 0 && writes >= 0 && flops >= 0 && t >= 0, where << ": negative figure " << k.dump());
  FL_FUZZ_CHECK(near(tm, (reads + writes) / hw.bandwidth, 1e-9), where << ": t_memory " << tm);
  FL_FUZZ_CHECK(t >= tm * (1 - 1e-12) && t >= tc * (1 - 1e-12), where << ": roofline t " << t << " < " << tc << ", " << tm);
  FL_FUZZ_CHECK(t >= flops / std::max(hw.matmul_flops, hw.other_flops) * (1 - 1e-12), where << ": t " << t << " below FLOPs / peak");
}

void check_partitions(const json& out, const AnalysisConfig& cfg) {
  const json& ps = out.at("partitions");
  FL_FUZZ_CHECK(ps.is_array() && ps.size() == 4, "partitions: " << ps.size());
  const char* ids[] = {"eager", "decomposed", "fused", "fused_flash"};
  double bytes[4], kernels[4];
  for (size_t i = 0; i < 4; ++i) {
    const json& p = ps[i];
    FL_FUZZ_CHECK(p.at("id") == ids[i], "partition " << i << " is " << p.at("id").dump());
    const json& list = p.at("kernel_list");
    kernels[i] = num(p, "kernels");
    bytes[i] = num(p, "bytes");
    FL_FUZZ_CHECK(kernels[i] == static_cast<double>(list.size()) && kernels[i] >= 1, ids[i] << ": kernels " << kernels[i]);
    double sum_bytes = 0, sum_flops = 0, sum_t = 0;
    for (const json& k : list) {
      check_kernel(k, cfg.hw, ids[i]);
      sum_bytes += num(k, "reads") + num(k, "writes");
      sum_flops += num(k, "flops");
      sum_t += num(k, "t");
    }
    FL_FUZZ_CHECK(sum_bytes == bytes[i], ids[i] << ": bytes " << bytes[i] << ", kernels add up to " << sum_bytes);
    FL_FUZZ_CHECK(near(sum_flops, num(p, "flops"), 1e-9), ids[i] << ": flops");
    FL_FUZZ_CHECK(near(sum_t, num(p, "t"), 1e-9), ids[i] << ": t " << num(p, "t") << ", kernels add up to " << sum_t);
    FL_FUZZ_CHECK(near(num(p, "overhead"), kernels[i] * cfg.hw.launch, 1e-9), ids[i] << ": overhead");
    FL_FUZZ_CHECK(near(num(p, "t_total"), num(p, "t") + num(p, "overhead"), 1e-9), ids[i] << ": t_total");
    FL_FUZZ_CHECK(num(p, "t_total") > 0 && num(p, "speedup") > 0 && num(p, "tokens_per_s") > 0, ids[i] << ": " << p.dump().substr(0, 300));
  }
  FL_FUZZ_CHECK(bytes[2] <= bytes[1], "fused bytes " << bytes[2] << " > decomposed " << bytes[1]);
  FL_FUZZ_CHECK(kernels[2] <= kernels[1], "fused kernels " << kernels[2] << " > decomposed " << kernels[1]);
  FL_FUZZ_CHECK(bytes[3] <= bytes[2], "FlashAttention bytes " << bytes[3] << " > without " << bytes[2]);
  if (cfg.demo == 3) {
    // Decode reads every weight, except an untied embedding table (a whole
    // model gathers only the batch's rows of it), and the whole KV cache.
    const double table = cfg.whole_model && !cfg.tied_embeddings
                             ? static_cast<double>(cfg.vocab * cfg.model.d * dtype_bytes(cfg.weights))
                             : 0;
    const double floor = num(out, "weight_bytes") - table + num(out, "kv_cache_bytes");
    const double kv = 2.0 * static_cast<double>(cfg.whole_model ? cfg.layers : 1) * static_cast<double>(cfg.batch) *
                      static_cast<double>(cfg.model.G * cfg.kv_len * cfg.model.dh * dtype_bytes(cfg.act));
    FL_FUZZ_CHECK(num(out, "kv_cache_bytes") == kv, "kv_cache_bytes " << num(out, "kv_cache_bytes") << ", expected " << kv);
    for (size_t i = 0; i < 4; ++i)
      FL_FUZZ_CHECK(bytes[i] >= floor, ids[i] << ": decode moves " << bytes[i] << " bytes, under weights + KV cache " << floor);
  }
}

// `out`: `text` (what analyze() returned) parsed, which also checks that every string is valid UTF-8.
void check_result(const json& out, const std::string& text, const AnalysisConfig& cfg) {
  FL_FUZZ_CHECK(out.at("demo") == cfg.demo, "demo " << out.at("demo").dump());
  switch (cfg.demo) {
    case 1: {
      const json& ks = out.at("kernels");
      FL_FUZZ_CHECK(!ks.empty() && num(out.at("fused"), "kernels") == static_cast<double>(ks.size()), "demo 1 kernels");
      double bytes = 0;
      for (const json& k : ks) {
        check_kernel(k, cfg.hw, "demo 1");
        bytes += num(k, "reads") + num(k, "writes");
      }
      FL_FUZZ_CHECK(bytes == num(out.at("fused"), "bytes"), "demo 1: fused bytes");
      FL_FUZZ_CHECK(num(out.at("fused"), "bytes") <= num(out.at("unfused"), "bytes"), "demo 1: fused bytes > unfused");
      FL_FUZZ_CHECK(num(out.at("fused"), "kernels") <= num(out.at("unfused"), "kernels"), "demo 1: fused kernels > unfused");
      const KernelsReport report = kernels_report(cfg);
      FL_FUZZ_CHECK(json_text(report) == text, "demo 1: the typed report's JSON differs from analyze()");
      break;
    }
    case 2:
    case 3:
      check_partitions(out, cfg);
      // The page draws the typed report itself: it says what --json says (so for demos 1 and 4).
      FL_FUZZ_CHECK(cfg.demo == 3 ? json_text(decode_report(cfg)) == text : json_text(prefill_report(cfg)) == text,
                    "demo " << cfg.demo << ": the typed report's JSON differs from analyze()");
      break;
    default:
      FL_FUZZ_CHECK(!out.at("rows").empty(), "demo 4 rows");
      FL_FUZZ_CHECK(json_text(ablation_report(cfg)) == text, "demo 4: the typed report's JSON differs from analyze()");
      break;
  }
}

// The JSON the bytes spell, or when they are not JSON, an object built from
// them: the core's keys (and some others) with values of every JSON type,
// edge numbers and the words each key takes, so most inputs reach fl::analyze.
json structured(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::vector<std::string> keys(setting_keys().begin(), setting_keys().end());
  keys.insert(keys.end(), {"view", "embed", "vocab", "x"});
  json obj = json::object();
  for (int n = in.ConsumeIntegralInRange(0, 8); n > 0 && in.remaining_bytes(); --n) {
    const std::string key = keys[in.ConsumeIntegralInRange<size_t>(0, keys.size() - 1)];
    if (in.ConsumeBool()) {
      obj[key] = fl::fuzz::edge_json(in);
      continue;
    }
    std::vector<std::string> words{"custom", "", "x"};
    if (key == "lang") words = {"zh", "en", "fr"};
    if (key == "dtype" || key == "weights_dtype") words = {"bf16", "fp16", "fp32", "fp8", "i32", "BF16"};
    if (key == "layers") words = {"one", "all", "1", "0", "2"};
    if (key == "model") {
      for (const ModelPreset& m : model_presets()) words.emplace_back(m.key);
      words.emplace_back("llama8b");
    }
    if (key == "hardware")
      for (const HardwarePreset& h : hardware_presets()) words.emplace_back(h.key);
    obj[key] = words[in.ConsumeIntegralInRange<size_t>(0, words.size() - 1)];
  }
  return obj;
}

// What bindings.cpp does with our errors: a reply {"error": message} that must serialise.
void check_reply(const std::string& message) {
  FL_FUZZ_CHECK(!message.empty(), "an error without a message");
  try {
    (void)json{{"error", message}}.dump();
  } catch (const json::exception& e) {
    fl::fuzz::fail("the error reply does not serialise (" + std::string(e.what()) + "): " + message);
  }
}

void run_config(const json& in) {
  AnalysisConfig cfg;
  try {
    cfg = config_from_settings(fl::web::JsonPairs(in), 2);  // as analyze_json in web/bindings.cpp
  } catch (const ConfigError& e) {
    FL_FUZZ_CHECK(*e.what() && !e.message(Lang::Zh).empty() && !e.message(Lang::En).empty(),
                  "ConfigError without a message for " << in.dump());  // (the field is the key, which may be "")
    check_reply(e.what());
    return;
  } catch (const std::invalid_argument& e) {
    FL_FUZZ_CHECK(!in.is_object(), "JsonPairs refused an object: " << e.what());
    check_reply(e.what());
    return;
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("the reader threw something else than ConfigError: ") + e.what() + "\nconfig " + in.dump());
  }
  check_taken_as_given(in, cfg);
  check_round_trip(cfg, in);
  // A whole model is `layers` copies of one layer: analysing 256 of them takes
  // seconds under the sanitizers (about 3 s natively for demo 4), so the
  // fuzzer analyses at most 4 and stays far from its timeout.
  if (cfg.whole_model) cfg.layers = std::min<int64_t>(cfg.layers, 4);
  std::string text;
  try {
    text = analyze(cfg);
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("analyze threw on a config that validated: ") + e.what() + "\nconfig " + in.dump());
  }
  try {
    check_result(json::parse(text), text, cfg);
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("analyze's JSON does not parse as the page expects: ") + e.what() + "\nconfig " + in.dump());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // (nlohmann's parse_error quotes the bytes it stopped at, possibly half a
  // UTF-8 sequence; bindings.cpp parses without exceptions, so never shows it.)
  json in = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded()) in = structured(data, size);
  if (std::getenv("FL_FUZZ_DUMP")) std::fprintf(stderr, "config %s\n", in.dump().c_str());  // what an input asks
  run_config(in);
  return 0;
}

// fuzz_url_state: bytes → the page's URL query parser and setState() →
// Settings → the query and the state the page writes back → read again.
//
// A link must never break the page and must reproduce what its author saw:
//   - a query or a setState() is applied in full or not at all: refused, it
//     throws a ConfigError that names the key and leaves the settings as they
//     were (so the page keeps its last valid state);
//   - accepted, the query the page writes back (FormatQuery(SettingsPairs(s)))
//     is accepted in full and gives the same settings, and writing it again
//     gives the same text; the same through getState() → setState().
// The bytes are tried as a query, as a query built from them (the known keys
// with edge values), and when they are JSON, as the argument of setState().
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/presets.h"
#include "core/settings.h"
#include "fuzz_common.h"
#include "page/settings.h"

using namespace fl;
using namespace fl::web;

namespace {

std::string describe(const Settings& s) { return FormatQuery(SettingsPairs(s)); }

// `b` (rebuilt from a's link) shows what `a` shows. By design a link leaves
// out the page state its view does not use (the partition outside the
// prefill/decode views, the selected kernel outside the views that select
// one); everything else must be equal, and every demo must compute the same
// configuration (as numbers: getState writes "-0" back as 0).
void check_reproduces(const Settings& a, const Settings& b, const std::string& how, std::string_view origin) {
  auto ctx = [&] {
    return how + "\ninput:   " + std::string(origin) + "\nwritten: " + describe(a) + "\nagain:   " + describe(b);
  };
  FL_FUZZ_CHECK(a.view == b.view && a.lang == b.lang && a.embed == b.embed, ctx());
  for (int demo = 1; demo <= 4; ++demo) {
    const std::string diff = fl::fuzz::config_differences(MakeAnalysisConfig(a, demo), MakeAnalysisConfig(b, demo));
    FL_FUZZ_CHECK(diff.empty(), "demo " << demo << " computes another config: " << diff << "\n" << ctx());
  }
  const int demo = ViewDemo(a.view);
  if (demo == 2 || demo == 3) FL_FUZZ_CHECK(a.partition == b.partition, "partition\n" << ctx());
  if (demo == 1 || a.view == View::Roofline || a.view == View::Timeline)
    FL_FUZZ_CHECK(a.kernel == b.kernel, "kernel\n" << ctx());
}

// Applies pairs to default settings: all or nothing.
bool apply(Settings& s, const Pairs& pairs, std::string_view origin) {
  const Settings before = s;
  try {
    ApplySettings(s, pairs);
    return true;
  } catch (const ConfigError& e) {
    FL_FUZZ_CHECK(*e.what() && !e.message(Lang::Zh).empty(), "a ConfigError without a message");  // (the key may be "")
    FL_FUZZ_CHECK(s == before, "a refused query changed the settings: " << e.what() << "\ninput: " << origin);
    return false;
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("ApplySettings threw something else than ConfigError: ") + e.what() + "\ninput: " +
                   std::string(origin));
  }
}

// The settings a link or setState() gave must survive both ways back.
void check_round_trips(const Settings& first, std::string_view origin) {
  const Pairs pairs = SettingsPairs(first);
  const std::string written = FormatQuery(pairs);
  Settings again;
  try {
    ApplySettings(again, ParseQuery(written));
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("the page refuses the URL it wrote: ") + e.what() + "\nwritten: " + written +
                   "\ninput:   " + std::string(origin));
  }
  check_reproduces(first, again, "URL round trip", origin);
  FL_FUZZ_CHECK(FormatQuery(SettingsPairs(again)) == written,
                "the written URL is not a fixed point:\n" << written << "\n" << FormatQuery(SettingsPairs(again)));

  // window.fusionlab.getState() → setState(): the same through JSON.
  const std::string state = PairsJson(pairs).dump();
  Settings via_json;
  try {
    ApplySettings(via_json, JsonPairs(nlohmann::json::parse(state)));
  } catch (const std::exception& e) {
    fl::fuzz::fail(std::string("setState refuses getState's state: ") + e.what() + "\nstate: " + state + "\ninput: " +
                   std::string(origin));
  }
  check_reproduces(first, via_json, "getState/setState round trip", origin);
}

// A query built from the bytes: the known keys with words, edge integers and
// reals, so that most inputs set something (the raw bytes are tried too).
std::string structured_query(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::vector<std::string> keys(setting_keys().begin(), setting_keys().end());
  keys.insert(keys.end(), {"view", "embed", "partition", "kernel", "vocab", "x"});
  std::vector<std::string> words{"kernels", "prefill", "decode", "ablation", "passes", "roofline", "timeline",
                                 "zh", "en", "1", "0", "true", "false", "one", "all", "custom", "llama8b",
                                 "bf16", "fp16", "fp32", "fp8", "i32", "", " 5", "+5", "5%00", "0x10", "1e3",
                                 "nan", "inf", "-0"};
  for (const ModelPreset& m : model_presets()) words.emplace_back(m.key);
  for (const HardwarePreset& h : hardware_presets()) words.emplace_back(h.key);
  Pairs pairs;
  for (int n = in.ConsumeIntegralInRange(0, 10); n > 0 && in.remaining_bytes(); --n) {
    std::string key = keys[in.ConsumeIntegralInRange<size_t>(0, keys.size() - 1)], value;
    switch (in.ConsumeIntegralInRange(0, 3)) {
      case 0: value = words[in.ConsumeIntegralInRange<size_t>(0, words.size() - 1)]; break;
      case 1: value = std::to_string(fl::fuzz::edge_int(in)); break;
      case 2: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.*g", in.ConsumeIntegralInRange(1, 17), fl::fuzz::edge_real(in));
        value = buf;
        break;
      }
      default: value = in.ConsumeRandomLengthString(8); break;
    }
    pairs.emplace_back(key, value);
  }
  return FormatQuery(pairs);
}

void check_query(std::string_view text) {
  Settings s;
  if (apply(s, ParseQuery(text), text)) check_round_trips(s, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // As a URL query (location.search without the '?'), raw and structured.
  check_query(text);
  const std::string built = structured_query(data, size);
  check_query(built);

  // As the JSON of window.fusionlab.setState(state), as bindings.cpp reads it.
  const nlohmann::json state = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!state.is_object()) return 0;  // bindings.cpp refuses it: "expected a JSON object"
  Settings s;
  if (apply(s, JsonPairs(state), text)) check_round_trips(s, text);
  return 0;
}

// What the user chose: the view, the language, and for each workload a
// typed configuration.
//
// Configurations have one way in, the core's fl::edit_config
// (core/settings.h): the URL query, setState(), analyze(config) and the
// sidebar all give key=value text with the CLI's option names (demo, lang,
// model, hardware, d, heads, kv_heads, head_dim, ffn, layers, tokens, kv_len,
// batch, dtype, weights_dtype, matmul_tflops, other_tflops, bandwidth_tbs,
// launch_us, graph_launch_us, memory_gb), which the core applies to the
// configuration and validates. The page's own keys (view, embed, partition,
// kernel) are handled here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"
#include "core/settings.h"

namespace fl::web {

// Demos 1..4, then the explain views: the pass timeline with its graph (demo
// 1's stages), the roofline (demos 2/3), the kernel timeline (demos 2/3) and
// the sweep of one size (demos 2/3), and the layer's source with its prefill partitions.
enum class View { Kernels, Prefill, Decode, Ablation, Passes, Roofline, Timeline, Sweep, Reality, Compilers, Source };
inline constexpr View kViews[] = {View::Kernels,  View::Prefill,  View::Decode,  View::Ablation,
                                  View::Passes,   View::Roofline, View::Timeline, View::Sweep,
                                  View::Reality,  View::Compilers, View::Source};
// "kernels", "prefill", "decode", "ablation", "passes", "roofline", "timeline", "sweep", "reality",
// "compilers", "source"
std::string_view ViewKey(View v);
int ViewDemo(View v);              // 1..4: the demo whose workload the view shows

using Pairs = std::vector<Setting>;

// One configuration the page shows: demo 1 has its own (the seed's small
// layer), demos 2 and 3 share one (a Llama layer or model), which demo 4's
// observations also use.
struct Workload {
  int demo = 2;           // the demo whose defaults stand under the configuration (1 or 2)
  AnalysisConfig config;  // the last valid configuration (lang: the page's)
  // Edits the core refused, as typed: their fields show them (marked) until
  // an edit makes the whole configuration valid again.
  Pairs refused;
  // The presets last chosen (a link's custom numbers: the demo's): what an
  // edited number resets to.
  std::string base_model, base_hardware;
  bool operator==(const Workload& o) const { return demo == o.demo && config == o.config && refused == o.refused; }

  static Workload Default(int demo);
  // The value shown for `key`: the entered one, else the valid config's.
  std::string Value(std::string_view key) const;
  // The value `key` resets to: the base preset's number, else the demo's default.
  std::string PresetValue(std::string_view key) const;
};

// The pairs that reset `key` to its preset value; the preset itself when that
// makes every number of it the preset's again (so it is named, not custom).
Pairs ResetPairs(const Workload& w, std::string_view key);

// The page's colours: light (the default) or dark (a dark slide deck, a dark room).
enum class Theme { Light, Dark };

struct Settings {
  View view = View::Kernels;
  Lang lang = Lang::Zh;
  bool embed = false;
  Workload kernels_workload = Workload::Default(1);
  Workload layer_workload = Workload::Default(2);
  int partition = 2;  // demos 2 and 3: the partition whose kernels are charted
  int kernel = -1;    // demo 1: the selected kernel, -1 for none
  // For slides: every text and widget ×scale; the numbers shown as inputs
  // above an embedded view; the export buttons hidden.
  double scale = 1;
  std::vector<std::string> controls;
  bool hide_buttons = false;
  Theme theme = Theme::Light;
  bool operator==(const Settings&) const = default;
};

// The workload the view shows: demo 1's, or the layer's (demos 2 and 3, and
// our compiler's ablation beside the paper's published one).
Workload& ActiveWorkload(Settings& s);
const Workload& ActiveWorkload(const Settings& s);

// The analysis request for a demo under these settings (always valid).
AnalysisConfig MakeAnalysisConfig(const Settings& s, int demo);

// Applies configuration edits to a workload through the core (edit_config:
// a preset replaces the numbers it sets; a number edited by hand makes it
// custom). On success `config` is the new configuration; on ConfigError
// (rethrown) the edits join `refused`, so the input shows what was typed, and
// `config` keeps the last valid configuration.
void ApplyConfig(Workload& w, const Pairs& pairs, Lang lang);

// Applies key=value pairs (URL query, setState): the page's keys and, for the
// view's workload, the configuration keys. `view` (or `demo`) is applied
// first. All or nothing: throws ConfigError naming the first invalid key.
void ApplySettings(Settings& s, const Pairs& pairs);

// The page's scale for slides: scale=0.75 to 3.
inline constexpr double kMinScale = 0.75, kMaxScale = 3;

// True for the keys the page keeps (view, embed, partition, kernel, scale, controls, hide, theme).
bool IsPageKey(std::string_view key);

// The state as key=value pairs: every key needed to reproduce the view.
Pairs SettingsPairs(const Settings& s);

Pairs ParseQuery(std::string_view query);
std::string FormatQuery(const Pairs& pairs);

// A JSON object (getState/setState, analyze configs) as key=value pairs, and back.
Pairs JsonPairs(const nlohmann::json& obj);
nlohmann::json PairsJson(const Pairs& pairs);

}  // namespace fl::web

#include "page/state.h"

#include <chrono>
#include <exception>

#include "page/field_labels.h"
#include "page/page_text.h"

namespace fl::web {

namespace {

// Runs `compute`; on failure records the error (in the page's language) and
// leaves the previous results alone.
template <typename F>
void guarded(InputError& error, Lang lang, F&& compute) {
  try {
    compute();  // a valid edit clears the error (EditConfig)
  } catch (const ConfigError& e) {
    error = ErrorOf(e, lang);
  } catch (const std::exception& e) {
    error = {"", e.what()};
  }
}

// What a group of demos was computed for: its configuration and the language.
std::string computed_key(const Settings& s, const Workload& w) {
  return FormatQuery(settings_of(w.config)) + (s.lang == Lang::Zh ? "&zh" : "&en");
}

// Prefill (demo 2) or decode (demo 3) of the layer workload, if its
// configuration changed; true if it computed.
// The report `make` computes for `c`; a configuration the core refuses throws ConfigError.
template <class Make>
auto validated(const AnalysisConfig& c, Make make) {
  validate(c);
  return make(c);
}

bool update_phase(State& state, bool decode) {
  const Settings& s = state.settings;
  std::string& computed = decode ? state.computed_decode : state.computed_prefill;
  const std::string key = computed_key(s, s.layer_workload);
  if (computed == key) return false;
  computed = key;
  guarded(state.layer_error, s.lang, [&] {
    const AnalysisConfig c = MakeAnalysisConfig(s, decode ? 3 : 2);
    validate(c);
    // A new T or S (a drag), or another GPU, costs the graphs compiled before.
    const CompiledPhase& compiled = state.compiler.phase(c, decode);
    (decode ? state.results.decode : state.results.prefill) = decode ? decode_report(c, compiled) : prefill_report(c, compiled);
  });
  return true;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

InputError ErrorOf(const ConfigError& e, Lang lang) {
  std::string field = e.field;
  for (char& c : field)
    if (c == '-') c = '_';
  return {field, e.message(lang)};
}

void EnsurePhaseReports(State& state, bool decode) {
  const auto start = std::chrono::steady_clock::now();
  if (!update_phase(state, decode)) return;
  ++state.results_generation;
  state.recompute_ms = ms_since(start);
}

void Recompute(State& state) {
  const auto start = std::chrono::steady_clock::now();
  bool computed = false;
  const Settings& s = state.settings;
  Results& r = state.results;
  // Only what the view shows, and only if its configuration changed: a whole
  // model takes a while, and the other demos follow when their view opens.
  const int demo = ViewDemo(s.view);
  // Demo 1's stages only for the pass timeline, which shows them.
  const bool stages = s.view == View::Passes;
  if (demo == 1 && (state.computed_kernels != computed_key(s, s.kernels_workload) || (stages && !state.kernels_stages))) {
    state.computed_kernels = computed_key(s, s.kernels_workload);
    state.kernels_stages = stages;
    computed = true;
    guarded(state.kernels_error, s.lang, [&] {
      r.kernels = validated(MakeAnalysisConfig(s, 1), [&](const AnalysisConfig& c) { return kernels_report(c, stages); });
    });
  }
  // The roofline and the timeline ask for the phase they show (EnsurePhaseReports).
  if (s.view == View::Prefill || s.view == View::Decode || s.view == View::Source)
    computed |= update_phase(state, s.view == View::Decode);
  if (demo == 4 && state.computed_ablation != computed_key(s, s.layer_workload)) {
    state.computed_ablation = computed_key(s, s.layer_workload);
    computed = true;
    InputError ablation_error;
    guarded(ablation_error, s.lang, [&] { r.ablation = validated(MakeAnalysisConfig(s, 4), ablation_report); });
    state.ablation_error = ablation_error.message;
  }
  state.computed = s;
  state.has_results = true;
  ++state.results_generation;
  if (computed) state.recompute_ms = ms_since(start);
}

void InitState(State& state, std::string_view query, std::string_view browser_language) {
  Settings& s = state.settings;
  s.lang = browser_language.substr(0, 2) == "zh" ? Lang::Zh : Lang::En;
  Pairs pairs = ParseQuery(query);
  std::vector<std::string> ignored;
  // The language first, so that messages about the rest are in it.
  for (const auto& [k, v] : pairs)
    if (k == "lang" && (v == "zh" || v == "en")) s.lang = v == "zh" ? Lang::Zh : Lang::En;
  for (size_t round = 0, rounds = pairs.size() + 1; round < rounds; ++round) {
    try {
      ApplySettings(s, pairs);
      break;
    } catch (const ConfigError& e) {
      ignored.push_back(e.message(s.lang));
      std::string field = ErrorOf(e, s.lang).field;
      const size_t before = pairs.size();
      std::erase_if(pairs, [&](const Setting& p) { return p.first == field; });
      // A combination (H and G) may name a key the URL did not give: drop
      // the whole configuration, keep the page's keys.
      auto model_size = [](const Setting& p) {
        for (const char* k : {"model", "d", "heads", "kv_heads", "head_dim", "ffn"})
          if (p.first == k) return true;
        return false;
      };
      if (pairs.size() == before) std::erase_if(pairs, model_size);  // H given, G named
      if (pairs.size() == before)
        std::erase_if(pairs, [](const Setting& p) { return !IsPageKey(p.first) && p.first != "lang"; });
    }
  }
  Recompute(state);
  if (ignored.empty()) return;
  std::string list;
  for (const std::string& item : ignored) list += (list.empty() ? "" : "; ") + item;
  state.url_warning = tr(Ui::UrlIgnored, s.lang, {list});
}

bool NeedsRecompute(const Settings& a, const Settings& b) {
  return a.lang != b.lang || a.view != b.view || settings_of(a.kernels_workload.config) != settings_of(b.kernels_workload.config) ||
         settings_of(a.layer_workload.config) != settings_of(b.layer_workload.config);
}

const InputError& ActiveError(const State& state) {
  return ViewDemo(state.settings.view) == 1 ? state.kernels_error : state.layer_error;
}

void EditConfig(State& state, const Pairs& pairs) {
  const bool kernels = ViewDemo(state.settings.view) == 1;
  InputError& error = kernels ? state.kernels_error : state.layer_error;
  try {
    ApplyConfig(ActiveWorkload(state.settings), pairs, state.settings.lang);
    error = {};
  } catch (const ConfigError& e) {
    // The message goes under the field being edited, naming fields by their labels.
    const Lang lang = state.settings.lang;
    error = ErrorOf(e, lang);
    if (!pairs.empty()) error = {pairs.front().first, LabelledMessage(e.text, e.args, pairs.front().second, lang)};
  }
}

}  // namespace fl::web

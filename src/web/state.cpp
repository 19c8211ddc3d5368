#include "web/state.h"

#include <exception>

namespace fl::web {

namespace {

// Runs `compute`; on failure records the error (in the page's language) and
// leaves the previous results alone.
template <typename F>
void guarded(InputError& error, Lang lang, F&& compute) {
  try {
    compute();
    error = {};
  } catch (const ConfigError& e) {
    std::string field = e.field;
    for (char& c : field)
      if (c == '-') c = '_';
    error = {field, e.message(lang)};
  } catch (const std::exception& e) {
    error = {"", e.what()};
  }
}

}  // namespace

void Recompute(State& state) {
  const Settings& s = state.settings;
  Results& r = state.results;
  guarded(state.kernels_error, s.lang, [&] {
    r.kernels = ParseKernels(analyze(MakeAnalysisConfig(s, 1)));
  });
  guarded(state.layer_error, s.lang, [&] {
    PhaseResult prefill = ParsePhase(analyze(MakeAnalysisConfig(s, 2)));
    r.decode = ParsePhase(analyze(MakeAnalysisConfig(s, 3)));
    r.prefill = std::move(prefill);
  });
  InputError ablation_error;
  guarded(ablation_error, s.lang, [&] { r.ablation = ParseAblation(analyze(MakeAnalysisConfig(s, 4))); });
  state.ablation_error = ablation_error.message;
  state.computed = s;
  state.has_results = true;
}

void InitState(State& state, std::string_view query, std::string_view browser_language) {
  Settings& s = state.settings;
  s.lang = browser_language.substr(0, 2) == "zh" ? Lang::Zh : Lang::En;
  std::vector<std::string> ignored = ApplySettings(s, ParseQuery(query));
  Recompute(state);
  // Each round puts back the default of what the core refused (a model and
  // the hardware may both be wrong): at most three rounds.
  const Settings defaults;
  auto fall_back = [&](const InputError& error, Workload& w, const Workload& default_w) {
    if (error.message.empty()) return false;
    ignored.push_back(error.message);
    if (IsHardwareKey(error.field)) s.hw = defaults.hw;
    else w = default_w;
    return true;
  };
  for (int round = 0; round < 3; ++round) {
    bool kernels = fall_back(state.kernels_error, s.kernels_workload, defaults.kernels_workload);
    bool layer = fall_back(state.layer_error, s.layer_workload, defaults.layer_workload);
    if (!kernels && !layer) break;
    Recompute(state);
  }
  if (ignored.empty()) return;
  std::string list;
  for (const std::string& item : ignored) list += (list.empty() ? "" : "; ") + item;
  state.url_warning = tr(Text::UiUrlIgnored, s.lang, {list});
}

bool NeedsRecompute(const Settings& a, const Settings& b) {
  return a.kernels_workload != b.kernels_workload || a.layer_workload != b.layer_workload || a.hw != b.hw ||
         a.lang != b.lang;
}

const InputError& ActiveError(const State& state) {
  return state.settings.view == View::Kernels ? state.kernels_error : state.layer_error;
}

}  // namespace fl::web

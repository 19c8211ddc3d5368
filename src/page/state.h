// The page's state: the settings, the last valid results, and what went wrong.
#pragma once

#include <string>

#include "core/compiled.h"
#include "core/report.h"
#include "page/embed_fit.h"
#include "page/explain_state.h"
#include "page/settings.h"
#include "page/view_caches.h"

namespace fl::web {

// A configuration the core refused: shown beside the inputs while the last
// valid results stay on screen.
struct InputError {
  std::string field;    // the option key, e.g. "kv_heads"; empty if unknown
  std::string message;  // in the page's language
};

struct Results {
  KernelsReport kernels;    // demo 1
  PhaseReport prefill;      // demo 2
  PhaseReport decode;       // demo 3
  AblationReport ablation;  // demo 4
};

struct State {
  Settings settings;
  ExplainState explain;  // the explain views' stage, phase, toggles and camera
  Settings computed;  // the settings `results` were last computed for
  Results results;
  PhaseCompiler compiler;  // prefill's and decode's graphs, compiled for the last configuration
  bool has_results = false;
  int results_generation = 0;  // bumped by each Recompute (caches of drawn results)
  double recompute_ms = 0;     // the last Recompute that computed something
  // What each group of results was computed for (configuration and language).
  std::string computed_kernels, computed_prefill, computed_decode, computed_ablation;
  bool kernels_stages = false;  // whether demo 1's results hold its stages (the pass timeline's)
  InputError kernels_error, layer_error;  // demo 1's workload, demos 2 and 3's
  std::string ablation_error;
  std::string url_warning;                // URL values that were ignored
  std::string throw_next_frame;           // tests: the next frame throws this
  ViewCaches caches;                      // what the views keep between frames
  EmbedFit embed_fit;                     // an embed's scale, shrunk to fit its frame
  double layout_scale = 1;                // this frame's: settings.scale, or the embed's fit
};

// Settings from the URL query over the defaults (language: the query's, else
// the browser's), then the first results. A key the core refuses is dropped
// (its message goes into url_warning) and the rest applied, so the page
// always starts with results.
void InitState(State& state, std::string_view query, std::string_view browser_language);

// Whether the results depend on what changed between a and b.
bool NeedsRecompute(const Settings& a, const Settings& b);

// Recomputes, in this frame, the demos the view shows whose configuration
// changed (the others when their view opens). A workload the
// core refuses keeps its previous results and records the error.
void Recompute(State& state);

// Computes prefill's (or decode's) results if they are stale: the views
// that choose a phase (roofline, timeline) call it before drawing.
void EnsurePhaseReports(State& state, bool decode);

// The error for the workload the current view shows.
const InputError& ActiveError(const State& state);

// The sidebar's edits: key=value pairs for the view's workload, validated by
// the core. A refused value stays in the input, with its message in the
// workload's error; the last valid results stay on screen.
void EditConfig(State& state, const Pairs& pairs);

// A ConfigError as the page shows it, in `lang`.
InputError ErrorOf(const ConfigError& e, Lang lang);

}  // namespace fl::web

// The page's state: the settings, the last valid results, and what went wrong.
#pragma once

#include <string>

#include "web/results.h"
#include "web/settings.h"

namespace fl::web {

// A configuration the core refused: shown beside the inputs while the last
// valid results stay on screen.
struct InputError {
  std::string field;    // the option key, e.g. "kv_heads"; empty if unknown
  std::string message;  // in the page's language
};

struct Results {
  KernelsResult kernels;    // demo 1
  PhaseResult prefill;      // demo 2
  PhaseResult decode;       // demo 3
  AblationResult ablation;  // demo 4
};

struct State {
  Settings settings;
  Settings computed;  // the settings `results` were last computed for
  Results results;
  bool has_results = false;
  InputError kernels_error, layer_error;  // demo 1's workload, demos 2 and 3's
  std::string ablation_error;
  std::string url_warning;                // URL values that were ignored
};

// Settings from the URL query over the defaults (language: the query's, else
// the browser's), then the first results. Values the core refuses are
// reported in url_warning and replaced by the defaults, so the page always
// starts with results.
void InitState(State& state, std::string_view query, std::string_view browser_language);

// Whether the results depend on what changed between a and b.
bool NeedsRecompute(const Settings& a, const Settings& b);

// Recomputes every demo from state.settings, in this frame. A workload the
// core refuses keeps its previous results and records the error.
void Recompute(State& state);

// The error for the workload the current view shows.
const InputError& ActiveError(const State& state);

}  // namespace fl::web

#include "web/explain.h"

#include <emscripten.h>
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/sweep.h"
#include "web/keyboard_focus.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

using nlohmann::json;

State* g_state = nullptr;
std::map<std::string, std::vector<float>> g_widgets;
std::map<std::string, double> g_shown;
std::string g_active_input;
// The last frames' times, for their median.
struct TimeRing {
  std::vector<double> ms;
  size_t next = 0;
  void add(double t) {
    constexpr size_t kFrames = 120;
    if (ms.size() < kFrames) ms.push_back(t);
    else ms[next] = t;
    next = (next + 1) % kFrames;
  }
  double median() const {
    if (ms.empty()) return 0;
    std::vector<double> sorted = ms;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    return sorted[sorted.size() / 2];
  }
};
TimeRing g_frame_times, g_ui_times;
long g_frames_drawn = 0;  // idle frames are skipped: tests count the drawn ones

bool parse_flag(const std::string& v) { return v == "1" || v == "true" || v == "on"; }

int stage_index(const std::string& v) {
  for (int i = 0; i < kStageCount; ++i)
    if (v == kStageKeys[i]) return i;
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (end && *end == '\0' && n >= 0 && n < kStageCount) return static_cast<int>(n);
  return -1;
}

// Applies one explain key; false if the key is not an explain key.
bool apply_key(ExplainState& e, const std::string& key, const std::string& value) {
  if (key == "stage") {
    int i = stage_index(value);
    if (i >= 0) e.stage = i;
  } else if (key == "node") {
    e.node = std::atoi(value.c_str());
  } else if (key == "graphs") {
    e.graphs = parse_flag(value);
  } else if (key == "mega") {
    e.megakernel = parse_flag(value);
  } else if (key == "arrows") {
    e.arrows = parse_flag(value);
  } else if (key == "phase") {
    e.phase = value == "decode" ? 1 : value == "prefill" ? 0 : -1;
  } else if (key == "sweep") {
    e.sweep_key = -1;
    for (size_t i = 0; i < std::size(kSweepKeys); ++i)
      if (value == sweep_key_name(kSweepKeys[i])) e.sweep_key = static_cast<int>(i);
  } else if (key == "measure") {
    e.sweep_bytes = value == "bytes";
  } else {
    return false;
  }
  return true;
}

json explain_json() {
  const ExplainState& e = Explain();
  json widgets = json::object();
  for (const auto& [name, r] : g_widgets) widgets[name] = r;
  json shown = json::object();
  for (const auto& [name, v] : g_shown) shown[name] = v;
  json j = {{"stage", kStageKeys[e.stage]}, {"node", e.node},       {"graphs", e.graphs},
            {"mega", e.megakernel},         {"arrows", e.arrows},   {"zoom", e.zoom},
            {"widgets", widgets},           {"shown", shown}};
  j["frame_cpu_ms"] = g_frame_times.median();
  j["ui_ms"] = g_ui_times.median();
  j["frames_drawn"] = g_frames_drawn;
  if (g_state) j["recompute_ms"] = g_state->recompute_ms;
  j["phase"] = g_state && ExplainDecode(g_state->settings) ? "decode" : "prefill";
  if (g_state) {
    const InputError& error = ActiveError(*g_state);
    j["input_error"] = {{"field", error.field}, {"message", error.message}};
    j["active_input"] = g_active_input;
    j["focus"] = FocusedWidget();
    j["kernel"] = g_state->settings.kernel;
    j["view"] = std::string(ViewKey(g_state->settings.view));
  }
  return j;
}

std::string explain_state_json() { return json{{"result", explain_json()}}.dump(); }

// setExplain({stage: "cse", graphs: true, kernel: 3}): `kernel` is the page's
// one selection (Settings::kernel).
std::string set_explain_json(const std::string& text) {
  try {
    json j = json::parse(text);
    ExplainState& e = Explain();
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string v = it.value().is_string() ? it.value().get<std::string>()
                      : it.value().is_boolean() ? (it.value().get<bool>() ? "1" : "0")
                                                : it.value().dump();
      if (it.key() == "kernel" && g_state) g_state->settings.kernel = std::atoi(v.c_str());
      else if (!apply_key(e, it.key(), v)) return json{{"error", "setExplain: unknown key " + it.key()}}.dump();
    }
    return json{{"result", nullptr}}.dump();
  } catch (const std::exception& ex) {
    return json{{"error", ex.what()}}.dump();
  }
}

}  // namespace

ExplainState& Explain() {
  static ExplainState state;
  return state;
}

std::string TakeExplainKeys(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> rest;
  for (auto& [key, value] : ParseQuery(query))
    if (!apply_key(Explain(), key, value)) rest.emplace_back(key, value);
  return FormatQuery(rest);
}

std::vector<std::pair<std::string, std::string>> ExplainPairs(const Settings& s) {
  const ExplainState& e = Explain();
  std::vector<std::pair<std::string, std::string>> out;
  if (s.view == View::Passes) {
    out.emplace_back("stage", kStageKeys[e.stage]);
    if (e.node >= 0) out.emplace_back("node", std::to_string(e.node));
  }
  if (s.view == View::Roofline || s.view == View::Timeline || s.view == View::Sweep) {
    if (e.phase >= 0) out.emplace_back("phase", e.phase ? "decode" : "prefill");
  }
  if (s.view == View::Roofline && e.arrows) out.emplace_back("arrows", "1");
  if (s.view == View::Sweep) {
    if (e.sweep_key >= 0) out.emplace_back("sweep", sweep_key_name(kSweepKeys[static_cast<size_t>(e.sweep_key)]));
    if (e.sweep_bytes) out.emplace_back("measure", "bytes");
  }
  if (s.view == View::Timeline) {
    if (e.graphs) out.emplace_back("graphs", "1");
    if (e.megakernel) out.emplace_back("mega", "1");
  }
  return out;
}

bool ExplainDecode(const Settings& s) {
  const int phase = Explain().phase;
  if (phase >= 0) return phase == 1;
  return s.view == View::Timeline;  // the timeline opens on decode: where launch overhead matters
}

Phases ShownPhases(const Settings& s) {
  switch (s.view) {
    case View::Prefill: return Phases::Prefill;
    case View::Decode: return Phases::Decode;
    case View::Roofline:
    case View::Timeline:
    case View::Sweep: return ExplainDecode(s) ? Phases::Decode : Phases::Prefill;
    default: return Phases::Both;
  }
}

void RecordRect(const std::string& name, ImVec2 min, ImVec2 size) {
  // In CSS pixels: ImGui's units are CSS pixels divided by the page's scale.
  const float k = g_state ? static_cast<float>(g_state->settings.scale) : 1.0f;
  g_widgets[name] = {min.x * k, min.y * k, size.x * k, size.y * k};
}

void RecordWidget(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  RecordRect(name, a, ImVec2(b.x - a.x, b.y - a.y));
  NoteWidgetForFocus(name);
}

void ForgetWidget(const std::string& name) { g_widgets.erase(name); }

void RecordShown(const std::string& name, double value) { g_shown[name] = value; }

void RecordActiveInput(const std::string& key) { g_active_input = key; }

namespace {
ChartRenderer* g_renderer = nullptr;
}  // namespace

ChartRenderer& ExplainRenderer() {
  if (!g_renderer) {
    g_renderer = new ChartRenderer;
    g_renderer->Init();
  }
  return *g_renderer;
}

// After a lost WebGL context: its GL names are gone; leak the old renderer
// (its destructor would delete names of the lost context) and start afresh.
void ResetExplainRenderer() { g_renderer = nullptr; }

void RecordFrameTime(double ms) {
  g_frame_times.add(ms);
  ++g_frames_drawn;
}
void RecordUiTime(double ms) { g_ui_times.add(ms); }

const std::vector<float>* RecordedWidget(const std::string& name) {
  const auto it = g_widgets.find(name);
  return it == g_widgets.end() ? nullptr : &it->second;
}

void BindExplain(State& state) { g_state = &state; }

EMSCRIPTEN_BINDINGS(fusionlab_explain) {
  emscripten::function("explainStateJson", &explain_state_json);
  emscripten::function("setExplainJson", &set_explain_json);
}

}  // namespace fl::web

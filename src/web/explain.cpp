#include "web/explain.h"

#include <emscripten.h>
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/sweep.h"
#include "web/bindings.h"
#include "web/keyboard_focus.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

using nlohmann::json;

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

json explain_json() {
  const State* state = BoundState();
  static const ExplainState kNone;
  const ExplainState& e = state ? state->explain : kNone;
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
  if (state) j["recompute_ms"] = state->recompute_ms;
  j["phase"] = state && ExplainDecode(state->settings, e) ? "decode" : "prefill";
  if (state) {
    const InputError& error = ActiveError(*state);
    j["input_error"] = {{"field", error.field}, {"message", error.message}};
    j["active_input"] = g_active_input;
    j["focus"] = FocusedWidget();
    j["kernel"] = state->settings.kernel;
    j["view"] = std::string(ViewKey(state->settings.view));
  }
  return j;
}

std::string explain_state_json() { return json{{"result", explain_json()}}.dump(); }

// setExplain({stage: "cse", graphs: true, kernel: 3}): `kernel` is the page's
// one selection (Settings::kernel).
std::string set_explain_json(const std::string& text) {
  State* state = BoundState();
  try {
    json j = json::parse(text);
    if (!state) return json{{"error", "fusionlab: not ready yet (await fusionlab.ready)"}}.dump();
    ExplainState& e = state->explain;
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string v = it.value().is_string() ? it.value().get<std::string>()
                      : it.value().is_boolean() ? (it.value().get<bool>() ? "1" : "0")
                                                : it.value().dump();
      if (it.key() == "kernel") state->settings.kernel = std::atoi(v.c_str());
      else if (!ApplyExplainKey(e, it.key(), v)) return json{{"error", "setExplain: unknown key " + it.key()}}.dump();
    }
    return json{{"result", nullptr}}.dump();
  } catch (const std::exception& ex) {
    return json{{"error", ex.what()}}.dump();
  }
}

}  // namespace

void RecordRect(const std::string& name, ImVec2 min, ImVec2 size) {
  // In CSS pixels: ImGui's units are CSS pixels divided by the page's scale.
  const State* state = BoundState();
  const float k = state ? static_cast<float>(state->layout_scale) : 1.0f;
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

void RecordFrameTime(double ms) {
  g_frame_times.add(ms);
  ++g_frames_drawn;
}
void RecordUiTime(double ms) { g_ui_times.add(ms); }

const std::vector<float>* RecordedWidget(const std::string& name) {
  const auto it = g_widgets.find(name);
  return it == g_widgets.end() ? nullptr : &it->second;
}

EMSCRIPTEN_BINDINGS(fusionlab_explain) {
  emscripten::function("explainStateJson", &explain_state_json);
  emscripten::function("setExplainJson", &set_explain_json);
}

}  // namespace fl::web

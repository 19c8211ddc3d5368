#include "web/explain.h"

#include <emscripten.h>
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/sweep.h"
#include "web/page_context.h"
#include "web/keyboard_focus.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

using nlohmann::json;

FrameRecord& record() { return Page().record; }

json explain_json() {
  PageContext* page = BoundPage();
  const State* state = page ? &page->state : nullptr;
  const ExplainState kNone;
  const ExplainState& e = state ? state->explain : kNone;
  json widgets = json::object();
  json shown = json::object();
  if (page) {
    for (const auto& [name, r] : page->record.widgets) widgets[name] = r;
    for (const auto& [name, v] : page->record.shown) shown[name] = v;
  }
  json j = {{"stage", kStageKeys[e.stage]}, {"node", e.node},       {"graphs", e.graphs},
            {"mega", e.megakernel},         {"arrows", e.arrows},   {"zoom", e.zoom},
            {"widgets", widgets},           {"shown", shown}};
  if (page) {
    j["frame_cpu_ms"] = page->record.frame_times.Median();
    j["ui_ms"] = page->record.ui_times.Median();
    j["frames_drawn"] = page->record.frames_drawn;
    j["recompute_ms"] = state->recompute_ms;
  }
  j["phase"] = state && ExplainDecode(state->settings, e) ? "decode" : "prefill";
  if (state) {
    const InputError& error = ActiveError(*state);
    j["input_error"] = {{"field", error.field}, {"message", error.message}};
    j["active_input"] = page->record.active_input;
    j["focus"] = page->record.focused_widget;
    j["kernel"] = state->settings.kernel;
    j["view"] = std::string(ViewKey(state->settings.view));
  }
  return j;
}

std::string explain_state_json() { return json{{"result", explain_json()}}.dump(); }

// setExplain({stage: "cse", graphs: true, kernel: 3}): `kernel` is the page's
// one selection (Settings::kernel).
std::string set_explain_json(const std::string& text) {
  State* state = BoundPage() ? &BoundPage()->state : nullptr;
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
  const float k = static_cast<float>(Page().state.layout_scale);
  record().widgets[name] = {min.x * k, min.y * k, size.x * k, size.y * k};
}

void RecordWidget(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  RecordRect(name, a, ImVec2(b.x - a.x, b.y - a.y));
  NoteWidgetForFocus(name);
}

void ForgetWidget(const std::string& name) { record().widgets.erase(name); }

void RecordShown(const std::string& name, double value) { record().shown[name] = value; }

void RecordActiveInput(const std::string& key) { record().active_input = key; }

void RecordFrameTime(double ms) {
  record().frame_times.Add(ms);
  ++record().frames_drawn;
}
void RecordUiTime(double ms) { record().ui_times.Add(ms); }

const std::vector<float>* RecordedWidget(const std::string& name) {
  const auto& widgets = record().widgets;
  const auto it = widgets.find(name);
  return it == widgets.end() ? nullptr : &it->second;
}

EMSCRIPTEN_BINDINGS(fusionlab_explain) {
  emscripten::function("explainStateJson", &explain_state_json);
  emscripten::function("setExplainJson", &set_explain_json);
}

}  // namespace fl::web

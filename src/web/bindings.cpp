// The JS API's C++ half, exported with embind. Every call takes and returns
// JSON text; web/fusionlab.js parses it and turns {"error": ...} into a thrown
// JS Error, so no C++ exception ever crosses into JavaScript.
#include "web/bindings.h"

#include <emscripten/bind.h>

#include <exception>

namespace fl::web {

namespace {

State* g_state = nullptr;

using nlohmann::json;

std::string error_reply(const std::string& message) { return json{{"error", message}}.dump(); }

// analyze(config) -> the object fl::analyze returns for config.demo.
std::string analyze_json(const std::string& config_text) {
  try {
    json config = json::parse(config_text);
    return json{{"result", analyze(AnalysisConfigFromJson(config))}}.dump();
  } catch (const std::exception& e) {  // ConfigError included: its what() names the field
    return error_reply(e.what());
  }
}

std::string get_state_json() { return json{{"result", PairsJson(SettingsPairs(g_state->settings))}}.dump(); }

// setState(state): all keys or none; the page recomputes on its next frame.
std::string set_state_json(const std::string& state_text) {
  try {
    Settings next = g_state->settings;
    std::vector<std::string> rejected = ApplySettings(next, JsonPairs(json::parse(state_text)));
    if (!rejected.empty()) {
      std::string list;
      for (const std::string& item : rejected) list += (list.empty() ? "" : ", ") + item;
      return error_reply("setState: invalid " + list);
    }
    g_state->settings = next;
    return json{{"result", nullptr}}.dump();
  } catch (const std::exception& e) {
    return error_reply(e.what());
  }
}

}  // namespace

void BindApi(State& state) { g_state = &state; }

EMSCRIPTEN_BINDINGS(fusionlab) {
  emscripten::function("analyzeJson", &analyze_json);
  emscripten::function("getStateJson", &get_state_json);
  emscripten::function("setStateJson", &set_state_json);
}

}  // namespace fl::web

// The JS API's C++ half: exported C functions (no embind, whose glue compiles
// code with `new Function`, which the page's Content-Security-Policy forbids).
// Every call takes and returns JSON text through Module.apiArgument and
// Module.apiReply; web/fusionlab.js parses the reply and turns
// {"error": ..., "field": ...} into a thrown JS Error, so no C++ exception
// ever crosses into JavaScript.
#include "web/bindings.h"

#include <emscripten.h>

#include <cstdlib>
#include <exception>

namespace fl::web {

namespace {

State* g_state = nullptr;

using nlohmann::json;

EM_JS(char*, js_take_api_argument, (), {
  const text = typeof Module.apiArgument === "string" ? Module.apiArgument : "";
  Module.apiArgument = null;
  return allocateUTF8(text);
});

EM_JS(void, js_put_api_reply, (const char* reply), { Module.apiReply = UTF8ToString(reply); });

std::string error_reply(const std::string& message, const std::string& field = "") {
  json reply{{"error", message}};
  if (!field.empty()) reply["field"] = field;
  return reply.dump();
}

json parse_object(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw std::invalid_argument("expected a JSON object");
  return j;
}

// analyze(config) -> the object fl::analyze returns for config.demo (2 if none).
std::string analyze_json(const std::string& config_text) {
  try {
    return json{{"result", analyze(config_from_settings(JsonPairs(parse_object(config_text)), 2))}}.dump();
  } catch (const ConfigError& e) {
    return error_reply(e.what(), ErrorOf(e, Lang::En).field);
  } catch (const std::exception& e) {
    return error_reply(std::string("analyze(config): ") + e.what());
  }
}

std::string get_state_json() { return json{{"result", PairsJson(SettingsPairs(g_state->settings))}}.dump(); }

// setState(state): all keys or none; the page recomputes on its next frame.
std::string set_state_json(const std::string& state_text) {
  try {
    ApplySettings(g_state->settings, JsonPairs(parse_object(state_text)));
    (ViewDemo(g_state->settings.view) == 1 ? g_state->kernels_error : g_state->layer_error) = {};
    return json{{"result", nullptr}}.dump();
  } catch (const ConfigError& e) {
    return error_reply("setState: " + std::string(e.what()), ErrorOf(e, Lang::En).field);
  } catch (const std::exception& e) {
    return error_reply(std::string("setState: ") + e.what());
  }
}

// For the tests: the next frame throws, as a bug in a panel would.
std::string throw_next_frame(const std::string& text) {
  json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  g_state->throw_next_frame = message.is_string() && !message.get<std::string>().empty() ? message.get<std::string>()
                                                                                        : "test exception";
  return json{{"result", nullptr}}.dump();
}

// What the page shows as messages: the URL's ignored values, the refused input.
std::string messages_json() {
  const InputError& error = ActiveError(*g_state);
  return json{{"result", {{"url_warning", g_state->url_warning}, {"error", error.message}, {"field", error.field}}}}.dump();
}

}  // namespace

void BindApi(State& state) { g_state = &state; }

}  // namespace fl::web

// 0 analyze, 1 getState, 2 setState, 3 throwNextFrame, 4 messages.
extern "C" EMSCRIPTEN_KEEPALIVE void fusionlab_api(int call) {
  using namespace fl::web;
  char* raw = js_take_api_argument();
  const std::string argument = raw ? raw : "";
  std::free(raw);
  std::string reply;
  if (!g_state) reply = error_reply("fusionlab: not ready yet (await fusionlab.ready)");
  else if (call == 0) reply = analyze_json(argument);
  else if (call == 1) reply = get_state_json();
  else if (call == 2) reply = set_state_json(argument);
  else if (call == 3) reply = throw_next_frame(argument);
  else if (call == 4) reply = messages_json();
  else reply = error_reply("fusionlab: unknown call");
  js_put_api_reply(reply.c_str());
}

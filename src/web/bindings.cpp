// The JS API's C++ half: embind functions (built with -sDYNAMIC_EXECUTION=0,
// so the glue needs no `new Function`, which the page's Content-Security-Policy
// forbids). Every call takes and returns JSON text; web/fusionlab.js parses
// the reply and turns {"error": ..., "field": ...} into a thrown JS Error, so
// no C++ exception ever crosses into JavaScript.
#include <emscripten/bind.h>

#include <algorithm>
#include <exception>

#include "core/report_json.h"
#include "core/sweep.h"
#include "web/page_context.h"

namespace fl::web {

namespace {

using nlohmann::json;

State& state() { return Page().state; }

std::string error_reply(const std::string& message, const std::string& field = "") {
  json reply{{"error", message}};
  if (!field.empty()) reply["field"] = field;
  return reply.dump();
}

// {"result": <text>}, for a result already written as JSON text.
std::string result_reply(const std::string& text) { return "{\"result\":" + text + "}"; }

json parse_object(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw std::invalid_argument("expected a JSON object");
  return j;
}

// analyze(config) -> the object fl::analyze returns for config.demo (2 if none); the
// graphs of the last model analysed are kept for the next call.
std::string analyze_json(const std::string& config_text) {
  try {
    return result_reply(analyze(config_from_settings(JsonPairs(parse_object(config_text)), 2), Page().api_compiler));
  } catch (const ConfigError& e) {
    return error_reply(e.what(), ErrorOf(e, Lang::En).field);
  } catch (const std::exception& e) {
    return error_reply(std::string("analyze(config): ") + e.what());
  }
}

// sweep({demo: 2, sweep: "tokens", points: 64, from: 1, to: 131072, ...config}):
// what `fusionlab --demo 2 --sweep tokens --json ...` prints. points, from and
// to are optional (64 points from 1 to the key's maximum).
std::string sweep_json_call(const std::string& text) {
  json j = parse_object(text);
  SweepRequest request;
  const json key = j.value("sweep", json("tokens"));
  const std::optional<SweepKey> named = key.is_string() ? sweep_key_named(key.get<std::string>()) : std::nullopt;
  if (!named) return error_reply("sweep(config): sweep must be \"tokens\", \"kv_len\" or \"batch\" (got " + key.dump() + ")", "sweep");
  request.key = *named;
  for (const char* field : {"points", "from", "to"}) {
    if (!j.contains(field)) continue;
    const json& v = j[field];
    if (!v.is_number_integer()) return error_reply(std::string("sweep(config): ") + field + " must be an integer (got " + v.dump() + ")", field);
    const int64_t n = v.get<int64_t>();
    if (field[0] == 'p') request.points = static_cast<int>(std::clamp<int64_t>(n, -1, kMaxSweepPoints + 1));
    else (field[0] == 'f' ? request.from : request.to) = n;
  }
  for (const char* field : {"sweep", "points", "from", "to"}) j.erase(field);
  try {
    return result_reply(json_text(sweep(config_from_settings(JsonPairs(j), 2), request)));
  } catch (const ConfigError& e) {
    return error_reply(e.what(), ErrorOf(e, Lang::En).field);
  }
}

std::string get_state_json() { return json{{"result", PairsJson(SettingsPairs(state().settings))}}.dump(); }

// setState(state): all keys or none; the page recomputes on its next frame.
std::string set_state_json(const std::string& state_text) {
  try {
    ApplySettings(state().settings, JsonPairs(parse_object(state_text)));
    (ViewDemo(state().settings.view) == 1 ? state().kernels_error : state().layer_error) = {};
    return json{{"result", nullptr}}.dump();
  } catch (const ConfigError& e) {
    return error_reply("setState: " + std::string(e.what()), ErrorOf(e, Lang::En).field);
  } catch (const std::exception& e) {
    return error_reply(std::string("setState: ") + e.what());
  }
}

// typeNumber({key, text}): what a finger typed into the page's text box over
// a sidebar number (web/fusionlab.js), applied as if typed into the field:
// refused, it is the field's message. Answers {error: ""} or the message.
std::string type_number_json(const std::string& text) {
  const json typed = parse_object(text);
  const std::string key = typed.value("key", ""), value = typed.value("text", "");
  if (!find_number_range(key)) return error_reply("typeNumber: not a number's key: " + key);
  EditConfig(state(), {{key, value}});
  const InputError& error = ActiveError(state());
  return json{{"result", {{"error", error.field == key ? error.message : ""}}}}.dump();
}

// For the tests: the next frame throws, as a bug in a panel would.
std::string throw_next_frame(const std::string& text) {
  json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  state().throw_next_frame = message.is_string() && !message.get<std::string>().empty() ? message.get<std::string>()
                                                                                        : "test exception";
  return json{{"result", nullptr}}.dump();
}

// What the page shows as messages: the URL's ignored values, the refused input.
std::string messages_json() {
  const InputError& error = ActiveError(state());
  return json{{"result", {{"url_warning", state().url_warning}, {"error", error.message}, {"field", error.field}}}}.dump();
}

// Every call: an error reply before the first frame or on any exception.
template <std::string (*Call)(const std::string&)>
std::string guarded_call(const std::string& argument) {
  if (!BoundPage()) return error_reply("fusionlab: not ready yet (await fusionlab.ready)");
  try {
    return Call(argument);
  } catch (const std::exception& e) {
    return error_reply(std::string("fusionlab: ") + e.what());
  }
}

std::string get_state(const std::string&) { return get_state_json(); }
std::string messages(const std::string&) { return messages_json(); }

}  // namespace

EMSCRIPTEN_BINDINGS(fusionlab_api) {
  emscripten::function("apiAnalyze", &guarded_call<analyze_json>);
  emscripten::function("apiSweep", &guarded_call<sweep_json_call>);
  emscripten::function("apiGetState", &guarded_call<get_state>);
  emscripten::function("apiSetState", &guarded_call<set_state_json>);
  emscripten::function("apiThrowNextFrame", &guarded_call<throw_next_frame>);
  emscripten::function("apiMessages", &guarded_call<messages>);
  emscripten::function("apiTypeNumber", &guarded_call<type_number_json>);
}

}  // namespace fl::web

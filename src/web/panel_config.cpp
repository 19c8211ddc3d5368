// [SECTION] Sidebar: language, the configuration of the current view (model
// preset, sizes, layers, batch, dtypes), the GPU preset and its numbers.
//
// Every input produces key=value pairs (the CLI's option names) that go
// through the core's config_from_settings (EditConfig): a refused value stays
// in its input, red, with the core's message under it, and the last valid
// results stay on screen.
#include <cstdio>
#include <span>
#include <string>

#include "core/presets.h"
#include "web/explain.h"
#include "web/field_labels.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr const char* kActDtypes[] = {"bf16", "fp16", "fp32"};  // fp8: weights only
constexpr const char* kWeightDtypes[] = {"bf16", "fp16", "fp8", "fp32"};

void tooltip(const std::string& text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 22);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// A label on the left, the input filling the rest of the row; the frame turns
// red while the core refuses this field, and its message follows the row.
template <typename F>
void labelled(const char* label, const char* key, const InputError& error, F&& input) {
  const bool refused = error.field == key;
  const float label_w = ImGui::GetContentRegionAvail().x * 0.56f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
  if (refused) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(1.0f, 0.80f, 0.80f, 1.0f));
  input();
  if (refused) ImGui::PopStyleColor();
  if (refused) TextError(error.message);
}

// Whether the view shows decode (S matters, T does not), prefill (the
// reverse), or both (the ablation, demo 1's small layer).
enum class Phases { Prefill, Decode, Both };
Phases shown_phases(const Settings& s) {
  switch (s.view) {
    case View::Prefill: return Phases::Prefill;
    case View::Decode: return Phases::Decode;
    case View::Roofline:
    case View::Timeline: return ExplainDecode(s) ? Phases::Decode : Phases::Prefill;
    default: return Phases::Both;
  }
}

// A number as text, applied when it is complete: on Enter, when the field
// loses focus, or after a short pause in typing, so that "16" typed into H is
// never applied as "1". While the field is active ImGui keeps the text; what
// the user typed is sent as it is, and the core parses it.
// A number the view does not use (T in decode, S in prefill) is disabled, with a note saying why.
void number_input(State& state, const Workload& w, const char* key, const InputError& error) {
  const Phases phases = shown_phases(state.settings);
  const Lang lang = state.settings.lang;
  const char* unused = std::string_view(key) == "tokens" && phases == Phases::Decode   ? Tx(Text::UiUnusedInDecode, lang)
                       : std::string_view(key) == "kv_len" && phases == Phases::Prefill ? Tx(Text::UiUnusedInPrefill, lang)
                                                                                        : nullptr;
  constexpr double kPauseS = 1.0;
  struct Draft {
    std::string key, text;
    double edited_at = 0;
  };
  static Draft draft;  // the one field being typed into
  ImGui::BeginDisabled(unused != nullptr);
  labelled(FieldLabel(key, state.settings.lang), key, error, [&] {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s", w.Value(key).c_str());
    // While active, ImGui reports its text as changed on every frame that our
    // buffer (the applied value) differs from it: a keystroke is a new text.
    if (ImGui::InputText((std::string("##") + key).c_str(), buf, sizeof buf,
                         ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_AutoSelectAll) &&
        (draft.key != key || draft.text != buf))
      draft = {key, buf, ImGui::GetTime()};
    RecordWidget(std::string("input.") + key);
    if (ImGui::IsItemActive()) RecordActiveInput(key);
    if (draft.key != key) return;
    const bool done = ImGui::IsItemDeactivated();
    const bool paused = ImGui::IsItemActive() && ImGui::GetTime() - draft.edited_at >= kPauseS;
    if (!done && !paused) return;
    if (draft.text != w.Value(key)) EditConfig(state, {{key, draft.text}});
    if (done) draft = {};
    else draft.edited_at = 1e300;  // applied: wait for the next keystroke
  });
  ImGui::EndDisabled();
  if (unused) TextMuted(unused);
}

void dtype_input(State& state, const Workload& w, const char* key, const InputError& error) {
  labelled(FieldLabel(key, state.settings.lang), key, error, [&] {
    const std::string current = w.Value(key);
    if (!ImGui::BeginCombo((std::string("##") + key).c_str(), current.c_str())) return;
    const bool act = std::string(key) == "dtype";
    for (const char* d : act ? std::span<const char* const>(kActDtypes) : std::span<const char* const>(kWeightDtypes)) {
      if (!ImGui::Selectable(d, current == d)) continue;
      // "dtype" alone sets both (as --dtype does): keep the weights' choice.
      if (std::string(key) == "dtype") EditConfig(state, {{"dtype", d}, {"weights_dtype", w.Value("weights_dtype")}});
      else EditConfig(state, {{key, d}});
    }
    ImGui::EndCombo();
  });
}

std::string model_label(const ModelPreset& m, Lang lang) {
  return m.key == "small" ? std::string(Tx(Text::UiPresetSmall, lang)) : std::string(m.name);
}

void draw_model_inputs(State& state, const Workload& w, const InputError& error, Lang lang) {
  const AnalysisConfig& c = w.config;
  const ModelPreset* current = find_model(c.model_key);
  const std::string shown = current ? model_label(*current, lang) : Tx(Text::UiPresetCustom, lang);
  labelled(FieldLabel("model", lang), "model", error, [&] {
    if (ImGui::BeginCombo("##model", shown.c_str())) {
      for (const ModelPreset& m : model_presets()) {
        if (ImGui::Selectable(model_label(m, lang).c_str(), current == &m)) EditConfig(state, {{"model", std::string(m.key)}});
        tooltip(tr(Text::UiSourceTip, lang, {std::string(m.source)}));
      }
      ImGui::Selectable(Tx(Text::UiPresetCustom, lang), !current);
      ImGui::EndCombo();
    }
    if (current) tooltip(tr(Text::UiSourceTip, lang, {std::string(current->source)}));
  });
  labelled(FieldLabel("layers", lang), "layers", error, [&] {
    const std::string whole = tr(Text::UiWholeModel, lang, {std::to_string(c.layers)});
    if (ImGui::BeginCombo("##layers", c.whole_model ? whole.c_str() : Tx(Text::UiOneLayer, lang))) {
      if (ImGui::Selectable(Tx(Text::UiOneLayer, lang), !c.whole_model)) EditConfig(state, {{"layers", "one"}});
      if (ImGui::Selectable(whole.c_str(), c.whole_model)) EditConfig(state, {{"layers", "all"}});
      ImGui::EndCombo();
    }
  });
  number_input(state, w, "d", error);
  number_input(state, w, "heads", error);
  number_input(state, w, "kv_heads", error);
  number_input(state, w, "head_dim", error);
  number_input(state, w, "ffn", error);
  number_input(state, w, "tokens", error);
  if (ViewDemo(state.settings.view) != 1) number_input(state, w, "kv_len", error);
  number_input(state, w, "batch", error);
  dtype_input(state, w, "dtype", error);
  dtype_input(state, w, "weights_dtype", error);
}

void draw_hardware_inputs(State& state, const Workload& w, const InputError& error, Lang lang) {
  const HardwarePreset* current = find_hardware(w.config.hardware_key);
  labelled(FieldLabel("hardware", lang), "hardware", error, [&] {
    if (ImGui::BeginCombo("##hardware", current ? std::string(current->name).c_str() : Tx(Text::UiPresetCustom, lang))) {
      for (const HardwarePreset& h : hardware_presets()) {
        if (ImGui::Selectable(std::string(h.name).c_str(), current == &h)) EditConfig(state, {{"hardware", std::string(h.key)}});
        tooltip(tr(Text::UiSourceTip, lang, {std::string(h.source)}));
      }
      ImGui::Selectable(Tx(Text::UiPresetCustom, lang), !current);
      ImGui::EndCombo();
    }
    if (current) tooltip(tr(Text::UiSourceTip, lang, {std::string(current->source)}));
  });
  if (current) TextMuted(Tx(Text::UiPresetNumbers, lang));
  number_input(state, w, "matmul_tflops", error);
  number_input(state, w, "other_tflops", error);
  number_input(state, w, "bandwidth_tbs", error);
  number_input(state, w, "memory_gb", error);
  number_input(state, w, "launch_us", error);
  number_input(state, w, "graph_launch_us", error);
}

}  // namespace

void DrawNumberInput(State& state, const char* key) {
  const InputError error = ActiveError(state);  // a copy: the input may change it
  number_input(state, ActiveWorkload(state.settings), key, error);
}

void DrawConfigPanel(State& state) {
  Settings& s = state.settings;
  const Lang lang = s.lang;
  ImGui::TextWrapped("%s", Tx(Text::UiTitle, lang));
  TextMuted(Tx(Text::UiSubtitle, lang));
  if (ImGui::Button(Tx(Text::UiLanguage, lang))) s.lang = lang == Lang::Zh ? Lang::En : Lang::Zh;
  if (!state.url_warning.empty()) TextError(state.url_warning);

  RecordActiveInput("");
  const Workload& w = ActiveWorkload(s);
  const InputError error = ActiveError(state);  // a copy: inputs may change it
  SectionHeading(Tx(Text::UiModelFor, lang));
  draw_model_inputs(state, w, error, lang);
  SectionHeading(Tx(Text::UiHardware, lang));
  draw_hardware_inputs(state, w, error, lang);
  if (!error.message.empty()) {
    ImGui::Spacing();
    if (!FieldLabel(error.field, lang)) TextError(error.message);  // a field the sidebar does not show
    TextMuted(Tx(Text::UiKeptLastResults, lang));
  }
}

}  // namespace fl::web

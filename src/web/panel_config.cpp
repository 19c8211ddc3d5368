// [SECTION] Sidebar: language, the configuration of the current view (model
// preset, sizes, layers, batch, dtypes), the GPU preset and its numbers.
//
// Every input produces key=value pairs (the CLI's option names) that go
// through the core's config_from_settings (EditConfig): a refused value stays
// in its input, red, with the core's message under it, and the last valid
// results stay on screen.
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "core/config_keys.h"
#include "core/enum_names.h"
#include "core/presets.h"
#include "web/caption.h"
#include "web/explain.h"
#include "page/field_labels.h"
#include "page/number_drag.h"
#include "web/number_field.h"
#include "web/panels.h"
#include "web/platform.h"
#include "web/theme.h"
#include "web/touch_scroll.h"
#include "web/widgets.h"

namespace fl::web {

namespace {


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
void labelled(const char* key, Lang lang, const InputError& error, F&& input) {
  const char* label = FieldLabel(key, lang);
  const bool refused = error.field == key;
  const float label_w = std::floor(ImGui::GetContentRegionAvail().x * 0.56f);  // whole pixels: crisp outlines
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (const char* help = FieldHelp(key, lang)) tooltip(help);
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
  if (refused) ImGui::PushStyleColor(ImGuiCol_FrameBg, Colors().refused_field);
  input();
  if (refused) ImGui::PopStyleColor();
  if (refused) TextError(error.message);
}

// The value of `key` nearest to `wanted` that the core accepts (heads a
// multiple of KV heads, an even head dim, ...), found by trying integers
// outward from it; reals have only their range. When none near is accepted
// (another field is wrong), `wanted` itself, and the core says why.
double nearest_accepted(const Workload& w, const char* key, const NumberRange& range, double wanted, int direction) {
  if (!range.integer) return wanted;
  auto accepted = [&](double v) {
    if (v < range.lo || v > range.hi) return false;
    Workload probe = w;
    try {
      ApplyConfig(probe, {{key, NumberText(range, v)}}, w.config.lang);
      return true;
    } catch (const ConfigError&) {
      return false;
    }
  };
  constexpr int kSearch = 64;
  for (int distance = 0; distance <= kSearch; ++distance)
    for (int side : {direction, -direction})
      if (accepted(wanted + side * distance)) return wanted + side * distance;
  return wanted;
}

// The page's text box over the field just drawn, for a finger's soft keyboard.
void offer_soft_input(const char* key, const std::string& value, double scale, bool open_now) {
  const std::vector<float>& r = *RecordedWidget(std::string("input.") + key);  // CSS pixels
  const SoftInputField field{key, value, r[0], r[1], r[2], r[3], ImGui::GetFontSize() * static_cast<float>(scale),
                             kTouchSlopPx};
  if (open_now) OpenSoftInput(field);
  else ArmSoftInput(field);
}

// A number: dragged, stepped or typed (NumberField), with a button that
// resets it to its preset value. A number the view does not use (T in
// decode, S in prefill) is disabled, with a note saying why.
void number_input(State& state, const Workload& w, const char* key, const InputError& error) {
  const Phases phases = ShownPhases(state.settings, state.explain);
  const Lang lang = state.settings.lang;
  const char* unused = std::string_view(key) == "tokens" && phases == Phases::Decode   ? Tx(Ui::UnusedInDecode, lang)
                       : std::string_view(key) == "kv_len" && phases == Phases::Prefill ? Tx(Ui::UnusedInPrefill, lang)
                                                                                        : nullptr;
  const NumberRange& range = *find_number_range(key);
  ImGui::BeginDisabled(unused != nullptr);
  labelled(key, lang, error, [&] {
    const std::string value = w.Value(key), preset = w.PresetValue(key);
    const float reset_w = ImGui::GetFrameHeight();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - reset_w - ImGui::GetStyle().ItemInnerSpacing.x);
    const auto edit = NumberField(key, range, value, [&](double wanted, int direction) {
      return nearest_accepted(w, key, range, wanted, direction);
    });
    RecordWidget(std::string("input.") + key);
    if (ImGui::IsItemActive()) RecordActiveInput(key);
    if (const FingerOnField finger = LastFingerOnField(); finger != FingerOnField::None)
      offer_soft_input(key, value, state.layout_scale, finger == FingerOnField::Tapped);
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    if (value != preset) {
      const bool reset = ResetButton((std::string("reset##") + key).c_str());
      RecordWidget(std::string("reset.") + key);
      tooltip(tr(Ui::ResetTip, lang, {preset}));
      if (reset) EditConfig(state, ResetPairs(w, key));
    } else {
      ImGui::Dummy(ImVec2(reset_w, ImGui::GetFrameHeight()));
      ForgetWidget(std::string("reset.") + key);
    }
    if (edit) EditConfig(state, {{key, *edit}});
  });
  ImGui::EndDisabled();
  if (unused) TextMuted(unused);
}

// A choice among an enum's keys (dtypes, attention form, compiler): a combo the wheel steps.
void choice_input(State& state, const Workload& w, const char* key, const std::vector<std::string>& keys, const InputError& error) {
  labelled(key, state.settings.lang, error, [&] {
    const std::string current = w.Value(key);
    // A key that also sets another (dtype, the weights' too) keeps that one, shown in its own field.
    auto choose = [&](const std::string& value) {
      Pairs edit{{key, value}};
      if (std::string_view also = implied_key(key); !also.empty()) edit.emplace_back(also, w.Value(also));
      EditConfig(state, edit);
    };
    const int count = static_cast<int>(keys.size());
    if (!ImGui::BeginCombo((std::string("##") + key).c_str(), current.c_str())) {
      const int at = static_cast<int>(std::find(keys.begin(), keys.end(), current) - keys.begin());
      const int i = at < count ? at : -1;
      if (const int next = Stepped(i, ComboWheelStep(), count); next != i) choose(keys[static_cast<size_t>(next)]);
      RecordWidget(std::string("combo.") + key);
      return;
    }
    for (const std::string& k : keys)
      if (ImGui::Selectable(k.c_str(), current == k)) choose(k);
    ImGui::EndCombo();
  });
}

void draw_model_inputs(State& state, const Workload& w, const InputError& error, Lang lang) {
  const AnalysisConfig& c = w.config;
  const ModelPreset* current = find_model(c.model_key);
  const std::string shown = current ? ModelLabel(*current, lang) : Tx(Ui::PresetCustom, lang);
  labelled("model", lang, error, [&] {
    const auto presets = model_presets();
    if (ImGui::BeginCombo("##model", shown.c_str())) {
      for (const ModelPreset& m : presets) {
        if (ImGui::Selectable(ModelLabel(m, lang).c_str(), current == &m)) EditConfig(state, {{"model", std::string(m.key)}});
        tooltip(tr(Ui::SourceTip, lang, {std::string(m.source)}));
      }
      ImGui::Selectable(Tx(Ui::PresetCustom, lang), !current);
      ImGui::EndCombo();
    } else {
      const int i = current ? static_cast<int>(current - presets.data()) : -1;
      if (const int next = Stepped(i, ComboWheelStep(), static_cast<int>(presets.size())); next != i)
        EditConfig(state, {{"model", std::string(presets[static_cast<size_t>(next)].key)}});
      RecordWidget("combo.model");
    }
    if (current) tooltip(tr(Ui::SourceTip, lang, {std::string(current->source)}));
  });
  labelled("layers", lang, error, [&] {
    const std::string whole = tr(Ui::WholeModel, lang, {std::to_string(c.layers)});
    if (ImGui::BeginCombo("##layers", c.whole_model ? whole.c_str() : Tx(Ui::OneLayer, lang))) {
      if (ImGui::Selectable(Tx(Ui::OneLayer, lang), !c.whole_model)) EditConfig(state, {{"layers", "one"}});
      if (ImGui::Selectable(whole.c_str(), c.whole_model)) EditConfig(state, {{"layers", "all"}});
      ImGui::EndCombo();
    } else if (const int step = ComboWheelStep(); step != 0 && (step > 0) != c.whole_model) {
      EditConfig(state, {{"layers", step > 0 ? "all" : "one"}});
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
  choice_input(state, w, "dtype", enum_name_list(kActDTypes, dtype_name), error);
  choice_input(state, w, "weights_dtype", enum_name_list(kWeightDTypes, dtype_name), error);
  // How the layer writes attention, and which compiler's kernels follow the lecture's: demos 2 and 3
  // (the others keep the lecture's layer and rules).
  if (const int demo = ViewDemo(state.settings.view); demo == 2 || demo == 3) {
    choice_input(state, w, "attention", enum_name_list(kAttentionForms, attention_form_key), error);
    choice_input(state, w, "compiler", enum_name_list(kCompilers, compiler_key), error);
  } else {
    ForgetWidget("combo.attention");
    ForgetWidget("combo.compiler");
  }
}

void draw_hardware_inputs(State& state, const Workload& w, const InputError& error, Lang lang) {
  const HardwarePreset* current = find_hardware(w.config.hardware_key);
  labelled("hardware", lang, error, [&] {
    if (ImGui::BeginCombo("##hardware", current ? std::string(current->name).c_str() : Tx(Ui::PresetCustom, lang))) {
      for (const HardwarePreset& h : hardware_presets()) {
        if (ImGui::Selectable(std::string(h.name).c_str(), current == &h)) EditConfig(state, {{"hardware", std::string(h.key)}});
        tooltip(tr(Ui::SourceTip, lang, {std::string(h.source)}));
      }
      ImGui::Selectable(Tx(Ui::PresetCustom, lang), !current);
      ImGui::EndCombo();
    } else {
      const auto presets = hardware_presets();
      const int i = current ? static_cast<int>(current - presets.data()) : -1;
      if (const int next = Stepped(i, ComboWheelStep(), static_cast<int>(presets.size())); next != i)
        EditConfig(state, {{"hardware", std::string(presets[static_cast<size_t>(next)].key)}});
    }
    if (current) tooltip(tr(Ui::SourceTip, lang, {std::string(current->source)}));
  });
  choice_input(state, w, "cost", enum_name_list(kCostModels, cost_model_key), error);
  if (current) TextMuted(Tx(Ui::PresetNumbers, lang));
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
  ImGui::TextWrapped("%s", Tx(Ui::Title, lang));
  TextMuted(Tx(Ui::Subtitle, lang));
  if (ImGui::Button(Tx(Ui::Language, lang))) s.lang = lang == Lang::Zh ? Lang::En : Lang::Zh;
  if (!state.url_warning.empty()) TextError(state.url_warning);

  RecordActiveInput("");
  const Workload& w = ActiveWorkload(s);
  const InputError error = ActiveError(state);  // a copy: inputs may change it
  SectionHeading(Tx(Ui::ModelFor, lang));
  TextMuted(Tx(Ui::NumberHint, lang));
  draw_model_inputs(state, w, error, lang);
  SectionHeading(Tx(Ui::Hardware, lang));
  draw_hardware_inputs(state, w, error, lang);
  if (!error.message.empty()) {
    ImGui::Spacing();
    if (!FieldLabel(error.field, lang)) TextError(error.message);  // a field the sidebar does not show
    TextMuted(Tx(Ui::KeptLastResults, lang));
  }
}

}  // namespace fl::web

// [SECTION] Sidebar: language, the model of the current view, the hardware.
#include <string>

#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

Text preset_text(Preset p) {
  switch (p) {
    case Preset::Small: return Text::UiPresetSmall;
    case Preset::Llama8B: return Text::UiPresetLlama;
    case Preset::Custom: return Text::UiPresetCustom;
  }
  return Text::UiPresetCustom;
}

// A label on the left, the input filling the rest of the row; the frame turns
// red while the core refuses this field.
template <typename F>
bool labelled(const char* label, bool refused, F&& input) {
  const float label_w = ImGui::GetContentRegionAvail().x * 0.56f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
  if (refused) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(1.0f, 0.80f, 0.80f, 1.0f));
  bool changed = input();
  if (refused) ImGui::PopStyleColor();
  return changed;
}

bool int_input(const char* label, const char* key, int64_t& value, const InputError& error) {
  return labelled(label, error.field == key, [&] {
    return ImGui::InputScalar((std::string("##") + key).c_str(), ImGuiDataType_S64, &value);
  });
}

// Edits `value` (in SI units) as value / unit, e.g. FLOP/s as TFLOP/s.
bool real_input(const char* label, const char* key, double& value, double unit, const InputError& error) {
  double shown = value / unit;
  bool changed = labelled(label, error.field == key, [&] {
    return ImGui::InputDouble((std::string("##") + key).c_str(), &shown, 0, 0, "%.6g");
  });
  if (changed) value = shown * unit;
  return changed;
}

void draw_model_inputs(Workload& w, View view, const InputError& error, Lang lang) {
  const float combo_w = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(combo_w);
  if (ImGui::BeginCombo("##preset", Tx(preset_text(w.preset), lang))) {
    for (Preset p : kPresets) {
      if (ImGui::Selectable(Tx(preset_text(p), lang), p == w.preset)) {
        w.preset = p;
        if (auto m = PresetModel(p)) w.model = *m;
      }
    }
    ImGui::EndCombo();
  }
  bool edited = false;
  edited |= int_input(Tx(Text::UiHidden, lang), "d", w.model.d, error);
  edited |= int_input(Tx(Text::UiHeads, lang), "heads", w.model.H, error);
  edited |= int_input(Tx(Text::UiKvHeads, lang), "kv_heads", w.model.G, error);
  edited |= int_input(Tx(Text::UiHeadDim, lang), "head_dim", w.model.dh, error);
  edited |= int_input(Tx(Text::UiFfn, lang), "ffn", w.model.f, error);
  if (edited) {
    w.preset = Preset::Custom;
    for (Preset p : kPresets)
      if (PresetModel(p) == w.model) w.preset = p;
  }
  int_input(Tx(Text::UiTokens, lang), "tokens", w.tokens, error);
  if (view != View::Kernels) int_input(Tx(Text::UiKvLen, lang), "kv_len", w.kv_len, error);
}

void draw_hardware_inputs(Hardware& hw, const InputError& error, Lang lang) {
  real_input(Tx(Text::UiMatmulTflops, lang), "matmul_tflops", hw.matmul_flops, 1e12, error);
  real_input(Tx(Text::UiOtherTflops, lang), "other_tflops", hw.other_flops, 1e12, error);
  real_input(Tx(Text::UiBandwidth, lang), "bandwidth_tbs", hw.bandwidth, 1e12, error);
  real_input(Tx(Text::UiLaunch, lang), "launch_us", hw.launch, 1e-6, error);
  ImGui::BeginDisabled(hw == kH100);
  if (ImGui::Button(Tx(Text::UiResetH100, lang))) hw = kH100;
  ImGui::EndDisabled();
}

}  // namespace

void DrawConfigPanel(State& state) {
  Settings& s = state.settings;
  const Lang lang = s.lang;
  ImGui::TextWrapped("%s", Tx(Text::UiTitle, lang));
  TextMuted(Tx(Text::UiSubtitle, lang));
  if (ImGui::Button(Tx(Text::UiLanguage, lang))) s.lang = lang == Lang::Zh ? Lang::En : Lang::Zh;
  if (!state.url_warning.empty()) TextError(state.url_warning);

  const InputError& error = ActiveError(state);
  SectionHeading(Tx(Text::UiModelFor, lang));
  if (Workload* w = ActiveWorkload(s)) {
    draw_model_inputs(*w, s.view, error, lang);
  } else {
    TextMuted(Tx(Text::UiAblationNoInputs, lang));
  }
  SectionHeading(Tx(Text::UiHardware, lang));
  draw_hardware_inputs(s.hw, error, lang);
  if (!error.message.empty() && s.view != View::Ablation) {
    ImGui::Spacing();
    TextError(error.message);
    TextMuted(Tx(Text::UiKeptLastResults, lang));
  }
}

}  // namespace fl::web

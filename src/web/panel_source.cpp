// [SECTION] The layer's source: edited live, beside the prefill's partitions.
#include <algorithm>
#include <string>

#include "core/model_lang/llama_source.h"
#include "core/presets.h"
#include "core/units.h"
#include "web/explain.h"
#include "web/fonts.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

// ImGui writes into the string's buffer: the string grows as the text grows.
// Tab indents by four spaces (the language refuses tabs); Escape leaves the editor.
int edit_callback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* text = static_cast<std::string*>(data->UserData);
    text->resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = text->data();
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    data->InsertChars(data->CursorPos, "    ");
  }
  return 0;
}

// What the editor shows: the source as typed (a refused one included), else
// the preset's built-in layer, printed in the model language.
std::string shown_source(const Workload& w) {
  if (std::string typed = w.Value("source"); !typed.empty()) return typed;
  const ModelPreset* m = find_model(w.config.model_key);
  return lang::llama_source(w.config.model, m ? std::string(m->name) : std::string("custom"));
}

void draw_editor(State& state, ImVec2 size) {
  const Lang lang = state.settings.lang;
  Workload& w = state.settings.layer_workload;
  const bool own = w.config.source || !w.Value("source").empty();
  if (own) {
    TextMuted(Tx(Ui::SourceEdited, lang));
    ImGui::SameLine();
    if (ImGui::SmallButton(Tx(Ui::SourceReset, lang))) EditConfig(state, {{"model", w.base_model}});
    RecordWidget("source.reset");
  } else {
    const ModelPreset* m = find_model(w.config.model_key);
    TextMuted(tr(Ui::SourcePreset, lang, {m ? std::string(m->name) : std::string(tr(Text::ModelCustom, lang))}));
  }
  const InputError& error = state.layer_error;
  if (!error.message.empty()) {
    TextError(Tx(Ui::SourceRefused, lang));
    TextError(error.message);
  }
  std::string text = shown_source(w);
  if (ImFont* mono = MonoFont()) ImGui::PushFont(mono);
  const bool edited = ImGui::InputTextMultiline("##source", text.data(), text.capacity() + 1,
                                                ImVec2(size.x, std::max(size.y - ImGui::GetCursorPosY(), ImGui::GetFontSize() * 10)),
                                                ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackCompletion,
                                                edit_callback, &text);
  if (MonoFont()) ImGui::PopFont();
  RecordWidget("source.editor");
  if (edited) EditConfig(state, {{"source", text}});
}

void draw_partitions(const PhaseReport& r, Lang lang) {
  SectionHeading(tr(Ui::SourcePartitions, lang, {fmt_count(static_cast<double>(r.config.tokens))}));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("source_partitions", 4, flags)) {
    ImGui::TableSetupColumn(Tx(Ui::ColPartition, lang), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(Tx(Ui::ColKernels, lang));
    ImGui::TableSetupColumn(Tx(Ui::ColBytes, lang));
    ImGui::TableSetupColumn(Tx(TimeColumn(r.config.hw), lang));
    ImGui::TableHeadersRow();
    for (const PartitionReport& p : r.partitions) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", p.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d", p.cost.kernels);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_bytes(static_cast<double>(p.cost.bytes)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_time(p.cost.t_total).c_str());
    }
    ImGui::EndTable();
  }
  DrawObservations(r.observations, lang);
}

}  // namespace

void DrawSourcePanel(State& state) {
  const Lang lang = state.settings.lang;
  EnsurePhaseReports(state, false);
  DrawViewHeader(state.results.prefill.title, state.results.prefill.config, lang);
  TextMuted(Tx(Ui::SourceIntro, lang));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float em = ImGui::GetFontSize();
  // Side by side where the editor keeps about 60 columns of code; else one above the other.
  const bool side_by_side = avail.x > em * 48;
  const ImVec2 editor = side_by_side ? ImVec2(avail.x * 0.55f, avail.y) : ImVec2(avail.x, std::max(avail.y * 0.6f, em * 16));
  ImGui::BeginChild("source_editor", editor, false, ImGuiWindowFlags_NoScrollbar);
  draw_editor(state, ImGui::GetContentRegionAvail());
  ImGui::EndChild();
  if (side_by_side) ImGui::SameLine();
  ImGui::BeginChild("source_results", ImVec2(0, side_by_side ? avail.y : 0), false);
  draw_partitions(state.results.prefill, lang);
  ImGui::EndChild();
}

}  // namespace fl::web

// Small pieces every view uses: translated text, observations, the roofline
// note, the kind legend, kernel tooltips.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "core/i18n.h"
#include "core/report.h"
#include "page/page_text.h"

namespace fl::web {

// A translated string as a C string (the table holds string literals).
inline const char* Tx(Text id, Lang lang) { return tr(id, lang).data(); }
inline const char* Tx(Ui id, Lang lang) { return tr(id, lang).data(); }

void TextMuted(const std::string& text);
void TextError(const std::string& text);
void SectionHeading(const std::string& text);

// In place of SameLine() before an item `width` wide: on this line where it
// still fits, else at the start of the next (a row of toggles that wraps on
// a narrow screen or a scaled embed instead of running off its edge).
// `spacing` as SameLine's: the style's item spacing when negative.
void SameLineIfRoom(float width, float spacing = -1);
// The width of a checkbox or radio button with `label`, for SameLineIfRoom.
float ToggleWidth(const char* label);

// Called after a closed combo: the wheel over it steps through its list
// (-1 up, +1 down, else 0) instead of scrolling the panel. `current` moved
// by the step, kept within 0..count-1 (-1, none chosen, steps to an end).
int ComboWheelStep();
int Stepped(int current, int step, int count);


// The view's title and the note that times are modelled, not measured.
// The view's title and where its times come from (the roofline, or the calibrated model and its fit).
void DrawViewHeader(const std::string& title, const AnalysisConfig& c, Lang lang);
std::string CostNote(const AnalysisConfig& c, Lang lang);  // that note alone
// The name of a kernel's time column under the model `hw` costs by, and its help.
Ui TimeColumn(const Hardware& hw);
Ui TimeColumnHelp(const Hardware& hw);
void DrawObservations(const std::vector<Observation>& observations, Lang lang);
// A bullet and its text, wrapped at the view's edge (ImGui's BulletText does not wrap).
void WrappedBullet(const std::string& text);

// A coloured square and the kind's name, for each kind in `kinds`.
// How a chart shows the fixed cost per kernel: not at all, as a lighter
// shade stacked on each bar, or as grey gaps between kernels.
enum class OverheadKey { None, LightShade, Grey };
void DrawKindLegend(const std::vector<KernelKind>& kinds, Lang lang, OverheadKey overhead);
std::vector<KernelKind> KindsOf(const std::vector<KernelReport>& kernels);

// A table that fills the view's width, or, where the view is narrower than
// `min_width` (a phone), keeps that width and scrolls sideways, its one wide
// text column fixed at `text_width` and up to `text_lines` lines a row.
// Returns whether the table is open (then call EndTable); `text_column` gets
// the flags and width for that column.
struct WideTable {
  bool open = false;
  ImGuiTableColumnFlags text_flags = ImGuiTableColumnFlags_WidthStretch;
  float text_width = 0;
};
WideTable BeginWideTable(const char* id, int columns, ImGuiTableFlags flags, int rows, float min_width, float text_width,
                         int text_lines);

// A table's header row, each header with its tooltip: help[i] for column i
// (none where it is nullopt).
void TableHeadersWithHelp(const std::vector<std::optional<Ui>>& help, Lang lang);

// A small square in `color`, then the cursor on the same line: a legend's key.
void Swatch(ImU32 color);

// A table cell: a square in the kind's colour, then its name.
void KindCell(KernelKind kind);

// Tooltip body for one kernel; `overhead` is its fixed launch cost.
void KernelTooltip(const KernelReport& k, double overhead, CostModel model, Lang lang);

}  // namespace fl::web

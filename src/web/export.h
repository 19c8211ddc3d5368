// Export and share: a table as CSV, a figure as PNG (the canvas pixels, text
// included), the analysis as JSON, the page's link on the clipboard.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/i18n.h"
#include "core/report_json.h"

namespace fl::web {

// What this module keeps between frames (PageContext::exports).
struct ExportState {
  struct PendingPng {
    std::string name, figure;
    bool in_view = true;  // the figure's rectangle lies inside its window
    int frames_waited = 0;
  };
  std::optional<PendingPng> pending_png;  // saved when the frame is drawn
  bool buttons_hidden = false;            // hide=buttons
  std::string figure_title;               // the title line of exported PNGs
};

// Offers `text` as a file download.
void SaveText(const std::string& name, const std::string& mime, const std::string& text);
// Saves, once this frame is drawn, the canvas pixels under the widget
// recorded as `figure` (RecordWidget): the chart as seen, with its text.
void RequestFigurePng(const std::string& name, const std::string& figure);
// Records the last item (a chart, or a group of them) as the figure `name`;
// if its PNG was requested and it is scrolled partly out of its window,
// scrolls it into view first.
void RecordFigure(const std::string& name);
// Called after the frame is rendered to the canvas: saves a requested figure
// once it is fully in view (or after a few frames, what is in view).
void SavePendingFigurePng();
// The page's link, or an <iframe> of this view alone for a slide, to the
// clipboard; the page says it copied, or shows the text to copy by hand.
void CopyLink(Lang lang);
void CopyEmbed(Lang lang);
std::string CsvRow(const std::vector<std::string>& cells);

// A table's CSV, made only when asked for (a whole model's is large).
using CsvMaker = std::function<std::string()>;

// A row of export buttons: CSV (if `csv` is set), PNG of the recorded widget
// `figure` (if not null), JSON, copy link, embed.
// hide=buttons (an embed in a slide): DrawExportRow draws nothing.
void HideExportButtons(bool hidden);
// The line above every exported PNG: what it shows (caption.h's ViewCaption).
void SetFigureTitle(std::string title);
// The analysis as JSON text, made only when asked for.
using JsonMaker = std::function<std::string()>;
// The report as an exported file writes it (indented), made when asked for;
// `report` must outlive the call it is passed to.
template <class Report>
JsonMaker JsonOf(const Report& report) {
  return [&report] { return json_text(report, 2); };
}

void DrawExportRow(const char* id, const CsvMaker& csv, const char* figure, const JsonMaker& analysis,
                   const std::string& base_name, Lang lang);

}  // namespace fl::web

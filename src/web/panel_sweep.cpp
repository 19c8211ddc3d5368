// [SECTION] The sweep: the four partitions' time (or HBM traffic) against T,
// S or the batch on log axes (and the chosen compiler's kernels), the sidebar's value marked, and for the chosen
// partition the values where its picture changes (core/crossings.h), drawn
// as vertical lines and said in sentences under the chart.
#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/units.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/log_plot.h"
#include "page/field_labels.h"
#include "web/panels.h"
#include "web/platform.h"
#include "page/sweep_job.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr ImGuiID kSweepChart = 0x6A7A0004u;
constexpr double kFrameBudgetMs = 12;  // computing per frame: the page stays responsive

// The sizes a phase can sweep: its own (T or S), then the batch.
std::vector<SweepKey> keys_of(bool decode) {
  return {decode ? SweepKey::KvLen : SweepKey::Tokens, SweepKey::Batch};
}

SweepKey chosen_key(const ExplainState& e, bool decode) {
  const int i = e.sweep_key;
  const std::vector<SweepKey> keys = keys_of(decode);
  if (i >= 0 && std::find(keys.begin(), keys.end(), kSweepKeys[i]) != keys.end()) return kSweepKeys[i];
  return keys.front();
}

double measure(const GraphCost& c, bool bytes) { return bytes ? c.bytes : c.t_total; }

std::string tick_label(double v, bool bytes) { return DecadeTick(bytes ? fmt_bytes(v) : fmt_time(v)); }

std::string sweep_csv(const Sweep& s) {
  std::string out = CsvRow({std::string(sweep_key_name(s.key)), "partition", "kernels", "bytes", "flops", "t_seconds",
                            "overhead_seconds", "t_total_seconds"});
  for (const SweepPoint& p : s.points)
    for (size_t i = 0; i < p.partitions.size(); ++i) {
      const GraphCost& g = p.partitions[i];
      out += CsvRow({std::to_string(p.value), std::string(partition_key(s.partitions[i])), std::to_string(g.kernels),
                     fmt_exact(g.bytes), fmt_exact(g.flops), fmt_exact(g.t), fmt_exact(g.overhead), fmt_exact(g.t_total)});
    }
  return out;
}

void draw_controls(ExplainState& e, bool decode, Lang lang) {
  const SweepKey key = chosen_key(e, decode);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tx(Ui::SweepOver, lang));
  for (SweepKey k : keys_of(decode)) {
    const std::string name(sweep_key_name(k));
    const std::string label = std::string(FieldLabel(name, lang)) + "##sweep." + name;
    SameLineIfRoom(ToggleWidth(label.c_str()));
    if (ImGui::RadioButton(label.c_str(), k == key))
      e.sweep_key = static_cast<int>(std::find(std::begin(kSweepKeys), std::end(kSweepKeys), k) - std::begin(kSweepKeys));
    RecordWidget("sweep." + name);
  }
  SameLineIfRoom(ToggleWidth(Tx(Ui::SweepTime, lang)), ImGui::GetFontSize() * 1.5f);
  if (ImGui::RadioButton(Tx(Ui::SweepTime, lang), !e.sweep_bytes)) e.sweep_bytes = false;
  RecordWidget("sweep.time");
  SameLineIfRoom(ToggleWidth(Tx(Ui::SweepBytes, lang)));
  if (ImGui::RadioButton(Tx(Ui::SweepBytes, lang), e.sweep_bytes)) e.sweep_bytes = true;
  RecordWidget("sweep.bytes");
}

struct Axes {
  double x0, x1;  // log10 of the swept values
  int y0, y1;     // decades of the measure
};

Axes axes_of(const Sweep& s, bool bytes) {
  double lo = INFINITY, hi = 0;
  for (const SweepPoint& p : s.points)
    for (const GraphCost& g : p.partitions)
      if (measure(g, bytes) > 0) lo = std::min(lo, measure(g, bytes)), hi = std::max(hi, measure(g, bytes));
  if (!(hi > 0)) lo = hi = 1;
  const double x0 = std::log10(static_cast<double>(s.points.front().value));
  const double x1 = std::max(x0 + 1e-9, std::log10(static_cast<double>(s.points.back().value)));
  int y0 = static_cast<int>(std::floor(std::log10(lo))), y1 = static_cast<int>(std::ceil(std::log10(hi)));
  if (y1 <= y0) y1 = y0 + 1;
  return {x0, x1, y0, y1};
}

// The chart: every partition as a line, the chosen one thick with its
// crossings; the sidebar's value as a red line. Returns the hovered point.
int draw_chart(const Sweep& s, const std::vector<Crossing>& found, size_t chosen, int64_t now, bool bytes, float below,
               Lang lang) {
  const Axes ax = axes_of(s, bytes);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 size(std::max(avail.x, 200.0f), FitHeight(std::clamp(avail.y - line * 7.0f, 180.0f, 480.0f), 100, below));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("sweep", size);
  RecordWidget("sweep");
  const bool hovered = ImGui::IsItemHovered();
  const float left = ImGui::CalcTextSize("100 ms").x + 10, bottom = line * 2 + 8, top = line * 2 + 6, right = 12;
  const LogPlot plot{left, top, size.x - left - right, size.y - top - bottom, ax.x0, ax.x1, static_cast<double>(ax.y0),
                     static_cast<double>(ax.y1)};
  const float pw = plot.width, ph = plot.height;
  auto X = [&](double v) { return plot.X(v); };
  auto Y = [&](double v) { return plot.Y(v); };
  const float px = ImGui::GetIO().DisplayFramebufferScale.x;
  std::vector<Quad> quads;
  std::vector<Segment> segs;
  plot.AddGrid(quads, px);
  auto add_line = [&](size_t part, float width) {
    for (size_t i = 1; i < s.points.size(); ++i) {
      const double a = measure(s.points[i - 1].partitions[part], bytes), b = measure(s.points[i].partitions[part], bytes);
      if (a <= 0 || b <= 0) continue;
      segs.push_back({X(static_cast<double>(s.points[i - 1].value)) * px, Y(a) * px,
                      X(static_cast<double>(s.points[i].value)) * px, Y(b) * px, PartitionColor(s.partitions[part]), width * px});
    }
  };
  auto vertical = [&](double v, ImU32 color, float width, bool dashed) {
    const float x = X(v) * px;
    for (float y = top; y < top + ph; y += dashed ? 10 : ph)
      segs.push_back({x, y * px, x, std::min(y + (dashed ? 6 : ph), top + ph) * px, color, width * px});
  };
  for (size_t part = 0; part < s.partitions.size(); ++part)
    if (part != chosen) add_line(part, 1.5f);
  add_line(chosen, 3.5f);
  for (const Crossing& c : found)
    if (c.partition == s.partitions[chosen]) vertical(c.value, PartitionColor(c.partition), 1.5f, true);
  const bool now_inside = now >= s.points.front().value && now <= s.points.back().value;
  if (now_inside) vertical(static_cast<double>(now), kChartReference, 2, false);

  // The hovered point: the sweep value nearest the mouse, on log x.
  int hover = -1;
  const float mx = ImGui::GetIO().MousePos.x - origin.x;
  if (hovered) {
    float best = 1e9f;
    for (size_t i = 0; i < s.points.size(); ++i) {
      const float d = std::abs(X(static_cast<double>(s.points[i].value)) - mx);
      if (d < best) best = d, hover = static_cast<int>(i);
    }
    vertical(static_cast<double>(s.points[static_cast<size_t>(hover)].value), Colors().chart_axis, 1, false);
  }
  const ImTextureID tex = Charts().Render(kSweepChart, static_cast<int>(std::lround(size.x * px)),
                                                   static_cast<int>(std::lround(size.y * px)), Colors().chart_background, quads, segs);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddImage(tex, origin, ImVec2(origin.x + size.x, origin.y + size.y));
  const ImU32 muted = ImGui::ColorConvertFloat4ToU32(Colors().muted_text);
  auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  auto text_centred = [&](float x, float y, ImU32 color, const std::string& t) {
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    draw->AddText(at(std::clamp(x - w / 2, 0.0f, size.x - w), y), color, t.c_str());
  };
  for (int d = plot.first_x_decade(); d <= plot.last_x_decade(); ++d)
    text_centred(X(std::pow(10.0, d)), top + ph + 3, muted, fmt_decade(d));
  for (int d = ax.y0; d <= ax.y1; ++d) {
    const std::string t = tick_label(std::pow(10.0, d), bytes);
    draw->AddText(at(left - ImGui::CalcTextSize(t.c_str()).x - 5, Y(std::pow(10.0, d)) - line / 2), muted, t.c_str());
  }
  const std::string key(sweep_key_name(s.key));
  const std::string x_label = FieldLabel(key, lang);
  draw->AddText(at(left + pw - ImGui::CalcTextSize(x_label.c_str()).x, top + ph + line + 4), muted, x_label.c_str());
  draw->AddText(at(left + 4, top - line - 2), muted, Tx(bytes ? Ui::SweepBytes : Ui::SweepTime, lang));
  // Crossing labels above the plot, on two rows so neighbours do not collide.
  int row = 0;
  for (const Crossing& c : found) {
    if (c.partition != s.partitions[chosen]) continue;
    text_centred(X(c.value), static_cast<float>(row) * line, PartitionColor(c.partition), Tx(crossing_label(c.kind), lang));
    row = 1 - row;
  }
  if (now_inside) {  // beside the red line, on the side with room
    const std::string t = tr(Ui::SweepNow, lang, {fmt_count(static_cast<double>(now))});
    const float x = X(static_cast<double>(now)), w = ImGui::CalcTextSize(t.c_str()).x;
    draw->AddText(at(x + 4 + w < left + pw ? x + 4 : x - 4 - w, top + 2), kChartReference, t.c_str());
  }
  return hover;
}

void draw_legend(const Sweep& s, Lang lang) {
  const float h = ImGui::GetTextLineHeight();
  const float right = ImGui::GetContentRegionMax().x;
  for (size_t i = 0; i < s.partitions.size(); ++i) {
    const float w = h * 1.4f + ImGui::CalcTextSize(Tx(sweep_partition_text(s, s.partitions[i]), lang)).x;
    if (i > 0) {  // on the same line while it fits
      ImGui::SameLine(0, h);
      if (ImGui::GetCursorPosX() + w > right) ImGui::NewLine();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.35f), ImVec2(p.x + h * 1.2f, p.y + h * 0.65f),
                                              PartitionColor(s.partitions[i]));
    ImGui::Dummy(ImVec2(h * 1.4f, h));
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(Tx(sweep_partition_text(s, s.partitions[i]), lang));
  }
}

void point_tooltip(const Sweep& s, const SweepPoint& p, bool bytes, Lang lang) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(tr(Ui::SweepTip, lang, {FieldLabel(sweep_key_name(s.key), lang), fmt_count(static_cast<double>(p.value))}).c_str());
  for (size_t i = 0; i < p.partitions.size(); ++i) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(PartitionColor(s.partitions[i])), "%s  %s",
                       bytes ? fmt_bytes(p.partitions[i].bytes).c_str() : fmt_time(p.partitions[i].t_total).c_str(),
                       Tx(sweep_partition_text(s, s.partitions[i]), lang));
  }
  ImGui::EndTooltip();
}

}  // namespace

const Sweep* ShownSweep(const State& state) {
  const SweepJob& job = state.caches.sweep;
  return job.HasShown() ? &job.Shown() : nullptr;
}

void DrawSweepPanel(State& state) {
  const Lang lang = state.settings.lang;
  if (!EmbedLayout()) ImGui::TextWrapped("%s", Tx(Ui::SweepIntro, lang));  // an embed: under "More"
  const PhaseReport& ph = DrawPhaseChooser(state);
  if (ph.partitions.empty()) return;
  const bool decode = ExplainDecode(state.settings, state.explain);
  draw_controls(state.explain, decode, lang);
  const SweepKey key = chosen_key(state.explain, decode);
  const AnalysisConfig config = MakeAnalysisConfig(state.settings, decode ? 3 : 2);
  SweepJob& job = state.caches.sweep;
  job.Advance(config, key, kFrameBudgetMs, state.compiler);
  if (job.Busy()) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    TextMuted(tr(Ui::SweepProgress, lang, {std::to_string(job.Done()), std::to_string(job.Total())}));
  }
  RecordShown("sweep_busy", job.Busy() ? 1 : 0);
  if (job.Busy()) KeepDrawing();
  if (job.Error()) TextError(job.Error()->message(lang));
  if (!job.HasShown()) return;
  const Sweep& s = job.Shown();
  const bool bytes = state.explain.sweep_bytes;
  const size_t chosen = static_cast<size_t>(std::clamp(state.settings.partition, 0, static_cast<int>(s.partitions.size()) - 1));
  DrawExportRow("sweep_export", [&s] { return sweep_csv(s); }, "sweep.figure", JsonOf(job.Shown()), "fusionlab-sweep", lang);

  // What changes along the sweep for the chosen partition, in words under the chart.
  std::vector<std::string> sentences;
  std::vector<Crossing> mine;  // the chosen partition's, in the order the sweep meets them
  for (const Crossing& c : job.ShownCrossings())
    if (c.partition == s.partitions[chosen]) mine.push_back(c);
  std::sort(mine.begin(), mine.end(), [](const Crossing& a, const Crossing& b) { return a.value < b.value; });
  for (const Crossing& c : mine) sentences.push_back(crossing_sentence(c, s, lang));
  if (mine.empty())
    sentences.push_back(no_crossing_sentence(s, s.partitions[chosen], lang));
  sentences.push_back(CostNote(config, lang));
  // Under the chart: the legend (up to two lines), the sentences as they wrap, the details' header.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 1.5f;
  float below = ImGui::GetTextLineHeightWithSpacing() * 2 + style.ItemSpacing.y + DetailsHeight();
  for (const std::string& t : sentences) below += ImGui::CalcTextSize(t.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;

  ImGui::BeginGroup();  // the exported figure: chart and legend
  const int hover = draw_chart(s, job.ShownCrossings(), chosen, swept_value(config, key), bytes, below, lang);
  draw_legend(s, lang);
  ImGui::EndGroup();
  RecordFigure("sweep.figure");
  if (hover >= 0) point_tooltip(s, s.points[static_cast<size_t>(hover)], bytes, lang);

  RecordShown("sweep_points", static_cast<double>(s.points.size()));
  RecordShown("sweep_lines", static_cast<double>(s.partitions.size()));
  for (size_t i = 0; i < mine.size(); ++i) {
    WrappedBullet(sentences[i]);
    RecordShown("sweep_" + std::string(crossing_key(mine[i].kind)) + "_" + std::to_string(i), mine[i].value);
  }
  RecordShown("sweep_crossings", static_cast<double>(mine.size()));
  for (size_t i = mine.size(); i < sentences.size(); ++i) TextMuted(sentences[i]);
  if (EmbedLayout() && BeginDetails(lang)) ImGui::TextWrapped("%s", Tx(Ui::SweepIntro, lang));
}

}  // namespace fl::web

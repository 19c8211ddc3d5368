#include "web/caption.h"

#include "core/units.h"
#include "web/explain.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

std::string ModelLabel(const ModelPreset& m, Lang lang) {
  if (m.key != "small") return std::string(m.name);
  return tr(Ui::PresetSmall, lang, {std::to_string(m.layer.d), std::to_string(m.layer.H)});
}

std::string ViewCaption(const State& state) {
  const Settings& s = state.settings;
  const Lang lang = s.lang;
  const AnalysisConfig& c = ActiveWorkload(s).config;
  std::string line = std::string("Fusion Lab · ") + Tx(ViewTitle(s.view), lang) + " · ";
  if (s.view == View::Reality) {  // the shipped measurements, whatever the sidebar says
    const OpProfile& p = shipped_profiles()[RealityProfileIndex(state.explain)].profile;
    const HardwarePreset* h = find_hardware(p.config.hardware_key);
    return line + (h ? std::string(h->name) : p.gpu) + " · " + p.model + " · " + std::string(profiled_op_name(RealityOp(state.explain)));
  }
  if (const ModelPreset* m = find_model(c.model_key)) line += ModelLabel(*m, lang);
  else
    line += "d=" + std::to_string(c.model.d) + " H=" + std::to_string(c.model.H) + " G=" + std::to_string(c.model.G) +
            " dh=" + std::to_string(c.model.dh) + " f=" + std::to_string(c.model.f);
  if (c.whole_model) line += " (" + tr(Ui::WholeModel, lang, {std::to_string(c.layers)}) + ")";
  const Phases phases = ShownPhases(s, state.explain);
  line += phases == Phases::Decode ? " · S = " + fmt_count(static_cast<double>(c.kv_len)) : " · T = " + fmt_count(static_cast<double>(c.tokens));
  if (phases != Phases::Both && c.batch != 1) line += " · B = " + fmt_count(static_cast<double>(c.batch));
  if (c.traced_attention() != AttentionForm::Lecture)  // the lecture's layer goes unnamed, as in the seed
    line += " · " + tr(Ui::CaptionAttention, lang, {std::string(attention_form_key(c.traced_attention()))});
  if (c.shown_compiler() != Compiler::Lecture && s.view != View::Compilers)  // that view shows every compiler
    line += " · " + tr(Ui::CaptionCompiler, lang, {std::string(compiler_key(c.shown_compiler()))});
  if (const HardwarePreset* h = find_hardware(c.hardware_key)) line += " · " + std::string(h->name);
  else
    line += " · " + tr(Ui::CaptionCustomGpu, lang, {fmt_fixed(c.hw.matmul_flops / 1e12, 0), fmt_number(c.hw.bandwidth / 1e12)});
  if (cost_model_of(c.hw) == CostModel::Calibrated) line += " · " + std::string(Tx(Ui::CaptionCalibrated, lang));  // the roofline goes unnamed
  return line;
}

}  // namespace fl::web

#version 300 es
// Chart renderer: a line segment, its sides faded over one pixel.
precision mediump float;

in float v_across;
in float v_half_width;
in vec4 v_color;

out vec4 frag_color;

void main() {
  float d = abs(v_across) - v_half_width;
  float coverage = 1.0 - smoothstep(-0.5, 0.5, d);
  if (coverage <= 0.0) discard;
  frag_color = vec4(v_color.rgb, v_color.a * coverage);
}

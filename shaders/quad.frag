#version 300 es
// Chart renderer: fills a rounded rectangle, fading its edge over one pixel.
//
// The signed distance to the rectangle's border is negative inside; smoothstep
// over [-0.5, 0.5] px turns it into coverage, so edges that fall between pixels
// are blended instead of stair-stepped.
precision mediump float;

in vec2 v_local;
in vec2 v_half;
in vec4 v_color;
in float v_radius;

out vec4 frag_color;

float rounded_box_distance(vec2 p, vec2 half_size, float radius) {
  vec2 q = abs(p) - half_size + radius;
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - radius;
}

void main() {
  float d = rounded_box_distance(v_local, v_half, v_radius);
  float coverage = 1.0 - smoothstep(-0.5, 0.5, d);
  if (coverage <= 0.0) discard;
  frag_color = vec4(v_color.rgb, v_color.a * coverage);
}

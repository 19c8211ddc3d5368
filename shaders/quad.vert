#version 300 es
// Chart renderer: one instanced quad per bar, line or marker.
//
// Per instance: a rectangle in pixels (origin top-left), its colour and corner
// radius. Each quad is grown by one pixel on every side so the fragment shader
// has room to fade the edge out (anti-aliasing without MSAA).

layout(location = 0) in vec2 a_corner;     // unit quad corner, (0,0)..(1,1)
layout(location = 1) in vec4 a_rect;       // x0, y0, x1, y1 in pixels
layout(location = 2) in vec4 a_color;      // straight RGBA, 0..1
layout(location = 3) in float a_radius;    // corner radius in pixels

uniform vec2 u_viewport;                   // target size in pixels

out vec2 v_local;                          // pixel offset from the quad's centre
out vec2 v_half;                           // half the rectangle's size
out vec4 v_color;
out float v_radius;

const float kAntialiasPad = 1.0;

void main() {
  vec2 lo = min(a_rect.xy, a_rect.zw);
  vec2 hi = max(a_rect.xy, a_rect.zw);
  vec2 center = 0.5 * (lo + hi);
  v_half = 0.5 * (hi - lo);
  vec2 pos = mix(lo - kAntialiasPad, hi + kAntialiasPad, a_corner);
  v_local = pos - center;
  v_color = a_color;
  v_radius = min(a_radius, min(v_half.x, v_half.y));
  // Pixel row 0 lands at texture row 0, which ImGui::Image shows at the top:
  // the texture is drawn with its default UVs, no flip needed.
  vec2 ndc = pos / u_viewport * 2.0 - 1.0;
  gl_Position = vec4(ndc, 0.0, 1.0);
}

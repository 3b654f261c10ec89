//! A small SVG writer for the report's charts: marks with presentation attributes inline (so an
//! exported chart stands alone), a `<title>` per mark for its tooltip, linear and log scales
//! with round ticks, and axes. Every text and attribute value is escaped; nothing from an input
//! file is written as markup.

use crate::replay::page::html_text;
use std::fmt::Write as _;

/// The SVG namespace, the one URL a page holds.
pub const NS: &str = "http://www.w3.org/2000/svg";

/// An SVG document being drawn.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

/// Attributes of one mark: `(name, value)` pairs, values escaped when written.
pub type Attrs<'a> = &'a [(&'a str, String)];

impl Svg {
    /// An empty chart of this size.
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            body: String::new(),
            width,
            height,
        }
    }

    /// Writes one element; `title` becomes its tooltip.
    pub fn element(&mut self, name: &str, attrs: Attrs, title: Option<&str>, text: Option<&str>) {
        self.body.push('<');
        self.body.push_str(name);
        for (k, v) in attrs {
            let _ = write!(self.body, " {k}=\"{}\"", html_text(v));
        }
        if title.is_none() && text.is_none() {
            self.body.push_str("/>");
            return;
        }
        self.body.push('>');
        if let Some(t) = title {
            let _ = write!(self.body, "<title>{}</title>", html_text(t));
        }
        if let Some(t) = text {
            self.body.push_str(&html_text(t));
        }
        let _ = write!(self.body, "</{name}>");
    }

    /// A rectangle from (x, y) of size (w, h).
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        extra: Attrs,
        title: Option<&str>,
    ) {
        let mut a = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("width", num(w.max(0.0))),
            ("height", num(h.max(0.0))),
            ("fill", fill.to_string()),
        ];
        a.extend(extra.iter().cloned());
        self.element("rect", &a, title, None);
    }

    /// A line segment.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        self.element(
            "line",
            &[
                ("x1", num(x1)),
                ("y1", num(y1)),
                ("x2", num(x2)),
                ("y2", num(y2)),
                ("stroke", stroke.to_string()),
                ("stroke-width", num(width)),
            ],
            None,
            None,
        );
    }

    /// A circle.
    pub fn circle(&mut self, (cx, cy): (f64, f64), r: f64, extra: Attrs, title: Option<&str>) {
        let mut a = vec![("cx", num(cx)), ("cy", num(cy)), ("r", num(r))];
        a.extend(extra.iter().cloned());
        self.element("circle", &a, title, None);
    }

    /// A polyline through the points.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, extra: Attrs) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        let mut a = vec![
            ("points", pts.join(" ")),
            ("fill", "none".to_string()),
            ("stroke", stroke.to_string()),
            ("stroke-width", "2".to_string()),
        ];
        a.extend(extra.iter().cloned());
        self.element("polyline", &a, None, None);
    }

    /// A text at (x, y) of size `size`, with `anchor` start, middle or end.
    pub fn text(&mut self, (x, y): (f64, f64), s: &str, size: f64, anchor: &str, extra: Attrs) {
        let mut a = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("font-size", num(size)),
            ("text-anchor", anchor.to_string()),
        ];
        a.extend(extra.iter().cloned());
        self.element("text", &a, None, Some(s));
    }

    /// The finished SVG element; `attrs` go on the root (a class, data attributes).
    pub fn finish(self, label: &str, attrs: Attrs) -> String {
        let mut root = format!(
            "<svg xmlns=\"{NS}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             font-family=\"system-ui, sans-serif\" role=\"img\" aria-label=\"{}\"",
            html_text(label),
            w = num(self.width),
            h = num(self.height),
        );
        for (k, v) in attrs {
            let _ = write!(root, " {k}=\"{}\"", html_text(v));
        }
        format!(
            "{root}><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>{}</svg>",
            self.body
        )
    }
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A map from data to pixels along one axis, linear or logarithmic.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    /// The data's low end.
    pub d0: f64,
    /// The data's high end.
    pub d1: f64,
    /// The pixel of `d0`.
    pub r0: f64,
    /// The pixel of `d1`.
    pub r1: f64,
    /// Logarithmic (base 10).
    pub log: bool,
}

impl Scale {
    /// A linear scale; an empty domain is widened so that it maps.
    pub fn linear(d0: f64, d1: f64, r0: f64, r1: f64) -> Scale {
        let (d0, d1) = widen(d0, d1);
        Scale {
            d0,
            d1,
            r0,
            r1,
            log: false,
        }
    }

    /// A base-10 log scale over positive data.
    pub fn log(d0: f64, d1: f64, r0: f64, r1: f64) -> Scale {
        let d0 = d0.max(1e-9);
        let d1 = if d1 > d0 { d1 } else { d0 * 10.0 };
        Scale {
            d0,
            d1,
            r0,
            r1,
            log: true,
        }
    }

    /// The pixel of `x`.
    pub fn at(&self, x: f64) -> f64 {
        let t = if self.log {
            (x.max(1e-9).ln() - self.d0.ln()) / (self.d1.ln() - self.d0.ln())
        } else {
            (x - self.d0) / (self.d1 - self.d0)
        };
        self.r0 + t * (self.r1 - self.r0)
    }

    /// Round ticks within the domain, about `n` of them (powers of ten on a log scale).
    pub fn ticks(&self, n: usize) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.d0.log10().ceil() as i32,
                self.d1.log10().floor() as i32,
            );
            return (a..=b).map(|e| 10f64.powi(e)).collect();
        }
        let step = nice_step((self.d1 - self.d0) / n.max(1) as f64);
        let first = (self.d0 / step).ceil() as i64;
        let last = (self.d1 / step + 1e-9).floor() as i64;
        // Rounded to the step's decimals, so that 3 × 0.2 reads 0.6.
        let scale = 10f64.powi((-step.log10().floor()).max(0.0) as i32 + 1);
        (first..=last)
            .map(|i| (i as f64 * step * scale).round() / scale)
            .collect()
    }
}

fn widen(d0: f64, d1: f64) -> (f64, f64) {
    if !(d0.is_finite() && d1.is_finite()) {
        return (0.0, 1.0);
    }
    if d1 > d0 {
        (d0, d1)
    } else {
        let pad = d0.abs().max(1.0) * 0.5;
        (d0 - pad, d0 + pad)
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw * 0.999)
        .unwrap_or(10.0 * p)
}

/// A tick's label: as few decimals as its step needs.
pub fn tick_label(x: f64) -> String {
    if x.abs() >= 1000.0 && x.fract() == 0.0 {
        return format!("{x:.0}");
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The plot area of a chart: its scales and the axes' titles.
pub struct Frame {
    /// Horizontal scale.
    pub x: Scale,
    /// Vertical scale.
    pub y: Scale,
}

impl Frame {
    /// Draws both axes with their ticks, light grid lines and titles.
    pub fn axes(&self, svg: &mut Svg, x_title: &str, y_title: &str) {
        self.axes_with(svg, x_title, y_title, None);
    }

    /// Draws both axes, the horizontal one with these ticks (value, label) when given.
    pub fn axes_with(
        &self,
        svg: &mut Svg,
        x_title: &str,
        y_title: &str,
        x_ticks: Option<&[(f64, String)]>,
    ) {
        let (left, right) = (self.x.r0, self.x.r1);
        let (bottom, top) = (self.y.r0, self.y.r1);
        for t in self.y.ticks(5) {
            let y = self.y.at(t);
            svg.line((left, y), (right, y), "#e4e4e4", 1.0);
            svg.text((left - 6.0, y + 4.0), &tick_label(t), 11.0, "end", &[]);
        }
        let auto: Vec<(f64, String)>;
        let ticks = match x_ticks {
            Some(t) => t,
            None => {
                auto = self
                    .x
                    .ticks(8)
                    .into_iter()
                    .map(|t| (t, tick_label(t)))
                    .collect();
                &auto
            }
        };
        for (t, label) in ticks {
            let x = self.x.at(*t);
            svg.line((x, bottom), (x, bottom + 4.0), "#444", 1.0);
            svg.text((x, bottom + 17.0), label, 11.0, "middle", &[]);
        }
        svg.line((left, bottom), (right, bottom), "#444", 1.0);
        svg.line((left, bottom), (left, top), "#444", 1.0);
        svg.text(
            ((left + right) / 2.0, bottom + 34.0),
            x_title,
            12.0,
            "middle",
            &[],
        );
        let (cx, cy) = (left - 44.0, (top + bottom) / 2.0);
        svg.text(
            (cx, cy),
            y_title,
            12.0,
            "middle",
            &[("transform", format!("rotate(-90 {} {})", num(cx), num(cy)))],
        );
    }
}

/// A colour between white (t = 0) and `to` (t = 1), as `#rrggbb`.
pub fn ramp(t: f64, to: (u8, u8, u8)) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mix = |c: u8| (255.0 + (c as f64 - 255.0) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(to.0), mix(to.1), mix(to.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_escape_their_text_and_attributes() {
        let mut s = Svg::new(10.0, 10.0);
        s.rect(
            0.0,
            0.0,
            1.0,
            1.0,
            "red",
            &[("data-row", "\"><script>".to_string())],
            Some("<script>alert(1)</script>"),
        );
        s.text((0.0, 0.0), "</svg><script>", 10.0, "start", &[]);
        let out = s.finish("a<b", &[]);
        assert!(!out.contains("<script"), "{out}");
        assert!(out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(out.contains("data-row=\"&quot;&gt;&lt;script&gt;\""));
    }

    #[test]
    fn scales_map_and_tick() {
        let s = Scale::linear(0.0, 1.0, 100.0, 300.0);
        assert_eq!(s.at(0.5), 200.0);
        assert_eq!(s.ticks(5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        let l = Scale::log(10.0, 1000.0, 0.0, 200.0);
        assert!((l.at(100.0) - 100.0).abs() < 1e-9);
        assert_eq!(l.ticks(5), vec![10.0, 100.0, 1000.0]);
        assert_eq!(tick_label(0.6000000000000001), "0.6");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.001), "0");
        assert_eq!(ramp(1.0, (200, 0, 0)), "#c80000");
        assert_eq!(ramp(0.0, (200, 0, 0)), "#ffffff");
    }
}

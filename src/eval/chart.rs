//! SVG charts of the evaluation figures (feature `chart`, on with the CLI; never in a wasm build):
//! the anchor audit's pass rates per instance ([`audit`]), the budget curve with its knee
//! ([`curve`]), the judges' precision–recall trade-off with their operating points ([`tradeoff`])
//! and the funnel of a decision log ([`funnel`]).
//!
//! Each function takes the figures a command already computed and returns the SVG document as a
//! string, drawn by `plotters` with only its SVG backend. The bytes depend on nothing but the
//! input: fixed size, fixed colours, fixed font family and sizes (text is laid out with plotters'
//! built-in size estimate, no system fonts are read), integer pixel coordinates. The `note` line
//! under each title says what was measured; callers keep it free of machine-specific paths.

use std::ops::Range;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::audit::InstanceAudit;
use super::curve::{Point, knee};
use crate::deliver::Funnel;
use crate::error::{Error, Result};

/// Width of every chart and height of its plot, in pixels (the header above it grows with the
/// legend).
const SIZE: (u32, u32) = (760, 380);
/// The one font family (the viewer's sans-serif; Hangul falls back to its own fonts).
const FONT: &str = "sans-serif";
/// Series colours, in order (the colour-blind-safe "tab10" start).
const PALETTE: [RGBColor; 5] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
];
const GREY: RGBColor = RGBColor(0x55, 0x5d, 0x6b);

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn draw_err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::invalid("chart", format!("drawing failed: {e}"))
}

fn finite(what: &str, values: impl IntoIterator<Item = f64>) -> Result<()> {
    if values.into_iter().all(f64::is_finite) {
        Ok(())
    } else {
        Err(Error::invalid("chart", format!("{what}: every value must be a finite number")))
    }
}

fn pct_label(v: &f64) -> String {
    format!("{v:.0}%")
}

/// One named bar series: a value and its printed label per category.
struct BarSeries {
    name: String,
    values: Vec<f64>,
    labels: Vec<String>,
}

/// Categories along x, one bar per series in each (grouped).
struct Bars<'a> {
    title: &'a str,
    note: &'a str,
    y_desc: &'a str,
    categories: Vec<String>,
    series: Vec<BarSeries>,
    y_max: f64,
    y_fmt: &'a dyn Fn(&f64) -> String,
}

fn bars(b: &Bars<'_>) -> Result<String> {
    if b.categories.is_empty() || b.series.is_empty() {
        return Err(Error::invalid("chart", "nothing to draw: no categories or no series"));
    }
    for s in &b.series {
        if s.values.len() != b.categories.len() || s.labels.len() != b.categories.len() {
            return Err(Error::invalid("chart", format!("series {:?}: one value per category", s.name)));
        }
        finite(&s.name, s.values.iter().copied())?;
    }
    finite("y axis", [b.y_max])?;
    let n = b.categories.len();
    let m = b.series.len();
    let mut svg = String::new();
    {
        let legend: Vec<(String, Swatch)> =
            if m > 1 { b.series.iter().map(|s| (s.name.clone(), Swatch::Bar)).collect() } else { Vec::new() };
        let root = SVGBackend::with_string(&mut svg, size(b.note, legend.len())).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let body = header(&root, b.title, b.note, &legend)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..n as f64, 0f64..b.y_max.max(1e-9) * 1.08)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(6)
            .y_label_formatter(b.y_fmt)
            .y_desc(b.y_desc)
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(0xe4, 0xe8, 0xee))
            .draw()
            .map_err(draw_err)?;
        // Each category gets width 1: bars side by side in its middle 80%, value labels on top.
        let width = 0.8 / m as f64;
        for (si, s) in b.series.iter().enumerate() {
            let c = colour(si);
            let x0 = |ci: usize| ci as f64 + 0.1 + si as f64 * width;
            chart
                .draw_series(s.values.iter().enumerate().map(|(ci, v)| {
                    Rectangle::new([(x0(ci) + 0.01, 0.0), (x0(ci) + width - 0.01, *v)], c.filled())
                }))
                .map_err(draw_err)?;
            let label_style = TextStyle::from((FONT, 11).into_font())
                .color(&GREY)
                .pos(Pos::new(HPos::Center, VPos::Bottom));
            for (ci, (v, text)) in s.values.iter().zip(&s.labels).enumerate() {
                let (px, py) = chart.backend_coord(&(x0(ci) + width / 2.0, *v));
                root.draw(&Text::new(text.clone(), (px, py - 3), label_style.clone())).map_err(draw_err)?;
            }
        }
        let cat_style =
            TextStyle::from((FONT, 13).into_font()).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
        for (ci, name) in b.categories.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(ci as f64 + 0.5, 0.0));
            root.draw(&Text::new(name.clone(), (px, py + 8), cat_style.clone())).map_err(draw_err)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// One named line series.
struct LineData {
    name: String,
    points: Vec<(f64, f64)>,
}

/// A marked point (knee, operating point) on a line series: a ring there, its label in the legend.
struct Mark {
    series: usize,
    at: (f64, f64),
    label: String,
}

struct Lines<'a> {
    title: &'a str,
    note: &'a str,
    x_desc: &'a str,
    y_desc: &'a str,
    x: Range<f64>,
    y: Range<f64>,
    x_fmt: &'a dyn Fn(&f64) -> String,
    y_fmt: &'a dyn Fn(&f64) -> String,
    series: Vec<LineData>,
    marks: Vec<Mark>,
    /// A dot at every point (few points), or the bare line (a sweep).
    dots: bool,
}

fn lines(l: &Lines<'_>) -> Result<String> {
    if l.series.is_empty() || l.series.iter().all(|s| s.points.is_empty()) {
        return Err(Error::invalid("chart", "nothing to draw: no points"));
    }
    for s in &l.series {
        finite(&s.name, s.points.iter().flat_map(|(x, y)| [*x, *y]))?;
    }
    finite("marks", l.marks.iter().flat_map(|m| [m.at.0, m.at.1]))?;
    finite("axes", [l.x.start, l.x.end, l.y.start, l.y.end])?;
    if l.x.start >= l.x.end || l.y.start >= l.y.end {
        return Err(Error::invalid("chart", "an axis range is empty"));
    }
    let mut svg = String::new();
    {
        let legend: Vec<(String, Swatch)> = l
            .series
            .iter()
            .enumerate()
            .map(|(si, s)| {
                let marks: Vec<&str> =
                    l.marks.iter().filter(|m| m.series == si).map(|m| m.label.as_str()).collect();
                let name = if marks.is_empty() {
                    s.name.clone()
                } else {
                    format!("{} — ◯ {}", s.name, marks.join("; "))
                };
                (name, Swatch::Line)
            })
            .collect();
        let root = SVGBackend::with_string(&mut svg, size(l.note, legend.len())).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let body = header(&root, l.title, l.note, &legend)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(l.x.clone(), l.y.clone())
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_labels(8)
            .y_labels(6)
            .x_label_formatter(l.x_fmt)
            .y_label_formatter(l.y_fmt)
            .x_desc(l.x_desc)
            .y_desc(l.y_desc)
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(0xe4, 0xe8, 0xee))
            .draw()
            .map_err(draw_err)?;
        for (si, s) in l.series.iter().enumerate() {
            let c = colour(si);
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))
                .map_err(draw_err)?;
            if l.dots {
                chart
                    .draw_series(s.points.iter().map(|p| Circle::new(*p, 3, c.filled())))
                    .map_err(draw_err)?;
            }
        }
        for m in &l.marks {
            chart.draw_series([Circle::new(m.at, 7, colour(m.series).stroke_width(2))]).map_err(draw_err)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, PartialEq)]
enum Swatch {
    Bar,
    Line,
}

/// The note's lines: words wrapped at about `width` characters.
fn wrap(note: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in note.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Characters per note line.
const NOTE_WIDTH: usize = 120;

/// Height of the header: title, the note's lines and one line per legend entry.
fn header_height(note: &str, entries: usize) -> u32 {
    42 + 16 * wrap(note, NOTE_WIDTH).len() as u32 + 18 * entries as u32
}

/// The title, the note and the legend (one entry per line: swatch, name) above the chart; returns
/// the area left for the chart. The legend lives here, outside the plot, so it never hides data.
fn header<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    title: &str,
    note: &str,
    legend: &[(String, Swatch)],
) -> Result<DrawingArea<SVGBackend<'a>, plotters::coord::Shift>> {
    let (top, body) = root.split_vertically(header_height(note, legend.len()));
    let left = Pos::new(HPos::Left, VPos::Top);
    top.draw(&Text::new(title.to_string(), (16, 10), TextStyle::from((FONT, 20).into_font()).pos(left)))
        .map_err(draw_err)?;
    let note_style = TextStyle::from((FONT, 13).into_font()).color(&GREY).pos(left);
    let lines = wrap(note, NOTE_WIDTH);
    for (i, line) in lines.iter().enumerate() {
        top.draw(&Text::new(line.clone(), (16, 36 + 16 * i as i32), note_style.clone())).map_err(draw_err)?;
    }
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, swatch)) in legend.iter().enumerate() {
        let c = colour(i);
        let y = 46 + 16 * lines.len() as i32 + 18 * i as i32;
        match swatch {
            Swatch::Bar => top.draw(&Rectangle::new([(72, y - 5), (86, y + 5)], c.filled())),
            Swatch::Line => top.draw(&PathElement::new(vec![(68, y), (90, y)], c.stroke_width(2))),
        }
        .map_err(draw_err)?;
        top.draw(&Text::new(name.clone(), (98, y), style.clone())).map_err(draw_err)?;
    }
    Ok(body)
}

fn size(note: &str, legend: usize) -> (u32, u32) {
    (SIZE.0, SIZE.1 + header_height(note, legend))
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { 100.0 * n as f64 / d as f64 }
}

/// `groundgate audit --svg`: per instance, the share of its labelled prompts the relevance judge
/// accepted, the sufficiency judge accepted and an anchor matched (grouped bars, in percent).
pub fn audit(report: &[InstanceAudit], note: &str) -> Result<String> {
    let series = [
        ("relevant", (|a: &InstanceAudit| a.relevant) as fn(&InstanceAudit) -> usize),
        ("sufficient", |a| a.sufficient),
        ("anchored", |a| a.anchored),
    ]
    .into_iter()
    .map(|(name, get)| BarSeries {
        name: name.into(),
        values: report.iter().map(|a| pct(get(a), a.prompts)).collect(),
        labels: report.iter().map(|a| format!("{:.0}%", pct(get(a), a.prompts))).collect(),
    })
    .collect();
    bars(&Bars {
        title: "Anchor and relevance audit: pass rates per instance",
        note,
        y_desc: "share of the instance's labelled prompts",
        categories: report.iter().map(|a| format!("{} ({})", a.instance, a.prompts)).collect(),
        series,
        y_max: 100.0,
        y_fmt: &pct_label,
    })
}

/// `groundgate curve --svg`: the share of questions whose gold is inside the injected text per
/// budget, one line per top k, each series' knee (the smallest budget within `slack` of its best)
/// marked.
pub fn curve(points: &[Point], slack: f64, note: &str) -> Result<String> {
    if points.iter().all(|p| p.questions == 0) {
        return Err(Error::invalid("chart", "no labelled question with gold: the curve has no points"));
    }
    let mut tops: Vec<usize> = points.iter().map(|p| p.top_k).collect();
    tops.sort_unstable();
    tops.dedup();
    let mut series = Vec::new();
    let mut marks = Vec::new();
    for (si, &t) in tops.iter().enumerate() {
        let mut pts: Vec<&Point> = points.iter().filter(|p| p.top_k == t).collect();
        pts.sort_by_key(|p| p.budget);
        series.push(LineData {
            name: format!("top {t}"),
            points: pts.iter().map(|p| (p.budget as f64, 100.0 * p.rate())).collect(),
        });
        if let Some(k) = knee(points, t, slack)
            && let Some(p) = pts.iter().find(|p| p.budget == k)
        {
            marks.push(Mark {
                series: si,
                at: (k as f64, 100.0 * p.rate()),
                label: format!("knee: {k} chars, {:.1}%", 100.0 * p.rate()),
            });
        }
    }
    let max_budget = points.iter().map(|p| p.budget).max().unwrap_or(1) as f64;
    lines(&Lines {
        title: "Budget curve: gold inside the injected text",
        note,
        x_desc: "budget (characters per instance)",
        y_desc: "questions with the gold inside",
        x: 0.0..max_budget * 1.05,
        y: 0.0..100.0,
        x_fmt: &|x| format!("{x:.0}"),
        y_fmt: &pct_label,
        series,
        marks,
        dots: true,
    })
}

/// One judge's scored rows for [`tradeoff`]: (p, is positive) pairs and its threshold.
#[derive(Debug, Clone, Copy)]
pub struct Judge<'a> {
    /// Series name, e.g. "sufficiency (fitted)".
    pub name: &'a str,
    /// (p, is positive) per row, as [`scored_rows`](super::calibrate::scored_rows) gives them.
    pub scored: &'a [(f64, bool)],
    /// The operating point.
    pub threshold: f64,
}

/// (recall, precision) in percent at threshold `t`, when anything is accepted and there are
/// positives.
fn recall_precision(scored: &[(f64, bool)], t: f64) -> Option<(f64, f64)> {
    let positives = scored.iter().filter(|(_, y)| *y).count();
    let accepted: Vec<bool> = scored.iter().filter(|(p, _)| *p >= t).map(|(_, y)| *y).collect();
    let tp = accepted.iter().filter(|y| **y).count();
    (!accepted.is_empty() && positives > 0).then(|| (pct(tp, positives), pct(tp, accepted.len())))
}

/// `groundgate calibrate --svg`: each judge's precision against recall as its threshold sweeps
/// 0.00–1.00 (steps of 0.01), its operating point marked.
pub fn tradeoff(judges: &[Judge<'_>], note: &str) -> Result<String> {
    let mut series = Vec::new();
    let mut marks = Vec::new();
    for (si, j) in judges.iter().enumerate() {
        finite(j.name, j.scored.iter().map(|(p, _)| *p).chain([j.threshold]))?;
        let points: Vec<(f64, f64)> =
            (0..=100).filter_map(|i| recall_precision(j.scored, i as f64 / 100.0)).collect();
        series.push(LineData { name: j.name.to_string(), points });
        if let Some(at) = recall_precision(j.scored, j.threshold) {
            marks.push(Mark {
                series: si,
                at,
                label: format!(
                    "operating point t = {:.4}: precision {:.1}%, recall {:.1}%",
                    j.threshold, at.1, at.0
                ),
            });
        }
    }
    lines(&Lines {
        title: "Gate trade-off: precision against recall per judge",
        note,
        x_desc: "recall (threshold sweep 0.00 to 1.00)",
        y_desc: "precision",
        x: 0.0..102.0,
        y: 0.0..102.0,
        x_fmt: &pct_label,
        y_fmt: &pct_label,
        series,
        marks,
        dots: false,
    })
}

/// `groundgate stats --svg`: the funnel's steps as bars, each labelled with its count and its
/// share of all prompts.
pub fn funnel(f: &Funnel, note: &str) -> Result<String> {
    let steps = [
        ("prompts", f.prompts),
        ("too long", f.too_long),
        ("too few words", f.too_few_words),
        ("small talk", f.small_talk),
        ("not relevant", f.not_relevant),
        ("relevant", f.relevant),
        ("sufficient", f.sufficient),
        ("forced by tag", f.forced),
        ("injected", f.injected),
    ];
    if f.prompts == 0 {
        return Err(Error::invalid("chart", "the funnel is empty: no decision log was read"));
    }
    bars(&Bars {
        title: "Funnel: what happened to each prompt",
        note,
        y_desc: "prompts",
        categories: steps.iter().map(|(s, _)| s.to_string()).collect(),
        series: vec![BarSeries {
            name: "prompts".into(),
            values: steps.iter().map(|(_, n)| *n as f64).collect(),
            labels: steps.iter().map(|(_, n)| format!("{n} ({:.1}%)", pct(*n, f.prompts))).collect(),
        }],
        y_max: f.prompts as f64,
        y_fmt: &|v| format!("{v:.0}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
    }

    /// Elements named `tag` whose `attr` is series colour `i`.
    fn coloured(doc: &roxmltree::Document<'_>, tag: &str, attr: &str, i: usize) -> usize {
        let c = PALETTE[i];
        let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        doc.descendants().filter(|n| n.has_tag_name(tag) && n.attribute(attr) == Some(hex.as_str())).count()
    }

    fn audit_report() -> Vec<InstanceAudit> {
        let a = |name: &str, prompts, relevant, sufficient, anchored| InstanceAudit {
            instance: name.into(),
            prompts,
            relevant,
            sufficient,
            anchored,
            filtered: Vec::new(),
            suggested: Vec::new(),
            anchors: Vec::new(),
        };
        vec![a("rnd", 125, 122, 84, 109), a("constitution", 38, 35, 30, 26), a("lohelp", 22, 19, 1, 22)]
    }

    fn curve_points() -> Vec<Point> {
        let p = |budget, top_k, gold_inside| Point {
            budget,
            top_k,
            questions: 120,
            gold_inside,
            mean_chars: 0.0,
        };
        vec![
            p(300, 4, 41),
            p(600, 4, 60),
            p(1800, 4, 81),
            p(3600, 4, 84),
            p(300, 8, 42),
            p(600, 8, 60),
            p(1800, 8, 84),
            p(3600, 8, 94),
        ]
    }

    #[test]
    fn audit_chart_has_a_bar_per_instance_and_judge() {
        let svg = audit(&audit_report(), "test").expect("chart");
        let doc = parse(&svg);
        for series in 0..3 {
            // Three bars and one legend swatch per series.
            assert_eq!(coloured(&doc, "rect", "fill", series), 4, "series {series}");
        }
        assert_eq!(coloured(&doc, "rect", "fill", 3), 0);
        let text: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("constitution (38)") && text.contains("98%") && text.contains("relevant"));
    }

    #[test]
    fn curve_chart_has_one_line_per_top_and_marks_each_knee() {
        let svg = curve(&curve_points(), 0.01, "120 questions").expect("chart");
        let doc = parse(&svg);
        for series in 0..2 {
            // The line and its legend swatch.
            assert_eq!(coloured(&doc, "polyline", "stroke", series), 2, "series {series}");
        }
        assert_eq!(coloured(&doc, "polyline", "stroke", 2), 0);
        let text: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("top 4 — ◯ knee: 3600 chars, 70.0%"), "{text}");
        assert!(text.contains("top 8 — ◯ knee: 3600 chars, 78.3%"), "{text}");
    }

    #[test]
    fn tradeoff_chart_sweeps_each_judge_and_marks_its_operating_point() {
        let suf: Vec<(f64, bool)> = (0..40).map(|i| (i as f64 / 40.0, i % 3 != 0 && i > 8)).collect();
        let rel: Vec<(f64, bool)> = (0..40).map(|i| (i as f64 / 40.0, i > 20)).collect();
        let judges = [
            Judge { name: "relevance", scored: &rel, threshold: 0.5 },
            Judge { name: "sufficiency", scored: &suf, threshold: 0.55 },
        ];
        let svg = tradeoff(&judges, "fitted on all").expect("chart");
        let doc = parse(&svg);
        for series in 0..2 {
            assert_eq!(coloured(&doc, "polyline", "stroke", series), 2, "series {series}");
        }
        // At 0.5 the relevance judge accepts rows 20..40, 19 of them positive: P 95%, R 100%.
        let text: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("t = 0.5000: precision 95.0%, recall 100.0%"), "{text}");
        assert!(text.contains("t = 0.5500"), "{text}");
    }

    #[test]
    fn funnel_chart_has_a_bar_per_step() {
        let f = Funnel {
            prompts: 250,
            not_relevant: 60,
            relevant: 190,
            sufficient: 70,
            injected: 72,
            forced: 2,
            ..Funnel::default()
        };
        let svg = funnel(&f, "heldout").expect("chart");
        let doc = parse(&svg);
        // Nine steps, one series: no legend.
        assert_eq!(coloured(&doc, "rect", "fill", 0), 9);
        let text: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("190 (76.0%)") && text.contains("too few words"), "{text}");
        assert!(text.contains("small talk"), "{text}");
    }

    #[test]
    fn long_notes_wrap() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("", 4), [""]);
        let long = "word ".repeat(60);
        let svg = curve(&curve_points(), 0.01, long.trim()).expect("chart");
        let doc = parse(&svg);
        let lines = doc
            .descendants()
            .filter(|n| n.is_element() && n.text().is_some_and(|t| t.trim().starts_with("word")))
            .count();
        assert_eq!(lines, 3);
    }

    #[test]
    fn same_input_same_bytes() {
        assert_eq!(
            curve(&curve_points(), 0.01, "n").expect("a"),
            curve(&curve_points(), 0.01, "n").expect("b")
        );
        assert_eq!(audit(&audit_report(), "n").expect("a"), audit(&audit_report(), "n").expect("b"));
        assert_ne!(
            curve(&curve_points(), 0.01, "n").expect("a"),
            curve(&curve_points(), 0.01, "m").expect("b")
        );
    }

    #[test]
    fn bad_figures_are_typed_errors() {
        assert_eq!(curve(&[], 0.01, "").map_err(|e| e.code()), Err("invalid_argument"));
        assert_eq!(audit(&[], "").map_err(|e| e.code()), Err("invalid_argument"));
        assert_eq!(funnel(&Funnel::default(), "").map_err(|e| e.code()), Err("invalid_argument"));
        let nan = [(f64::NAN, true)];
        let j = [Judge { name: "x", scored: &nan, threshold: 0.5 }];
        assert_eq!(tradeoff(&j, "").map_err(|e| e.code()), Err("invalid_argument"));
        // A judge with nothing positive draws no line: nothing to draw.
        let none = [(0.2, false)];
        let j = [Judge { name: "x", scored: &none, threshold: 0.5 }];
        assert_eq!(tradeoff(&j, "").map_err(|e| e.code()), Err("invalid_argument"));
    }
}

//! `--svg FILE` of audit, curve, calibrate and stats: each writes a well-formed SVG chart with the
//! expected series, the same bytes twice, and the command's table is unchanged beside it.

use crate::util::{excerpt_index_file, groundgate};

/// Labelled prompts with gold on the excerpt index: constitution articles and a Python FAQ section.
const LABELS: &str = concat!(
    "{\"id\": \"c1\", \"prompt\": \"대한민국의 주권은 누구에게 있나요\", \"gold\": [{\"source\": \"constitution\", \"articles\": [1]}]}\n",
    "{\"id\": \"c2\", \"prompt\": \"거주 이전의 자유는 헌법 몇 조에 있어\", \"gold\": [{\"source\": \"constitution\", \"articles\": [14]}]}\n",
    "{\"id\": \"c3\", \"prompt\": \"헌법에서 국군의 정치적 중립성은 어떻게 규정하나요\", \"gold\": [{\"source\": \"constitution\", \"articles\": [5]}]}\n",
    "{\"id\": \"s1\", \"kind\": \"sentence\", \"prompt\": \"모든 국민은 거주·이전의 자유를 가진다.\", \"gold\": [{\"source\": \"constitution\", \"articles\": [14]}]}\n",
    "{\"id\": \"u1\", \"prompt\": \"오늘 점심 메뉴 추천해줘\", \"kind\": \"unrelated\"}\n",
    "{\"id\": \"u2\", \"prompt\": \"React useEffect가 두 번 실행돼요\", \"kind\": \"unrelated\"}\n",
);

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("groundgate-charts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir.join(name)
}

/// Run `args` with `--svg` twice; check both runs' bytes are equal and parse as SVG; return it.
fn chart(args: &[&str], name: &str) -> String {
    let mut svgs = Vec::new();
    for run in 0..2 {
        let path = tmp(&format!("{run}-{name}"));
        let p = path.to_str().expect("path");
        let mut full = args.to_vec();
        full.extend(["--svg", p]);
        let out = groundgate(&full, "");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).expect("utf8");
        assert!(text.contains("chart written to "), "{text}");
        svgs.push(std::fs::read_to_string(&path).expect("the chart file"));
    }
    assert_eq!(svgs[0], svgs[1], "{name}: the same input gives the same bytes");
    let doc = roxmltree::Document::parse(&svgs[0]).expect("the chart is XML");
    assert!(doc.root_element().has_tag_name("svg"));
    svgs.remove(0)
}

/// Polylines (line series) and filled rects (bars) per colour: how many series were drawn.
fn series_colours(svg: &str, tag: &str, attr: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("xml");
    let mut colours: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name(tag))
        .filter_map(|n| n.attribute(attr))
        .filter(|c| !matches!(*c, "#FFFFFF" | "#000000" | "none"))
        .collect();
    colours.sort_unstable();
    colours.dedup();
    colours.len()
}

#[test]
fn audit_curve_calibrate_and_stats_draw_svg_charts() {
    let idx = excerpt_index_file("charts.ggi");
    let idx = idx.to_str().expect("path");
    let labels = tmp("labels.jsonl");
    std::fs::write(&labels, LABELS).expect("labels");
    let l = labels.to_str().expect("path");

    let svg = chart(&["curve", "--index", idx, "--labels", l, "--budgets", "200,600,1800"], "curve.svg");
    assert_eq!(series_colours(&svg, "polyline", "stroke"), 2, "top 4 and top 8");
    assert!(svg.contains("3 labelled questions with gold (groundgate-charts-"), "the note names the labels");
    assert!(svg.contains("knee:"), "the knee is marked");
    assert!(!svg.contains(&*std::env::temp_dir().to_string_lossy()), "no machine paths in the chart");

    let svg = chart(&["audit", "--index", idx, "--labels", l], "audit.svg");
    assert_eq!(series_colours(&svg, "rect", "fill"), 3, "relevant, sufficient, anchored");
    assert!(svg.contains("excerpts (4)"), "one group for the instance and its 4 prompts");

    let svg = chart(&["calibrate", "--index", idx, "--labels", l, "--folds", "2"], "tradeoff.svg");
    assert_eq!(series_colours(&svg, "polyline", "stroke"), 2, "relevance and sufficiency");
    assert!(svg.contains("operating point t = "), "operating points marked");
    let svg = chart(
        &["calibrate", "--index", idx, "--labels", l, "--folds", "2", "--test", l],
        "tradeoff-test.svg",
    );
    assert_eq!(series_colours(&svg, "polyline", "stroke"), 4, "training and test series");

    let log = tmp("ask.jsonl");
    let out = groundgate(&["ask", "--index", idx, "--now", "0", "--jsonl"], LABELS);
    assert!(out.status.success());
    std::fs::write(&log, out.stdout).expect("log");
    let svg = chart(&["stats", log.to_str().expect("path")], "funnel.svg");
    assert!(svg.contains("6 prompts: "), "{svg}");
    assert!(svg.contains("6 (100.0%)"), "the first bar is every prompt");
}

#[test]
fn a_chart_that_cannot_be_written_is_an_error() {
    let idx = excerpt_index_file("charts-err.ggi");
    let labels = tmp("labels-err.jsonl");
    std::fs::write(&labels, LABELS).expect("labels");
    let out = groundgate(
        &[
            "curve",
            "--index",
            idx.to_str().expect("path"),
            "--labels",
            labels.to_str().expect("path"),
            "--svg",
            "/nonexistent-dir/curve.svg",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent-dir/curve.svg"));
    // Labels without a single question with gold: nothing to draw, said so.
    let none = tmp("labels-none.jsonl");
    std::fs::write(&none, "{\"prompt\": \"점심 메뉴\", \"kind\": \"unrelated\"}\n").expect("labels");
    let out = groundgate(
        &[
            "curve",
            "--index",
            idx.to_str().expect("path"),
            "--labels",
            none.to_str().expect("path"),
            "--svg",
            tmp("empty.svg").to_str().expect("path"),
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no question with gold to measure"), "{out:?}");
}

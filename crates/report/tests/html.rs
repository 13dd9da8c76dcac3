//! The HTML renderer: one self-contained file, escaped text, heat-map data on the lines,
//! charts and CFGs as inline SVG, links from tables, findings and CFG nodes to lines.

use warpscope_report::page::{
    Card, Chart, ChartKind, Graph, GraphEdge, GraphNode, LineRef, Metric, NodeMark, Page, Row,
    Series, Table,
};
use warpscope_report::{Certainty, Finding, Location, Rule, SourceLocation, Verdict, html};

fn page() -> Page {
    let mut p = Page {
        title: "t <&> \"q\"".into(),
        ..Page::default()
    };
    p.add_metric(Metric::new("idle_lanes", "idle lanes", "help"));
    p.add_metric(Metric::new("idle_lanes", "again", "dup"));
    let src = "int a;\nif (x < 3) {\n  y = 1;\n}\n";
    let f = p.source_mut("k.cu", Some(src));
    f.line_mut(2).values.insert("idle_lanes".into(), 96.0);
    f.line_mut(2).ptx.push("   12: @%p1 bra $L__BB0_2;".into());
    let mut c = Card::new("kern");
    c.item("SIMT efficiency", "50.0%");
    p.cards.push(c);
    p.tables.push(Table {
        title: "ranked".into(),
        columns: vec!["where".into()],
        rows: vec![Row {
            cells: vec!["k.cu:2".into()],
            at: Some(LineRef {
                file: "k.cu".into(),
                line: 2,
            }),
        }],
    });
    p.charts.push(Chart {
        title: "bars".into(),
        kind: ChartKind::Bars,
        x_label: "kernel".into(),
        y_label: "%".into(),
        categories: vec!["kern".into(), "other".into()],
        series: vec![Series {
            name: "simt".into(),
            points: vec![(0.0, 50.0), (1.0, 90.0)],
        }],
        diagonal: false,
        log_x: false,
    });
    p.charts.push(Chart {
        title: "sweep".into(),
        kind: ChartKind::Lines,
        x_label: "bytes".into(),
        y_label: "hit rate".into(),
        categories: vec![],
        series: vec![Series {
            name: "L1".into(),
            points: vec![(1024.0, 0.2), (4096.0, 0.5), (16384.0, 0.9)],
        }],
        diagonal: false,
        log_x: true,
    });
    p.graphs.push(Graph {
        title: "kern".into(),
        nodes: vec![
            GraphNode {
                label: "block0\nline 2".into(),
                mark: NodeMark::Divergent,
                at: Some(LineRef {
                    file: "k.cu".into(),
                    line: 2,
                }),
            },
            GraphNode {
                label: "block1".into(),
                mark: NodeMark::Plain,
                at: None,
            },
            GraphNode {
                label: "block2".into(),
                mark: NodeMark::Reconvergence,
                at: None,
            },
        ],
        edges: vec![
            GraphEdge {
                from: 0,
                to: 1,
                label: "T".into(),
            },
            GraphEdge {
                from: 0,
                to: 2,
                label: String::new(),
            },
            GraphEdge {
                from: 1,
                to: 2,
                label: String::new(),
            },
        ],
    });
    let mut f = Finding::new(
        Rule::DivergentBranch,
        Certainty::Definite,
        "kern",
        "branch <diverges>",
        Location {
            cuda: Some(SourceLocation {
                file: "k.cu".into(),
                line: 2,
                col: 5,
            }),
            ..Location::default()
        },
    );
    f.verdict = Some(Verdict::Confirmed);
    p.findings.push(f);
    p
}

#[test]
fn self_contained_and_escaped() {
    let h = html::render(&page());
    assert!(h.starts_with("<!DOCTYPE html>"));
    assert!(h.contains("<title>t &lt;&amp;&gt; &quot;q&quot;</title>"));
    assert!(h.contains("branch &lt;diverges&gt;"));
    // Nothing to fetch: no external scripts, styles, images or fonts.
    for bad in [
        "<script src",
        "<link rel=\"stylesheet\"",
        "<img",
        "@import",
        "url(http",
    ] {
        assert!(!h.contains(bad), "{bad}");
    }
    assert!(!h.contains("href=\"http"));
    assert!(!h.contains("<?xml"), "inline SVG keeps no XML declaration");
}

#[test]
fn lines_carry_metrics_ptx_and_findings() {
    let p = page();
    assert_eq!(p.metrics.len(), 1, "a metric id is added once");
    let h = html::render(&p);
    assert!(h.contains("<option value=\"idle_lanes\""));
    assert!(h.contains("id=\"f0-L2\" data-v=\"{&quot;idle_lanes&quot;:96.0}\""));
    assert!(h.contains("id=\"ptx-f0-L2\" hidden"));
    assert!(h.contains("@%p1 bra $L__BB0_2;"));
    assert!(h.contains("<span class=\"tag v-confirmed\">confirmed</span>"));
    // Lines without data still show, without a PTX row.
    assert!(h.contains("id=\"f0-L3\""));
    assert!(!h.contains("id=\"ptx-f0-L3\""));
}

#[test]
fn tables_findings_and_cfg_nodes_link_to_lines() {
    let h = html::render(&page());
    // The ranked row, the finding row and the CFG node all point at line 2.
    assert!(h.matches("data-target=\"f0-L2\"").count() >= 3, "{h}");
    assert!(h.contains("class=\"cfg-node divergent\""));
    assert!(h.contains("class=\"cfg-node reconvergence\""));
}

#[test]
fn charts_are_inline_svg() {
    let h = html::render(&page());
    let charts = &h[h.find("id=\"charts\"").unwrap()..h.find("id=\"cfg\"").unwrap()];
    assert_eq!(charts.matches("<svg").count(), 2);
    assert!(charts.contains("bars") && charts.contains("sweep"));
    assert!(charts.contains("<rect"), "bars drawn as rectangles");
    assert!(charts.contains("<polyline"), "sweep drawn as a line");
}

#[test]
fn page_round_trips_through_json() {
    let p = page();
    let s = serde_json::to_string(&p).unwrap();
    let q: Page = serde_json::from_str(&s).unwrap();
    assert_eq!(p, q);
}

#[test]
fn empty_page_renders() {
    let h = html::render(&Page::default());
    assert!(h.contains("</html>"));
    assert!(!h.contains("id=\"source\""));
}

#[test]
fn heat_map_opens_on_the_first_metric_with_a_positive_value() {
    let mut p = page();
    // A metric that is zero everywhere goes first in the menu: the page must not open blank.
    p.metrics
        .insert(0, Metric::new("bank_ways", "bank-conflict ways", "help"));
    p.source_mut("k.cu", None)
        .line_mut(3)
        .values
        .insert("bank_ways".into(), 0.0);
    assert_eq!(html::first_nonzero_metric(&p), 1);
    let h = html::render(&p);
    assert!(h.contains("<option value=\"idle_lanes\" title=\"help\" selected>"));
    assert!(!h.contains("<option value=\"bank_ways\" title=\"help\" selected>"));
    // Nothing positive anywhere: the first metric.
    p.source_mut("k.cu", None)
        .line_mut(2)
        .values
        .insert("idle_lanes".into(), 0.0);
    assert_eq!(html::first_nonzero_metric(&p), 0);
}

//! Control-flow graphs as inline SVG, laid out by `layout-rs` (no Graphviz at run time).

use crate::page::{Graph, NodeMark};
use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

fn fill(mark: NodeMark) -> &'static str {
    match mark {
        NodeMark::Plain => "#ffffff",
        NodeMark::Divergent => "#f8c9b5",
        NodeMark::Reconvergence => "#bfe3d4",
        NodeMark::DivergentAndReconvergence => "#f1e0a0",
    }
}

/// The graph as an `<svg>` element (empty for a graph without nodes).
pub fn svg(graph: &Graph, anchor: impl Fn(&crate::page::LineRef) -> Option<String>) -> String {
    if graph.nodes.is_empty() {
        return String::new();
    }
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let handles: Vec<_> = graph
        .nodes
        .iter()
        .map(|n| {
            let look = StyleAttr::new(
                Color::fast("black"),
                if n.mark == NodeMark::Plain { 1 } else { 2 },
                Color::from_name(fill(n.mark)),
                4,
                12,
            );
            let lines = n.label.lines().count().max(1) as f64;
            let width = n.label.lines().map(str::len).max().unwrap_or(4) as f64 * 7.5 + 16.0;
            let size = Point::new(width.max(60.0), 18.0 * lines + 10.0);
            let mut props = format!("class=\"cfg-node {}\"", mark_class(n.mark));
            if let Some(id) = n.at.as_ref().and_then(&anchor) {
                props.push_str(&format!(" data-target=\"{id}\""));
            }
            vg.add_node(Element::create_with_properties(
                ShapeKind::new_box(&n.label),
                look,
                Orientation::LeftToRight,
                size,
                props,
            ))
        })
        .collect();
    for e in &graph.edges {
        if let (Some(&a), Some(&b)) = (handles.get(e.from), handles.get(e.to)) {
            vg.add_edge(Arrow::simple(&e.label), a, b);
        }
    }
    let mut w = SVGWriter::new();
    vg.do_it(false, false, false, &mut w);
    let s = w.finalize();
    // Inline SVG in HTML: drop the XML declaration.
    match s.find("<svg") {
        Some(i) => s[i..].to_string(),
        None => s,
    }
}

fn mark_class(m: NodeMark) -> &'static str {
    match m {
        NodeMark::Plain => "plain",
        NodeMark::Divergent => "divergent",
        NodeMark::Reconvergence => "reconvergence",
        NodeMark::DivergentAndReconvergence => "divergent reconvergence",
    }
}

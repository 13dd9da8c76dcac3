//! The report document: everything an HTML report shows, as plain data any mode can fill.
//!
//! A [`Page`] holds the CUDA sources with per-line metric columns (the heat map) and the PTX
//! of each line, the [`Finding`]s (static and dynamic, with `--confirm` verdicts), ranked
//! [`Table`]s whose rows point at lines, per-kernel summary [`Card`]s, [`Chart`] series and
//! control-flow [`Graph`]s. It knows nothing about HTML: [`crate::html`] draws it, and it
//! serialises to JSON for anything else. `warpscope check`, `profile` and `report` fill it in
//! the CLI; a new mode adds its own cards, tables, charts and metric columns to the same page.

use crate::Finding;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A whole report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub title: String,
    /// Lines under the title: inputs, spec, options.
    #[serde(default)]
    pub subtitle: Vec<String>,
    /// Metrics the heat map can show, in menu order (the first is shown first).
    #[serde(default)]
    pub metrics: Vec<Metric>,
    #[serde(default)]
    pub sources: Vec<SourceFile>,
    #[serde(default)]
    pub cards: Vec<Card>,
    #[serde(default)]
    pub charts: Vec<Chart>,
    #[serde(default)]
    pub tables: Vec<Table>,
    #[serde(default)]
    pub graphs: Vec<Graph>,
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Caveats and what was not measured.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A per-line quantity the heat map can colour by. Larger values are worse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metric {
    /// Stable id (`idle_lanes`, `divergent_visits`, ...), the key of [`LineData::values`].
    pub id: String,
    /// What the menu shows.
    pub label: String,
    /// One sentence on what it counts.
    #[serde(default)]
    pub help: String,
}

impl Metric {
    pub fn new(id: &str, label: &str, help: &str) -> Metric {
        Metric {
            id: id.into(),
            label: label.into(),
            help: help.into(),
        }
    }
}

/// A source file (CUDA, or PTX when there is no `.loc`) and what is known about its lines.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceFile {
    /// The name `.file` gives (repository-relative for the corpus).
    pub name: String,
    /// The text, one entry per line (empty when the file could not be read).
    #[serde(default)]
    pub lines: Vec<String>,
    /// Per 1-based line number.
    #[serde(default)]
    pub annotations: BTreeMap<u32, LineData>,
}

impl SourceFile {
    /// The annotation of `line`, created empty when missing.
    pub fn line_mut(&mut self, line: u32) -> &mut LineData {
        self.annotations.entry(line).or_default()
    }
}

/// Metric values and PTX of one source line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LineData {
    /// [`Metric::id`] → value (absent: nothing measured there).
    #[serde(default)]
    pub values: BTreeMap<String, f64>,
    /// The PTX instructions of the line, as `ptx-line: text`.
    #[serde(default)]
    pub ptx: Vec<String>,
}

/// A line of a source file, as tables, findings and graphs point at it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineRef {
    pub file: String,
    pub line: u32,
}

/// A summary card: a title (usually a kernel) and label/value pairs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub title: String,
    #[serde(default)]
    pub items: Vec<CardItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardItem {
    pub label: String,
    pub value: String,
}

impl Card {
    pub fn new(title: impl Into<String>) -> Card {
        Card {
            title: title.into(),
            items: Vec::new(),
        }
    }

    /// Whether the card has a row labelled `label`.
    pub fn has(&self, label: &str) -> bool {
        self.items.iter().any(|i| i.label == label)
    }

    /// Adds a row.
    pub fn item(&mut self, label: impl Into<String>, value: impl Into<String>) -> &mut Card {
        self.items.push(CardItem {
            label: label.into(),
            value: value.into(),
        });
        self
    }
}

/// A ranked table; a row with [`Row::at`] links to its line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    #[serde(default)]
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub cells: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<LineRef>,
}

/// How a chart draws its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChartKind {
    /// Grouped bars: point `(i, v)` of each series is a bar over category `i`.
    Bars,
    /// Lines through the points of each series (x sorted).
    Lines,
    /// Points only; with `diagonal`, the line y = x (estimate vs measured).
    Scatter,
}

/// A chart: series of (x, y) points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    pub title: String,
    pub kind: ChartKind,
    pub x_label: String,
    pub y_label: String,
    /// Category names of [`ChartKind::Bars`] (x = index).
    #[serde(default)]
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    /// Draw the line y = x (Scatter).
    #[serde(default)]
    pub diagonal: bool,
    /// Logarithmic x axis (Lines: cache sizes).
    #[serde(default)]
    pub log_x: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A control-flow graph with its divergent branches and reconvergence points marked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Graph {
    pub title: String,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

/// What a CFG node is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeMark {
    #[default]
    Plain,
    /// Ends in a branch that diverged (or may diverge).
    Divergent,
    /// The immediate post-dominator of a divergent branch: where its lanes reconverge.
    Reconvergence,
    /// Both of the above.
    DivergentAndReconvergence,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    /// Multi-line label (block name, source lines, counts).
    pub label: String,
    #[serde(default)]
    pub mark: NodeMark,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<LineRef>,
}

/// An edge between node indices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    #[serde(default)]
    pub label: String,
}

impl Page {
    /// The source file named `name`, added (with `text`) when missing.
    pub fn source_mut(&mut self, name: &str, text: Option<&str>) -> &mut SourceFile {
        let i = match self.sources.iter().position(|s| s.name == name) {
            Some(i) => i,
            None => {
                self.sources.push(SourceFile {
                    name: name.to_string(),
                    lines: text
                        .map(|t| t.lines().map(str::to_string).collect())
                        .unwrap_or_default(),
                    annotations: BTreeMap::new(),
                });
                self.sources.len() - 1
            }
        };
        let s = &mut self.sources[i];
        if s.lines.is_empty()
            && let Some(t) = text
        {
            s.lines = t.lines().map(str::to_string).collect();
        }
        s
    }

    /// The card titled `title` (one per kernel, which every mode of a combined report adds
    /// its rows to), added at the end when missing.
    pub fn card_mut(&mut self, title: &str) -> &mut Card {
        let i = match self.cards.iter().position(|c| c.title == title) {
            Some(i) => i,
            None => {
                self.cards.push(Card::new(title));
                self.cards.len() - 1
            }
        };
        &mut self.cards[i]
    }

    /// Adds a metric to the menu unless one with its id is there.
    pub fn add_metric(&mut self, m: Metric) {
        if !self.metrics.iter().any(|x| x.id == m.id) {
            self.metrics.push(m);
        }
    }
}

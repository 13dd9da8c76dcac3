//! One self-contained HTML file from a [`Page`]: CSS and script inline, charts and
//! control-flow graphs as inline SVG, nothing fetched from the network.
//!
//! The annotated source is a table with one row per line (`id="f{file}-L{line}"`) carrying its
//! metric values in `data-v`; a small script colours the rows by the metric chosen in the
//! menu (square root of value / maximum, so small costs stay visible), shows a line's PTX when
//! its number is clicked, and scrolls to a line when a table row, finding or CFG node that
//! points at it is clicked.

mod chart;
mod graph;

use crate::page::{LineRef, Page};
use crate::{Finding, Verdict};
use std::fmt::Write;

/// HTML-escapes text for element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The element id of a source line, when the page shows that file.
pub fn anchor(page: &Page, at: &LineRef) -> Option<String> {
    page.sources
        .iter()
        .position(|s| s.name == at.file)
        .map(|i| format!("f{i}-L{}", at.line))
}

fn finding_anchor(page: &Page, f: &Finding) -> Option<String> {
    let c = f.location.cuda.as_ref()?;
    anchor(
        page,
        &LineRef {
            file: c.file.clone(),
            line: c.line,
        },
    )
}

fn verdict(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::Confirmed) => "confirmed",
        Some(Verdict::Refuted) => "refuted",
        Some(Verdict::NotExecuted) => "not executed",
        None => "",
    }
}

fn origin(f: &Finding) -> &'static str {
    match f.source {
        crate::Origin::Static => "static",
        crate::Origin::Dynamic => "measured",
    }
}

/// Renders the page.
pub fn render(page: &Page) -> String {
    let mut h = String::with_capacity(64 * 1024);
    let title = escape(&page.title);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{} {}\">\n<link rel=\"icon\" href=\"data:,\">\n<title>{title}</title>\n<style>\n{CSS}</style>\n\
         </head>\n<body>\n<header>\n<h1>{title}</h1>\n",
        crate::TOOL_NAME,
        crate::TOOL_VERSION
    );
    for s in &page.subtitle {
        let _ = writeln!(h, "<p class=\"sub\">{}</p>", escape(s));
    }
    h.push_str("<nav>");
    let mut nav = |id: &str, label: &str, show: bool| {
        if show {
            let _ = write!(h, "<a href=\"#{id}\">{label}</a> ");
        }
    };
    nav("cards", "Summary", !page.cards.is_empty());
    nav("source", "Source", !page.sources.is_empty());
    nav("findings", "Findings", !page.findings.is_empty());
    nav("tables", "Tables", !page.tables.is_empty());
    nav("charts", "Charts", !page.charts.is_empty());
    nav("cfg", "Control flow", !page.graphs.is_empty());
    h.push_str("</nav>\n</header>\n<main>\n");
    cards(&mut h, page);
    source(&mut h, page);
    findings(&mut h, page);
    tables(&mut h, page);
    charts(&mut h, page);
    graphs(&mut h, page);
    if !page.notes.is_empty() {
        h.push_str("<section id=\"notes\"><h2>Notes</h2><ul>\n");
        for n in &page.notes {
            let _ = writeln!(h, "<li>{}</li>", escape(n));
        }
        h.push_str("</ul></section>\n");
    }
    let _ = write!(h, "</main>\n<script>\n{JS}</script>\n</body>\n</html>\n");
    h
}

fn cards(h: &mut String, page: &Page) {
    if page.cards.is_empty() {
        return;
    }
    h.push_str("<section id=\"cards\"><h2>Summary</h2><div class=\"cards\">\n");
    for c in &page.cards {
        let _ = write!(h, "<div class=\"card\"><h3>{}</h3><dl>", escape(&c.title));
        for i in &c.items {
            let _ = write!(
                h,
                "<dt>{}</dt><dd>{}</dd>",
                escape(&i.label),
                escape(&i.value)
            );
        }
        h.push_str("</dl></div>\n");
    }
    h.push_str("</div></section>\n");
}

fn source(h: &mut String, page: &Page) {
    if page.sources.is_empty() {
        return;
    }
    h.push_str("<section id=\"source\"><h2>Source</h2>\n<div class=\"controls\">");
    if !page.metrics.is_empty() {
        h.push_str("<label>Heat map: <select id=\"metric\">");
        let shown = first_nonzero_metric(page);
        for (i, m) in page.metrics.iter().enumerate() {
            let _ = write!(
                h,
                "<option value=\"{}\" title=\"{}\"{}>{}</option>",
                escape(&m.id),
                escape(&m.help),
                if i == shown { " selected" } else { "" },
                escape(&m.label)
            );
        }
        h.push_str("</select></label> <span id=\"metric-help\"></span>");
    }
    h.push_str(" <span class=\"hint\">click a line number for its PTX</span></div>\n");
    for (fi, file) in page.sources.iter().enumerate() {
        let _ = writeln!(
            h,
            "<h3 class=\"file\">{}</h3>\n<table class=\"src\" data-file=\"{fi}\">",
            escape(&file.name)
        );
        let last = file
            .lines
            .len()
            .max(file.annotations.keys().last().copied().unwrap_or(0) as usize);
        for n in 1..=last as u32 {
            let text = file.lines.get(n as usize - 1).map(String::as_str);
            let ann = file.annotations.get(&n);
            let here: Vec<&Finding> = page
                .findings
                .iter()
                .filter(|f| {
                    f.location
                        .cuda
                        .as_ref()
                        .is_some_and(|c| c.file == file.name && c.line == n)
                })
                .collect();
            if text.is_none() && ann.is_none() && here.is_empty() {
                continue;
            }
            let id = format!("f{fi}-L{n}");
            let values = ann
                .map(|a| serde_json::to_string(&a.values).unwrap_or_default())
                .unwrap_or_default();
            let has_ptx = ann.is_some_and(|a| !a.ptx.is_empty());
            let _ = write!(
                h,
                "<tr class=\"ln{}\" id=\"{id}\" data-v=\"{}\"><td class=\"no\">{n}</td>\
                 <td class=\"val\"></td><td class=\"code\"><pre>{}</pre>",
                if has_ptx { " has-ptx" } else { "" },
                escape(&values),
                escape(text.unwrap_or("(source not available)"))
            );
            for f in here {
                let v = verdict(f.verdict);
                let _ = write!(
                    h,
                    "<div class=\"fd {rule}\"><b>{rule}</b> <span class=\"tag\">{}</span> \
                     <span class=\"tag\">{}</span>{} {}</div>",
                    f.certainty.as_str(),
                    origin(f),
                    if v.is_empty() {
                        String::new()
                    } else {
                        format!(" <span class=\"tag v-{}\">{v}</span>", v.replace(' ', "-"))
                    },
                    escape(&f.message),
                    rule = f.rule.id()
                );
            }
            h.push_str("</td></tr>\n");
            if let Some(a) = ann.filter(|a| !a.ptx.is_empty()) {
                let _ = writeln!(
                    h,
                    "<tr class=\"ptx\" id=\"ptx-{id}\" hidden><td></td><td></td>\
                     <td><pre>{}</pre></td></tr>",
                    escape(&a.ptx.join("\n"))
                );
            }
        }
        h.push_str("</table>\n");
    }
    h.push_str("</section>\n");
}

/// The index of the metric the heat map opens on: the first in menu order that is positive on
/// some line (a page whose first metric is zero everywhere would open blank), else the first.
pub fn first_nonzero_metric(page: &Page) -> usize {
    page.metrics
        .iter()
        .position(|m| {
            page.sources.iter().any(|s| {
                s.annotations
                    .values()
                    .any(|a| a.values.get(&m.id).is_some_and(|&v| v > 0.0))
            })
        })
        .unwrap_or(0)
}

fn findings(h: &mut String, page: &Page) {
    if page.findings.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"findings\"><h2>Findings ({})</h2>\n<table class=\"rank\">\
         <thead><tr><th>rule</th><th>certainty</th><th>from</th><th>verdict</th><th>kernel</th>\
         <th>where</th><th>what</th></tr></thead><tbody>",
        page.findings.len()
    );
    for f in &page.findings {
        let target = finding_anchor(page, f)
            .map(|a| format!(" class=\"link\" data-target=\"{a}\""))
            .unwrap_or_default();
        let _ = writeln!(
            h,
            "<tr{target}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            f.rule.id(),
            f.certainty.as_str(),
            origin(f),
            verdict(f.verdict),
            escape(&f.kernel),
            escape(&f.location.to_string()),
            escape(&f.message)
        );
    }
    h.push_str("</tbody></table></section>\n");
}

fn tables(h: &mut String, page: &Page) {
    if page.tables.is_empty() {
        return;
    }
    h.push_str("<section id=\"tables\"><h2>Ranked tables</h2>\n");
    for t in &page.tables {
        let _ = write!(
            h,
            "<h3>{}</h3>\n<table class=\"rank\"><thead><tr>",
            escape(&t.title)
        );
        for c in &t.columns {
            let _ = write!(h, "<th>{}</th>", escape(c));
        }
        h.push_str("</tr></thead><tbody>\n");
        for r in &t.rows {
            let target =
                r.at.as_ref()
                    .and_then(|a| anchor(page, a))
                    .map(|a| format!(" class=\"link\" data-target=\"{a}\""))
                    .unwrap_or_default();
            let _ = write!(h, "<tr{target}>");
            for c in &r.cells {
                let _ = write!(h, "<td>{}</td>", escape(c));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</tbody></table>\n");
    }
    h.push_str("</section>\n");
}

fn charts(h: &mut String, page: &Page) {
    if page.charts.is_empty() {
        return;
    }
    h.push_str("<section id=\"charts\"><h2>Charts</h2><div class=\"charts\">\n");
    for c in &page.charts {
        match chart::svg(c) {
            Ok(svg) => {
                let _ = writeln!(h, "<figure class=\"chart\">{svg}</figure>");
            }
            Err(e) => {
                let _ = writeln!(
                    h,
                    "<p class=\"error\">chart {}: {}</p>",
                    escape(&c.title),
                    escape(&e)
                );
            }
        }
    }
    h.push_str("</div></section>\n");
}

fn graphs(h: &mut String, page: &Page) {
    if page.graphs.is_empty() {
        return;
    }
    h.push_str(
        "<section id=\"cfg\"><h2>Control flow</h2>\n<p class=\"legend\">\
         <span class=\"sw divergent\"></span> ends in a divergent branch \
         <span class=\"sw reconvergence\"></span> reconvergence point (immediate \
         post-dominator of a divergent branch) <span class=\"sw both\"></span> both; \
         click a block to see its first line</p>\n",
    );
    for g in &page.graphs {
        let svg = graph::svg(g, |at| anchor(page, at));
        let _ = writeln!(
            h,
            "<details class=\"graph\"><summary>{}</summary><div class=\"svgwrap\">{svg}</div></details>",
            escape(&g.title)
        );
    }
    h.push_str("</section>\n");
}

/// The page's style sheet.
const CSS: &str = include_str!("report.css");
/// The page's script: heat map, PTX toggles, links to lines.
const JS: &str = include_str!("report.js");

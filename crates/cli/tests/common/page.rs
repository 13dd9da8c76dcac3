//! Reads back what `warpscope_report::html::render` writes, for structural checks of a report
//! page without a browser: sections, cards, ranked tables and the lines their rows point at,
//! heat-map metrics and per-line values, charts.

use serde_json::Value;

/// A rendered report page.
pub struct Html(pub String);

/// A row of a ranked table: its cells and the id of the line it links to.
pub struct Row {
    pub cells: Vec<String>,
    pub target: Option<String>,
}

/// A ranked table: its title, header and rows.
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The texts between each `open` and the `close` after it, in `s`.
fn between<'a>(s: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find(open) {
        let after = &rest[i + open.len()..];
        let Some(j) = after.find(close) else { break };
        out.push(&after[..j]);
        rest = &after[j + close.len()..];
    }
    out
}

/// The value of attribute `name` in a start tag's text.
fn attr(tag: &str, name: &str) -> Option<String> {
    between(tag, &format!("{name}=\""), "\"")
        .first()
        .map(|v| unescape(v))
}

impl Html {
    pub fn read(path: &std::path::Path) -> Html {
        Html(std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    /// The body of `<section id="{id}">`.
    pub fn section(&self, id: &str) -> Option<&str> {
        between(&self.0, &format!("<section id=\"{id}\">"), "</section>")
            .first()
            .copied()
    }

    /// The titles of the summary cards.
    pub fn card_titles(&self) -> Vec<String> {
        between(
            self.section("cards").unwrap_or(""),
            "<div class=\"card\"><h3>",
            "</h3>",
        )
        .into_iter()
        .map(unescape)
        .collect()
    }

    /// The labels and values of the card titled `title`.
    pub fn card(&self, title: &str) -> Vec<(String, String)> {
        let cards = self.section("cards").unwrap_or("");
        let open = format!(
            "<div class=\"card\"><h3>{}</h3><dl>",
            title.replace('&', "&amp;")
        );
        let body = between(cards, &open, "</dl>");
        let Some(body) = body.first() else {
            return Vec::new();
        };
        between(body, "<dt>", "</dd>")
            .into_iter()
            .filter_map(|item| {
                let (l, v) = item.split_once("</dt><dd>")?;
                Some((unescape(l), unescape(v)))
            })
            .collect()
    }

    /// The ranked tables.
    pub fn tables(&self) -> Vec<Table> {
        let body = self.section("tables").unwrap_or("");
        between(body, "<h3>", "</table>")
            .into_iter()
            .map(|t| {
                let (title, rest) = t.split_once("</h3>").unwrap_or((t, ""));
                let columns = between(rest, "<th>", "</th>")
                    .into_iter()
                    .map(unescape)
                    .collect();
                let rows = between(rest, "<tbody>", "</tbody>")
                    .first()
                    .map(|b| {
                        between(b, "<tr", "</tr>")
                            .into_iter()
                            .map(|r| {
                                let (tag, cells) = r.split_once('>').unwrap_or((r, ""));
                                Row {
                                    cells: between(cells, "<td>", "</td>")
                                        .into_iter()
                                        .map(unescape)
                                        .collect(),
                                    target: attr(tag, "data-target"),
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Table {
                    title: unescape(title),
                    columns,
                    rows,
                }
            })
            .collect()
    }

    /// The table whose title starts with `prefix`.
    pub fn table(&self, prefix: &str) -> Option<Table> {
        self.tables()
            .into_iter()
            .find(|t| t.title.starts_with(prefix))
    }

    /// The names of the source files shown, in page order (index `i` is `f{i}` in line ids).
    pub fn files(&self) -> Vec<String> {
        between(
            self.section("source").unwrap_or(""),
            "<h3 class=\"file\">",
            "</h3>",
        )
        .into_iter()
        .map(unescape)
        .collect()
    }

    /// The start tag of the source line `id` (`f0-L12`), if the page shows it.
    fn line_tag(&self, id: &str) -> Option<&str> {
        between(&self.0, "<tr class=\"ln", ">")
            .into_iter()
            .find(|t| attr(t, "id").as_deref() == Some(id))
    }

    pub fn has_line(&self, id: &str) -> bool {
        self.line_tag(id).is_some()
    }

    /// The metric values of source line `id`.
    pub fn line_values(&self, id: &str) -> Value {
        self.line_tag(id)
            .and_then(|t| attr(t, "data-v"))
            .filter(|v| !v.is_empty())
            .map(|v| serde_json::from_str(&v).expect("data-v is JSON"))
            .unwrap_or(Value::Null)
    }

    /// The largest value of `metric` over all lines, and the ids of the lines holding it.
    pub fn hottest(&self, metric: &str) -> (f64, Vec<String>) {
        let mut best = (0.0, Vec::new());
        for t in between(&self.0, "<tr class=\"ln", ">") {
            let Some(v) = attr(t, "data-v").filter(|v| !v.is_empty()) else {
                continue;
            };
            let v: Value = serde_json::from_str(&v).expect("data-v is JSON");
            let Some(x) = v[metric].as_f64() else {
                continue;
            };
            let id = attr(t, "id").unwrap_or_default();
            if x > best.0 {
                best = (x, vec![id]);
            } else if x == best.0 && x > 0.0 {
                best.1.push(id);
            }
        }
        best
    }

    /// The heat-map menu: metric ids in order.
    pub fn metrics(&self) -> Vec<String> {
        between(&self.0, "<option value=\"", "\"")
            .into_iter()
            .map(unescape)
            .collect()
    }

    /// The metric the menu opens on.
    pub fn selected_metric(&self) -> Option<String> {
        between(&self.0, "<option ", ">")
            .into_iter()
            .find(|t| t.ends_with(" selected"))
            .and_then(|t| attr(t, "value"))
    }

    /// The SVG charts, each as (title text, svg text).
    pub fn charts(&self) -> Vec<String> {
        between(
            self.section("charts").unwrap_or(""),
            "<figure class=\"chart\">",
            "</figure>",
        )
        .into_iter()
        .map(str::to_string)
        .collect()
    }

    /// Checks what every page must be: one self-contained document, no chart that failed to
    /// draw, every link target a line on the page, and the cells of each table row as many as
    /// its header.
    pub fn assert_well_formed(&self, what: &str) {
        let h = &self.0;
        assert!(h.starts_with("<!DOCTYPE html>"), "{what}");
        assert!(h.trim_end().ends_with("</html>"), "{what}");
        for bad in ["src=\"http", "href=\"http", "url(http", "@import"] {
            assert!(
                !h.contains(bad),
                "{what}: {bad} (the page must be self-contained)"
            );
        }
        assert!(
            !h.contains("<p class=\"error\">"),
            "{what}: a chart failed to draw"
        );
        for t in between(h, "data-target=\"", "\"") {
            assert!(
                self.has_line(t),
                "{what}: link to {t}, which is not on the page"
            );
        }
        for t in self.tables() {
            for r in &t.rows {
                assert_eq!(r.cells.len(), t.columns.len(), "{what}: {}", t.title);
            }
        }
    }
}

/// Asserts that `row` links to the line its place cell (`file:line` or `file:line:col`, cell
/// `col`) names.
pub fn assert_row_links_to_its_line(page: &Html, row: &Row, col: usize) {
    let place = &row.cells[col];
    let mut parts = place.split(':');
    let (Some(file), Some(line)) = (parts.next(), parts.next()) else {
        panic!("`{place}` is not file:line");
    };
    let fi = page
        .files()
        .iter()
        .position(|f| f == file)
        .unwrap_or_else(|| panic!("{file} not shown on the page"));
    assert_eq!(
        row.target.as_deref(),
        Some(format!("f{fi}-L{line}").as_str()),
        "row {:?}",
        row.cells
    );
}

//! rustc-style text: each finding as a codespan-reporting diagnostic with the CUDA source line
//! and a caret under the flagged statement, then its measures, provenance and fix hint as
//! `= note:` / `= help:` lines. Findings whose source file cannot be read fall back to the same
//! layout without the snippet.

use crate::{Certainty, Finding, Report};
use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Source texts the renderer may quote, keyed by the file name findings use.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: BTreeMap<String, String>,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Adds (or replaces) the text of `name`.
    pub fn insert(&mut self, name: impl Into<String>, text: impl Into<String>) {
        self.files.insert(name.into(), text.into());
    }

    /// The text of `name`, if known.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.files.get(name).map(String::as_str)
    }
}

/// Text rendering options.
#[derive(Debug, Clone, Default)]
pub struct TextOptions {
    /// Print the PTX instruction of each finding as a note.
    pub show_ptx: bool,
    /// Print the per-kernel geometry header.
    pub show_kernels: bool,
}

/// Byte range of the statement starting at (line, col) in `text`: from the column to the end
/// of the line, without a trailing `//` comment and trailing blanks; one byte at least.
fn statement_range(text: &str, line: u32, col: u32) -> Option<std::ops::Range<usize>> {
    let mut start = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let body = l.trim_end_matches(['\n', '\r']);
            let code = match body.find("//") {
                Some(p) => &body[..p],
                None => body,
            };
            let code = code.trim_end();
            let lead = body.len() - body.trim_start().len();
            let c = if col == 0 {
                lead
            } else {
                ((col - 1) as usize).min(code.len())
            };
            let end = code.len().max(c + 1).min(body.len().max(c + 1));
            return Some(start + c..start + end.min(l.len()).max(c + 1));
        }
        start += l.len();
    }
    None
}

fn severity(f: &Finding) -> Severity {
    match f.certainty {
        Certainty::Definite => Severity::Warning,
        Certainty::Possible => Severity::Note,
    }
}

fn notes(f: &Finding, opts: &TextOptions) -> Vec<String> {
    let mut notes = Vec::new();
    let mut head = format!(
        "kernel `{}`, {} ({} analysis)",
        f.kernel,
        f.certainty,
        match f.source {
            crate::Origin::Static => "static",
            crate::Origin::Dynamic => "dynamic",
        }
    );
    if let Some(func) = &f.function {
        let _ = write!(head, ", in `{func}`");
    }
    notes.push(head);
    if let Some(c) = &f.caveat {
        notes.push(format!("caveat: {c}"));
    }
    for (k, m) in &f.measures {
        notes.push(format!("{}: {m}", k.replace('_', " ")));
    }
    if opts.show_ptx
        && let Some(p) = &f.location.ptx
    {
        match &p.instruction {
            Some(i) => notes.push(format!("ptx: {p} `{i}`")),
            None => notes.push(format!("ptx: {p}")),
        }
    }
    for l in &f.location.inlined_at {
        notes.push(format!("inlined at {l}"));
    }
    if let Some(o) = &f.location.origin {
        notes.push(format!(
            "header code: {o} (shown at its call; profilers list it there)"
        ));
    }
    if !f.related.is_empty() {
        let list: Vec<String> = f
            .related
            .iter()
            .filter_map(|l| l.ptx.as_ref().map(|p| p.line.to_string()))
            .collect();
        if !list.is_empty() {
            notes.push(format!("also at ptx lines {}", list.join(", ")));
        }
    }
    for (i, s) in f.provenance.iter().enumerate() {
        let at = match (&s.location, &s.ptx) {
            (Some(l), _) => format!(" ({l})"),
            (None, Some(p)) => format!(" (ptx {p})"),
            _ => String::new(),
        };
        notes.push(format!(
            "{} {}{at}",
            if i == 0 { "why:" } else { "  <-" },
            s.message
        ));
    }
    for n in &f.notes {
        notes.push(n.clone());
    }
    if let Some(g) = &f.estimated_gain {
        notes.push(format!(
            "estimated gain: {} {}",
            g.metric.replace('_', " "),
            crate::Measure::exact(g.value, g.unit)
        ));
    }
    if let Some(v) = f.verdict {
        notes.push(format!("run verdict: {v:?}"));
    }
    if let Some(fix) = &f.fix {
        notes.push(format!("help: {fix}"));
    }
    notes
}

/// Renders one finding.
pub fn render_finding(f: &Finding, sources: &Sources, opts: &TextOptions) -> String {
    let mut files = SimpleFiles::new();
    let mut diag = Diagnostic::new(severity(f))
        .with_code(f.rule.id())
        .with_message(&f.message)
        .with_notes(notes(f, opts));
    if let Some(loc) = &f.location.cuda
        && let Some(text) = sources.get(&loc.file)
        && let Some(range) = statement_range(text, loc.line, loc.col)
    {
        let id = files.add(loc.file.clone(), text);
        // A warp-synchronous instruction that serialises the warp is no branch in the source.
        let label = match f.kind.as_deref() {
            Some("warp-sync-mask") => "lanes of a warp run this one group after another",
            Some("atomic-retry") => "lanes whose update collides go round again",
            _ => f.rule.title(),
        };
        diag = diag.with_labels(vec![Label::primary(id, range).with_message(label)]);
        let config = term::Config::default();
        if let Ok(s) = term::emit_into_string(&config, &files, &diag) {
            return s;
        }
    }
    // No source text: same layout, location line only.
    let mut s = String::new();
    let sev = match f.certainty {
        Certainty::Definite => "warning",
        Certainty::Possible => "note",
    };
    let _ = writeln!(s, "{sev}[{}]: {}", f.rule.id(), f.message);
    let _ = writeln!(s, "  --> {}", f.location);
    for n in &diag.notes {
        let _ = writeln!(s, "   = {n}");
    }
    s.push('\n');
    s
}

/// Renders a whole report: optional kernel headers, every finding, then a summary line.
pub fn render(report: &Report, sources: &Sources, opts: &TextOptions) -> String {
    let mut out = String::new();
    if opts.show_kernels {
        for k in &report.kernels {
            let _ = writeln!(out, "kernel `{}`: {}", k.name, k.geometry);
            for n in &k.notes {
                let _ = writeln!(out, "  {n}");
            }
        }
        if !report.kernels.is_empty() {
            out.push('\n');
        }
    }
    // Findings come ranked (`Report::sort`): caveats last, under a heading of their own.
    let mut caveats = 0usize;
    for f in &report.findings {
        if f.rank() == crate::Rank::Caveat {
            if caveats == 0 {
                out.push_str(
                    "caveats: the findings below rest only on a guess (each says which): a value \
                     the analysis was not told, which --assume or --block settles, or the data \
                     holding NaN, infinite or huge values\n\n",
                );
            }
            caveats += 1;
        }
        out.push_str(&render_finding(f, sources, opts));
    }
    let definite = report
        .findings
        .iter()
        .filter(|f| f.certainty == Certainty::Definite)
        .count();
    let _ = write!(
        out,
        "{} finding(s): {} definite, {} possible",
        report.findings.len(),
        definite,
        report.findings.len() - definite
    );
    if caveats > 0 {
        let _ = write!(out, " ({caveats} of them caveats)");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Location, Measure, Rule, SourceLocation, Step, Unit};

    fn finding() -> Finding {
        let mut f = Finding::new(
            Rule::UncoalescedAccess,
            Certainty::Definite,
            "stride2_load",
            "each warp request touches 8 sectors for 4 useful (stride 8 bytes)",
            Location {
                cuda: Some(SourceLocation {
                    file: "k.cu".into(),
                    line: 2,
                    col: 5,
                }),
                ptx: None,
                inlined_at: vec![],
                origin: None,
            },
        );
        f.measures.insert(
            "sectors_per_request".into(),
            Measure::exact(8.0, Unit::Sectors).with_ideal(4.0),
        );
        f.provenance.push(Step {
            message: "address depends on %tid.x".into(),
            location: Some(SourceLocation {
                file: "k.cu".into(),
                line: 1,
                col: 0,
            }),
            ptx: None,
        });
        f.fix = Some("make consecutive lanes read consecutive elements".into());
        f
    }

    #[test]
    fn renders_snippet_with_caret() {
        let mut src = Sources::new();
        src.insert("k.cu", "int i = tid;\n    out[i] = in[2 * i]; // comment\n");
        let s = render_finding(&finding(), &src, &TextOptions::default());
        assert!(
            s.starts_with("warning[uncoalesced-access]: each warp request"),
            "{s}"
        );
        assert!(s.contains("k.cu:2:5"), "{s}");
        assert!(s.contains("out[i] = in[2 * i];"), "{s}");
        assert!(s.contains("^^^^^^^^^^^^^^^^^^^"), "{s}");
        assert!(
            s.contains("= sectors per request: 8 sectors (ideal 4)"),
            "{s}"
        );
        assert!(
            s.contains("= why: address depends on %tid.x (k.cu:1)"),
            "{s}"
        );
        assert!(s.contains("= help: make consecutive"), "{s}");
    }

    #[test]
    fn header_code_names_its_own_line() {
        let mut f = finding();
        f.location.origin = Some(SourceLocation {
            file: "<cuda>/include/curand_kernel.h".into(),
            line: 814,
            col: 5,
        });
        let s = render_finding(&f, &Sources::new(), &TextOptions::default());
        assert!(s.contains("  --> k.cu:2:5"), "{s}");
        assert!(
            s.contains("header code: <cuda>/include/curand_kernel.h:814:5"),
            "{s}"
        );
        assert!(
            !render_finding(&finding(), &Sources::new(), &TextOptions::default())
                .contains("header code")
        );
    }

    #[test]
    fn falls_back_without_source() {
        let s = render_finding(&finding(), &Sources::new(), &TextOptions::default());
        assert!(s.contains("  --> k.cu:2:5"), "{s}");
        assert!(s.contains("= help:"), "{s}");
    }

    #[test]
    fn statement_range_skips_comment() {
        let t = "a\n  x = 1; // c\n";
        let r = statement_range(t, 2, 3).unwrap();
        assert_eq!(&t[r], "x = 1;");
    }
}

//! Reading the evaluation corpus (`corpus/*.cu`): launch geometry from `// geometry:` lines,
//! parameter assumptions from `// assume:` lines, and expected findings from trailing
//! `// expect: RULE CERTAINTY[, RULE CERTAINTY]` comments; and scoring findings against them.
//! Used by the accuracy test, the benchmark and the docs table — not by `warpscope check`.

use std::collections::BTreeMap;
use warpscope_analysis::{Assumptions, CheckOptions, Engine, GeometrySource, KernelGeometry};
use warpscope_report::{Certainty, Finding, Rule};

/// One expected finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expectation {
    pub line: u32,
    pub rule: Rule,
    pub certainty: Certainty,
}

/// What a corpus `.cu` file says about itself.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    pub geometry: BTreeMap<String, KernelGeometry>,
    pub assumptions: Assumptions,
    pub kernel_assumptions: BTreeMap<String, Assumptions>,
    pub expectations: Vec<Expectation>,
}

impl Spec {
    /// Parses the comments of a corpus source.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut spec = Spec::default();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("// geometry:") {
                let mut parts = rest.split_whitespace();
                let name = parts.next().ok_or("geometry: missing kernel")?.to_string();
                let mut g = KernelGeometry {
                    block: None,
                    grid: None,
                    source: GeometrySource::Corpus,
                };
                // A dimension given as a range `a..b` (varying launches) takes its maximum.
                let dims = |v: &str| -> Result<[u32; 3], String> {
                    let v: Vec<String> = v
                        .split(',')
                        .map(|d| d.rsplit("..").next().unwrap_or(d).to_string())
                        .collect();
                    warpscope_analysis::parse_dim3(&v.join(","))
                };
                for p in parts {
                    if let Some(v) = p.strip_prefix("grid=") {
                        g.grid = Some(dims(v)?);
                    } else if let Some(v) = p.strip_prefix("block=") {
                        g.block = Some(dims(v)?);
                    }
                }
                spec.geometry.insert(name, g);
            } else if let Some(rest) = t.strip_prefix("// assume:") {
                let items: Vec<&str> = rest.split_whitespace().collect();
                let (kernel, items) = match items.first() {
                    Some(first) if !first.contains('=') => (Some(first.to_string()), &items[1..]),
                    _ => (None, &items[..]),
                };
                for it in items {
                    match &kernel {
                        Some(k) => spec
                            .kernel_assumptions
                            .entry(k.clone())
                            .or_default()
                            .add(it)?,
                        None => spec.assumptions.add(it)?,
                    }
                }
            }
            if let Some(p) = line.find("// expect:")
                && !t.starts_with("//")
            {
                for item in line[p + "// expect:".len()..].split(',') {
                    let mut w = item.split_whitespace();
                    let (Some(r), Some(c)) = (w.next(), w.next()) else {
                        return Err(format!("line {}: bad expectation `{item}`", i + 1));
                    };
                    spec.expectations.push(Expectation {
                        line: i as u32 + 1,
                        rule: Rule::from_id(r)
                            .ok_or_else(|| format!("line {}: unknown rule {r}", i + 1))?,
                        certainty: Certainty::parse(c)
                            .ok_or_else(|| format!("line {}: unknown certainty {c}", i + 1))?,
                    });
                }
            }
        }
        spec.expectations.sort();
        Ok(spec)
    }

    /// Check options for this spec and engine.
    pub fn options(&self, engine: Engine) -> CheckOptions {
        CheckOptions {
            engine,
            kernel_geometry: self.geometry.clone(),
            assumptions: self.assumptions.clone(),
            kernel_assumptions: self.kernel_assumptions.clone(),
            ..CheckOptions::default()
        }
    }
}

/// True/false positives and negatives of one rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub tp: u32,
    pub fp: u32,
    pub fn_: u32,
    /// True positives whose certainty also matches.
    pub certainty_ok: u32,
}

impl Score {
    pub fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fn_)
        }
    }
    pub fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fp)
        }
    }
    pub fn add(&mut self, o: &Score) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.certainty_ok += o.certainty_ok;
    }
}

/// One mismatch, for reports.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub line: u32,
    pub rule: Rule,
    /// `missed` (expected, not found) or `extra` (found, not expected) or `certainty`.
    pub kind: &'static str,
    pub detail: String,
}

/// Scores findings located in `file` against expectations, matching by (line, rule).
pub fn score(
    spec: &Spec,
    file: &str,
    findings: &[Finding],
) -> (BTreeMap<Rule, Score>, Vec<Mismatch>) {
    let mut out: BTreeMap<Rule, Score> = BTreeMap::new();
    let mut mism = Vec::new();
    let mut found: BTreeMap<(u32, Rule), Certainty> = BTreeMap::new();
    // Boundary checks against unknown bounds are counted apart (out of the text report). The
    // slow paths ptxas adds to IEEE division and square root, and the retry loops of float
    // atomics on shared memory, are branches of the SASS, not of the source, which is what
    // expectations mark: they are scored against the H100 on the real-world set
    // (validation/realworld), not here.
    for f in findings
        .iter()
        .filter(|f| !f.is_boundary() && !f.is_sass_branch())
    {
        if let Some(c) = &f.location.cuda
            && c.file == file
        {
            let e = found.entry((c.line, f.rule)).or_insert(f.certainty);
            *e = (*e).max(f.certainty);
        }
    }
    for e in &spec.expectations {
        let s = out.entry(e.rule).or_default();
        match found.get(&(e.line, e.rule)) {
            Some(c) => {
                s.tp += 1;
                if *c == e.certainty {
                    s.certainty_ok += 1;
                } else {
                    mism.push(Mismatch {
                        line: e.line,
                        rule: e.rule,
                        kind: "certainty",
                        detail: format!("expected {}, found {}", e.certainty, c),
                    });
                }
            }
            None => {
                s.fn_ += 1;
                mism.push(Mismatch {
                    line: e.line,
                    rule: e.rule,
                    kind: "missed",
                    detail: format!("expected {}", e.certainty),
                });
            }
        }
    }
    for ((line, rule), c) in &found {
        if !spec
            .expectations
            .iter()
            .any(|e| e.line == *line && e.rule == *rule)
        {
            out.entry(*rule).or_default().fp += 1;
            mism.push(Mismatch {
                line: *line,
                rule: *rule,
                kind: "extra",
                detail: format!("found {c}"),
            });
        }
    }
    (out, mism)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_corpus_comments() {
        let t = "// geometry: k grid=4,1,1 block=256,1,1\n// assume: n=1000\n// assume: k w=7 h=9\nx; // expect: divergent-branch definite, bank-conflict possible\n";
        let s = Spec::parse(t).unwrap();
        assert_eq!(s.geometry["k"].grid, Some([4, 1, 1]));
        assert_eq!(s.assumptions.params["n"].value, Some(1000));
        assert_eq!(s.kernel_assumptions["k"].params["h"].value, Some(9));
        assert_eq!(s.expectations.len(), 2);
        assert_eq!(s.expectations[0].line, 4);
    }
}

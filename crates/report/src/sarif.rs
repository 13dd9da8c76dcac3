//! SARIF 2.1.0 output (OASIS Static Analysis Results Interchange Format), for code-scanning UIs
//! and CI. One run; the driver lists the four rules; each result carries its `ruleId`, the CUDA
//! `physicalLocation` (the PTX instruction as a related location), the kernel as a logical
//! location, and `properties` with the certainty, origin, measured ranges, provenance and fix.
//! `tests/sarif_schema.rs` validates the output against the official schema.

use crate::{Certainty, Finding, Location, Report, Rule};
use serde_json::{Map, Value, json};

/// The schema URI written into `$schema`.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Percent-encodes what a URI reference may not contain (spaces, `%`, non-ASCII, ...) and turns
/// Windows separators into `/`.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b':'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'=' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::DivergentBranch => "DivergentBranch",
        Rule::UncoalescedAccess => "UncoalescedAccess",
        Rule::MisalignedAccess => "MisalignedAccess",
        Rule::BankConflict => "BankConflict",
        Rule::CacheInterference => "CacheInterference",
        Rule::CacheCapacity => "CacheCapacity",
        Rule::CacheReuseWithinThread => "CacheReuseWithinThread",
        Rule::DivergentConstant => "DivergentConstant",
    }
}

fn region(line: u32, col: u32) -> Value {
    let mut r = Map::new();
    r.insert("startLine".into(), json!(line.max(1)));
    if col > 0 {
        r.insert("startColumn".into(), json!(col));
    }
    Value::Object(r)
}

fn physical(file: &str, line: u32, col: u32) -> Value {
    json!({
        "artifactLocation": { "uri": uri(file) },
        "region": region(line, col),
    })
}

/// The SARIF `location` objects for a finding's location: the CUDA position first when known,
/// else the PTX one.
fn primary_location(f: &Finding) -> Option<Value> {
    let loc = &f.location;
    let phys = match (&loc.cuda, &loc.ptx) {
        (Some(c), _) => physical(&c.file, c.line, c.col),
        (None, Some(p)) => physical(&p.file, p.line, p.col),
        (None, None) => return None,
    };
    let mut logical = vec![json!({ "name": f.kernel, "kind": "function" })];
    if let Some(func) = &f.function {
        logical.push(json!({ "name": func, "kind": "function" }));
    }
    Some(json!({ "physicalLocation": phys, "logicalLocations": logical }))
}

fn related(f: &Finding) -> Vec<Value> {
    let mut out = Vec::new();
    let mut id = 1u32;
    let mut push_ptx = |loc: &Location, what: &str, out: &mut Vec<Value>| {
        if let Some(p) = &loc.ptx {
            let text = match &p.instruction {
                Some(i) => format!("{what}: `{i}`"),
                None => what.to_string(),
            };
            out.push(json!({
                "id": id,
                "physicalLocation": physical(&p.file, p.line, p.col),
                "message": { "text": text },
            }));
            id += 1;
        }
    };
    if f.location.cuda.is_some() {
        push_ptx(&f.location, "PTX instruction", &mut out);
    }
    for r in &f.related {
        push_ptx(r, "also", &mut out);
    }
    if let Some(o) = &f.location.origin {
        out.push(json!({
            "id": id,
            "physicalLocation": physical(&o.file, o.line, o.col),
            "message": { "text": "header code: its own line (shown at its call)" },
        }));
        id += 1;
    }
    for s in &f.provenance {
        if let Some(l) = &s.location {
            out.push(json!({
                "id": id,
                "physicalLocation": physical(&l.file, l.line, l.col),
                "message": { "text": s.message },
            }));
            id += 1;
        }
    }
    out
}

fn properties(f: &Finding) -> Value {
    let mut p = Map::new();
    p.insert("certainty".into(), json!(f.certainty.as_str()));
    p.insert(
        "source".into(),
        serde_json::to_value(f.source).unwrap_or(Value::Null),
    );
    p.insert("kernel".into(), json!(f.kernel));
    if let Some(k) = &f.kind {
        p.insert("kind".into(), json!(k));
    }
    if let Some(c) = &f.caveat {
        p.insert("caveat".into(), json!(c));
    }
    p.insert(
        "measures".into(),
        serde_json::to_value(&f.measures).unwrap_or(Value::Null),
    );
    if !f.provenance.is_empty() {
        p.insert(
            "provenance".into(),
            json!(
                f.provenance
                    .iter()
                    .map(|s| s.message.clone())
                    .collect::<Vec<_>>()
            ),
        );
    }
    if let Some(fix) = &f.fix {
        p.insert("fix".into(), json!(fix));
    }
    if let Some(g) = &f.estimated_gain {
        p.insert(
            "estimatedGain".into(),
            serde_json::to_value(g).unwrap_or(Value::Null),
        );
    }
    if !f.notes.is_empty() {
        p.insert("notes".into(), json!(f.notes));
    }
    if let Some(v) = f.verdict {
        p.insert(
            "verdict".into(),
            serde_json::to_value(v).unwrap_or(Value::Null),
        );
    }
    Value::Object(p)
}

fn result(f: &Finding) -> Value {
    let mut r = Map::new();
    r.insert("ruleId".into(), json!(f.rule.id()));
    let index = Rule::ALL.iter().position(|&x| x == f.rule).unwrap_or(0);
    r.insert("ruleIndex".into(), json!(index));
    r.insert(
        "level".into(),
        json!(match f.certainty {
            Certainty::Definite => "warning",
            Certainty::Possible => "note",
        }),
    );
    // Priority: proven, likely, caveat, tallied note (`Finding::rank`).
    r.insert("rank".into(), json!(f.rank().sarif()));
    let mut text = match &f.caveat {
        Some(c) => format!("Caveat: {} ({c})", f.message),
        None => f.message.clone(),
    };
    if let Some(fix) = &f.fix {
        text.push_str(". Fix: ");
        text.push_str(fix);
    }
    r.insert("message".into(), json!({ "text": text }));
    if let Some(l) = primary_location(f) {
        r.insert("locations".into(), json!([l]));
    }
    let rel = related(f);
    if !rel.is_empty() {
        r.insert("relatedLocations".into(), Value::Array(rel));
    }
    r.insert("properties".into(), properties(f));
    Value::Object(r)
}

/// The SARIF log of `report` as a JSON value.
pub fn to_value(report: &Report) -> Value {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|&r| {
            json!({
                "id": r.id(),
                "name": rule_name(r),
                "shortDescription": { "text": r.title() },
                "fullDescription": { "text": r.help() },
                "help": { "text": r.help() },
                "defaultConfiguration": { "level": "warning" },
            })
        })
        .collect();
    let artifacts: Vec<Value> = report
        .inputs
        .iter()
        .map(|i| json!({ "location": { "uri": uri(i) }, "roles": ["analysisTarget"] }))
        .collect();
    let mut run = Map::new();
    run.insert(
        "tool".into(),
        json!({
            "driver": {
                "name": crate::TOOL_NAME,
                "version": crate::TOOL_VERSION,
                "informationUri": "https://example.invalid/warpscope",
                "rules": rules,
            }
        }),
    );
    if !artifacts.is_empty() {
        run.insert("artifacts".into(), Value::Array(artifacts));
    }
    run.insert(
        "results".into(),
        Value::Array(report.findings.iter().map(result).collect()),
    );
    if !report.kernels.is_empty() {
        run.insert(
            "properties".into(),
            json!({ "kernels": serde_json::to_value(&report.kernels).unwrap_or(Value::Null) }),
        );
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [Value::Object(run)],
    })
}

/// Pretty-printed SARIF text of `report`.
pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&to_value(report)).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded() {
        assert_eq!(uri("corpus/a b.cu"), "corpus/a%20b.cu");
        assert_eq!(uri("C:\\x\\y.cu"), "C:/x/y.cu");
    }
}

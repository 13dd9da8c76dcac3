//! JSON output: the [`Report`] serialised as is, under a format version, so other tools (and
//! `check --confirm`) can read findings back.

use crate::Report;
use serde::{Deserialize, Serialize};

/// Version of the JSON layout; bumped when a field changes meaning or disappears.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Envelope<'a> {
    format: &'static str,
    version: u32,
    tool: &'static str,
    tool_version: &'static str,
    report: &'a Report,
}

/// Pretty-printed JSON of `report`.
pub fn render(report: &Report) -> String {
    let env = Envelope {
        format: "warpscope-report",
        version: FORMAT_VERSION,
        tool: crate::TOOL_NAME,
        tool_version: crate::TOOL_VERSION,
        report,
    };
    let mut s =
        serde_json::to_string_pretty(&env).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Reads a report written by [`render`].
pub fn parse(text: &str) -> Result<Report, serde_json::Error> {
    #[derive(Deserialize)]
    struct Owned {
        report: Report,
    }
    serde_json::from_str::<Owned>(text).map(|o| o.report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Certainty, Finding, Location, Measure, Rule, Unit};

    #[test]
    fn round_trips() {
        let mut f = Finding::new(
            Rule::BankConflict,
            Certainty::Possible,
            "k",
            "2-way",
            Location::default(),
        );
        f.measures
            .insert("conflict_ways".into(), Measure::range(1.0, 2.0, Unit::Ways));
        let r = Report {
            inputs: vec!["a.ptx".into()],
            kernels: vec![],
            findings: vec![f],
        };
        let text = render(&r);
        assert!(text.contains("\"rule\": \"bank-conflict\""), "{text}");
        assert!(text.contains("\"source\": \"static\""), "{text}");
        assert_eq!(parse(&text).unwrap(), r);
    }
}

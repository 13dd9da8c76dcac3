//! Shared helpers for the integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use warpscope_ptx::{Module, parse, render_errors};

/// `tests/data` of this crate (symlinks resolved).
pub fn data_dir() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    p.canonicalize().unwrap_or(p)
}

/// The repository's `corpus/` (next to `crates/`), if present.
pub fn corpus_dir() -> Option<PathBuf> {
    let d = data_dir();
    let root = d.parent()?.parent()?.parent()?.parent()?;
    let c = root.join("corpus");
    c.is_dir().then_some(c)
}

fn collect_ptx(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_ptx(&p, out);
        } else if p.extension().is_some_and(|e| e == "ptx") {
            out.push(p);
        }
    }
}

/// All sample PTX files: `tests/data/*.ptx` and `corpus/**/*.ptx`.
pub fn sample_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    collect_ptx(&data_dir(), &mut v);
    if let Some(c) = corpus_dir() {
        collect_ptx(&c, &mut v);
    }
    v
}

/// Parses and panics with rendered diagnostics on any error.
pub fn parse_ok<'a>(name: &str, src: &'a str) -> Module<'a> {
    let (m, errors) = parse(src);
    assert!(
        errors.is_empty(),
        "{name}: {} errors\n{}",
        errors.len(),
        render_errors(name, src, &errors)
    );
    m
}

/// print → parse → compare (spans stripped); also checks that printing is idempotent.
pub fn assert_round_trip(name: &str, src: &str) {
    let printed = parse_ok(name, src).to_string();
    let mut m1 = parse_ok(name, src);
    let mut m2 = parse_ok(&format!("{name} (printed)"), &printed);
    m1.strip_spans();
    m2.strip_spans();
    assert!(m1 == m2, "{name}: AST changed after print → parse");
    assert_eq!(
        printed,
        m2.to_string(),
        "{name}: printing is not idempotent"
    );
}

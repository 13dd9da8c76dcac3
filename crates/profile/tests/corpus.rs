//! Profiles of corpus launch specs: known answers, and snapshots of the annotated source and
//! the CSV.

use std::collections::BTreeMap;
use std::path::PathBuf;
use warpscope_profile::{ProfileOptions, ProfileRun, load_spec, profile_spec, render};

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}

fn run(name: &str) -> ProfileRun {
    let spec = load_spec(&corpus(name)).expect("spec loads");
    let mut opts = ProfileOptions::default();
    opts.run.save_dir =
        Some(std::env::temp_dir().join(format!("ws-profile-{}", std::process::id())));
    profile_spec(&spec, &opts).expect("profile runs")
}

fn sources(r: &ProfileRun) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for (i, name) in &r.module.files {
        if let Some(t) = r.sources.file(*i).and_then(|f| f.text()) {
            m.insert(name.clone(), t.to_string());
        }
    }
    m
}

#[test]
fn bank_conflicts_print() {
    let r = run("bank_conflicts.toml");
    println!("{}", render::annotate(&r.profile, &sources(&r)));
    println!("{}", render::tables(&r.profile, 10));
    println!("{}", render::csv(&r.profile));
}

//! `warpscope check` on the real-world evaluation set (validation/realworld: public CUDA
//! applications nobody on this project wrote), scored line by line against what Nsight Compute
//! counted on an H100, with defaults and with the geometry each kernel ran with. Fails when a
//! score falls below its floor in validation/realworld/floors.tsv. Modules that `check` cannot
//! answer in time today are listed in validation/realworld/skip.tsv (the list shrinks as the
//! budgets of issue 10 land). Needs no GPU and no compiler: PTX and truth are committed.
//!
//! The same scoring, with tables: `cargo run -p warpscope-realworld -- --modules`.

use std::path::PathBuf;
use std::time::Duration;
use warpscope_realworld::{
    Mode, check_floors, load_apps, modules_markdown, parse_floors, parse_skip, score_all,
    summary_markdown,
};

/// Generous for a debug build on a busy 2-core machine; a module over it counts as failed.
const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn realworld_scores_stay_above_their_floors() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_warpscope"));
    let apps = load_apps(&root).expect("load validation/realworld");
    assert!(apps.len() >= 25, "only {} applications", apps.len());
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let floors = parse_floors(&read("validation/realworld/floors.tsv")).expect("floors.tsv");
    let skip_text = read("validation/realworld/skip.tsv");
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let mut failed = Vec::new();
    for (mode, key) in [(Mode::Defaults, "defaults"), (Mode::Geometry, "geometry")] {
        let skip = parse_skip(&skip_text, key);
        let s = score_all(&bin, &root, &apps, mode, LIMIT, &skip, jobs);
        eprintln!("{}\n{}", summary_markdown(mode, &s), modules_markdown(&s));
        failed.extend(check_floors(&s, key, &floors));
    }
    assert!(
        failed.is_empty(),
        "real-world scores fell below their floors:\n{}",
        failed.join("\n")
    );
}

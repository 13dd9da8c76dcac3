//! Equation (1) end to end: fit the ELL walk's block counts on two inputs, predict a third
//! input's vectors from its `len` buffer without running it, and check against its profile.

use std::path::{Path, PathBuf};
use warpscope_model::{ModelOptions, fit};
use warpscope_profile::load_spec;

fn ell_spec(dir: &Path, seed: u64) -> PathBuf {
    let module =
        std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/liang.ptx"))
            .unwrap();
    let n = 1024;
    let w = 8;
    let text = format!(
        r#"module = "{m}"

[buffer.len]
type = "i32"
len = {n}
init = {{ random = {{ seed = {seed}, min = 0, max = 10 }} }}

[buffer.col]
type = "i32"
len = {nw}
init = {{ random = {{ seed = 7, min = 0, max = {nm1} }} }}

[buffer.val]
type = "f32"
len = {nw}
init = {{ random = {{ seed = 8, min = -1.0, max = 1.0 }} }}

[buffer.x]
type = "f32"
len = {n}
init = "iota"

[buffer.y]
type = "f32"
len = {n}
init = "zeros"

[[launch]]
kernel = "liang_ell"
grid = [{g}, 1, 1]
block = [256, 1, 1]
args = [ {{ buffer = "len" }}, {{ buffer = "col" }}, {{ buffer = "val" }}, {{ buffer = "x" }}, {{ buffer = "y" }}, {{ i32 = {n} }}, {{ i32 = {w} }} ]
"#,
        m = module.display(),
        nw = n * w,
        nm1 = n - 1,
        g = n / 256,
    );
    let p = dir.join(format!("ell_{seed}.toml"));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn ell_row_lengths_predict_the_block_counts() {
    let dir = std::env::temp_dir().join(format!("warpscope-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let train = vec![ell_spec(&dir, 1), ell_spec(&dir, 2)];
    let target = load_spec(&ell_spec(&dir, 3)).unwrap();
    let r = fit::fit_and_predict(
        &target,
        &train,
        &["len".to_string()],
        Some("liang_ell"),
        true,
        ModelOptions::default(),
    )
    .unwrap();
    assert_eq!(r.training.len(), 2);
    assert_eq!(r.threads, 1024);
    // trip count = min(len, 8): linear in len below 8, so not exact, but close
    let c = r.check.as_ref().expect("checked");
    assert!(c.mean_abs_error < 0.5, "{c:?}");
    assert!(r.rmse < 1.0, "rmse {}", r.rmse);
    assert!(r.blocks.iter().any(|b| b.r2 > 0.8), "{:?}", r.blocks);
    assert!(r.predicted.bbv_weighted_scheduled > 0.0);
    assert!(c.scheduled_error < 0.25, "{c:?}");
    // a buffer that does not exist is an error naming it
    let e = fit::fit_and_predict(
        &target,
        &train,
        &["nope".to_string()],
        Some("liang_ell"),
        false,
        ModelOptions::default(),
    )
    .unwrap_err();
    assert!(e.contains("no buffer `nope`"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

//! `warpscope run` prints one line per kernel, `--verbose` one per launch, and no progress
//! bar when standard error is not a terminal.

mod common;

use common::warpscope;

/// A spec launching `odd_even` 5 times (a `repeat`) and `single_lane` once.
fn spec(dir: &std::path::Path) -> std::path::PathBuf {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ptx = root.join("corpus/branch_tid.ptx");
    let text = format!(
        r#"module = "{}"
[buffer.a]
type = "f32"
len = 4096
init = "iota"
[buffer.o]
type = "f32"
len = 4096
init = "zeros"
[[launch]]
kernel = "odd_even"
grid = 16
block = 256
args = [ {{ buffer = "a" }}, {{ buffer = "a" }}, {{ buffer = "o" }}, {{ buffer = "o" }} ]
repeat = {{ var = "t", from = 0, to = 4 }}
[[launch]]
kernel = "single_lane"
grid = 16
block = 256
args = [ {{ buffer = "a" }}, {{ buffer = "o" }}, {{ buffer = "o" }} ]
"#,
        ptx.display()
    );
    let path = dir.join("repeat.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn one_line_per_kernel_and_per_launch_with_verbose() {
    let dir = std::env::temp_dir().join(format!("warpscope-run-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = spec(&dir);
    let spec = spec.to_str().unwrap();
    let (code, out, err) = warpscope(&["run", spec]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("odd_even: 5 launches, "), "{out}");
    assert!(lines[1].starts_with("single_lane: 1 launch, "), "{out}");
    // Not a terminal: no progress bar (nor anything else) on stderr.
    assert_eq!(err, "");
    let (code, out, err) = warpscope(&["run", spec, "--verbose"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 6, "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("odd_even <<<(16,1,1), (256,1,1)>>>"))
            .count(),
        5,
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

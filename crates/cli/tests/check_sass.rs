//! `warpscope check --sass`: each branch's lowering read from the SASS ptxas compiles the
//! module to, on `crates/sass/tests/data/lowering.cu`, whose branches ptxas 13.0.88 lowers as
//! its comments say (kept, predicated, a predicated exit, a uniform branch sharing a lane test's
//! line, branches moved into the sides of an `if`). Without ptxas, `--sass on` must fail with an error
//! that says what to install, and the test says SKIPPED where the harness does not capture it.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

const PTX: &str = "crates/sass/tests/data/lowering.ptx";

fn check(sass: &str, env: Option<&str>) -> (i32, serde_json::Value, String) {
    check_cached(sass, env, None)
}

/// As [`check`], keeping line tables in `cache` (none when `None`).
fn check_cached(
    sass: &str,
    env: Option<&str>,
    cache: Option<&std::path::Path>,
) -> (i32, serde_json::Value, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    cmd.current_dir(root).env_remove("WARPSCOPE_SASS").env(
        "WARPSCOPE_CACHE_DIR",
        cache.map_or("".into(), |c| c.as_os_str().to_owned()),
    );
    if let Some(e) = env {
        cmd.env("WARPSCOPE_SASS", e);
    }
    cmd.args(["check", "--format", "json", "--no-host-source"]);
    if !sass.is_empty() {
        cmd.args(["--sass", sass]);
    }
    let out = cmd.arg(PTX).output().expect("run warpscope");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `kind` of the divergent-branch finding at `line` (`""` for a plain branch).
fn branch_kind(report: &serde_json::Value, line: u64) -> Option<String> {
    report["report"]["findings"]
        .as_array()?
        .iter()
        .find(|f| f["rule"] == "divergent-branch" && f["location"]["cuda"]["line"] == line)
        .map(|f| f["kind"].as_str().unwrap_or("").to_string())
}

fn tools_found() -> bool {
    warpscope_frontend::toolchain::find_cuda_tool("ptxas").is_some()
}

#[test]
fn off_goes_by_the_ptx() {
    let (code, r, err) = check("off", None);
    assert_eq!(code, 0, "{err}");
    // The size rule: the short body is predicated, the long one branched around.
    assert_eq!(branch_kind(&r, 9).as_deref(), Some("predicated"));
    assert_eq!(branch_kind(&r, 21).as_deref(), Some(""));
    assert_eq!(branch_kind(&r, 37).as_deref(), Some("exit"));
    // By the PTX alone, the binary search's tests are where they are.
    assert!(branch_kind(&r, 82).is_some());
    assert_eq!(branch_kind(&r, 86), None);
}

#[test]
fn on_reads_the_sass() {
    if !tools_found() {
        let (code, _, err) = check("on", None);
        assert_eq!(code, 2, "--sass on without the tools must fail");
        assert!(err.contains("ptxas"), "{err}");
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED check_sass on_reads_the_sass: ptxas not found\n"
        );
        return;
    }
    for (sass, env) in [("on", None), ("", Some("on")), ("", None)] {
        let (code, r, err) = check(sass, env);
        assert_eq!(code, 0, "{err}");
        // ptxas keeps the short body's branch and predicates the long body.
        assert_eq!(branch_kind(&r, 9).as_deref(), Some(""), "{sass} {env:?}");
        assert_eq!(branch_kind(&r, 21).as_deref(), Some("predicated"));
        assert_eq!(branch_kind(&r, 37).as_deref(), Some("exit"));
        // The SASS branch on line 55 is the loop's lane-uniform trip-count test, not the lane
        // test's: the PTX's expectation (predicated) stands.
        assert_eq!(branch_kind(&r, 55).as_deref(), Some("predicated"));
        // The binary search's two tests (lines 82, 83) keep no SASS branch, but ptxas moved
        // their branches to the updates on their sides (lines 86, 88): the findings are there,
        // as real branches, and none is left on the tests' lines.
        for line in [86, 88] {
            assert_eq!(branch_kind(&r, line).as_deref(), Some(""), "line {line}");
        }
        for line in [82, 83] {
            assert_eq!(branch_kind(&r, line), None, "line {line}");
        }
        let moved = r["report"]["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .find(|f| f["location"]["cuda"]["line"] == 86)
            .expect("finding at line 86");
        assert!(
            moved.to_string().contains("ptxas moved the branch there"),
            "{moved}"
        );
        let notes = r["report"]["kernels"][0]["notes"].to_string();
        assert!(notes.contains("read from the SASS of ptxas"), "{notes}");
    }
}

#[test]
fn bad_values_are_refused() {
    let (code, _, err) = check("sometimes", None);
    assert_eq!(code, 2);
    assert!(err.contains("unknown value `sometimes`"), "{err}");
    let (code, _, err) = check("", Some("maybe"));
    assert_eq!(code, 2);
    assert!(err.contains("WARPSCOPE_SASS"), "{err}");
}

#[test]
fn line_tables_are_kept_and_damaged_ones_rebuilt() {
    if !tools_found() {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED check_sass line_tables_are_kept: ptxas not found\n"
        );
        return;
    }
    let dir =
        std::env::temp_dir().join(format!("warpscope-sass-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, first, err) = check_cached("on", None, Some(&dir));
    assert_eq!(code, 0, "{err}");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("cache dir made")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let (_, again, _) = check_cached("on", None, Some(&dir));
    assert_eq!(first, again);
    // A damaged table is not trusted: the module is compiled again and the answer is the same.
    std::fs::write(&files[0], "warpscope-sass-lines 1\nline\tbroken\n").expect("damage");
    let (_, rebuilt, _) = check_cached("on", None, Some(&dir));
    assert_eq!(first, rebuilt);
    assert!(
        std::fs::read_to_string(&files[0])
            .expect("rewritten")
            .contains("_Z11stores_keptPKfPfS1_i")
    );
    // A kept table answers without the tools' work: fake one that says line 21 keeps a branch.
    let text = std::fs::read_to_string(&files[0]).expect("table");
    let faked: String = text
        .lines()
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            if c.len() == 6 && c[1] == "_Z15long_predicatedPKfPfi" && c[3] == "21" {
                format!("{}\t{}\t{}\t{}\t{}\t1\n", c[0], c[1], c[2], c[3], c[4])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&files[0], faked).expect("fake");
    let (_, from_cache, _) = check_cached("on", None, Some(&dir));
    assert_eq!(branch_kind(&from_cache, 21).as_deref(), Some(""));
    let _ = std::fs::remove_dir_all(&dir);
}

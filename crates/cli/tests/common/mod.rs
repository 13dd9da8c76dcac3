//! Shared by the CLI's end-to-end tests.

use std::path::PathBuf;
use std::process::Command;

/// Runs the `warpscope` binary from the repository root: (exit code, stdout, stderr).
pub fn warpscope(args: &[&str]) -> (i32, String, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        // Reports must not depend on whether this machine has ptxas and nvdisasm: `--sass`
        // has its own tests (check_sass.rs), which pass it explicitly.
        .env("WARPSCOPE_SASS", "off")
        .args(args)
        .current_dir(root)
        .output()
        .expect("run warpscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Structural reading of report pages (used by the tests that write HTML).
#[allow(dead_code)]
pub mod page;

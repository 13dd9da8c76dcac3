//! Shared by the CLI's end-to-end tests.

use std::path::PathBuf;
use std::process::Command;

/// Runs the `warpscope` binary from the repository root: (exit code, stdout, stderr).
#[allow(dead_code)]
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

/// `f` over `items` on up to four worker threads (the machine's parallelism, at least two),
/// results in `items`' order. The reproducibility tests run one spec per worker: a spec's
/// 1-thread emulation leaves a core idle, and CI has two.
#[allow(dead_code)]
pub fn map_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers.min(items.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

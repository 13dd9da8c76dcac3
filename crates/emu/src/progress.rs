//! Progress of a running launch, for a front end that draws a progress bar.
//!
//! [`Progress`] is a set of counters the launch updates as it goes: which launch is running,
//! how many blocks it has and how many have finished. The emulator only stores numbers; a
//! front end (the CLI's progress bar) reads them from another thread whenever it likes.
//! Share one through [`crate::ExecConfig::progress`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Counters of the launch in progress (see the module docs).
#[derive(Debug, Default)]
pub struct Progress {
    /// Launches started so far (the running one included).
    launches: AtomicU32,
    blocks_total: AtomicU64,
    blocks_done: AtomicU64,
    kernel: Mutex<String>,
}

/// What [`Progress::snapshot`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Launches started so far; 0 before the first.
    pub launches: u32,
    /// The kernel (PTX name) of the running launch.
    pub kernel: String,
    pub blocks_done: u64,
    pub blocks_total: u64,
}

impl Progress {
    /// Called by the launch when it starts.
    pub(crate) fn begin_launch(&self, kernel: &str, blocks: u64) {
        if let Ok(mut k) = self.kernel.lock() {
            k.clear();
            k.push_str(kernel);
        }
        self.blocks_done.store(0, Ordering::Relaxed);
        self.blocks_total.store(blocks, Ordering::Relaxed);
        self.launches.fetch_add(1, Ordering::Release);
    }

    /// Called by an SM each time one of its blocks finishes.
    pub(crate) fn block_done(&self) {
        self.blocks_done.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let launches = self.launches.load(Ordering::Acquire);
        ProgressSnapshot {
            launches,
            kernel: self.kernel.lock().map(|k| k.clone()).unwrap_or_default(),
            blocks_done: self.blocks_done.load(Ordering::Relaxed),
            blocks_total: self.blocks_total.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_blocks_per_launch() {
        let p = Progress::default();
        assert_eq!(p.snapshot().launches, 0);
        p.begin_launch("k", 4);
        p.block_done();
        p.block_done();
        let s = p.snapshot();
        assert_eq!((s.launches, s.blocks_done, s.blocks_total), (1, 2, 4));
        assert_eq!(s.kernel, "k");
        p.begin_launch("j", 9);
        let s = p.snapshot();
        assert_eq!((s.launches, s.blocks_done, s.blocks_total), (2, 0, 9));
    }
}

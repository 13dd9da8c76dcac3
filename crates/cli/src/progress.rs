//! A progress bar for long emulations: blocks done of the running launch, with its ETA.
//!
//! The emulator counts launches and finished blocks in a [`Progress`] shared through
//! `ExecConfig::progress`; a watcher thread reads it ten times a second and draws an
//! `indicatif` bar on standard error. Nothing is drawn when standard error is not a terminal,
//! nor during the first second (short runs stay silent).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use warpscope_emu::Progress;

/// How long a run goes before the bar appears.
const QUIET_FOR: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);

/// The watcher of one run; [`Watcher::finish`] (or drop) stops it and clears the bar.
pub struct Watcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Starts watching when standard error is a terminal and `enabled`; returns the counters
    /// to put in the exec options (None when no bar will be drawn).
    pub fn start(enabled: bool) -> (Option<Arc<Progress>>, Watcher) {
        let stop = Arc::new(AtomicBool::new(false));
        if !enabled || !std::io::stderr().is_terminal() {
            return (None, Watcher { stop, thread: None });
        }
        let progress = Arc::new(Progress::default());
        let (p, s) = (progress.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || watch(&p, &s))
            .ok();
        (Some(progress), Watcher { stop, thread })
    }

    /// Stops the watcher and clears its bar.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop_now();
    }
}

fn watch(progress: &Progress, stop: &AtomicBool) {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut shown_launch = 0u32;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        if start.elapsed() < QUIET_FOR {
            continue;
        }
        let s = progress.snapshot();
        if s.launches == 0 {
            continue;
        }
        let b = bar.get_or_insert_with(|| {
            // Hidden until its first launch is set, so no empty frame is drawn.
            let b = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
            b.set_style(
                ProgressStyle::with_template("{prefix} {wide_bar} {pos}/{len} blocks, ETA {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        if s.launches != shown_launch {
            // A new launch: its own bar length and ETA.
            shown_launch = s.launches;
            b.reset();
            b.set_length(s.blocks_total);
            let name = warpscope_ir::names::qualified_name(&s.kernel).unwrap_or(s.kernel);
            b.set_prefix(format!("launch {} {name}", s.launches));
            if b.is_hidden() {
                b.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
        b.set_position(s.blocks_done.min(s.blocks_total));
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

//! Warp schedulers: which resident warp of an SM issues next.
//!
//! The SM keeps a cycle counter (one cycle per issued warp instruction). When
//! [`crate::ExecConfig::memory_latency`] is non-zero (e.g. [`MEMORY_LATENCY`]), schedulers
//! that model latency make a warp that issued a global/local load or an atomic with a result
//! wait that many cycles before it may issue again; the SM advances its clock when no warp
//! is ready. Results never depend on the scheduler for race-free kernels; the
//! interleaving of events (and of racy accesses) does.

/// A typical global-memory latency in cycles, for [`crate::ExecConfig::memory_latency`].
pub const MEMORY_LATENCY: u64 = 300;

/// How the scheduler sees a resident warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpView {
    /// May issue now (not waiting at a barrier, not stalled, not done).
    pub ready: bool,
    /// Order of arrival on the SM (lower is older).
    pub age: u64,
}

/// Why a warp stopped issuing, as the scheduler is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// Used up its quantum.
    Quantum,
    /// Issued a long-latency op.
    Stall,
    /// Waits at a barrier or exited.
    Blocked,
}

/// A warp-scheduling policy.
pub trait WarpScheduler: Send {
    fn name(&self) -> &'static str;
    /// Most warp instructions issued per pick.
    fn quantum(&self) -> u32;
    /// Whether long-latency ops stall the warp.
    fn models_latency(&self) -> bool;
    /// Picks one of the ready warps (`views[i].ready`), by index.
    fn pick(&mut self, views: &[WarpView]) -> Option<usize>;
    /// Tells the policy how the warp it picked stopped.
    fn yielded(&mut self, _slot: usize, _why: Yield) {}
}

/// The policies warpscope offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SchedulerKind {
    /// Loose round robin: one instruction per warp in turn.
    Lrr,
    /// Greedy-then-oldest: keep issuing from one warp until it stalls, then the oldest
    /// ready warp.
    #[default]
    Gto,
    /// Two-level: round robin over an active set of 8 warps; a stalled warp leaves the set.
    TwoLevel,
}

impl SchedulerKind {
    pub fn parse(s: &str) -> Option<SchedulerKind> {
        match s {
            "lrr" => Some(SchedulerKind::Lrr),
            "gto" => Some(SchedulerKind::Gto),
            "two-level" | "twolevel" | "2lev" => Some(SchedulerKind::TwoLevel),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SchedulerKind::Lrr => "lrr",
            SchedulerKind::Gto => "gto",
            SchedulerKind::TwoLevel => "two-level",
        }
    }

    pub fn build(self) -> Box<dyn WarpScheduler> {
        match self {
            SchedulerKind::Lrr => Box::new(Lrr { last: usize::MAX }),
            SchedulerKind::Gto => Box::new(Gto {
                current: None,
                greedy: false,
            }),
            SchedulerKind::TwoLevel => Box::new(TwoLevel {
                active: Vec::new(),
                cursor: 0,
                size: 8,
            }),
        }
    }
}

/// Loose round robin.
pub struct Lrr {
    last: usize,
}

impl WarpScheduler for Lrr {
    fn name(&self) -> &'static str {
        "lrr"
    }
    fn quantum(&self) -> u32 {
        1
    }
    fn models_latency(&self) -> bool {
        true
    }
    fn pick(&mut self, views: &[WarpView]) -> Option<usize> {
        let n = views.len();
        if n == 0 {
            return None;
        }
        let start = if self.last == usize::MAX {
            0
        } else {
            (self.last + 1) % n
        };
        for k in 0..n {
            let i = (start + k) % n;
            if views[i].ready {
                self.last = i;
                return Some(i);
            }
        }
        None
    }
}

/// Greedy-then-oldest.
pub struct Gto {
    current: Option<usize>,
    greedy: bool,
}

impl WarpScheduler for Gto {
    fn name(&self) -> &'static str {
        "gto"
    }
    fn quantum(&self) -> u32 {
        u32::MAX
    }
    fn models_latency(&self) -> bool {
        true
    }
    fn pick(&mut self, views: &[WarpView]) -> Option<usize> {
        if self.greedy
            && let Some(c) = self.current
            && views.get(c).is_some_and(|v| v.ready)
        {
            return Some(c);
        }
        let best = views
            .iter()
            .enumerate()
            .filter(|(_, v)| v.ready)
            .min_by_key(|(_, v)| v.age)
            .map(|(i, _)| i);
        self.current = best;
        best
    }
    fn yielded(&mut self, _slot: usize, why: Yield) {
        self.greedy = why == Yield::Quantum;
    }
}

/// Two-level.
pub struct TwoLevel {
    active: Vec<usize>,
    cursor: usize,
    size: usize,
}

impl WarpScheduler for TwoLevel {
    fn name(&self) -> &'static str {
        "two-level"
    }
    fn quantum(&self) -> u32 {
        1
    }
    fn models_latency(&self) -> bool {
        true
    }
    fn pick(&mut self, views: &[WarpView]) -> Option<usize> {
        // Drop warps that are no longer ready; refill with the oldest ready ones.
        self.active
            .retain(|&i| views.get(i).is_some_and(|v| v.ready));
        if self.active.len() < self.size {
            let mut cand: Vec<(u64, usize)> = views
                .iter()
                .enumerate()
                .filter(|(i, v)| v.ready && !self.active.contains(i))
                .map(|(i, v)| (v.age, i))
                .collect();
            cand.sort_unstable();
            for (_, i) in cand.into_iter().take(self.size - self.active.len()) {
                self.active.push(i);
            }
        }
        if self.active.is_empty() {
            return None;
        }
        self.cursor %= self.active.len();
        let i = self.active[self.cursor];
        self.cursor += 1;
        Some(i)
    }
    fn yielded(&mut self, slot: usize, why: Yield) {
        if why != Yield::Quantum {
            self.active.retain(|&i| i != slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(ready: bool, age: u64) -> WarpView {
        WarpView { ready, age }
    }

    #[test]
    fn lrr_rotates() {
        let mut s = SchedulerKind::Lrr.build();
        let vs = [v(true, 0), v(false, 1), v(true, 2)];
        assert_eq!(s.pick(&vs), Some(0));
        assert_eq!(s.pick(&vs), Some(2));
        assert_eq!(s.pick(&vs), Some(0));
    }

    #[test]
    fn gto_stays_greedy_until_stall() {
        let mut s = SchedulerKind::Gto.build();
        let vs = [v(true, 5), v(true, 1), v(true, 3)];
        assert_eq!(s.pick(&vs), Some(1));
        s.yielded(1, Yield::Quantum);
        assert_eq!(s.pick(&vs), Some(1));
        s.yielded(1, Yield::Stall);
        let vs = [v(true, 5), v(false, 1), v(true, 3)];
        assert_eq!(s.pick(&vs), Some(2));
    }

    #[test]
    fn two_level_rotates_within_active_set() {
        let mut s = SchedulerKind::TwoLevel.build();
        let vs: Vec<WarpView> = (0..10).map(|i| v(true, i)).collect();
        let picks: Vec<usize> = (0..9).map(|_| s.pick(&vs).unwrap()).collect();
        assert_eq!(picks, vec![0, 1, 2, 3, 4, 5, 6, 7, 0]);
    }
}

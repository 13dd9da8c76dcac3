//! Generic accesses into shared memory: an `ld`/`st` without a state space whose address is
//! a shared variable's (through `cvta.shared`), or a pointer loaded from a shared variable
//! that only ever holds such addresses (`__shared__ T *s; s = mys;`, then `s[i]` in every
//! thread: HeCBench's quicksort). The hardware serves them from shared memory, so they are
//! measured as shared accesses (bank conflicts), not as global ones (sectors).

use super::*;

/// How deep [`Builder::points_to_shared`] follows a pointer's expression.
const MAX_DEPTH: u32 = 24;

impl Builder<'_> {
    /// Records a store to a shared variable (`st.shared [var + k], value`), whose value may be
    /// a pointer later loaded back.
    pub(super) fn note_shared_store(&mut self, addr: Node, value: Node) {
        if let Some(v) = self.shared_var_of(addr) {
            self.shared_stores.push((v, value));
        }
    }

    /// The shared variable `addr` is the address of (plus a constant), if any.
    fn shared_var_of(&self, addr: Node) -> Option<u32> {
        let base = match self.acf.kind(addr) {
            Kind::Add(a, b) if matches!(self.acf.kind(b), Kind::Const(_)) => a,
            Kind::Add(a, b) if matches!(self.acf.kind(a), Kind::Const(_)) => b,
            _ => addr,
        };
        match self.acf.kind(base) {
            Kind::Atom(Atom::VarAddr(v)) if self.acf.vars[v as usize].space.is_shared() => Some(v),
            _ => None,
        }
    }

    /// Marks the generic accesses whose address points into shared memory as shared.
    pub fn resolve_generic_spaces(&mut self, accesses: &mut [AccessSite]) {
        for a in accesses.iter_mut() {
            if a.space == StateSpace::Generic {
                let mut visiting = Vec::new();
                if self.points_to_shared(a.addr, &mut visiting, MAX_DEPTH) {
                    a.space = StateSpace::Shared;
                }
            }
        }
    }

    /// Whether every value `n` may take is an address in shared memory: a shared variable's
    /// address plus offsets, a choice between such, or a load from a shared variable every
    /// store to which writes such an address.
    fn points_to_shared(&self, n: Node, visiting: &mut Vec<Node>, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        // A loop variable met again on its own update: its other values decide.
        if visiting.contains(&n) {
            return true;
        }
        match self.acf.kind(n) {
            Kind::Atom(Atom::VarAddr(v)) => self.acf.vars[v as usize].space.is_shared(),
            // Pointer plus offset (two pointers are never added): the pointer side decides.
            Kind::Add(a, b) => {
                visiting.push(n);
                let r = self.points_to_shared(a, visiting, depth - 1)
                    || self.points_to_shared(b, visiting, depth - 1);
                visiting.pop();
                r
            }
            Kind::Ext(_, a) | Kind::LoopOut(_, a) => self.points_to_shared(a, visiting, depth - 1),
            Kind::Select(_, a, b) => {
                self.points_to_shared(a, visiting, depth - 1)
                    && self.points_to_shared(b, visiting, depth - 1)
            }
            Kind::Atom(Atom::Load(l)) => {
                let Some(v) = self.shared_var_of(self.acf.loads[l as usize].addr) else {
                    return false;
                };
                let stored: Vec<Node> = self
                    .shared_stores
                    .iter()
                    .filter(|(w, _)| *w == v)
                    .map(|(_, x)| *x)
                    .collect();
                visiting.push(n);
                let r = !stored.is_empty()
                    && stored
                        .iter()
                        .all(|&x| self.points_to_shared(x, visiting, depth - 1));
                visiting.pop();
                r
            }
            Kind::Atom(Atom::LoopVar(v)) => {
                let info = &self.acf.loopvars[v as usize];
                let (init, update) = (info.init, info.update);
                visiting.push(n);
                let r = self.points_to_shared(init, visiting, depth - 1)
                    && self.points_to_shared(update, visiting, depth - 1);
                visiting.pop();
                r
            }
            _ => false,
        }
    }
}

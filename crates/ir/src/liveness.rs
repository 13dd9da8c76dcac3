//! Register liveness: which registers may be read later, per block, by the classic backward
//! fixpoint over the CFG (uses and definitions from [`crate::effects`]). Register sets are
//! bitsets indexed by [`Reg`] number.

use cranelift_entity::EntityRef;

use crate::{Block, Function, Reg};

/// Live-in register sets of every block of a function.
#[derive(Clone, Debug)]
pub struct Liveness {
    words: usize,
    succs: Vec<Vec<usize>>,
    live_in: Vec<Vec<u64>>,
    /// Whether the fixpoint was reached within the iteration cap (always, short of a
    /// pathological CFG).
    pub converged: bool,
}

/// Passes over the blocks before giving up (a reverse sweep converges in a few).
const MAX_PASSES: usize = 200;

impl Liveness {
    pub fn compute(f: &Function) -> Liveness {
        let words = f.regs.len().div_ceil(64);
        let nb = f.blocks.len();
        let succs: Vec<Vec<usize>> = (0..nb)
            .map(|b| {
                f.successors(Block::new(b))
                    .0
                    .iter()
                    .map(|s| s.index())
                    .collect()
            })
            .collect();
        let mut l = Liveness {
            words,
            succs,
            live_in: vec![vec![0u64; words]; nb],
            converged: false,
        };
        for _ in 0..MAX_PASSES {
            let mut changed = false;
            for b in (0..nb).rev() {
                let mut live = l.live_out(b);
                for &i in f.blocks[Block::new(b)].insts.iter().rev() {
                    Self::step(f, i, &mut live);
                }
                if live != l.live_in[b] {
                    l.live_in[b] = live;
                    changed = true;
                }
            }
            if !changed {
                l.converged = true;
                break;
            }
        }
        l
    }

    /// Registers live into block `b` (a bitset).
    pub fn live_in(&self, b: usize) -> &[u64] {
        &self.live_in[b]
    }

    /// Registers live out of block `b`: the union of its successors' live-in sets.
    pub fn live_out(&self, b: usize) -> Vec<u64> {
        let mut live = vec![0u64; self.words];
        for &s in &self.succs[b] {
            for (x, y) in live.iter_mut().zip(&self.live_in[s]) {
                *x |= y;
            }
        }
        live
    }

    /// Moves `live` from after instruction `i` to before it: its definitions die, its uses
    /// become live.
    pub fn step(f: &Function, i: crate::Inst, live: &mut [u64]) {
        let d = &f.insts[i];
        crate::effects::for_each_def(d, |r| clear(live, r));
        crate::effects::for_each_use(d, |r| insert(live, r));
    }
}

/// Adds `r` to the bitset `set`.
pub fn insert(set: &mut [u64], r: Reg) {
    set[r.index() / 64] |= 1 << (r.index() % 64);
}

/// Removes `r` from the bitset `set`.
pub fn clear(set: &mut [u64], r: Reg) {
    set[r.index() / 64] &= !(1 << (r.index() % 64));
}

/// Whether register number `k` is in the bitset `set`.
pub fn contains(set: &[u64], k: usize) -> bool {
    set[k / 64] >> (k % 64) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(body: &str) -> crate::Module {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() {{\n{body}\n}}\n"
        );
        let (ast, perr) = warpscope_ptx::parse(&text);
        assert!(perr.is_empty(), "{perr:?}");
        let (m, lerr) = crate::lower_module(ast);
        assert!(lerr.is_empty(), "{lerr:?}");
        m
    }

    #[test]
    fn read_before_write_is_live_at_entry_and_loops_carry_liveness() {
        let m = func(
            ".reg .b32 %r<4>;\n.reg .pred %p<2>;\n\
             mov.u32 %r1, 0;\n\
             $L: add.u32 %r1, %r1, %r2;\n\
             setp.lt.u32 %p1, %r1, 100;\n\
             @%p1 bra $L;\n\
             mov.u32 %r3, %r1;\n\
             ret;",
        );
        let f = m.funcs.values().next().unwrap();
        let l = Liveness::compute(f);
        assert!(l.converged);
        let live: Vec<String> = (0..f.regs.len())
            .filter(|&k| contains(l.live_in(0), k))
            .map(|k| f.regs[Reg::new(k)].name.to_string())
            .collect();
        // %r2 is read and never written; %r1 is written first.
        assert_eq!(live, ["%r2"]);
        // The loop block needs %r1 (carried around the back edge) and %r2.
        let in_loop = (0..f.regs.len())
            .filter(|&k| contains(l.live_in(1), k))
            .count();
        assert_eq!(in_loop, 2);
    }
}

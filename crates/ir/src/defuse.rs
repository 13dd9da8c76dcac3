//! Reaching definitions and def-use chains over PTX registers.
//!
//! PTX is not SSA: a register may be written by many instructions (loop-carried updates,
//! predicated writes, values merged at a join). Each write is a [`Def`]; for every register
//! read by an instruction, [`DefUse::reaching`] lists the definitions that may reach it.
//! A guarded write (`@%p mov ...`) reaches onward without killing earlier definitions, since
//! lanes with `%p` false keep the old value. Registers of `.reg` parameters have an entry
//! definition (`inst == None`).

use crate::cfg::ControlFlowGraph;
use crate::effects::{for_each_def, for_each_use};
use crate::entities::{Block, Def, Inst, Reg};
use crate::function::Function;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};
use smallvec::SmallVec;

/// Where a definition happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefSite {
    /// The writing instruction; `None` for a `.reg` parameter's value on entry.
    pub inst: Option<Inst>,
    pub reg: Reg,
    /// Whether the write is guarded by a predicate (so it may not happen for every lane).
    pub guarded: bool,
}

/// One read of a register by an instruction, with the definitions that may reach it.
#[derive(Debug, Clone)]
pub struct Use {
    pub reg: Reg,
    pub defs: SmallVec<[Def; 2]>,
}

/// Reaching definitions of one function.
#[derive(Debug, Clone, Default)]
pub struct DefUse {
    defs: PrimaryMap<Def, DefSite>,
    /// Definitions made by each instruction.
    inst_defs: SecondaryMap<Inst, SmallVec<[Def; 1]>>,
    /// Registers read by each instruction, with their reaching definitions.
    uses: SecondaryMap<Inst, SmallVec<[Use; 3]>>,
    /// Instructions reading each definition.
    users: SecondaryMap<Def, SmallVec<[Inst; 2]>>,
}

/// A dense bit set.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn union_with(&mut self, o: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

impl DefUse {
    /// Computes reaching definitions for `func` over `cfg`.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> DefUse {
        let mut du = DefUse::default();
        // Enumerate definitions; per register, its definitions.
        let mut reg_defs: SecondaryMap<Reg, SmallVec<[Def; 2]>> = SecondaryMap::new();
        let mut entry_defs = Vec::new();
        for p in func.params.iter().chain(func.returns.iter()) {
            if let Some(r) = p.reg {
                let d = du.defs.push(DefSite {
                    inst: None,
                    reg: r,
                    guarded: false,
                });
                reg_defs[r].push(d);
                entry_defs.push(d);
            }
        }
        for (_, inst) in func.insts_in_order() {
            let data = &func.insts[inst];
            let guarded = data.guard.is_some();
            let mut made: SmallVec<[Def; 1]> = SmallVec::new();
            for_each_def(data, |r| {
                let d = du.defs.push(DefSite {
                    inst: Some(inst),
                    reg: r,
                    guarded,
                });
                reg_defs[r].push(d);
                made.push(d);
            });
            du.inst_defs[inst] = made;
        }
        let n = du.defs.len();
        let transfer = |state: &mut Bits, inst: Inst, du: &DefUse| {
            for &d in du.inst_defs[inst].iter() {
                let site = du.defs[d];
                if !site.guarded {
                    for &k in reg_defs[site.reg].iter() {
                        state.clear(k.index());
                    }
                }
            }
            for &d in du.inst_defs[inst].iter() {
                state.set(d.index());
            }
        };
        // Block-level fixpoint in reverse post-order.
        let nb = func.blocks.len();
        let mut ins: Vec<Bits> = vec![Bits::new(n); nb];
        let mut outs: Vec<Bits> = vec![Bits::new(n); nb];
        if let Some(entry) = cfg.entry() {
            for &d in &entry_defs {
                ins[entry.index()].set(d.index());
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in cfg.rpo() {
                let mut state = ins[b.index()].clone();
                for &p in cfg.preds(b) {
                    state.union_with(&outs[p.index()]);
                }
                ins[b.index()] = state.clone();
                for &i in &func.blocks[b].insts {
                    transfer(&mut state, i, &du);
                }
                if state != outs[b.index()] {
                    outs[b.index()] = state;
                    changed = true;
                }
            }
        }
        // Resolve each use.
        for &b in cfg.rpo() {
            let mut state = ins[b.index()].clone();
            for &inst in &func.blocks[b].insts {
                let mut uses: SmallVec<[Use; 3]> = SmallVec::new();
                for_each_use(&func.insts[inst], |r| {
                    if uses.iter().any(|u| u.reg == r) {
                        return;
                    }
                    let defs: SmallVec<[Def; 2]> = reg_defs[r]
                        .iter()
                        .copied()
                        .filter(|d| state.get(d.index()))
                        .collect();
                    uses.push(Use { reg: r, defs });
                });
                for u in &uses {
                    for &d in &u.defs {
                        du.users[d].push(inst);
                    }
                }
                du.uses[inst] = uses;
                transfer(&mut state, inst, &du);
            }
        }
        du
    }

    /// All definitions.
    pub fn defs(&self) -> impl Iterator<Item = (Def, &DefSite)> {
        self.defs.iter()
    }

    /// One definition.
    pub fn def(&self, d: Def) -> &DefSite {
        &self.defs[d]
    }

    /// Definitions made by `inst`.
    pub fn defs_of(&self, inst: Inst) -> &[Def] {
        &self.inst_defs[inst]
    }

    /// Registers read by `inst` with their reaching definitions.
    pub fn uses_of(&self, inst: Inst) -> &[Use] {
        &self.uses[inst]
    }

    /// Definitions of `reg` that may reach its read by `inst` (empty if `inst` does not
    /// read `reg`, or reads it uninitialised).
    pub fn reaching(&self, inst: Inst, reg: Reg) -> &[Def] {
        self.uses[inst]
            .iter()
            .find(|u| u.reg == reg)
            .map_or(&[], |u| &u.defs)
    }

    /// Instructions that read definition `d`.
    pub fn users(&self, d: Def) -> &[Inst] {
        &self.users[d]
    }
}

/// Blocks in which `reg` is defined (any definition), in index order.
pub fn defining_blocks(func: &Function, du: &DefUse, reg: Reg) -> Vec<Block> {
    let mut v: Vec<Block> = du
        .defs()
        .filter(|(_, s)| s.reg == reg)
        .filter_map(|(_, s)| s.inst.map(|i| func.inst_block[i]))
        .collect();
    v.sort();
    v.dedup();
    v
}

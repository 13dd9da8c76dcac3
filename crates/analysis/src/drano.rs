//! GPUDrano's static analysis (Alur et al., §4) as an abstract interpretation on the
//! [`crate::dataflow`] engine, selectable with `--engine drano`.
//!
//! * Integers: how a value depends on the thread index, one coefficient per dimension in
//!   `{⊥, 0, 1, −1, ⊤}` (the paper tracks `tid.x` only and missed 22 Rodinia bugs; we track
//!   x, y and z). PTX addresses are in bytes, so a value also carries a power-of-two byte
//!   scale (`4·tid` from `mul.wide.s32 …, 4`) — the paper's index coefficient is the byte
//!   coefficient divided by the element size.
//! * Booleans: `{⊥, TF, TT⁻, FF⁻, ⊤}` (uniform; false for at most one thread; true for at most
//!   one thread; anything).
//! * Active threads: `FF⁻` (at most one) or `⊤`, refined along branch edges.
//! * Merges: where paths of a thread-dependent branch reconverge (or at the header of a loop
//!   whose exit is thread dependent), registers that differ become `⊤`; elsewhere they join.
//!
//! A global access is uncoalesced when more than one thread may run it and its index is `⊤`,
//! or `±1` with elements wider than 4 bytes (the paper's rule); we also flag a dependence on
//! `tid.y`/`tid.z` when a warp spans several rows of the block. As an extension for engine
//! comparisons, a branch whose predicate is not `TF` is reported as possibly divergent.

use crate::dataflow::{Analysis, solve};
use cranelift_entity::EntityRef;
use std::cell::RefCell;
use warpscope_ir::control::{cond_branch, divergent_region};
use warpscope_ir::{AddrBase, Block, Function, FunctionAnalyses, Inst, Operand, Reg};
use warpscope_ptx::{CmpOp, Dim, Opcode, SpecialReg, StateSpace, Type};

use self::Abs as Val;

/// A coefficient of the thread index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coef {
    Bot,
    Zero,
    One,
    MinusOne,
    Top,
}

impl Coef {
    fn join(self, o: Coef) -> Coef {
        match (self, o) {
            (Coef::Bot, x) | (x, Coef::Bot) => x,
            (a, b) if a == b => a,
            _ => Coef::Top,
        }
    }
    fn add(self, o: Coef) -> Coef {
        use Coef::*;
        match (self, o) {
            (Bot, _) | (_, Bot) => Bot,
            (Top, _) | (_, Top) => Top,
            (Zero, x) | (x, Zero) => x,
            (One, MinusOne) | (MinusOne, One) => Zero,
            _ => Top,
        }
    }
    fn neg(self) -> Coef {
        match self {
            Coef::One => Coef::MinusOne,
            Coef::MinusOne => Coef::One,
            x => x,
        }
    }
}

/// The abstract boolean lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolAbs {
    Bot,
    /// The same for all threads.
    TF,
    /// False for at most one thread.
    TTm,
    /// True for at most one thread.
    FFm,
    Top,
}

impl BoolAbs {
    fn join(self, o: BoolAbs) -> BoolAbs {
        match (self, o) {
            (BoolAbs::Bot, x) | (x, BoolAbs::Bot) => x,
            (a, b) if a == b => a,
            _ => BoolAbs::Top,
        }
    }
    fn not(self) -> BoolAbs {
        match self {
            BoolAbs::TTm => BoolAbs::FFm,
            BoolAbs::FFm => BoolAbs::TTm,
            x => x,
        }
    }
    fn and(self, o: BoolAbs) -> BoolAbs {
        match (self, o) {
            (BoolAbs::Bot, _) | (_, BoolAbs::Bot) => BoolAbs::Bot,
            (BoolAbs::FFm, _) | (_, BoolAbs::FFm) => BoolAbs::FFm,
            (BoolAbs::TF, BoolAbs::TF) => BoolAbs::TF,
            _ => BoolAbs::Top,
        }
    }
    fn or(self, o: BoolAbs) -> BoolAbs {
        self.not().and(o.not()).not()
    }
}

/// An abstract register value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abs {
    Bot,
    /// `2^scale · Σ c[d]·tid.d + (uniform)`.
    Int {
        scale: u8,
        c: [Coef; 3],
    },
    Bool(BoolAbs),
}

const ZERO: Abs = Abs::Int {
    scale: 0,
    c: [Coef::Zero; 3],
};
const TOP: Abs = Abs::Int {
    scale: 0,
    c: [Coef::Top; 3],
};

impl Abs {
    fn is_zero(self) -> bool {
        matches!(self, Abs::Int { c, .. } if c == [Coef::Zero; 3])
    }
    fn is_bot(self) -> bool {
        matches!(self, Abs::Bot) || matches!(self, Abs::Int { c, .. } if c.contains(&Coef::Bot))
    }
    fn join(self, o: Abs) -> Abs {
        match (self, o) {
            (Abs::Bot, x) | (x, Abs::Bot) => x,
            (Abs::Bool(a), Abs::Bool(b)) => Abs::Bool(a.join(b)),
            (Abs::Int { scale: s1, c: c1 }, Abs::Int { scale: s2, c: c2 }) => {
                if o.is_zero() {
                    return self;
                }
                if self.is_zero() {
                    return o;
                }
                if s1 == s2 {
                    Abs::Int {
                        scale: s1,
                        c: [c1[0].join(c2[0]), c1[1].join(c2[1]), c1[2].join(c2[2])],
                    }
                } else {
                    TOP
                }
            }
            _ => TOP,
        }
    }
    fn add(self, o: Abs) -> Abs {
        match (self, o) {
            (Abs::Int { scale: s1, c: c1 }, Abs::Int { scale: s2, c: c2 }) => {
                if o.is_zero() {
                    return self;
                }
                if self.is_zero() {
                    return o;
                }
                if s1 != s2 {
                    return TOP;
                }
                Abs::Int {
                    scale: s1,
                    c: [c1[0].add(c2[0]), c1[1].add(c2[1]), c1[2].add(c2[2])],
                }
            }
            (Abs::Bot, _) | (_, Abs::Bot) => Abs::Bot,
            _ => TOP,
        }
    }
    fn neg(self) -> Abs {
        match self {
            Abs::Int { scale, c } => Abs::Int {
                scale,
                c: [c[0].neg(), c[1].neg(), c[2].neg()],
            },
            x => x,
        }
    }
    /// Multiplication by a literal.
    fn scale_by(self, k: i64) -> Abs {
        if self.is_zero() || k == 0 {
            return if k == 0 { ZERO } else { self };
        }
        match self {
            Abs::Int { scale, c } => {
                let (k, c) = if k < 0 {
                    (-k, [c[0].neg(), c[1].neg(), c[2].neg()])
                } else {
                    (k, c)
                };
                if k.count_ones() == 1 {
                    let s = scale + k.trailing_zeros() as u8;
                    if s <= 4 {
                        return Abs::Int { scale: s, c };
                    }
                }
                TOP
            }
            x => x,
        }
    }
    fn as_bool(self) -> BoolAbs {
        match self {
            Abs::Bool(b) => b,
            Abs::Bot => BoolAbs::Bot,
            x if x.is_zero() => BoolAbs::TF,
            _ => BoolAbs::Top,
        }
    }
}

/// The active-threads abstraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Active {
    /// At most one thread.
    AtMostOne,
    Any,
}

/// The abstract state before an instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub regs: Vec<Abs>,
    pub active: Active,
}

/// GPUDrano's analysis of one function.
pub struct Drano<'a> {
    fa: &'a FunctionAnalyses,
    nregs: usize,
    /// Blocks where a thread-dependent branch reconverges, or headers of loops with a
    /// thread-dependent exit: merges there give ⊤.
    divergent_joins: Vec<bool>,
    /// Branch blocks found thread dependent during the last solve.
    td_branches: RefCell<Vec<Block>>,
}

fn special(r: SpecialReg, d: Option<Dim>) -> Abs {
    let one = |i: usize| {
        let mut c = [Coef::Zero; 3];
        c[i] = Coef::One;
        Abs::Int { scale: 0, c }
    };
    match r {
        SpecialReg::Tid => one(match d.unwrap_or(Dim::X) {
            Dim::X => 0,
            Dim::Y => 1,
            Dim::Z => 2,
        }),
        SpecialReg::Laneid => one(0),
        SpecialReg::Clock
        | SpecialReg::ClockHi
        | SpecialReg::Clock64
        | SpecialReg::Globaltimer
        | SpecialReg::GlobaltimerLo
        | SpecialReg::GlobaltimerHi
        | SpecialReg::LanemaskEq
        | SpecialReg::LanemaskLe
        | SpecialReg::LanemaskLt
        | SpecialReg::LanemaskGe
        | SpecialReg::LanemaskGt => TOP,
        _ => ZERO,
    }
}

impl<'a> Drano<'a> {
    fn value(&self, s: &State, op: &Operand) -> Abs {
        match op {
            Operand::Reg(r) => s.regs[r.index()],
            Operand::Not(r) => Abs::Bool(s.regs[r.index()].as_bool().not()),
            Operand::Special(r, d) => special(*r, *d),
            Operand::Imm(_) | Operand::UImm(_) | Operand::F32(_) | Operand::F64(_) => ZERO,
            Operand::Global(_) | Operand::Local(_) | Operand::Param(_) => ZERO,
            Operand::Addr(AddrBase::Reg(r), _) => s.regs[r.index()],
            Operand::Addr(..) => ZERO,
            _ => TOP,
        }
    }

    fn literal(op: Option<&Operand>) -> Option<i64> {
        match op {
            Some(Operand::Imm(v)) => Some(*v),
            Some(Operand::UImm(v)) => Some(*v as i64),
            _ => None,
        }
    }

    fn compute(&self, func: &Function, inst: Inst, s: &State) -> Val {
        let d = &func.insts[inst];
        let src = |k: usize| d.operands.get(k).map_or(ZERO, |o| self.value(s, o));
        let all_zero = |from: usize| {
            d.operands.iter().skip(from).all(|o| {
                self.value(s, o).is_zero() || matches!(self.value(s, o), Val::Bool(BoolAbs::TF))
            })
        };
        let is_pred = d.mods.ty == Some(Type::Pred);
        use Opcode::*;
        match d.op {
            Mov | Cvt | Cvta => src(1),
            Add if !is_pred => src(1).add(src(2)),
            Sub => src(1).add(src(2).neg()),
            Neg => src(1).neg(),
            Mul | Mul24 | Mad | Mad24 => {
                let (a, b) = (src(1), src(2));
                let prod = match (
                    Self::literal(d.operands.get(1)),
                    Self::literal(d.operands.get(2)),
                ) {
                    (_, Some(k)) => a.scale_by(k),
                    (Some(k), _) => b.scale_by(k),
                    _ if a.is_zero() && b.is_zero() => ZERO,
                    _ if a.is_bot() || b.is_bot() => Val::Bot,
                    _ => TOP,
                };
                if matches!(d.op, Mad | Mad24) {
                    prod.add(src(3))
                } else {
                    prod
                }
            }
            Shl => match Self::literal(d.operands.get(2)) {
                Some(k @ 0..=4) => src(1).scale_by(1 << k),
                _ if all_zero(1) => ZERO,
                _ => TOP,
            },
            Setp => {
                let (a, b) = (src(1), src(2));
                let mut r = if a.is_zero() && b.is_zero() {
                    BoolAbs::TF
                } else {
                    let unit = |x: Val| {
                        matches!(x, Val::Int { c, .. }
                            if c.iter().filter(|c| **c != Coef::Zero).count() == 1
                                && !c.contains(&Coef::Top) && !c.contains(&Coef::Bot))
                    };
                    let eqlike = (a.is_zero() && unit(b)) || (b.is_zero() && unit(a));
                    match (eqlike, d.mods.cmp) {
                        (true, Some(CmpOp::Eq | CmpOp::Equ)) => BoolAbs::FFm,
                        (true, Some(CmpOp::Ne | CmpOp::Neu)) => BoolAbs::TTm,
                        _ => BoolAbs::Top,
                    }
                };
                if let Some(bop) = d.mods.bool_op {
                    let c = src(3).as_bool();
                    r = match bop {
                        warpscope_ptx::BoolOp::And => r.and(c),
                        warpscope_ptx::BoolOp::Or => r.or(c),
                        warpscope_ptx::BoolOp::Xor => {
                            if r == BoolAbs::TF && c == BoolAbs::TF {
                                BoolAbs::TF
                            } else {
                                BoolAbs::Top
                            }
                        }
                    };
                }
                Val::Bool(r)
            }
            And | Or | Xor | Not if is_pred => {
                let a = src(1).as_bool();
                Val::Bool(match d.op {
                    Not => a.not(),
                    And => a.and(src(2).as_bool()),
                    Or => a.or(src(2).as_bool()),
                    _ => {
                        let b = src(2).as_bool();
                        if a == BoolAbs::TF && b == BoolAbs::TF {
                            BoolAbs::TF
                        } else {
                            BoolAbs::Top
                        }
                    }
                })
            }
            Selp => {
                let p = src(3).as_bool();
                if matches!(p, BoolAbs::TF | BoolAbs::Bot) {
                    src(1).join(src(2))
                } else if d.operands.get(1) == d.operands.get(2) {
                    src(1)
                } else {
                    TOP
                }
            }
            Ld | Ldu => {
                let space = d.mods.space;
                if space.is_some_and(StateSpace::is_param) {
                    return if is_pred {
                        Val::Bool(BoolAbs::TF)
                    } else {
                        ZERO
                    };
                }
                let addr = src(1);
                if addr.is_zero() {
                    if is_pred {
                        Val::Bool(BoolAbs::TF)
                    } else {
                        ZERO
                    }
                } else {
                    TOP
                }
            }
            Atom | Shfl | Match | Call => TOP,
            Vote | Redux | Activemask => ZERO,
            _ => {
                if all_zero(1) {
                    if is_pred {
                        Val::Bool(BoolAbs::TF)
                    } else {
                        ZERO
                    }
                } else if is_pred {
                    Val::Bool(BoolAbs::Top)
                } else {
                    TOP
                }
            }
        }
    }
}

impl Analysis for Drano<'_> {
    type Domain = State;

    fn bottom(&self) -> State {
        State {
            regs: vec![Abs::Bot; self.nregs],
            active: Active::AtMostOne,
        }
    }

    fn entry_state(&self) -> State {
        State {
            regs: vec![ZERO; self.nregs],
            active: Active::Any,
        }
    }

    fn join(&self, target: Block, into: &mut State, from: &State) -> bool {
        let mut changed = false;
        let divergent = self.divergent_joins[target.index()];
        for (a, b) in into.regs.iter_mut().zip(&from.regs) {
            let n = if *a == Abs::Bot {
                *b
            } else if *b == Abs::Bot || a == b {
                *a
            } else if divergent {
                match a {
                    Abs::Bool(_) => Abs::Bool(BoolAbs::Top),
                    _ => TOP,
                }
            } else {
                a.join(*b)
            };
            if n != *a {
                *a = n;
                changed = true;
            }
        }
        if from.active == Active::Any && into.active != Active::Any {
            into.active = Active::Any;
            changed = true;
        }
        changed
    }

    fn transfer(&self, func: &Function, inst: Inst, state: &mut State) {
        let d = &func.insts[inst];
        let mut defs: Vec<Reg> = Vec::new();
        warpscope_ir::effects::for_each_def(d, |r| defs.push(r));
        if defs.is_empty() {
            return;
        }
        let v = self.compute(func, inst, state);
        let is_pred_dest = |r: Reg| func.regs[r].ty == Type::Pred;
        for (k, r) in defs.iter().enumerate() {
            let mut val = v;
            if is_pred_dest(*r) {
                val = Abs::Bool(v.as_bool());
                if k == 1 {
                    val = Abs::Bool(v.as_bool().not());
                }
            }
            if let Some(g) = d.guard {
                let p = state.regs[g.reg.index()].as_bool();
                let old = state.regs[r.index()];
                val = match p {
                    BoolAbs::TF | BoolAbs::Bot => old.join(val),
                    _ if old == Abs::Bot => val,
                    _ => match val {
                        Abs::Bool(_) => Abs::Bool(BoolAbs::Top),
                        _ => TOP,
                    },
                };
            }
            state.regs[r.index()] = val;
        }
    }

    fn edge(&self, func: &Function, from: Block, to: Block, state: &mut State) {
        let Some(cb) = cond_branch(func, from) else {
            return;
        };
        let mut p = state.regs[cb.guard.reg.index()].as_bool();
        if cb.guard.negated {
            p = p.not();
        }
        if !matches!(p, BoolAbs::TF | BoolAbs::Bot) {
            let mut td = self.td_branches.borrow_mut();
            if !td.contains(&from) {
                td.push(from);
            }
        }
        let on_edge = if cb.taken == Some(to) { p } else { p.not() };
        if on_edge == BoolAbs::FFm {
            state.active = Active::AtMostOne;
        }
    }
}

/// One GPUDrano finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DranoVerdict {
    /// An uncoalesced global access.
    Uncoalesced(Inst),
    /// A branch on a thread-dependent predicate (engine-comparison extension).
    Divergent(Inst),
}

/// Runs GPUDrano on `func` for blocks `block` wide in x.
pub fn analyze(func: &Function, fa: &FunctionAnalyses, block: [u32; 3]) -> Vec<DranoVerdict> {
    let n = fa.cfg.num_blocks();
    let mut d = Drano {
        fa,
        nregs: func.regs.len(),
        divergent_joins: vec![false; n],
        td_branches: RefCell::new(Vec::new()),
    };
    let mut known: Vec<Block> = Vec::new();
    let mut results;
    loop {
        results = solve(&d, func, &fa.cfg);
        let mut td = d.td_branches.borrow().clone();
        td.sort();
        if td == known {
            break;
        }
        known = td;
        let mut joins = vec![false; n];
        for &b in &known {
            if let Some(j) = d.fa.postdom.ipdom(b) {
                joins[j.index()] = true;
            }
            // A thread-dependent exit of a loop: merges at its header give ⊤ too.
            if let Some(l) = d.fa.loops.innermost(b) {
                let region = divergent_region(d.fa, b);
                let h = d.fa.loops.get(l).header;
                if region[h.index()] {
                    joins[h.index()] = true;
                }
            }
        }
        d.divergent_joins = joins;
        d.td_branches.borrow_mut().clear();
    }
    let several_rows = !block[0].is_multiple_of(32);
    let mut out = Vec::new();
    for &b in fa.cfg.rpo() {
        let Some(mut s) = results.entry(b).cloned() else {
            continue;
        };
        for &i in &func.blocks[b].insts {
            let data = &func.insts[i];
            let is_mem = matches!(
                data.op,
                Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Atom | Opcode::Red
            );
            let global = matches!(
                data.mods.space,
                Some(StateSpace::Global) | None | Some(StateSpace::Generic)
            );
            if is_mem && global && s.active == Active::Any {
                let k = if matches!(data.op, Opcode::St | Opcode::Red) {
                    0
                } else {
                    1
                };
                if let Some(Operand::Addr(AddrBase::Reg(r), _)) = data.operands.get(k) {
                    let elem = data.mods.ty.map_or(4, |t| t.size_bytes())
                        * u32::from(data.mods.vec.max(1));
                    if let Abs::Int { scale, c } = s.regs[r.index()] {
                        let bytes = 1u32 << scale;
                        let unc = c.contains(&Coef::Top)
                            || (c[0] != Coef::Zero
                                && c[0] != Coef::Bot
                                && (bytes > elem || elem > 4))
                            || (several_rows
                                && (c[1] != Coef::Zero && c[1] != Coef::Bot
                                    || c[2] != Coef::Zero && c[2] != Coef::Bot));
                        if unc {
                            out.push(DranoVerdict::Uncoalesced(i));
                        }
                    }
                }
            }
            d.transfer(func, i, &mut s);
        }
        if let Some(cb) = cond_branch(func, b) {
            let mut st = results.entry(b).cloned().unwrap_or_else(|| d.bottom());
            for &i in &func.blocks[b].insts {
                if i == cb.inst {
                    break;
                }
                d.transfer(func, i, &mut st);
            }
            let p = st.regs[cb.guard.reg.index()].as_bool();
            if !matches!(p, BoolAbs::TF | BoolAbs::Bot) && st.active == Active::Any {
                out.push(DranoVerdict::Divergent(cb.inst));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_laws() {
        let one = Abs::Int {
            scale: 0,
            c: [Coef::One, Coef::Zero, Coef::Zero],
        };
        assert_eq!(one.add(one.neg()), ZERO);
        assert!(matches!(
            one.add(one),
            Abs::Int {
                c: [Coef::Top, Coef::Zero, Coef::Zero],
                ..
            }
        ));
        assert_eq!(
            one.scale_by(4),
            Abs::Int {
                scale: 2,
                c: [Coef::One, Coef::Zero, Coef::Zero]
            }
        );
        assert_eq!(one.scale_by(3), TOP);
        assert_eq!(ZERO.scale_by(1000), ZERO);
        assert_eq!(BoolAbs::TTm.not(), BoolAbs::FFm);
        assert_eq!(BoolAbs::FFm.and(BoolAbs::Top), BoolAbs::FFm);
        assert_eq!(BoolAbs::TTm.or(BoolAbs::Top), BoolAbs::TTm);
        assert_eq!(BoolAbs::TF.join(BoolAbs::FFm), BoolAbs::Top);
    }
}

//! Branches ptxas adds that the PTX does not show: the slow paths of IEEE-rounded
//! floating-point division, square root and reciprocal.
//!
//! `div.rn.f32` (what `a / b` compiles to without `-use_fast_math`), `sqrt.rn.f32` (`sqrtf`,
//! `sqrt` on floats), `rcp.rn.f32` (`1.0f / x`) and their `.rz/.rm/.rp` and `.f64` forms have no
//! branch in the PTX, but ptxas lowers each into a fast path (a `MUFU` approximation refined
//! with `FFMA`s) and a check (`FCHK`, or an exponent test) that branches to a slow subroutine
//! for operands the fast path cannot round correctly: zero, denormal, infinite or NaN
//! operands, and quotients near the ends of the exponent range. When some lanes of a warp
//! take it and others do not, that branch diverges, and Nsight Compute counts it on the
//! operation's line. `div.approx`, `div.full`, `sqrt.approx`, `rcp.approx` (and
//! `-use_fast_math`, `-prec-div=false`, `-prec-sqrt=false`, `__fdividef`) have no slow path.
//!
//! Whether a lane takes it depends on the values, which the PTX does not tell. The rule here
//! reports the operation when an operand differs across lanes *and can be exactly zero for
//! some lanes only* because it is computed by addition or subtraction: a difference cancels to
//! zero where its terms are equal (`data[i] - mean[j]`), a sum that starts at zero stays zero
//! where every term is (`mean[j] += data[i*M + j]` over a column of zeros). A value scaled by
//! a lane-uniform factor (`sum / N`, `sqrt(sum / N)`) keeps that property. Raw loads and
//! products are not reported: they are zero only where the data holds zeros. Nor are
//! products added once (`a*c + b*d`, `x - y*z`, `sqrt(x*x + y*y)`): zero only where rounded
//! products cancel exactly; a sum of products counts when accumulated over a loop (or a
//! completely unrolled one, four fused additions or more). This rule was chosen on the
//! real-world set (`validation/realworld`, `docs/accuracy.md`), where the H100 counted a
//! divergent branch on 5 of the 24 lines with such operations that ran, every one of them an
//! accumulated or subtracted operand; it is fitted to that data. The exclusion of products
//! added once came after the fifth set, where 8 such lines (`rsbench`, `thomas`, `adi`,
//! `BezierLineCDP`) never took the slow path and none of the true lines was of that shape.
//!
//! An integer converted to floating point is zero where the integer is: the thread index in
//! a block's first lane (`threadIdx.x / (float)blockDim.x`), the global index in the first
//! block's, a difference of lane-varying integers where its terms meet (`(k - i)*(k - i)`).
//! `FCHK` sends a zero dividend to the slow path: on the real-world set the H100 counted a
//! divergent branch on each of the 3 lines of that shape that ran, and on neither of the 2
//! where the integer was a lane-uniform block index or a value plus a constant (not reported).

use warpscope_ir::{Function, FunctionAnalyses, Inst, Operand, Reg};
use warpscope_ptx::{AtomOp, Flags, Opcode, Rounding, StateSpace, Type};

use crate::uniformity::Uniformity;

/// How many definitions deep [`zero_by_cancellation`] follows an operand.
const MAX_DEPTH: u32 = 8;

/// An IEEE-rounded division, square root or reciprocal whose slow path may diverge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlowPath {
    /// The `div`/`sqrt`/`rcp` instruction.
    pub inst: Inst,
    /// The addition, subtraction or fused multiply-add that makes the operand zero for some
    /// lanes (the accumulation or the difference).
    pub cancel: Inst,
    /// Index of the operand (among the instruction's sources) that may be zero.
    pub operand: usize,
}

/// Whether `inst` is an IEEE-rounded `div`/`sqrt`/`rcp` on `f32` or `f64`: one that ptxas
/// compiles with a slow-path branch.
pub fn has_slow_path(func: &Function, inst: Inst) -> bool {
    let d = &func.insts[inst];
    matches!(d.op, Opcode::Div | Opcode::Sqrt | Opcode::Rcp)
        && matches!(d.mods.ty, Some(Type::F32 | Type::F64))
        && matches!(
            d.mods.rounding,
            Some(Rounding::Rn | Rounding::Rz | Rounding::Rm | Rounding::Rp)
        )
        && !d.mods.has(Flags::APPROX)
        && !d.mods.has(Flags::FULL)
}

/// The slow paths of `func` (in one calling context, `u`) that may diverge.
pub fn slow_paths(func: &Function, fa: &FunctionAnalyses, u: &Uniformity) -> Vec<SlowPath> {
    let mut out = Vec::new();
    for (inst, d) in func.insts.iter() {
        if !has_slow_path(func, inst) {
            continue;
        }
        // The dividend of a division, the operand of a square root; not a divisor or the
        // operand of a reciprocal: programs keep those away from zero (a zero there is an
        // infinity, usually a bug), while zero dividends and radicands are ordinary data.
        if d.op == Opcode::Rcp {
            continue;
        }
        if let Some((k, op)) = d.operands.iter().enumerate().nth(1) {
            let Operand::Reg(r) = *op else { continue };
            if u.use_cause(fa, inst, r).is_none() {
                continue;
            }
            // A square root's radicand: a sum of lane-varying values only.
            let sqrt = d.op == Opcode::Sqrt;
            if let Some(cancel) = zero_by_cancellation(func, fa, u, inst, r, MAX_DEPTH, sqrt) {
                out.push(SlowPath {
                    inst,
                    cancel,
                    operand: k - 1,
                });
            }
        }
    }
    out
}

/// The addition or subtraction (of lane-varying values) that `reg`, as read by `at`, comes
/// from, possibly through moves, negation, absolute value, conversion between float types
/// and scaling by a lane-uniform factor. With `no_uniform_term` (a square root's radicand),
/// not a sum with a lane-uniform term (`r2 + eps`, `x*x + y*y + PTINY`): that term keeps it
/// from zero unless the rest cancels it exactly (the real-world sets: 6 such roots, in
/// `lulesh`, `haccmk` and `aobench`, none on the slow path).
fn zero_by_cancellation(
    func: &Function,
    fa: &FunctionAnalyses,
    u: &Uniformity,
    at: Inst,
    reg: Reg,
    depth: u32,
    no_uniform_term: bool,
) -> Option<Inst> {
    if depth == 0 {
        return None;
    }
    for &def in fa.defuse.reaching(at, reg) {
        let Some(i) = fa.defuse.def(def).inst else {
            continue;
        };
        let d = &func.insts[i];
        let float = d.mods.ty.is_some_and(|t| t.is_float());
        let src = |k: usize| match d.operands.get(k) {
            Some(Operand::Reg(r)) => Some(*r),
            _ => None,
        };
        let varying = |k: usize| src(k).is_some_and(|r| u.use_cause(fa, i, r).is_some());
        let found = match d.op {
            // A sum or difference; one of products (`acc = fma(a, b, acc)`, `x - y*z`) only
            // when accumulated ([`accumulates`]): a sum over a loop starts at zero and stays
            // zero where every product is, while products added once (`a*c + b*d`, `x - y*z`)
            // are zero only where rounded products cancel exactly, which no lane of the
            // real-world set's 8 such lines did.
            Opcode::Add | Opcode::Sub | Opcode::Fma | Opcode::Mad
                if float
                    && u.def_cause(def).is_some()
                    && (!no_uniform_term
                        || if matches!(d.op, Opcode::Add | Opcode::Sub) {
                            varying(1) && varying(2)
                        } else {
                            varying(3)
                        })
                    && (!of_products(func, fa, i) || accumulates(func, fa, i, i, 1, MAX_DEPTH)) =>
            {
                Some(i)
            }
            Opcode::Mov | Opcode::Neg | Opcode::Abs => src(1)
                .and_then(|r| zero_by_cancellation(func, fa, u, i, r, depth - 1, no_uniform_term)),
            Opcode::Cvt if float && d.mods.ty2.is_some_and(|t| t.is_float()) => src(1)
                .and_then(|r| zero_by_cancellation(func, fa, u, i, r, depth - 1, no_uniform_term)),
            // An integer converted: zero where the integer is (see [`int_zero_somewhere`]).
            Opcode::Cvt if float && u.def_cause(def).is_some() => {
                src(1).and_then(|r| int_zero_somewhere(func, fa, u, i, r, depth - 1))
            }
            // Scaled by a lane-uniform factor (or divided by one).
            Opcode::Mul if float => {
                if !varying(2) {
                    src(1).and_then(|r| {
                        zero_by_cancellation(func, fa, u, i, r, depth - 1, no_uniform_term)
                    })
                } else if !varying(1) {
                    src(2).and_then(|r| {
                        zero_by_cancellation(func, fa, u, i, r, depth - 1, no_uniform_term)
                    })
                } else {
                    None
                }
            }
            Opcode::Div if float && !varying(2) => src(1)
                .and_then(|r| zero_by_cancellation(func, fa, u, i, r, depth - 1, no_uniform_term)),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether the floating-point addition `at` adds products: a fused multiply-add, or an
/// `add`/`sub` with an operand a `mul` computes (nvcc leaves `x - y*z` unfused).
fn of_products(func: &Function, fa: &FunctionAnalyses, at: Inst) -> bool {
    let d = &func.insts[at];
    match d.op {
        Opcode::Fma | Opcode::Mad => true,
        Opcode::Add | Opcode::Sub => [1, 2].iter().any(|&k| match d.operands.get(k) {
            Some(Operand::Reg(r)) => fa.defuse.reaching(at, *r).iter().any(|&def| {
                fa.defuse
                    .def(def)
                    .inst
                    .is_some_and(|i| func.insts[i].op == Opcode::Mul)
            }),
            _ => false,
        }),
        _ => false,
    }
}

/// Fused additions in a row from which a sum of products counts as accumulated (a loop of
/// known trip count that nvcc unrolled completely; a sum of two products, `a*c + b*d`, has 2).
const MIN_CHAIN: u32 = 4;

/// Whether the fused multiply-add `root` accumulates: following its addend (operand 3) back
/// through other floating-point additions (`at` is where the walk stands, `chain` the
/// additions passed), some definition reached lies at or after `root` on the path round a
/// loop (in a block `root`'s block dominates, or later than `root` in its own block:
/// `acc = fma(a, b, acc)`, or the last of an unrolled chain of them), or the additions in a
/// row number [`MIN_CHAIN`] (a completely unrolled loop).
fn accumulates(
    func: &Function,
    fa: &FunctionAnalyses,
    root: Inst,
    at: Inst,
    chain: u32,
    depth: u32,
) -> bool {
    if chain >= MIN_CHAIN {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let d = &func.insts[at];
    let addends: &[usize] = match d.op {
        Opcode::Fma | Opcode::Mad => &[3],
        Opcode::Add | Opcode::Sub => &[1, 2],
        Opcode::Mov => &[1],
        _ => return false,
    };
    let root_block = func.inst_block[root];
    for &k in addends {
        let Some(Operand::Reg(r)) = d.operands.get(k) else {
            continue;
        };
        for &def in fa.defuse.reaching(at, *r) {
            let Some(i) = fa.defuse.def(def).inst else {
                continue;
            };
            let b = func.inst_block[i];
            let around = if b == root_block {
                i >= root
            } else {
                fa.domtree.dominates(root_block, b)
            };
            if around {
                return true;
            }
            let di = &func.insts[i];
            if !di.mods.ty.is_some_and(|t| t.is_float()) {
                continue;
            }
            let adds = matches!(di.op, Opcode::Fma | Opcode::Mad | Opcode::Add | Opcode::Sub);
            if accumulates(func, fa, root, i, chain + u32::from(adds), depth - 1) {
                return true;
            }
        }
    }
    false
}

/// The integer instruction that makes the lane-varying integer `reg`, as read by `at`, zero
/// for some lanes and not others: the thread index itself (zero in a block's first lane), a
/// sum or difference of two lane-varying or block-dependent values (the global index
/// `blockIdx.x * blockDim.x + threadIdx.x`, zero in the first block's first lane; `k - i`,
/// zero where they meet), or a product, negation, shift or conversion of one. A lane-varying
/// value plus a constant (`i + 1`) is zero only for one value, not reported.
fn int_zero_somewhere(
    func: &Function,
    fa: &FunctionAnalyses,
    u: &Uniformity,
    at: Inst,
    reg: Reg,
    depth: u32,
) -> Option<Inst> {
    if depth == 0 || u.use_cause(fa, at, reg).is_none() {
        return None;
    }
    for &def in fa.defuse.reaching(at, reg) {
        let Some(i) = fa.defuse.def(def).inst else {
            continue;
        };
        let d = &func.insts[i];
        if d.mods.ty.is_some_and(|t| t.is_float()) {
            continue;
        }
        let src = |k: usize| match d.operands.get(k) {
            Some(Operand::Reg(r)) => Some(*r),
            _ => None,
        };
        let rec = |k: usize| src(k).and_then(|r| int_zero_somewhere(func, fa, u, i, r, depth - 1));
        let found = match d.op {
            Opcode::Mov => match d.operands.get(1) {
                Some(Operand::Special(warpscope_ptx::SpecialReg::Tid, _)) => Some(i),
                _ => rec(1),
            },
            Opcode::Add | Opcode::Sub if src(1).is_some() && src(2).is_some() => Some(i),
            // `a*b + c` with the product and the addend both registers: a sum of two values.
            Opcode::Mad if src(3).is_some() => Some(i),
            Opcode::Mul | Opcode::Mul24 => rec(1).or_else(|| rec(2)),
            Opcode::Neg | Opcode::Abs | Opcode::Cvt | Opcode::Shl => rec(1),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether `inst` is a floating-point `atom.add`/`red.add` on shared memory, which the H100
/// has no instruction for: ptxas lowers it into a compare-and-swap retry loop
/// (`ATOMS.CAST.SPIN`, then a branch back while the swap failed), seen in the SASS of the
/// real-world set (HeCBench's `stddev`: `atom.shared.add.f32`; cuda-samples'
/// `jacobiCudaGraphs`: `.f64`, `ATOMS.CAST.SPIN.64`). Lanes whose swap loses to another
/// lane's update, in the warp or in another warp, go round again while the others wait: a
/// divergent branch whenever updates collide.
pub fn has_retry_loop(func: &Function, inst: Inst) -> bool {
    let d = &func.insts[inst];
    matches!(d.op, Opcode::Atom | Opcode::Red)
        && matches!(
            d.mods.space,
            Some(StateSpace::Shared | StateSpace::SharedCta)
        )
        && d.mods.atom_op == Some(AtomOp::Add)
        && matches!(d.mods.ty, Some(Type::F32 | Type::F64))
}

/// The shared-memory atomics of `func` that ptxas lowers into a retry loop.
pub fn atomic_retries(func: &Function) -> Vec<Inst> {
    func.insts
        .iter()
        .filter(|(i, _)| has_retry_loop(func, *i))
        .map(|(i, _)| i)
        .collect()
}

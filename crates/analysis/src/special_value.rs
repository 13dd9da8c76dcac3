//! Branches that only IEEE special values, or huge magnitudes, split.
//!
//! `isnan(x)`, `isinf(x)` and `isfinite(x)`, and the first tests `sin`, `cos`, `lroundf` and
//! friends make of their argument, compile to a comparison of the value (or its absolute
//! value) with an infinity (`setp.gtu.f32 p, |x|, 0f7F800000`, `setp.eq.f64 p, |x|,
//! 0d7FF0000000000000`), to an unordered test (`setp.nan`, `setp.num`), or to `testp.finite`,
//! `.infinite`, `.number`, `.notanumber`. Every such test has the same outcome for every finite
//! value: no finite number compares differently with an infinity than another does, and only a
//! NaN is unordered. So the lanes of a warp take different sides only where the data holds a
//! NaN or an infinity beside finite values. That can happen (it is what the test is for), but
//! it rests on the data holding such values, which valid inputs rarely do: a branch on loaded
//! data whose condition is such a test is ranked a caveat, not a likely finding.
//!
//! The next test of the trigonometric functions is of the same kind: `sinf`, `cosf`,
//! `sincosf` and `tanf` reduce their argument cheaply while `|x| < 105615`
//! (`setp.ltu.f32 p, |x|, 0f47CE4780`) and otherwise take a long slow path (Payne-Hanek
//! reduction, a loop over a table), and their double versions while `|x| < 2^31`. A
//! comparison of a magnitude (the result of `abs`) with a constant of at least [`HUGE`] comes
//! out the same for every value below that constant: lanes split only where the data holds
//! such huge values beside ordinary ones, and the branch is ranked a caveat on that ground.

use warpscope_ir::{Function, FunctionAnalyses, Inst, Operand, Reg};
use warpscope_ptx::{CmpOp, Opcode, TestpOp};

/// The smallest constant a magnitude is compared with for the test to count as one for huge
/// values (2^16): well above the values most kernels compute with, below the thresholds of the
/// trigonometric functions' slow paths.
pub const HUGE: f64 = 65536.0;

/// What a special-value branch tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpecialTest {
    /// Only whether values are NaN or infinite.
    NanOrInf,
    /// Whether a magnitude reaches a huge constant (the smallest such constant of the tests),
    /// perhaps beside NaN or infinity tests.
    Huge(f64),
}

impl SpecialTest {
    /// Both tests joined (`and`, `or`): a huge-magnitude test anywhere makes the whole one.
    fn join(self, other: SpecialTest) -> SpecialTest {
        match (self, other) {
            (SpecialTest::Huge(a), SpecialTest::Huge(b)) => SpecialTest::Huge(a.min(b)),
            (SpecialTest::Huge(a), _) | (_, SpecialTest::Huge(a)) => SpecialTest::Huge(a),
            _ => SpecialTest::NanOrInf,
        }
    }

    /// The caveat of a branch on loaded data with this test.
    pub fn caveat(self) -> String {
        match self {
            SpecialTest::NanOrInf => "rests on the data holding NaN or infinite values: the \
                condition tests whether a value is NaN or infinite, which comes out the same \
                for every finite value, so lanes split only where such values sit beside \
                finite ones"
                .to_string(),
            SpecialTest::Huge(c) => format!(
                "rests on the data holding huge values: the condition compares a magnitude \
                 with {c} (as `sin`, `cos` and `tan` do before their slow argument reduction), \
                 which comes out the same for every value below it, so lanes split only where \
                 values that large sit beside smaller ones"
            ),
        }
    }

    /// The caveat of a branch on loaded data, or of an access, that runs only on this test's
    /// rare side.
    pub fn caveat_inside(self) -> String {
        let what = match self {
            SpecialTest::NanOrInf => "NaN or infinite values".to_string(),
            SpecialTest::Huge(c) => format!("values of magnitude {c} or more"),
        };
        format!(
            "rests on the data holding {what}: it runs only on the path an earlier test sends \
             such values down (a slow path or fix-up), which ordinary data never takes"
        )
    }
}

/// What the conditional branch `branch` tests, when it tests only whether values are NaN or
/// infinite or whether magnitudes are huge (through `not`, `and`, `or` and `mov` of such
/// tests).
pub fn special_value_branch(
    func: &Function,
    fa: &FunctionAnalyses,
    branch: Inst,
) -> Option<SpecialTest> {
    let g = func.insts[branch].guard?;
    special_pred(func, fa, branch, g.reg, 4).map(|(t, _)| t)
}

fn is_infinite(op: &Operand) -> bool {
    immediate(op).is_some_and(f64::is_infinite)
}

/// The finite magnitude of a float immediate.
fn finite_immediate(op: &Operand) -> Option<f64> {
    immediate(op).filter(|v| v.is_finite()).map(f64::abs)
}

/// The unique instruction that defines `reg` as read by `at`, unguarded.
fn sole_def(func: &Function, fa: &FunctionAnalyses, at: Inst, reg: Reg) -> Option<Inst> {
    let [def] = fa.defuse.reaching(at, reg) else {
        return None;
    };
    let inst = fa.defuse.def(*def).inst?;
    func.insts[inst].guard.is_none().then_some(inst)
}

/// Whether operand `op` of `at` is a magnitude: a register `abs` wrote.
fn is_magnitude(func: &Function, fa: &FunctionAnalyses, at: Inst, op: &Operand) -> bool {
    match op {
        Operand::Reg(r) => {
            sole_def(func, fa, at, *r).is_some_and(|d| func.insts[d].op == Opcode::Abs)
        }
        _ => false,
    }
}

/// `a OP b` for numbers (no NaN among them), as `setp` computes it.
fn compare(op: CmpOp, a: f64, b: f64) -> Option<bool> {
    Some(match op {
        CmpOp::Eq | CmpOp::Equ => a == b,
        CmpOp::Ne | CmpOp::Neu => a != b,
        CmpOp::Lt | CmpOp::Ltu => a < b,
        CmpOp::Le | CmpOp::Leu => a <= b,
        CmpOp::Gt | CmpOp::Gtu => a > b,
        CmpOp::Ge | CmpOp::Geu => a >= b,
        _ => return None,
    })
}

/// The value of an immediate float operand (infinities included).
fn immediate(op: &Operand) -> Option<f64> {
    match op {
        Operand::F32(b) => Some(f64::from(f32::from_bits(*b))),
        Operand::F64(b) => Some(f64::from_bits(*b)),
        _ => None,
    }
}

/// What predicate `reg`, as read by `at`, tests, when it is a special-value test, and the
/// value it has for ordinary data (finite values of magnitude 1).
fn special_pred(
    func: &Function,
    fa: &FunctionAnalyses,
    at: Inst,
    reg: Reg,
    depth: u32,
) -> Option<(SpecialTest, bool)> {
    let inst = sole_def(func, fa, at, reg)?;
    let d = &func.insts[inst];
    let pred = |k: usize| match d.operands.get(k) {
        Some(Operand::Reg(r)) if depth > 0 => special_pred(func, fa, inst, *r, depth - 1),
        Some(Operand::Not(r)) if depth > 0 => {
            special_pred(func, fa, inst, *r, depth - 1).map(|(t, v)| (t, !v))
        }
        _ => None,
    };
    match d.op {
        Opcode::Setp => {
            // `setp.lt.and.f32 p, a, b, q` joins another predicate: not looked through.
            if d.mods.bool_op.is_some() || !d.mods.ty.is_some_and(|t| t.is_float()) {
                return None;
            }
            let ops = d.operands.get(1..3)?;
            let cmp = d.mods.cmp?;
            // The test against an ordinary value (1) in place of the register operand.
            let ordinary = || match (immediate(&ops[0]), immediate(&ops[1])) {
                (None, Some(c)) => compare(cmp, 1.0, c),
                (Some(c), None) => compare(cmp, c, 1.0),
                _ => None,
            };
            match cmp {
                CmpOp::Nan => Some((SpecialTest::NanOrInf, false)),
                CmpOp::Num => Some((SpecialTest::NanOrInf, true)),
                _ if ops.iter().any(is_infinite) => Some((SpecialTest::NanOrInf, ordinary()?)),
                CmpOp::Lt
                | CmpOp::Le
                | CmpOp::Gt
                | CmpOp::Ge
                | CmpOp::Ltu
                | CmpOp::Leu
                | CmpOp::Gtu
                | CmpOp::Geu => {
                    let huge = |c: &Operand, m: &Operand| {
                        finite_immediate(c)
                            .filter(|v| *v >= HUGE && is_magnitude(func, fa, inst, m))
                    };
                    let c = huge(&ops[1], &ops[0]).or_else(|| huge(&ops[0], &ops[1]))?;
                    Some((SpecialTest::Huge(c), ordinary()?))
                }
                _ => None,
            }
        }
        Opcode::Testp => {
            let v = match d.mods.testp? {
                TestpOp::Finite | TestpOp::Number => true,
                TestpOp::Infinite | TestpOp::NotANumber => false,
                _ => return None,
            };
            Some((SpecialTest::NanOrInf, v))
        }
        Opcode::Not => pred(1).map(|(t, v)| (t, !v)),
        Opcode::Mov => pred(1),
        Opcode::And | Opcode::Or => {
            let ((a, x), (b, y)) = (pred(1)?, pred(2)?);
            let v = if d.op == Opcode::And { x && y } else { x || y };
            Some((a.join(b), v))
        }
        _ => None,
    }
}

/// The special-value test on whose rare side instruction `at` sits: a conditional branch that
/// dominates it tests for NaN, infinite or huge values, and `at` is reached only through the
/// side ordinary values do not take (the slow path of `sin` for huge arguments, the fix-up for
/// infinities). Such a branch or access runs only where the data holds those values.
pub fn rare_side_of(func: &Function, fa: &FunctionAnalyses, at: Inst) -> Option<SpecialTest> {
    let here = func.inst_block[at];
    let mut d = here;
    for _ in 0..64 {
        d = fa.domtree.idom(d)?;
        let Some(last) = func.last_inst(d) else {
            continue;
        };
        let Some(g) = func.insts[last].guard else {
            continue;
        };
        if func.insts[last].op != Opcode::Bra {
            continue;
        }
        let Some((test, ordinary)) = special_pred(func, fa, last, g.reg, 4) else {
            continue;
        };
        let (succs, _) = func.successors(d);
        let [taken, fall] = succs[..] else { continue };
        let rare = if ordinary != g.negated { fall } else { taken };
        if fa.cfg.preds(rare) == [d] && fa.domtree.dominates(rare, here) {
            return Some(test);
        }
    }
    None
}

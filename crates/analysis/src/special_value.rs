//! Branches that only IEEE special values split.
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

use warpscope_ir::{Function, FunctionAnalyses, Inst, Operand, Reg};
use warpscope_ptx::{CmpOp, Opcode, TestpOp};

/// Whether the conditional branch `branch` tests only whether values are NaN or infinite
/// (through `not`, `and`, `or` and `mov` of such tests).
pub fn special_value_branch(func: &Function, fa: &FunctionAnalyses, branch: Inst) -> bool {
    match func.insts[branch].guard {
        Some(g) => special_pred(func, fa, branch, g.reg, 4),
        None => false,
    }
}

fn is_infinite(op: &Operand) -> bool {
    match op {
        Operand::F32(b) => b & 0x7fff_ffff == 0x7f80_0000,
        Operand::F64(b) => b & 0x7fff_ffff_ffff_ffff == 0x7ff0_0000_0000_0000,
        _ => false,
    }
}

/// Whether predicate `reg`, as read by `at`, is a special-value test.
fn special_pred(func: &Function, fa: &FunctionAnalyses, at: Inst, reg: Reg, depth: u32) -> bool {
    let [def] = fa.defuse.reaching(at, reg) else {
        return false;
    };
    let Some(inst) = fa.defuse.def(*def).inst else {
        return false;
    };
    let d = &func.insts[inst];
    if d.guard.is_some() {
        return false;
    }
    let pred = |k: usize| match d.operands.get(k) {
        Some(Operand::Reg(r) | Operand::Not(r)) if depth > 0 => {
            special_pred(func, fa, inst, *r, depth - 1)
        }
        _ => false,
    };
    match d.op {
        Opcode::Setp => {
            // `setp.lt.and.f32 p, a, b, q` joins another predicate: not looked through.
            if d.mods.bool_op.is_some() || !d.mods.ty.is_some_and(|t| t.is_float()) {
                return false;
            }
            match d.mods.cmp {
                Some(CmpOp::Nan | CmpOp::Num) => true,
                Some(_) => d.operands.iter().skip(1).any(is_infinite),
                None => false,
            }
        }
        Opcode::Testp => matches!(
            d.mods.testp,
            Some(TestpOp::Finite | TestpOp::Infinite | TestpOp::Number | TestpOp::NotANumber)
        ),
        Opcode::Not | Opcode::Mov => pred(1),
        Opcode::And | Opcode::Or => pred(1) && pred(2),
        _ => false,
    }
}

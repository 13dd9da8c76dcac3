//! The vocabulary of Arithmetic Control Form expressions, shared by the modules that build
//! ([`crate::acf`]), normalise ([`crate::poly`]) and evaluate ([`crate::eval`]) them: nodes and
//! what they compute, the flags that summarise what a node depends on, and the exact integer
//! semantics of the operators on concrete values.

use cranelift_entity::entity_impl;
use warpscope_ir::FuncId;
use warpscope_ptx::{CmpOp, Dim};

/// A node of the ACF DAG.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(u32);
entity_impl!(Node, "n");

/// Leaves of ACF expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atom {
    Tid(Dim),
    Ntid(Dim),
    Ctaid(Dim),
    Nctaid(Dim),
    Laneid,
    /// A kernel (or unbound device-function) parameter's value: `index`, byte `offset`.
    Param {
        func: FuncId,
        index: u32,
        offset: i64,
    },
    /// The address of a variable ([`Acf::vars`]).
    VarAddr(u32),
    /// The value of a load ([`Acf::loads`]): uniform when its address is, else per-lane data.
    Load(u32),
    /// A per-lane unknown (clock, atomic result, shuffle, unmodelled call).
    Unknown(u32),
    /// A loop-carried value ([`Acf::loopvars`]).
    LoopVar(u32),
    /// The iteration count of a loop ([`Acf::loops`]), uniform among the loop's active lanes.
    Iter(u32),
    /// A uniform unknown (warp id, vote result, ...).
    Uniform(u32),
}

/// Integer operations kept as atoms by the canonical form (evaluated exactly per lane).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    Div { signed: bool },
    Rem { signed: bool },
    And,
    Or,
    Xor,
    Shl,
    Shr { signed: bool },
    Min { signed: bool },
    Max { signed: bool },
    MulHi { signed: bool, bits: u8 },
}

/// A comparison; `float` comparisons are not evaluated (their operands are opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cmp {
    pub op: CmpOp,
    pub signed: bool,
    pub float: bool,
    /// Operand width in bits (unsigned comparisons of narrow values wrap).
    pub bits: u8,
}

/// Integer width conversions (identity on symbolic values, exact on concrete ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ext {
    Sext(u8),
    Zext(u8),
}

/// What a node computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Const(i64),
    Atom(Atom),
    Add(Node, Node),
    Mul(Node, Node),
    Neg(Node),
    Bin(BinOp, Node, Node),
    Cmp(Cmp, Node, Node),
    /// Boolean (0/1) connectives.
    And(Node, Node),
    Or(Node, Node),
    Not(Node),
    /// `p ? a : b`.
    Select(Node, Node, Node),
    Ext(Ext, Node),
    /// An operation the engine does not model (floating point, bit tricks): equal inputs give
    /// equal outputs, nothing more.
    Opaque(u32, Node, Node),
    /// A value leaving loop `.0` ([`Acf::loops`]): per-lane unknown when lanes may leave the
    /// loop at different iterations, else the value itself.
    LoopOut(u32, Node),
}

/// Flags summarising what a node depends on (see [`Acf::flags`]).
pub mod flags {
    pub const TID: u16 = 1;
    pub const LANE: u16 = 2;
    pub const UNKNOWN: u16 = 4;
    /// A load through a thread-dependent address.
    pub const LOAD_TD: u16 = 8;
    pub const CTAID: u16 = 16;
    pub const PARAM: u16 = 32;
    pub const LOOP: u16 = 64;
    pub const LOAD: u16 = 128;
    pub const FLOAT: u16 = 256;
    /// A loop-carried value without a closed form (its values need simulating the loop).
    pub const NONAFFINE: u16 = 512;
    /// A value shared by the warp but known only at run time (a loaded value, a vote).
    pub const UDATA: u16 = 1024;
    /// Thread-dependent: any of these.
    pub const TD: u16 = TID | LANE | UNKNOWN | LOAD_TD;
}

/// `op` on two integers (`None` where undefined, e.g. division by zero).
pub fn bin_concrete(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Div { signed } | BinOp::Rem { signed } => {
            if b == 0 {
                return None;
            }
            match (matches!(op, BinOp::Div { .. }), signed) {
                (true, true) => a.wrapping_div(b),
                (true, false) => ((a as u64) / (b as u64)) as i64,
                (false, true) => a.wrapping_rem(b),
                (false, false) => ((a as u64) % (b as u64)) as i64,
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if !(0..64).contains(&b) {
                0
            } else {
                a.wrapping_shl(b as u32)
            }
        }
        BinOp::Shr { signed } => {
            if !(0..64).contains(&b) {
                if signed && a < 0 { -1 } else { 0 }
            } else if signed {
                a >> b
            } else {
                ((a as u64) >> b) as i64
            }
        }
        BinOp::Min { signed } => {
            if signed {
                a.min(b)
            } else {
                (a as u64).min(b as u64) as i64
            }
        }
        BinOp::Max { signed } => {
            if signed {
                a.max(b)
            } else {
                (a as u64).max(b as u64) as i64
            }
        }
        BinOp::MulHi { signed, bits } => {
            let p = if signed {
                (a as i128) * (b as i128)
            } else {
                (a as u64 as i128) * (b as u64 as i128)
            };
            (p >> bits) as i64
        }
    })
}

/// An integer comparison.
pub fn cmp_concrete(c: Cmp, a: i64, b: i64) -> bool {
    let (a, b) = if c.signed {
        (a as i128, b as i128)
    } else {
        let mask: u128 = if c.bits >= 64 {
            u64::MAX as u128
        } else {
            (1u128 << c.bits) - 1
        };
        ((a as u128 & mask) as i128, (b as u128 & mask) as i128)
    };
    use CmpOp::*;
    match c.op {
        Eq | Equ => a == b,
        Ne | Neu => a != b,
        Lt | Lo | Ltu => a < b,
        Le | Ls | Leu => a <= b,
        Gt | Hi | Gtu => a > b,
        Ge | Hs | Geu => a >= b,
        Num | Nan => false,
    }
}

/// An integer width conversion.
pub fn ext_concrete(e: Ext, v: i64) -> i64 {
    match e {
        Ext::Sext(b) if b < 64 => {
            let s = 64 - u32::from(b);
            (v << s) >> s
        }
        Ext::Zext(b) if b < 64 => v & ((1i64 << b) - 1),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_and_remainder_signed_unsigned_and_by_zero() {
        let div = |signed| BinOp::Div { signed };
        let rem = |signed| BinOp::Rem { signed };
        assert_eq!(bin_concrete(div(true), -7, 2), Some(-3));
        assert_eq!(bin_concrete(rem(true), -7, 2), Some(-1));
        assert_eq!(bin_concrete(div(false), -2, 2), Some(i64::MAX));
        assert_eq!(bin_concrete(rem(false), 7, 4), Some(3));
        assert_eq!(bin_concrete(div(true), i64::MIN, -1), Some(i64::MIN));
        for op in [div(true), div(false), rem(true), rem(false)] {
            assert_eq!(bin_concrete(op, 5, 0), None);
        }
    }
}

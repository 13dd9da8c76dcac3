//! The instruction latency table (the paper's Table III, measured on our H100) and the
//! latency of a basic block: the sum of its instructions' latencies.
//!
//! The table is `validation/h100/model/latency.tsv`, written by
//! `scripts/h100/latency_bench.sh` from `clock64` dependent-chain micro-benchmarks, and
//! compiled into the crate; `--latency FILE` reads another table of the same form
//! (`class<TAB>cycles[<TAB>how]`, `#` comments). Each PTX instruction maps to one class
//! ([`class_of`]); classes missing from a table cost [`LatencyTable::FALLBACK_CLASS`]'s latency.

use std::collections::BTreeMap;
use warpscope_ir::{Block, Function, InstData};
use warpscope_ptx::{Flags, MulMode, Opcode, StateSpace, Type};

/// The measured H100 table.
pub const H100_TABLE: &str = include_str!("../../../validation/h100/model/latency.tsv");

/// Cycles per instruction class.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyTable {
    cycles: BTreeMap<String, f64>,
    /// Where the numbers come from (the table's first comment lines).
    pub source: String,
}

impl LatencyTable {
    /// The class used for instructions whose class the table lacks.
    pub const FALLBACK_CLASS: &'static str = "int_alu";

    /// The measured H100 table.
    pub fn h100() -> LatencyTable {
        LatencyTable::parse(H100_TABLE).expect("the committed latency table parses")
    }

    /// Parses `class<TAB>cycles[<TAB>how]` lines; `#` starts a comment line.
    pub fn parse(text: &str) -> Result<LatencyTable, String> {
        let mut cycles = BTreeMap::new();
        let mut source = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() {
                continue;
            }
            if let Some(c) = l.strip_prefix('#') {
                let c = c.trim();
                if !c.starts_with("class") && source.len() < 4 {
                    source.push(c.to_string());
                }
                continue;
            }
            let mut parts = l.split('\t');
            let class = parts.next().unwrap_or("").trim();
            let v = parts.next().unwrap_or("").trim();
            let v: f64 = v.parse().map_err(|_| {
                format!(
                    "line {}: `{v}` is not a number of cycles (expected `class<TAB>cycles`)",
                    n + 1
                )
            })?;
            if class.is_empty() || !v.is_finite() || v < 0.0 {
                return Err(format!("line {}: bad entry `{l}`", n + 1));
            }
            cycles.insert(class.to_string(), v);
        }
        if !cycles.contains_key(Self::FALLBACK_CLASS) {
            return Err(format!(
                "the table has no `{}` row (the fallback class)",
                Self::FALLBACK_CLASS
            ));
        }
        Ok(LatencyTable {
            cycles,
            source: source.join(" "),
        })
    }

    /// Cycles of a class (the fallback class's when absent).
    pub fn get(&self, class: &str) -> f64 {
        self.cycles
            .get(class)
            .or_else(|| self.cycles.get(Self::FALLBACK_CLASS))
            .copied()
            .unwrap_or(1.0)
    }

    /// The SM clock the table was measured at (MHz), when it records one.
    pub fn clock_mhz(&self) -> Option<f64> {
        self.cycles.get("clock_mhz").copied()
    }

    /// Every class and its cycles.
    pub fn entries(&self) -> impl Iterator<Item = (&str, f64)> {
        self.cycles.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// Cycles of one instruction.
    pub fn inst(&self, i: &InstData) -> f64 {
        self.get(class_of(i))
    }

    /// Latency of a basic block: the sum of its instructions' latencies.
    pub fn block(&self, func: &Function, b: Block) -> f64 {
        func.blocks[b]
            .insts
            .iter()
            .map(|&i| self.inst(&func.insts[i]))
            .sum()
    }
}

fn is64(t: Option<Type>) -> bool {
    t.is_some_and(|t| t.size_bytes() == 8)
}

fn float_class(t: Option<Type>, f32c: &'static str, f64c: &'static str) -> Option<&'static str> {
    match t {
        Some(Type::F64) => Some(f64c),
        Some(t) if t.is_float() => Some(f32c),
        _ => None,
    }
}

/// The latency class of an instruction (the names of `latency.tsv`).
pub fn class_of(i: &InstData) -> &'static str {
    use Opcode::*;
    let ty = i.mods.ty;
    let approx = i.mods.has(Flags::APPROX) || i.mods.has(Flags::FULL);
    let int = |c32: &'static str, c64: &'static str| if is64(ty) { c64 } else { c32 };
    match i.op {
        Add | Sub | Abs | Neg | Addc | Subc => {
            float_class(ty, "fp32", "fp64").unwrap_or_else(|| int("int_alu", "int64_alu"))
        }
        Min | Max => {
            float_class(ty, "fp32_minmax", "fp64").unwrap_or_else(|| int("int_minmax", "int64_alu"))
        }
        Mul => float_class(ty, "fp32_mul", "fp64").unwrap_or_else(|| {
            if i.mods.mul_mode == Some(MulMode::Wide) {
                "int_mul_wide"
            } else {
                int("int_mul", "int64_mul")
            }
        }),
        Mad | Fma | Madc => float_class(ty, "fp32_fma", "fp64_fma").unwrap_or_else(|| {
            if i.mods.mul_mode == Some(MulMode::Wide) {
                "int_mul_wide"
            } else {
                int("int_mad", "int64_mul")
            }
        }),
        Mul24 | Mad24 | Sad | Dp4a | Dp2a => "int_mad",
        Div => match ty {
            Some(Type::F64) => "fp64_div",
            Some(t) if t.is_float() => {
                if approx {
                    "fp32_div_approx"
                } else {
                    "fp32_div"
                }
            }
            Some(t) if t.size_bytes() == 8 => "int64_div",
            Some(t) if t.is_signed_int() => "int_div_signed",
            _ => "int_div",
        },
        Rem => match ty {
            Some(t) if t.size_bytes() == 8 => "int64_div",
            Some(t) if t.is_signed_int() => "int_div_signed",
            _ => "int_rem",
        },
        Rcp => match ty {
            Some(Type::F64) => "fp64_div",
            _ if approx => "sfu_rcp",
            _ => "fp32_rcp",
        },
        Sqrt => match ty {
            Some(Type::F64) => "fp64_sqrt",
            _ if approx => "sfu_sqrt",
            _ => "fp32_sqrt",
        },
        Rsqrt => match ty {
            Some(Type::F64) => "fp64_sqrt",
            _ => "sfu_rsqrt",
        },
        Sin | Cos => "sfu_sincos",
        Ex2 => "sfu_ex2",
        Lg2 => "sfu_lg2",
        Tanh => "sfu_tanh",
        Testp | Copysign => "fp32",
        Popc | Clz | Bfind | Fns | Brev => "int_bit",
        Bfe | Bfi | Bmsk | Szext | Prmt | Lop3 | Shf => "int_alu",
        And | Or | Xor | Not | Cnot => int("int_logic", "int64_alu"),
        Shl | Shr => int("int_shift", "int64_alu"),
        Set | Setp => "setp",
        Selp | Slct | Mov | Isspacep => "int_alu",
        Cvta => "int64_alu",
        Cvt => {
            let (a, b) = (i.mods.ty, i.mods.ty2);
            let float = a.is_some_and(|t| t.is_float()) || b.is_some_and(|t| t.is_float());
            if !float {
                "int_alu"
            } else if a == Some(Type::F64) || b == Some(Type::F64) {
                "cvt_f64"
            } else {
                "cvt"
            }
        }
        Ld | Ldu => match i.mods.space {
            Some(s) if s.is_shared() => "ld_shared",
            Some(StateSpace::Local) => "ld_local",
            Some(StateSpace::Const) => "ld_const",
            Some(s) if s.is_param() => "ld_const",
            _ => "ld_global",
        },
        St => match i.mods.space {
            Some(s) if s.is_shared() => "st_shared",
            _ => "st_global",
        },
        Atom | Red => match i.mods.space {
            Some(s) if s.is_shared() => "atom_shared",
            _ => "atom_global",
        },
        Bar | Barrier | BarWarpSync => "bar",
        Shfl => "shfl",
        Vote | Match | Activemask | Redux | Elect => "vote",
        Bra | BrxIdx | Call | Ret | Exit => "bra",
        Membar | Fence => "ld_global_l2",
        _ => LatencyTable::FALLBACK_CLASS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_table_parses_and_has_the_classes_the_mapping_uses() {
        let t = LatencyTable::h100();
        for c in [
            "int_alu",
            "int_mul",
            "fp32",
            "fp32_div",
            "fp64",
            "sfu_sincos",
            "cvt",
            "ld_global",
            "st_global",
            "ld_shared",
            "st_shared",
            "ld_const",
            "ld_local",
            "atom_global",
            "atom_shared",
            "bar",
            "shfl",
            "vote",
            "bra",
            "setp",
        ] {
            assert!(t.cycles.contains_key(c), "missing class {c}");
        }
    }

    #[test]
    fn bad_tables_are_refused_with_the_line() {
        let e = LatencyTable::parse("int_alu\t4\nfp32\tfast\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(LatencyTable::parse("fp32\t4\n").is_err());
        let t = LatencyTable::parse("# src\nint_alu\t4\nfp32\t5\n").unwrap();
        assert_eq!(t.get("fp32"), 5.0);
        assert_eq!(t.get("nope"), 4.0);
        assert_eq!(t.source, "src");
    }
}

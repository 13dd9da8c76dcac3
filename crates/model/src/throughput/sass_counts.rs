//! Eighth version: a basic block's issue slots and unit demands counted from the SASS ptxas
//! actually emits for it, rather than from the PTX-level lowering table ([`super::lowered`]).
//!
//! [`warpscope_sass::compile_by_ptx_line`] compiles the module with every PTX instruction's
//! `.loc` naming its own PTX line, so the cubin's line table says from which PTX instruction
//! each SASS instruction came; [`SassCounts::new`] adds them up per PTX basic block (the BBV
//! columns) and puts each SASS opcode on its pipe ([`sass_unit`]). [`apply`] then replaces a
//! column's issue slots and unit demands by the SASS's. What stays from the PTX path: the
//! dependent-chain time ([`super::chain_cycles`], PTX instructions at the latency table's
//! latencies), the memory costs (the profile's sectors), the measured rate of a whole 32-bit
//! division sequence ([`Unit::Idiv`], which the pipes do not explain), and `BSSY`/`BSYNC`,
//! which [`super::simt_refine`] charges by its own rule (so the SASS's are not counted).
//!
//! Limits, stated: an instruction ptxas hoisted out of a loop keeps its PTX line and is
//! counted in the loop's block; a block ptxas duplicated (loop unrolling) is recognised only
//! when its closing branch line holds several `BRA`s and every line's count is a multiple of
//! that number (each copy is then counted once).

use std::collections::HashMap;

use cranelift_entity::EntityRef;
use warpscope_ir::Module;
use warpscope_profile::bbv::LaunchBbv;
use warpscope_sass::PtxLineSass;

use super::{ColumnCost, Unit, lowered};

/// Where one SASS opcode goes in the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SassClass {
    /// Not counted: `NOP` padding, and `BSSY`/`BSYNC` (charged by [`super::simt_refine`]).
    Free,
    /// An issue slot on no unit with a rate of the estimate's (branches, `S2R`, uniform
    /// datapath instructions, constant loads, barriers, opcodes the cubin reader does not name).
    Issue,
    /// An issue slot on a unit.
    On(Unit),
}

/// The pipe of a SASS opcode (base mnemonic as the cubin reader decodes it, modifiers
/// ignored): the H100 pipes measured in `model_pipes.tsv`, `model_rates.tsv`,
/// `model_v6rates.tsv` and `model_v7rates.tsv` (LOP3, IADD3, SHF, SEL, compares, FSEL, FMNMX,
/// I2FP on the integer ALU; IMAD and its forms, VIADD, VIMNMX on the IMAD pipe; BREV, FLO,
/// POPC, F2I, I2F on the conversion unit), `MOV` on the integer ALU.
pub fn sass_unit(opcode: &str) -> SassClass {
    let base = opcode.split('.').next().unwrap_or("");
    match base {
        "NOP" | "BSSY" | "BSYNC" => SassClass::Free,
        "FADD" | "FMUL" | "FFMA" | "HFMA2" | "HADD2" | "HMUL2" | "F2FP" | "FSWZADD" => {
            SassClass::On(Unit::Fp32)
        }
        "LOP3" | "LOP" | "IADD3" | "IADD" | "SHF" | "SEL" | "FSEL" | "ISETP" | "FSETP" | "FSET"
        | "IMNMX" | "FMNMX" | "LEA" | "IABS" | "PRMT" | "PLOP3" | "I2FP" | "MOV" | "P2R"
        | "R2P" | "VOTE" | "SGXT" | "BMSK" | "CSET" | "CSETP" => SassClass::On(Unit::Alu),
        "IMAD" | "IMUL" | "VIADD" | "VIMNMX" | "VIMNMX3" | "VIADDMNMX" | "IDP" | "IDP4A" => {
            SassClass::On(Unit::Imad)
        }
        "DADD" | "DMUL" | "DFMA" | "DSETP" | "DMNMX" => SassClass::On(Unit::Fp64),
        "MUFU" => SassClass::On(Unit::Mufu),
        "F2I" | "I2F" | "F2F" | "FRND" | "FLO" | "BREV" | "POPC" | "I2I" => {
            SassClass::On(Unit::Conv)
        }
        "LD" | "LDG" | "LDL" | "LDS" | "ST" | "STG" | "STL" | "STS" | "ATOM" | "ATOMG"
        | "ATOMS" | "RED" | "REDG" | "LDGSTS" | "LDSM" => SassClass::On(Unit::Lsu),
        "SHFL" => SassClass::On(Unit::Shfl),
        _ => SassClass::Issue,
    }
}

/// A block's SASS: issue slots and the demand on each unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockSass {
    pub issue: f64,
    pub units: [f64; Unit::COUNT],
}

/// The SASS of every PTX basic block of a module, keyed by function name and block index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SassCounts {
    /// What produced the counts (`ptxas V13.0.88, sm_90`).
    pub produced_by: String,
    blocks: HashMap<(String, u32), BlockSass>,
    functions: std::collections::HashSet<String>,
    /// SASS instructions attributed to a PTX line of some block.
    pub attributed: usize,
    /// SASS instructions with no PTX line, or a line that starts no instruction of the module.
    pub unattributed: usize,
    /// Blocks found duplicated by ptxas and counted once.
    pub deduplicated_blocks: usize,
}

/// 1-based line of byte offset `at` given the offsets where lines start.
fn line_of(starts: &[usize], at: usize) -> u32 {
    (starts.partition_point(|&s| s <= at)) as u32
}

/// The 1-based lines where the instructions of `module` (parsed from `ptx`) start.
pub fn instruction_lines(module: &Module, ptx: &str) -> Vec<u32> {
    let starts = line_starts(ptx);
    let mut v: Vec<u32> = module
        .funcs
        .values()
        .flat_map(|f| f.insts.values())
        .map(|i| line_of(&starts, i.span.start as usize))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

impl SassCounts {
    /// Adds up `sass` (from [`warpscope_sass::compile_by_ptx_line`] on `ptx`) per basic block
    /// of `module` (parsed from `ptx`).
    pub fn new(
        module: &Module,
        ptx: &str,
        sass: &PtxLineSass,
        produced_by: impl Into<String>,
    ) -> SassCounts {
        let starts = line_starts(ptx);
        let mut out = SassCounts {
            produced_by: produced_by.into(),
            unattributed: sass.unattributed,
            functions: sass
                .functions
                .iter()
                .filter(|(_, l)| !l.is_empty())
                .map(|(f, _)| f.clone())
                .collect(),
            ..SassCounts::default()
        };
        let mut used: HashMap<&str, std::collections::HashSet<u32>> = HashMap::new();
        for func in module.funcs.values() {
            let used = used.entry(func.name.as_str()).or_default();
            for (b, data) in func.blocks.iter() {
                // the block's PTX lines, each once, in order, with the issue slots the PTX
                // lowering table gives the instructions there
                let mut lines: Vec<(u32, f64)> = Vec::new();
                for &i in &data.insts {
                    let l = line_of(&starts, func.insts[i].span.start as usize);
                    let slots = lowered(&func.insts[i]).0;
                    if let Some(e) = lines.iter_mut().find(|e| e.0 == l) {
                        e.1 += slots;
                    } else if used.insert(l) {
                        lines.push((l, slots));
                    }
                }
                let ops: Vec<&[String]> =
                    lines.iter().map(|&(l, _)| sass.at(&func.name, l)).collect();
                let slots: Vec<f64> = lines.iter().map(|e| e.1).collect();
                let copies = copies(&ops, &slots);
                let mut c = BlockSass::default();
                for op in ops.iter().flat_map(|o| o.iter()) {
                    out.attributed += 1;
                    match sass_unit(op) {
                        SassClass::Free => {}
                        SassClass::Issue => c.issue += 1.0,
                        SassClass::On(u) => {
                            c.issue += 1.0;
                            c.units[u as usize] += 1.0;
                        }
                    }
                }
                let k = copies as f64;
                c.issue /= k;
                c.units.iter_mut().for_each(|u| *u /= k);
                out.blocks.insert((func.name.clone(), b.index() as u32), c);
            }
        }
        // SASS at lines that start no instruction of the module
        for (f, lines) in &sass.functions {
            for (l, ops) in lines {
                if !used.get(f.as_str()).is_some_and(|u| u.contains(l)) {
                    out.unattributed += ops.len();
                }
            }
        }
        out
    }

    /// The SASS of block `block` (its index) of function `function`.
    pub fn block(&self, function: &str, block: u32) -> Option<&BlockSass> {
        self.blocks.get(&(function.to_string(), block))
    }

    /// Whether `function` had SASS (ptxas compiled it and the listing names it).
    pub fn has_function(&self, function: &str) -> bool {
        self.functions.contains(function)
    }
}

/// How many copies of a block ptxas made (it unrolls loops, again after NVVM, with a
/// remainder): when the block's closing branch line holds several `BRA`s, the median over its
/// lines of SASS instructions per issue slot the PTX lowering table expects there, rounded
/// (the body's lines each appear once per copy; fusion and the loop control, shared by the
/// copies, make a few lines differ, which the median ignores); 1 otherwise. `ops[i]` and
/// `slots[i]` are line `i`'s SASS and table slots.
fn copies(ops: &[&[String]], slots: &[f64]) -> usize {
    let Some(last) = ops.last() else { return 1 };
    let branches = last
        .iter()
        .filter(|o| o.split('.').next() == Some("BRA"))
        .count();
    if branches < 2 {
        return 1;
    }
    let mut r: Vec<f64> = ops
        .iter()
        .zip(slots)
        .filter(|&(_, &s)| s > 0.0)
        .map(|(o, &s)| o.len() as f64 / s)
        .collect();
    if r.is_empty() {
        return 1;
    }
    r.sort_by(f64::total_cmp);
    let median = if r.len() % 2 == 1 {
        r[r.len() / 2]
    } else {
        0.5 * (r[r.len() / 2 - 1] + r[r.len() / 2])
    };
    (median.round() as usize).max(1)
}

/// Replaces each column's issue slots and unit demands with its block's SASS (keeping the PTX
/// path's [`Unit::Idiv`] sequences); columns of functions the SASS does not cover keep the PTX
/// lowering table's. Returns how many columns took SASS counts.
pub fn apply(module: &Module, l: &LaunchBbv, sass: &SassCounts, cost: &mut [ColumnCost]) -> usize {
    let mut n = 0;
    for (c, &(f, b, _)) in cost.iter_mut().zip(&l.columns) {
        let func = &module.funcs[f];
        if !sass.has_function(&func.name) {
            continue;
        }
        let Some(s) = sass.block(&func.name, b.index() as u32) else {
            continue;
        };
        let idiv: f64 = func.blocks[b]
            .insts
            .iter()
            .map(|&i| lowered(&func.insts[i]).1[Unit::Idiv as usize])
            .sum();
        c.issue = s.issue;
        c.units = s.units;
        c.units[Unit::Idiv as usize] = idiv;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module_of(ptx: &str) -> Module {
        let (ast, errs) = warpscope_ptx::parse(ptx);
        assert!(errs.is_empty(), "{errs:?}");
        let (m, errs) = warpscope_ir::lower_module(ast);
        assert!(errs.is_empty(), "{errs:?}");
        m
    }

    const PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u32 n)\n{\n.reg .b32 %r<8>;\n.reg .pred %p<2>;\n\
        ld.param.u32 %r1, [n];\n\
        mov.u32 %r2, 0;\n\
        $L1:\n\
        xor.b32 %r3, %r2, 7;\n\
        and.b32 %r4, %r3, 255;\n\
        add.s32 %r2, %r2, 1;\n\
        setp.lt.u32 %p1, %r2, %r1;\n\
        @%p1 bra $L1;\n\
        ret;\n}\n";

    fn ops(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn opcodes_go_to_their_measured_pipes() {
        assert_eq!(sass_unit("LOP3"), SassClass::On(Unit::Alu));
        assert_eq!(sass_unit("LOP3.LUT"), SassClass::On(Unit::Alu));
        assert_eq!(sass_unit("I2FP"), SassClass::On(Unit::Alu));
        assert_eq!(sass_unit("IMAD"), SassClass::On(Unit::Imad));
        assert_eq!(sass_unit("VIADD"), SassClass::On(Unit::Imad));
        assert_eq!(sass_unit("POPC"), SassClass::On(Unit::Conv));
        assert_eq!(sass_unit("MUFU"), SassClass::On(Unit::Mufu));
        assert_eq!(sass_unit("FFMA"), SassClass::On(Unit::Fp32));
        assert_eq!(sass_unit("LDG"), SassClass::On(Unit::Lsu));
        assert_eq!(sass_unit("BRA"), SassClass::Issue);
        assert_eq!(sass_unit("OP.0x123"), SassClass::Issue);
        assert_eq!(sass_unit("BSSY"), SassClass::Free);
        assert_eq!(sass_unit("NOP"), SassClass::Free);
    }

    #[test]
    fn blocks_add_up_the_sass_of_their_ptx_lines() {
        let m = module_of(PTX);
        let lines = instruction_lines(&m, PTX);
        // ld.param, mov, xor, and, add, setp, bra, ret
        assert_eq!(lines, vec![8, 9, 11, 12, 13, 14, 15, 16]);
        let mut sass = PtxLineSass::default();
        let f = sass.functions.entry("k".into()).or_default();
        f.insert(8, ops(&["LDC"]));
        f.insert(11, ops(&["LOP3"])); // xor and and fused into one LOP3
        f.insert(13, ops(&["VIADD"]));
        f.insert(14, ops(&["ISETP"]));
        f.insert(15, ops(&["BRA"]));
        f.insert(16, ops(&["EXIT"]));
        f.insert(99, ops(&["IADD3"])); // no instruction there
        sass.unattributed = 2;
        let c = SassCounts::new(&m, PTX, &sass, "test");
        assert_eq!(c.attributed, 6);
        assert_eq!(c.unattributed, 3);
        // the loop block: LOP3, VIADD, ISETP, BRA
        let func = m.funcs.values().next().unwrap();
        let lb = func
            .blocks
            .iter()
            .find(|(_, d)| d.labels.iter().any(|l| l == "$L1"))
            .map(|(b, _)| b.index() as u32)
            .unwrap();
        let b = c.block("k", lb).unwrap();
        assert_eq!(b.issue, 4.0);
        assert_eq!(b.units[Unit::Alu as usize], 2.0);
        assert_eq!(b.units[Unit::Imad as usize], 1.0);
        assert!(c.block("nothing", 0).is_none());
        assert!(!c.has_function("nothing"));
    }

    #[test]
    fn a_block_ptxas_copied_is_counted_once() {
        // `ho_pair`'s sine loop as ptxas 13.0.88 unrolls it: 7 copies of sin + fma, the
        // counter's adds merged, 5 BRAs at the closing branch
        let sin = ops(&["FMUL", "MUFU"].repeat(7));
        let fma = ops(&["FFMA"; 7]);
        let add = ops(&["IADD3"; 3]);
        let setp = ops(&["ISETP"; 5]);
        let bra = ops(&["BRA"; 5]);
        let lines: [&[String]; 5] = [&sin, &fma, &add, &setp, &bra];
        assert_eq!(copies(&lines, &[2.0, 1.0, 1.0, 1.0, 1.0]), 5);
        let lines: [&[String]; 6] = [&sin, &fma, &sin, &fma, &add, &bra];
        assert_eq!(copies(&lines, &[2.0, 1.0, 2.0, 1.0, 1.0, 1.0]), 7);
        // one closing branch: never a copy
        let one = ops(&["ISETP", "BRA"]);
        assert_eq!(copies(&[&fma, &one], &[1.0, 2.0]), 1);
        // fused lines (no SASS) do not make a block a copy
        let none = ops(&[]);
        let two = ops(&["BRA", "BRA"]);
        assert_eq!(
            copies(&[&none, &none, &fma, &two], &[1.0, 1.0, 1.0, 1.0]),
            1
        );
        assert_eq!(copies(&[&none, &two], &[1.0, 1.0]), 1);
        assert_eq!(copies(&[], &[]), 1);
    }
}

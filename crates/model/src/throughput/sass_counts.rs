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
//! Ninth version: code ptxas moved out of a loop keeps the PTX line it came from, so its line
//! alone would put it back in the loop's block. Each SASS instruction's loop depth in the
//! SASS's own control flow ([`warpscope_sass::flow::loop_depths`]) is compared with its PTX
//! block's: an instruction in fewer SASS loops than its PTX block is in PTX loops was hoisted,
//! and is charged to the block that runs once per entry of the outermost loop it left (the
//! immediate dominator of that loop's header), not per iteration.
//!
//! Limits, stated: a block ptxas duplicated (loop unrolling) is recognised only when its
//! closing branch line holds several `BRA`s and every line's count is a multiple of that
//! number (each copy is then counted once); code ptxas sank into a loop is left where its line
//! is. `IMAD.HI` and `IMAD.WIDE` take the IMAD pipe twice (`model_v9rates.tsv`: 0.99 and at
//! most 0.78 warp instructions per clock per SM against 1.97 for `IMAD`).

use std::collections::HashMap;

use cranelift_entity::EntityRef;
use warpscope_ir::{Block, FunctionAnalyses, Module};
use warpscope_profile::bbv::LaunchBbv;
use warpscope_sass::PtxLineSass;

use super::sass_deps::{self, SassOp};
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

/// How many times an opcode takes its unit: 2 for the IMAD pipe's wide and high forms
/// (`IMAD.HI`, `IMAD.WIDE`, measured at half `IMAD`'s rate), 1 otherwise.
pub fn sass_weight(opcode: &str) -> f64 {
    let mut parts = opcode.split('.');
    if parts.next() == Some("IMAD") && parts.any(|m| m == "HI" || m == "WIDE") {
        2.0
    } else {
        1.0
    }
}

/// The block instructions of PTX block `b` at SASS loop depth `depth` are charged to: `b`
/// itself when they are in as many loops as `b`, else the immediate dominator of the header of
/// the outermost PTX loop they left.
fn hoisted_to(fa: &FunctionAnalyses, b: Block, depth: u32) -> Block {
    let nest = warpscope_ir::control::loop_nest(fa, b);
    nest.get(depth as usize)
        .and_then(|&l| fa.domtree.idom(fa.loops.get(l).header))
        .unwrap_or(b)
}

/// A block's SASS: issue slots and the demand on each unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockSass {
    pub issue: f64,
    pub units: [f64; Unit::COUNT],
    /// Twelfth version: the block's own SASS (not what was hoisted to it), in address order,
    /// for [`super::sass_deps`]; `copies` the copies of the block ptxas made (its counts were
    /// divided by it) and `looped` whether the PTX block loops to itself.
    pub ops: Vec<SassOp>,
    pub copies: f64,
    pub looped: bool,
    /// Thirteenth version, after the eleventh held-out test: for a block ending in a
    /// conditional PTX branch, whether ptxas kept a `BRA` at that branch's PTX line (`false`:
    /// it predicated the region, so no warp diverges there in SASS); `None` for other blocks.
    pub branch: Option<bool>,
}

impl BlockSass {
    /// Adds one SASS instruction.
    fn add(&mut self, op: &str) {
        match sass_unit(op) {
            SassClass::Free => {}
            SassClass::Issue => self.issue += 1.0,
            SassClass::On(u) => {
                self.issue += 1.0;
                self.units[u as usize] += sass_weight(op);
            }
        }
    }
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
    /// SASS instructions found outside the loops of their PTX block (hoisted by ptxas) and
    /// charged to the block before the loop.
    pub hoisted: usize,
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
            let fa = FunctionAnalyses::compute(func);
            // hoisted SASS: (block it is charged to, opcode)
            let mut moved: Vec<(Block, &str)> = Vec::new();
            for (b, data) in func.blocks.iter() {
                // the block's PTX lines, each once, in order, with the issue slots the PTX
                // lowering table gives the instructions there and the line's first instruction
                let mut lines: Vec<(u32, f64, warpscope_ir::Inst)> = Vec::new();
                for &i in &data.insts {
                    let l = line_of(&starts, func.insts[i].span.start as usize);
                    let slots = lowered(&func.insts[i]).0;
                    if let Some(e) = lines.iter_mut().find(|e| e.0 == l) {
                        e.1 += slots;
                    } else if used.insert(l) {
                        lines.push((l, slots, i));
                    }
                }
                let mut depth = warpscope_ir::control::loop_nest(&fa, b).len() as u32;
                // no SASS of the block left at its depth: ptxas unrolled the loop away (fully,
                // with early exits, as `h6_kepler`'s capped Newton loop) rather than hoisting
                // out of it; the copies are then found as before, nothing is moved
                if !lines
                    .iter()
                    .any(|&(l, _, _)| sass.depths_at(&func.name, l).iter().any(|&d| d >= depth))
                {
                    depth = 0;
                }
                // the SASS of each line that stayed in the block's loops; the rest was hoisted
                let mut seq: Vec<SassOp> = Vec::new();
                let ops: Vec<Vec<&String>> = lines
                    .iter()
                    .map(|&(l, _, inst)| {
                        let at = sass.at(&func.name, l);
                        let depths = sass.depths_at(&func.name, l);
                        let operands = sass.operands_at(&func.name, l);
                        at.iter()
                            .enumerate()
                            .filter(|&(k, op)| match depths.get(k) {
                                Some(&d) if d < depth => {
                                    moved.push((hoisted_to(&fa, b, d), op));
                                    false
                                }
                                _ => true,
                            })
                            .map(|(k, op)| {
                                let (offset, guard, operands) =
                                    operands.get(k).cloned().unwrap_or_default();
                                seq.push(SassOp {
                                    offset,
                                    opcode: op.clone(),
                                    operands,
                                    inst: Some(inst),
                                    guard: guard
                                        .filter(|g| !g.always && !g.uniform)
                                        .map(|g| g.index),
                                });
                                op
                            })
                            .collect()
                    })
                    .collect();
                seq.sort_by_key(|o| o.offset);
                let slots: Vec<f64> = lines.iter().map(|e| e.1).collect();
                let copies = copies(&ops, &slots);
                let mut c = BlockSass::default();
                for op in ops.iter().flat_map(|o| o.iter()) {
                    out.attributed += 1;
                    c.add(op);
                }
                let k = copies as f64;
                c.issue /= k;
                c.units.iter_mut().for_each(|u| *u /= k);
                c.ops = seq;
                c.copies = k;
                c.looped = fa.cfg.succs(b).contains(&b);
                c.branch = warpscope_ir::control::cond_branch(func, b).map(|br| {
                    let l = line_of(&starts, func.insts[br.inst].span.start as usize);
                    sass.at(&func.name, l)
                        .iter()
                        .any(|o| o.split('.').next() == Some("BRA"))
                });
                out.blocks.insert((func.name.clone(), b.index() as u32), c);
            }
            for (b, op) in moved {
                out.attributed += 1;
                out.hoisted += 1;
                out.blocks
                    .entry((func.name.clone(), b.index() as u32))
                    .or_default()
                    .add(op);
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
fn copies<S: AsRef<str>>(ops: &[impl AsRef<[S]>], slots: &[f64]) -> usize {
    let Some(last) = ops.last() else { return 1 };
    let branches = last
        .as_ref()
        .iter()
        .filter(|o| o.as_ref().split('.').next() == Some("BRA"))
        .count();
    if branches < 2 {
        return 1;
    }
    let mut r: Vec<f64> = ops
        .iter()
        .zip(slots)
        .filter(|&(_, &s)| s > 0.0)
        .map(|(o, &s)| o.as_ref().len() as f64 / s)
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
/// lowering table's. Twelfth version: where the SASS has its operands (nvdisasm ran), the
/// column's dependent chain is the SASS's ([`sass_deps::chain`]; `ptx_latency` gives the
/// latency of a PTX instruction for SASS without a measured latency of its own) and its issue
/// and unit demands are multiplied by the block's [`sass_deps::dependence_factor`]; thirteenth
/// version: its register-bank conflicts ([`sass_deps::bank_conflicts`], per copy) are added to
/// its issue first. Returns
/// how many columns took SASS counts.
pub fn apply(
    module: &Module,
    l: &LaunchBbv,
    sass: &SassCounts,
    cost: &mut [ColumnCost],
    ptx_latency: &dyn Fn(warpscope_ir::FuncId, warpscope_ir::Inst) -> (f64, &'static str),
) -> usize {
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
        if sass_deps::has_operands(&s.ops) {
            let chain = sass_deps::chain(&s.ops, s.looped, &|i| ptx_latency(f, i));
            c.chain = chain / s.copies.max(1.0);
            let k = sass_deps::dependence_factor(&s.ops);
            c.issue += sass_deps::bank_conflicts(&s.ops) / s.copies.max(1.0);
            c.issue *= k;
            c.units.iter_mut().for_each(|u| *u *= k);
        }
        c.units[Unit::Idiv as usize] = idiv;
        n += 1;
    }
    n
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn module_of(ptx: &str) -> Module {
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

    /// Twelfth version: a block keeps its own SASS in address order with the operands and
    /// guards nvdisasm printed, and knows it loops to itself.
    #[test]
    fn blocks_keep_their_sass_in_address_order_with_operands() {
        let m = module_of(PTX);
        let mut sass = PtxLineSass::default();
        let f = sass.functions.entry("k".into()).or_default();
        f.insert(11, ops(&["LOP3.LUT"]));
        f.insert(13, ops(&["VIADD"]));
        f.insert(14, ops(&["ISETP.LT.U32.AND"]));
        f.insert(15, ops(&["BRA"]));
        let o = sass.operands.entry("k".into()).or_default();
        // ptxas scheduled the add before the LOP3
        o.insert(11, vec![(0x20, None, "R3, R2, 0x7, RZ, 0xc0, !PT".into())]);
        o.insert(13, vec![(0x10, None, "R2, R2, 0x1".into())]);
        o.insert(14, vec![(0x30, None, "P0, PT, R2, UR4, PT".into())]);
        let guard = warpscope_sass::Guard {
            negated: false,
            uniform: false,
            always: false,
            index: 0,
        };
        o.insert(15, vec![(0x40, Some(guard), "0x10".into())]);
        let c = SassCounts::new(&m, PTX, &sass, "test");
        let func = m.funcs.values().next().unwrap();
        let lb = func
            .blocks
            .iter()
            .find(|(_, d)| d.labels.iter().any(|l| l == "$L1"))
            .map(|(b, _)| b.index() as u32)
            .unwrap();
        let b = c.block("k", lb).unwrap();
        assert!(b.looped);
        let seq: Vec<(&str, Option<u8>)> =
            b.ops.iter().map(|o| (o.opcode.as_str(), o.guard)).collect();
        assert_eq!(
            seq,
            vec![
                ("VIADD", None),
                ("LOP3.LUT", None),
                ("ISETP.LT.U32.AND", None),
                ("BRA", Some(0))
            ]
        );
        assert!(sass_deps::has_operands(&b.ops));
        // the add feeds the LOP3 and the compare, the compare the branch
        assert!(sass_deps::dependence_factor(&b.ops) > 1.0);
        // thirteenth version: the loop's conditional branch kept its BRA; the entry block
        // ends in no conditional branch
        assert_eq!(b.branch, Some(true));
        assert_eq!(c.block("k", 0).unwrap().branch, None);
        // had ptxas predicated it away (no BRA at its line), the block says so
        sass.functions
            .get_mut("k")
            .unwrap()
            .insert(15, ops(&["ISETP.LT.U32.AND"]));
        let c = SassCounts::new(&m, PTX, &sass, "test");
        assert_eq!(c.block("k", lb).unwrap().branch, Some(false));
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

    /// A loop whose PTX computes a loop-invariant hash of a parameter inside the loop (as NVVM
    /// left `h8_isqrt`'s hash in its rotated loop), kept from unrolling.
    pub(crate) const HOIST_PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 out, .param .u32 n, .param .u32 a)\n{\n\
        .reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n\
        ld.param.u64 %rd1, [out];\n\
        ld.param.u32 %r9, [n];\n\
        ld.param.u32 %r1, [a];\n\
        mov.u32 %r2, 0;\n\
        mov.u32 %r8, 1;\n\
        $L1:\n\
        .pragma \"nounroll\";\n\
        mul.lo.u32 %r3, %r1, -1640531535;\n\
        xor.b32 %r4, %r3, 12345;\n\
        shr.u32 %r5, %r4, 7;\n\
        mul.lo.u32 %r6, %r5, 73244475;\n\
        xor.b32 %r7, %r6, %r5;\n\
        mad.lo.s32 %r8, %r8, %r7, %r2;\n\
        add.s32 %r2, %r2, 1;\n\
        setp.lt.u32 %p1, %r2, %r9;\n\
        @%p1 bra $L1;\n\
        cvta.to.global.u64 %rd2, %rd1;\n\
        st.global.u32 [%rd2], %r8;\n\
        ret;\n}\n";

    pub(crate) fn block_labelled(m: &Module, label: &str) -> u32 {
        let func = m.funcs.values().next().unwrap();
        func.blocks
            .iter()
            .find(|(_, d)| d.labels.iter().any(|l| l == label))
            .map(|(b, _)| b.index() as u32)
            .unwrap()
    }

    #[test]
    fn sass_outside_the_loops_of_its_ptx_block_is_charged_before_the_loop() {
        let m = module_of(HOIST_PTX);
        let lines = instruction_lines(&m, HOIST_PTX);
        let line = |text: &str| {
            HOIST_PTX
                .lines()
                .position(|l| l.contains(text))
                .map(|i| i as u32 + 1)
                .unwrap()
        };
        assert!(lines.contains(&line("mul.lo.u32 %r3")));
        // as ptxas compiles it: the hash hoisted before the loop (SASS depth 0), the loop's
        // own work in the SASS loop (depth 1)
        let mut sass = PtxLineSass::default();
        let f = sass.functions.entry("k".into()).or_default();
        let d = sass.depths.entry("k".into()).or_default();
        for (text, op, depth) in [
            ("mul.lo.u32 %r3", "IMAD", 0),
            ("xor.b32 %r4", "LOP3", 0),
            ("shr.u32 %r5", "SHF", 0),
            ("mul.lo.u32 %r6", "IMAD", 0),
            ("xor.b32 %r7", "LOP3", 0),
            ("mad.lo.s32", "IMAD", 1),
            ("add.s32 %r2", "VIADD", 1),
            ("setp.lt", "ISETP", 1),
            ("@%p1 bra", "BRA", 1),
        ] {
            f.insert(line(text), ops(&[op]));
            d.insert(line(text), vec![depth]);
        }
        let c = SassCounts::new(&m, HOIST_PTX, &sass, "test");
        assert_eq!(c.hoisted, 5);
        assert_eq!(c.attributed, 9);
        let lb = c.block("k", block_labelled(&m, "$L1")).unwrap();
        assert_eq!(lb.issue, 4.0);
        assert_eq!(lb.units[Unit::Imad as usize], 2.0);
        assert_eq!(lb.units[Unit::Alu as usize], 1.0);
        let entry = c.block("k", 0).unwrap();
        assert_eq!(entry.issue, 5.0);
        assert_eq!(entry.units[Unit::Imad as usize], 2.0);
        assert_eq!(entry.units[Unit::Alu as usize], 3.0);
        // without depths (an older listing), everything stays on its line's block
        sass.depths.clear();
        let c = SassCounts::new(&m, HOIST_PTX, &sass, "test");
        assert_eq!(c.hoisted, 0);
        assert_eq!(c.block("k", block_labelled(&m, "$L1")).unwrap().issue, 9.0);
    }

    #[test]
    fn a_loop_unrolled_away_is_not_taken_for_hoisting() {
        // every SASS of the loop block outside any SASS loop (ptxas unrolled it fully): the
        // block keeps its SASS, as in the eighth version
        let m = module_of(HOIST_PTX);
        let line = |text: &str| {
            HOIST_PTX
                .lines()
                .position(|l| l.contains(text))
                .map(|i| i as u32 + 1)
                .unwrap()
        };
        let mut sass = PtxLineSass::default();
        let f = sass.functions.entry("k".into()).or_default();
        let d = sass.depths.entry("k".into()).or_default();
        for (text, op) in [
            ("mul.lo.u32 %r3", "IMAD"),
            ("mad.lo.s32", "IMAD"),
            ("setp.lt", "ISETP"),
        ] {
            f.insert(line(text), ops(&[op]));
            d.insert(line(text), vec![0]);
        }
        let c = SassCounts::new(&m, HOIST_PTX, &sass, "test");
        assert_eq!(c.hoisted, 0);
        let lb = c.block("k", block_labelled(&m, "$L1")).unwrap();
        assert_eq!(lb.issue, 3.0);
        assert_eq!(c.block("k", 0).unwrap().issue, 0.0);
    }

    #[test]
    fn wide_and_high_imad_take_the_pipe_twice() {
        assert_eq!(sass_weight("IMAD.HI.U32"), 2.0);
        assert_eq!(sass_weight("IMAD.WIDE.U32"), 2.0);
        assert_eq!(sass_weight("IMAD.WIDE"), 2.0);
        assert_eq!(sass_weight("IMAD"), 1.0);
        assert_eq!(sass_weight("IMAD.SHL.U32"), 1.0);
        assert_eq!(sass_weight("LOP3.HI"), 1.0);
        let mut b = BlockSass::default();
        b.add("IMAD.HI.U32");
        b.add("IMAD.MOV.U32");
        assert_eq!(b.issue, 2.0);
        assert_eq!(b.units[Unit::Imad as usize], 3.0);
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
        assert_eq!(copies::<String>(&[] as &[&[String]], &[]), 1);
    }
}

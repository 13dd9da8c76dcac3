//! Twelfth and thirteenth versions: the dependences between a basic block's SASS instructions,
//! and the register banks their operands are read from.
//!
//! With nvdisasm beside ptxas, each SASS instruction of a block comes with its operands
//! ([`warpscope_sass::with_operands`]); the registers it reads and writes ([`defs_uses`]) give
//! two things the PTX path could not:
//!
//! * **the block's dependent chain in SASS** ([`chain`]): one warp alone, instructions issuing
//!   in address order one per clock, each when the registers it reads are ready; an arithmetic
//!   result is ready after the SASS latency measured by `scripts/h100/model_v12rates.py`
//!   (`validation/h100/model/model_v12rates.tsv`, one warp per scheduler: 4.5 clocks for the
//!   integer ALU, IMAD and fp32 instructions, one more when the reader is on another pipe,
//!   9.5 for `IMAD.HI`, 9.2 for `IMAD.WIDE`, 8.5 for fp64, 17.5 for `MUFU.EX2`/`TANH`); any
//!   other instruction (loads, shuffles, conversions, branches, other `MUFU` functions) takes
//!   the latency the PTX path gives the PTX instruction it came from (the latency table, a
//!   global load's where its data are). A block that loops to itself is run four times over
//!   with the registers carried from one pass to the next, and charged its steady state (the
//!   last two passes' time over two): the longest recurrence through the loop, or its issue,
//!   whichever is longer, rather than the whole critical path per iteration. Any other block
//!   ends when its last instruction has issued and every value it writes is ready, as on the
//!   PTX path.
//! * **what dependences cost the pipes** ([`dependence_factor`]): the same micro-benchmarks at
//!   16 warps per scheduler (throughput bound) ran dependent chains of one opcode 0.8–4.2%
//!   slower than the pipe's rate, and chains that alternate between the integer ALU and the
//!   IMAD pipe 8–12% slower (two or four independent such chains per warp: 4.2% and 3.6%). A
//!   block's issue and unit demand are multiplied by `1 + SAME_PIPE × s + CROSS_PIPE × x`,
//!   `s` and `x` the block's instructions weighted by `1 / distance` to the nearest earlier
//!   instruction of the block whose result they read, on the same or on another pipe, over the
//!   block's instructions (least squares over the 15 shapes of `model_v12rates.tsv` and
//!   `model_v9rates.tsv`; 1.4% mean residual; `v9_chain_mix`, 28% slower than its pipe, is left
//!   unexplained: 5.6% with this rule).
//!
//! Thirteenth version (`scripts/h100/model_v13rates.py`, `model_v13rates.tsv`, the analysis in
//! `scripts/h100/model_v13_fit.py`):
//!
//! * **predicates are ready later than registers**: a predicate an integer-ALU instruction
//!   writes (a compare, an add's carry) is read [`PREDICATE_ALU`] clocks after it issues by
//!   another ALU instruction, [`PREDICATE_OTHER_PIPE`] by one of another pipe (its result
//!   register stays at 4.5);
//! * **register-bank conflicts cost issue cycles** ([`bank_conflicts`]): an instruction reading
//!   two different vector registers of one bank (register number mod 2), not from the operand
//!   reuse cache, takes [`BANK_CONFLICT_INT`] (integer ALU, IMAD) or [`BANK_CONFLICT_FP32`]
//!   more issue cycles; added to the block's issue before the dependence factor (the dependent
//!   chains it was fitted to had no conflicts). On the micro-benchmarks at 16 warps per
//!   scheduler this takes the mean error of the pipe bound with the dependence factor from
//!   8.2% to 2.0% over 17 shapes; a 64-bit bisection loop of our own (`v13_bisect64`) stays
//!   12.5% faster than measured.

use std::collections::HashMap;

use warpscope_ir::Inst;

use super::Unit;
use super::sass_counts::{SassClass, sass_unit};

/// One SASS instruction of a block, in address order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SassOp {
    pub offset: u32,
    /// Opcode with modifiers (`IMAD.HI.U32`; the cubin reader's base name when nvdisasm did
    /// not run).
    pub opcode: String,
    /// Operands as nvdisasm prints them (empty when not known).
    pub operands: String,
    /// The PTX instruction it came from (the first of its PTX line).
    pub inst: Option<Inst>,
    /// The per-lane predicate guarding it (`@P2`, `@!P2`: 2), if any: it reads the predicate,
    /// and what it writes keeps the earlier value in the lanes it skips.
    pub guard: Option<u8>,
}

/// Thirteenth version: the clocks after an integer-ALU instruction (`ISETP`, `IADD3`'s carry,
/// `LOP3`'s predicate) issues at which the predicate it writes can be read by another ALU
/// instruction (as a source, a carry or a guard), and by an instruction of another pipe (no
/// further cross-pipe clock): `model_v13rates.tsv`, one warp per scheduler: `v13_add64`'s carry
/// chain 5.07 clocks per link ((9.2 + 1) / 2, the carry read one instruction after the next low
/// add), `v13_sel64`'s 64-bit compare and select 23.0 per link (two predicate hops and an ALU
/// result: 9.2 + 9.2 + 4.5), `v13_sel`'s compare and predicated `IMAD.IADD` 20.0 per link
/// (14.5 + 4.5 + 1). A register result of the same instructions is ready after 4.5.
pub const PREDICATE_ALU: f64 = 9.2;
pub const PREDICATE_OTHER_PIPE: f64 = 14.5;

/// Thirteenth version: issue cycles a register-bank conflict costs ([`bank_conflicts`]): an
/// instruction on the integer ALU or IMAD pipe, and one on the fp32 pipe (`model_v13rates.tsv`
/// at 16 warps per scheduler, see `scripts/h100/model_v13_fit.py`: four independent
/// `IMAD`→`LOP3` chains whose `IMAD`s read three vector registers ran 46–48% slower than with
/// uniform operands, 0.90–1.07 cycles per conflicting `IMAD`; eight independent `FFMA` chains
/// with their own two sources each, 0.6 cycles per conflicting `FFMA`, against none with
/// sources the reuse cache holds).
pub const BANK_CONFLICT_INT: f64 = 1.0;
pub const BANK_CONFLICT_FP32: f64 = 0.6;

/// Weight of a dependence on the same pipe in [`dependence_factor`] (fitted to
/// `model_v12rates.tsv` and `model_v9rates.tsv`, see the module's documentation).
pub const SAME_PIPE: f64 = 0.028;
/// Weight of a dependence across pipes in [`dependence_factor`].
pub const CROSS_PIPE: f64 = 0.124;

/// A register: `R0`..`R254` are 0..254, predicates `P0`..`P6` are 256..262 (`RZ`, `PT`,
/// uniform registers and predicates are not tracked: constant or ready).
type Reg = u16;

/// The first predicate register (`P0`).
const PREDICATE: Reg = 256;

fn no_destination(base: &str) -> bool {
    matches!(
        base,
        "ST" | "STG"
            | "STS"
            | "STL"
            | "RED"
            | "REDG"
            | "BRA"
            | "BRX"
            | "JMP"
            | "JMX"
            | "EXIT"
            | "RET"
            | "BAR"
            | "BSSY"
            | "BSYNC"
            | "NOP"
            | "WARPSYNC"
            | "CALL"
            | "MEMBAR"
            | "FENCE"
            | "CCTL"
            | "ERRBAR"
            | "DEPBAR"
            | "YIELD"
            | "BREAK"
            | "KILL"
    )
}

/// Registers named in one operand (`R4`, `-R2.reuse`, `R2.64`, `[R2.64+0x10]`,
/// `desc[UR4][R6.64]`, `!P0`); `wide`: a plain register names a pair (fp64 sources, the
/// added operand of `IMAD.WIDE`).
fn regs_of(tok: &str, wide: usize, out: &mut Vec<Reg>) {
    let b = tok.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let prev_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if prev_ok && (c == b'R' || c == b'P') {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && (j == b.len() || !b[j].is_ascii_alphabetic()) {
                let n: u16 = tok[i + 1..j].parse().unwrap_or(u16::MAX);
                if c == b'R' && n < 255 {
                    let w = if tok[j..].starts_with(".64") {
                        2
                    } else if tok[j..].starts_with(".128") {
                        4
                    } else {
                        wide
                    };
                    out.extend(
                        (0..w as u16)
                            .map(|k| n.saturating_add(k))
                            .filter(|&r| r < 255),
                    );
                } else if c == b'P' && n < 7 {
                    out.push(256 + n);
                }
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
}

fn is_fp64(base: &str) -> bool {
    matches!(base, "DADD" | "DMUL" | "DFMA" | "DMNMX")
}

/// Registers written and read by a SASS instruction (`opcode` with modifiers, `operands` as
/// nvdisasm prints them). The first operand is the destination unless the opcode writes none
/// (stores, branches, barriers); a predicate second operand of a compare, `LOP3`, `PLOP3`,
/// `IADD3`, `LEA` or `IMAD` is a second destination (a carry or a second result). Widths:
/// fp64 results and sources, `IMAD.WIDE`'s result and added operand are register pairs, a
/// `.64`/`.128` load's result 2 or 4 registers, a `.64`/`.128` store's data likewise.
pub fn defs_uses(opcode: &str, operands: &str) -> (Vec<Reg>, Vec<Reg>) {
    let base = opcode.split('.').next().unwrap_or("");
    let mods: Vec<&str> = opcode.split('.').skip(1).collect();
    let toks: Vec<&str> = operands
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    let (mut defs, mut uses) = (Vec::new(), Vec::new());
    let data_width = if mods.contains(&"128") {
        4
    } else if mods.contains(&"64") {
        2
    } else {
        1
    };
    let wide_result = is_fp64(base) || (base == "IMAD" && mods.contains(&"WIDE"));
    let mut start = 0;
    if !no_destination(base) && !toks.is_empty() {
        let w = if wide_result {
            2
        } else if matches!(
            base,
            "LDG" | "LD" | "LDS" | "LDL" | "LDC" | "ATOMG" | "ATOM"
        ) {
            data_width
        } else {
            1
        };
        regs_of(toks[0], w, &mut defs);
        start = 1;
        let second_dest = matches!(
            base,
            "ISETP" | "FSETP" | "DSETP" | "PLOP3" | "LOP3" | "IADD3" | "LEA" | "IMAD" | "HSETP2"
        );
        if second_dest && toks.len() > 1 && {
            let t = toks[1];
            t.len() == 2 && t.starts_with('P') && t.as_bytes()[1].is_ascii_digit()
        } {
            regs_of(toks[1], 1, &mut defs);
            start = 2;
        }
    }
    let n = toks.len();
    for (k, t) in toks.iter().enumerate().skip(start) {
        let w = if is_fp64(base)
            || base == "DSETP"
            || (base == "IMAD" && mods.contains(&"WIDE") && k == n - 1)
        {
            2
        } else if matches!(base, "STG" | "ST" | "STS" | "STL") && k == n - 1 {
            data_width
        } else {
            1
        };
        regs_of(t, w, &mut uses);
    }
    (defs, uses)
}

/// The pipe a SASS opcode issues to, for the cross-pipe rules (`None`: no pipe of its own
/// among the integer ALU, IMAD, fp32 and fp64).
fn pipe(opcode: &str) -> Option<Unit> {
    match sass_unit(opcode) {
        SassClass::On(u @ (Unit::Alu | Unit::Imad | Unit::Fp32 | Unit::Fp64)) => Some(u),
        _ => None,
    }
}

/// The measured dependent latency of an arithmetic SASS opcode (`model_v12rates.tsv`, one warp
/// per scheduler), and whether it is of the 4.5-clock class that costs one more clock when
/// read on another pipe; `None` for anything else.
pub fn measured_latency(opcode: &str) -> Option<(f64, bool)> {
    let mut parts = opcode.split('.');
    let base = parts.next().unwrap_or("");
    let mods: Vec<&str> = parts.collect();
    match base {
        "IMAD" if mods.contains(&"HI") => Some((9.5, false)),
        "IMAD" if mods.contains(&"WIDE") => Some((9.2, false)),
        "DADD" | "DMUL" | "DFMA" | "DMNMX" | "DSETP" => Some((8.5, false)),
        "MUFU" if mods.iter().any(|m| *m == "EX2" || *m == "TANH") => Some((17.5, false)),
        "MUFU" => None,
        _ => match pipe(opcode) {
            Some(Unit::Alu | Unit::Imad | Unit::Fp32) => Some((4.5, true)),
            _ => None,
        },
    }
}

/// Whether any instruction of `ops` has operands (nvdisasm ran): the analyses need them.
pub fn has_operands(ops: &[SassOp]) -> bool {
    ops.iter().any(|o| !o.operands.is_empty())
}

fn counted(op: &SassOp) -> bool {
    sass_unit(&op.opcode) != SassClass::Free
}

/// The latency of a SASS instruction without a measured one ([`measured_latency`]), given the
/// latency and latency-table class of the PTX instruction it came from (`ptx`): memory
/// accesses, shuffles, barriers and special-register reads take their PTX instruction's; a
/// branch the PTX `bra`'s when it is the PTX branch (a branch inside a PTX instruction's
/// sequence, as a division's slow-path test, nothing); `MUFU` functions other than `EX2` and
/// `TANH` are taken as `EX2` (17.5, the one measured); conversions `latency.tsv`'s `cvt`
/// (12.0), `POPC`/`FLO`/`BREV` its `int_bit` (18.2); anything else (constant and uniform
/// datapath instructions) nothing, as parameter loads on the PTX path. A PTX instruction that
/// ptxas makes into a sequence (a division) is thus charged its SASS, not its PTX latency on
/// top of its SASS.
fn fallback_latency(opcode: &str, ptx: Option<(f64, &'static str)>) -> f64 {
    let base = opcode.split('.').next().unwrap_or("");
    let (lat, class) = ptx.unwrap_or((0.0, ""));
    match base {
        "MUFU" => 17.5,
        "F2I" | "I2F" | "F2F" | "FRND" | "I2I" => 12.0,
        "POPC" | "FLO" | "BREV" => 18.2,
        "BRA" if class == "bra" => lat,
        "LDG" | "LD" | "LDS" | "LDL" | "LDSM" | "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG"
        | "SHFL" | "S2R" | "CS2R" | "BAR" | "VOTE" | "MATCH" => lat,
        _ => 0.0,
    }
}

/// The time one warp alone needs per execution of a block whose SASS is `ops` (address
/// order), see the module's documentation; `ptx_latency` gives the latency and class of the
/// PTX instruction an instruction came from ([`fallback_latency`]); `looped`: the block loops
/// to itself (its steady state is charged).
pub fn chain(
    ops: &[SassOp],
    looped: bool,
    ptx_latency: &dyn Fn(Inst) -> (f64, &'static str),
) -> f64 {
    let ops: Vec<&SassOp> = ops.iter().filter(|o| counted(o)).collect();
    if ops.is_empty() {
        return 0.0;
    }
    let decoded: Vec<_> = ops
        .iter()
        .map(|o| {
            let (d, mut u) = defs_uses(&o.opcode, &o.operands);
            if let Some(g) = o.guard {
                u.push(256 + Reg::from(g));
            }
            let (lat, short) = measured_latency(&o.opcode)
                .unwrap_or_else(|| (fallback_latency(&o.opcode, o.inst.map(ptx_latency)), false));
            let branch = o.opcode.split('.').next() == Some("BRA");
            (d, u, lat, short, pipe(&o.opcode), branch, o.guard.is_some())
        })
        .collect();
    // register -> (ready time, producer's pipe, of the short class); a predicate an ALU
    // instruction writes: ready for ALU readers at PREDICATE_ALU, for others later
    let mut ready: HashMap<Reg, (f64, Option<Unit>, bool)> = HashMap::new();
    let (mut t, mut end) = (0.0f64, 0.0f64);
    let passes = if looped { 4 } else { 1 };
    let mut ends = Vec::with_capacity(passes);
    for _ in 0..passes {
        for (defs, uses, lat, short, p, branch, guarded) in &decoded {
            let mut start = t;
            for r in uses {
                if let Some(&(x, q, s)) = ready.get(r) {
                    let cross = s && p.is_some() && q.is_some() && q != *p;
                    let later = if *r >= PREDICATE
                        && q == Some(Unit::Alu)
                        && p.is_some_and(|u| u != Unit::Alu)
                    {
                        PREDICATE_OTHER_PIPE - PREDICATE_ALU
                    } else {
                        0.0
                    };
                    start = start.max(x + if cross { 1.0 } else { 0.0 } + later);
                }
            }
            for &r in defs {
                let new = if r >= PREDICATE && *p == Some(Unit::Alu) {
                    (start + PREDICATE_ALU, *p, false)
                } else {
                    (start + lat, *p, *short)
                };
                // a predicated write: the register is ready when both values are
                match ready.get(&r) {
                    Some(&old) if *guarded && old.0 > new.0 => {}
                    _ => {
                        ready.insert(r, new);
                    }
                }
            }
            t = start + 1.0;
            end = end.max(t);
            if !defs.is_empty() || *branch {
                end = end.max(start + lat);
            }
        }
        ends.push(end);
    }
    if looped {
        // the last two passes: the steady state of the loop
        ((ends[3] - ends[1]) / 2.0).max(0.0)
    } else {
        end
    }
}

/// The 32-bit vector registers a SASS instruction reads from the register file, each with its
/// source operand slot and whether it carries `.reuse`; `None` when a source is a register pair
/// or an address (`.64`, `.128`, `[...]`, `IMAD.WIDE`'s added pair), which the micro-benchmarks
/// did not measure.
fn vector_sources(opcode: &str, operands: &str) -> Option<Vec<(usize, Reg, bool)>> {
    let base = opcode.split('.').next().unwrap_or("");
    let toks: Vec<&str> = operands
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    let mut start = 0;
    if !no_destination(base) && !toks.is_empty() {
        start = 1;
        let t = toks.get(1).copied().unwrap_or("");
        if matches!(
            base,
            "ISETP" | "FSETP" | "PLOP3" | "LOP3" | "IADD3" | "LEA" | "IMAD"
        ) && t.len() == 2
            && t.starts_with('P')
            && t.as_bytes()[1].is_ascii_digit()
        {
            start = 2;
        }
    }
    let wide_addend = base == "IMAD" && opcode.split('.').any(|m| m == "WIDE");
    let n = toks.len();
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate().skip(start) {
        if t.contains(".64") || t.contains(".128") || t.contains('[') {
            return None;
        }
        let body = t.trim_start_matches(['-', '!', '|', '~']);
        let Some(digits) = body.strip_prefix('R') else {
            continue;
        };
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        let Ok(r) = digits[..end].parse::<Reg>() else {
            continue;
        };
        if r >= 255 {
            continue;
        }
        if wide_addend && k == n - 1 {
            return None;
        }
        out.push((k - start, r, digits[end..].contains(".reuse")));
    }
    Some(out)
}

/// Thirteenth version: the issue cycles a block's register-bank conflicts cost (`ops` in
/// address order). The register file has two banks (register number mod 2); an instruction on
/// the integer ALU, IMAD or fp32 pipe that reads two different vector registers of one bank
/// from it conflicts and costs [`BANK_CONFLICT_INT`] (ALU, IMAD) or [`BANK_CONFLICT_FP32`]
/// cycles more. A source in the same operand slot, same register, as a `.reuse` source of the
/// previous instruction comes from the operand reuse cache, not from the file; a register read
/// twice is read once. Instructions with register pairs or addresses among their sources are
/// not counted (not measured).
pub fn bank_conflicts(ops: &[SassOp]) -> f64 {
    let mut cached: Vec<(usize, Reg)> = Vec::new();
    let mut cost = 0.0;
    for op in ops.iter().filter(|o| counted(o)) {
        let srcs = vector_sources(&op.opcode, &op.operands);
        let before = std::mem::take(&mut cached);
        let Some(srcs) = srcs else { continue };
        cached = srcs
            .iter()
            .filter(|s| s.2)
            .map(|&(k, r, _)| (k, r))
            .collect();
        let per = match pipe(&op.opcode) {
            Some(Unit::Alu | Unit::Imad) => BANK_CONFLICT_INT,
            Some(Unit::Fp32) => BANK_CONFLICT_FP32,
            _ => continue,
        };
        let mut banks: [Vec<Reg>; 2] = [Vec::new(), Vec::new()];
        for &(k, r, _) in &srcs {
            if before.contains(&(k, r)) {
                continue;
            }
            let b = &mut banks[usize::from(r % 2)];
            if !b.contains(&r) {
                b.push(r);
            }
        }
        if banks.iter().any(|b| b.len() > 1) {
            cost += per;
        }
    }
    cost
}

/// `1 + SAME_PIPE × s + CROSS_PIPE × x` for a block's SASS `ops` (address order): see the
/// module's documentation. 1 when no instruction reads an earlier one's result.
pub fn dependence_factor(ops: &[SassOp]) -> f64 {
    let mut last: HashMap<Reg, (usize, Option<Unit>)> = HashMap::new();
    let (mut same, mut cross, mut n) = (0.0f64, 0.0f64, 0usize);
    for op in ops.iter().filter(|o| counted(o)) {
        let i = n;
        n += 1;
        let (defs, mut uses) = defs_uses(&op.opcode, &op.operands);
        if let Some(g) = op.guard {
            uses.push(256 + Reg::from(g));
        }
        let p = pipe(&op.opcode);
        if p.is_some() {
            let producer = uses.iter().filter_map(|r| last.get(r)).max_by_key(|x| x.0);
            if let Some(&(j, Some(q))) = producer {
                let w = 1.0 / (i - j).max(1) as f64;
                if Some(q) == p {
                    same += w;
                } else {
                    cross += w;
                }
            }
        }
        for r in defs {
            last.insert(r, (i, p));
        }
    }
    if n == 0 {
        return 1.0;
    }
    1.0 + SAME_PIPE * same / n as f64 + CROSS_PIPE * cross / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(opcode: &str, operands: &str) -> SassOp {
        SassOp {
            opcode: opcode.into(),
            operands: operands.into(),
            ..SassOp::default()
        }
    }

    #[test]
    fn operands_name_what_is_read_and_written() {
        assert_eq!(
            defs_uses("IMAD.HI.U32", "R4, R3, UR6, RZ"),
            (vec![4], vec![3])
        );
        assert_eq!(
            defs_uses("IMAD.WIDE.U32", "R2, R5, 0x4, R2"),
            (vec![2, 3], vec![5, 2, 3])
        );
        assert_eq!(
            defs_uses("ISETP.GE.AND", "P0, PT, R5, 0x1, PT"),
            (vec![256], vec![5])
        );
        assert_eq!(
            defs_uses("IADD3", "R5, P0, R5.reuse, R4, RZ"),
            (vec![5, 256], vec![5, 4])
        );
        assert_eq!(
            defs_uses("LDG.E.64", "R2, desc[UR4][R6.64]"),
            (vec![2, 3], vec![6, 7])
        );
        assert_eq!(
            defs_uses("STG.E", "desc[UR4][R2.64], R5"),
            (vec![], vec![2, 3, 5])
        );
        assert_eq!(
            defs_uses("DFMA", "R4, R4, R6, R8"),
            (vec![4, 5], vec![4, 5, 6, 7, 8, 9])
        );
        assert_eq!(defs_uses("BRA", "P1, 0x170"), (vec![], vec![257]));
        assert_eq!(
            defs_uses("LOP3.LUT", "R3, -R4, R3, RZ, 0x3c, !PT"),
            (vec![3], vec![4, 3])
        );
    }

    /// `v12_dep_imad_lop`'s shape: a chain alternating IMAD and LOP3.
    fn alternating(n: usize) -> Vec<SassOp> {
        (0..n)
            .map(|k| {
                if k % 2 == 0 {
                    op("IMAD", "R4, R4, UR6, UR7")
                } else {
                    op("LOP3.LUT", "R4, R4, UR6, UR7, 0x6a, !PT")
                }
            })
            .collect()
    }

    #[test]
    fn a_chain_across_pipes_takes_the_measured_latencies() {
        // one warp: 5.5 clocks per link across pipes (v12_dep_imad_lop: 5.51 measured)
        let ops = alternating(32);
        let c = chain(&ops, false, &|_| (0.0, ""));
        assert!((c - (31.0 * 5.5 + 4.5)).abs() < 1e-9, "{c}");
        // looped: the steady state, 32 links per pass
        let s = chain(&ops, true, &|_| (0.0, ""));
        assert!((s - 32.0 * 5.5).abs() < 1e-9, "{s}");
        // IMAD.HI then LOP3: 9.5 + 5.5 per pair (v12_dep_imadhi_lop: 2 x 7.49 measured)
        let hi: Vec<SassOp> = (0..8)
            .map(|k| {
                if k % 2 == 0 {
                    op("IMAD.HI.U32", "R4, R4, UR6, RZ")
                } else {
                    op("LOP3.LUT", "R4, R4, UR6, UR7, 0x6a, !PT")
                }
            })
            .collect();
        let s = chain(&hi, true, &|_| (0.0, ""));
        assert!((s - 4.0 * 15.0).abs() < 1e-9, "{s}");
    }

    #[test]
    fn independent_instructions_issue_one_per_clock_and_loads_take_the_ptx_latency() {
        let ops = vec![
            op("LDG.E", "R2, desc[UR4][R6.64]"),
            op("IMAD", "R8, R9, UR6, RZ"),
            op("IMAD", "R10, R11, UR6, RZ"),
            op("FADD", "R3, R2, 1"),
        ];
        let mut ops = ops;
        ops[0].inst = Some(Inst::from_u32(0));
        let c = chain(&ops, false, &|_| (300.0, "ld_global"));
        // the FADD waits for the load (300), then 4.5
        assert!((c - 304.5).abs() < 1e-9, "{c}");
    }

    #[test]
    fn a_branch_inside_a_ptx_sequence_is_not_charged_the_ptx_latency() {
        // an fp64 division's SASS: its PTX latency (125) must not be added to its own SASS
        let mut ops = vec![
            op("MUFU.RCP64H", "R5, R3"),
            op("DFMA", "R6, -R2, R4, 1"),
            op(
                "FSETP.GEU.AND",
                "P0, PT, |R3|, 1.469367938527859385e-39, PT",
            ),
            op("BRA", "!P0, 0x400"),
        ];
        for o in &mut ops {
            o.inst = Some(Inst::from_u32(0));
        }
        let c = chain(&ops, false, &|_| (125.0, "fp64_div"));
        // MUFU 17.5, then the DFMA's 8.5 (its source R4:R5 waits for the MUFU: 26); the FSETP
        // issues after the DFMA (18.5), its predicate is ready for the branch at 27.7
        // (PREDICATE_ALU), and the branch adds nothing of its own beyond its issue
        assert!((c - 28.7).abs() < 1e-9, "{c}");
    }

    #[test]
    fn a_predicated_write_keeps_the_earlier_value_waited_for() {
        // ho_collatz's step: @P0 IMAD R0 = 3n+1; @!P0 SHF R0 = n/2; MOV R2 = R0: the MOV waits
        // for the IMAD's result too (before, the SHF's write replaced it)
        let mut ops = vec![
            op("IMAD.HI.U32", "R0, R2, UR4, RZ"),
            op("SHF.R.U32.HI", "R0, RZ, 0x1, R2"),
            op("IMAD.MOV.U32", "R2, RZ, RZ, R0"),
        ];
        ops[1].guard = Some(0);
        let c = chain(&ops, false, &|_| (0.0, ""));
        // IMAD.HI at 0 ready at 9.5; the MOV (IMAD pipe) reads it at 9.5 and ends at 14
        assert!((c - 14.0).abs() < 1e-9, "{c}");
    }

    #[test]
    fn dependences_cost_the_pipes_as_measured() {
        // a chain alternating pipes: 12% (v12_dep_imad_lop measured 1.121)
        let f = dependence_factor(&alternating(64));
        assert!((f - (1.0 + CROSS_PIPE * 63.0 / 64.0)).abs() < 1e-9, "{f}");
        // one pipe: 2.8%
        let one: Vec<SassOp> = (0..64).map(|_| op("IMAD", "R4, R4, UR6, UR7")).collect();
        let f = dependence_factor(&one);
        assert!((f - (1.0 + SAME_PIPE * 63.0 / 64.0)).abs() < 1e-9, "{f}");
        // independent instructions: nothing
        let ind: Vec<SassOp> = (0..8)
            .map(|k| op("IMAD", &format!("R{}, R{}, UR6, UR7", 2 * k, 2 * k + 1)))
            .collect();
        assert_eq!(dependence_factor(&ind), 1.0);
    }

    /// Lines `[@P1 |@!P1 ]OPCODE operands` into SASS ops.
    fn body(text: &str) -> Vec<SassOp> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (guard, rest) = match l.strip_prefix('@') {
                    Some(g) => {
                        let (g, r) = g.split_once(' ').unwrap();
                        (g.trim_start_matches('!')[1..].parse::<u8>().ok(), r)
                    }
                    None => (None, l),
                };
                let (opcode, operands) = rest.split_once(' ').unwrap_or((rest, ""));
                SassOp {
                    opcode: opcode.into(),
                    operands: operands.trim().into(),
                    guard,
                    ..SassOp::default()
                }
            })
            .collect()
    }

    #[test]
    fn predicates_are_ready_later_than_registers() {
        // v13_sel's link as ptxas 13.0.88 made it (model_v13rates_sass.txt): compare, xor,
        // predicated add; 20.0 clocks per link measured with one warp per scheduler (11.0 with
        // the predicate ready after 4.5 as a register)
        let sel = body(
            "ISETP.GT.U32.AND P1, PT, R7, R0, PT
             LOP3.LUT R9, R7, R2, RZ, 0x3c, !PT
             @!P1 IMAD.IADD R9, R3, 0x1, R7
             ISETP.GT.U32.AND P1, PT, R9, R0, PT
             LOP3.LUT R7, R9, R2, RZ, 0x3c, !PT
             @!P1 IMAD.IADD R7, R3, 0x1, R9",
        );
        let per = chain(&sel, true, &|_| (0.0, "")) / 2.0;
        assert!((per - 20.0).abs() < 0.5, "{per}");
        // v13_sel64's link: 64-bit compare, 64-bit add, predicated xors; 23.0 measured
        let sel64 = body(
            "ISETP.GT.U32.AND P0, PT, R7, R2, PT
             IADD3 R9, P2, R4, R7, RZ
             ISETP.GT.U32.AND.EX P0, PT, R16, R0, PT, P0
             IMAD.X R8, R3, 0x1, R16, P2
             @P0 LOP3.LUT R9, R7, R4, RZ, 0x3c, !PT
             @P0 LOP3.LUT R8, R16, R3, RZ, 0x3c, !PT
             ISETP.GT.U32.AND P0, PT, R9, R2, PT
             IADD3 R7, P2, R4, R9, RZ
             ISETP.GT.U32.AND.EX P0, PT, R8, R0, PT, P0
             IMAD.X R16, R3, 0x1, R8, P2
             @P0 LOP3.LUT R7, R9, R4, RZ, 0x3c, !PT
             @P0 LOP3.LUT R16, R8, R3, RZ, 0x3c, !PT",
        );
        let per = chain(&sel64, true, &|_| (0.0, "")) / 2.0;
        assert!((per - 23.0).abs() < 1.0, "{per}");
        // v13_add64's carry chain: two links per 64-bit add pair; 5.07 measured per link
        let add = body(
            "IADD3 R5, P1, P2, R2, R5, R2
             IADD3.X R7, R0, R7, R0, P3, P4
             IADD3 R5, P3, P4, R2, R5, R2
             IADD3.X R7, R0, R7, R0, P1, P2",
        );
        let per = chain(&add, true, &|_| (0.0, "")) / 2.0;
        assert!((per - 5.07).abs() < 0.3, "{per}");
    }

    #[test]
    fn register_bank_conflicts_cost_issue_cycles() {
        // v13_k4_imad_lop_vreg3's group: every IMAD reads two vector registers of one bank
        // (R4/R14, R8/R16, R2/R10, R12/R0), the LOP3s read one of each bank
        let k4 = body(
            "IMAD R14, R4, R14, R3
             IMAD R16, R8, R16, R9
             IMAD R2, R11, R2, R10
             LOP3.LUT R14, R14, UR6, R5, 0x6a, !PT
             IMAD R0, R12, R0, R7
             LOP3.LUT R16, R16, UR6, R5, 0x6a, !PT
             LOP3.LUT R2, R2, UR6, R5, 0x6a, !PT
             LOP3.LUT R0, R0, UR6, R5, 0x6a, !PT",
        );
        assert_eq!(bank_conflicts(&k4), 4.0 * BANK_CONFLICT_INT);
        // uniform and constant operands, a register read twice: none
        let none = body(
            "IMAD R4, R4, UR6, R3
             IMAD R9, R2, R9, R2
             IADD3 R5, P1, P2, R2, R5, R2",
        );
        assert_eq!(bank_conflicts(&none), 0.0);
        // the reuse cache: the first FFMA reads R0 and R8 (one bank); the second's R3 and R8
        // come from the cache (same slots), only R15 is read; the third, after an instruction
        // without `.reuse`, reads all three (R13 and R3 share a bank)
        let reuse = body(
            "FFMA R17, R3.reuse, R0, R8.reuse
             FFMA R15, R3, R15, R8
             FFMA R13, R8, R13, R3",
        );
        assert_eq!(bank_conflicts(&reuse), 2.0 * BANK_CONFLICT_FP32);
        // a register pair among the sources is not counted
        let pair = body("IMAD.WIDE.U32 R6, R4, R8, R10\nLDG.E R2, desc[UR4][R6.64]");
        assert_eq!(bank_conflicts(&pair), 0.0);
    }
}

//! The unit table of warpscope's H100 throughput estimate: the execution units with a rate of
//! their own ([`Unit`]) and what one PTX instruction costs once ptxas has lowered it
//! ([`lowered`]: warp instructions issued and the share of each unit), with the integer ALU /
//! IMAD balance ptxas makes over a block ([`balance_alu_imad`]). Split out of `throughput.rs`
//! (its top comment's next step) when the seventh version's rules were added; no behaviour
//! changed.

use serde::Serialize;
use warpscope_ir::InstData;
use warpscope_ptx::Opcode;

use crate::latency::class_of;

/// Execution units with a throughput of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    Fp32,
    Alu,
    Imad,
    Fp64,
    Mufu,
    Conv,
    Lsu,
    Shfl,
    /// 32-bit integer division and remainder by a run-time divisor, as whole sequences (fifth
    /// version: measured, not a pipe of NVIDIA's tables).
    Idiv,
}

impl Unit {
    pub const ALL: [Unit; 9] = [
        Unit::Fp32,
        Unit::Alu,
        Unit::Imad,
        Unit::Fp64,
        Unit::Mufu,
        Unit::Conv,
        Unit::Lsu,
        Unit::Shfl,
        Unit::Idiv,
    ];
    pub(crate) const COUNT: usize = Unit::ALL.len();

    pub fn name(self) -> &'static str {
        match self {
            Unit::Fp32 => "fp32",
            Unit::Alu => "alu",
            Unit::Imad => "imad",
            Unit::Fp64 => "fp64",
            Unit::Mufu => "mufu",
            Unit::Conv => "conv",
            Unit::Lsu => "lsu",
            Unit::Shfl => "shfl",
            Unit::Idiv => "idiv",
        }
    }

    /// The unit an instruction of latency class `class` occupies, if it has a rate of its own
    /// (branches, barriers and parameter loads only take issue slots).
    pub fn of_class(class: &str) -> Option<Unit> {
        Some(match class {
            "fp32" | "fp32_mul" | "fp32_fma" => Unit::Fp32,
            // FMNMX, like FSETP and FSEL (`setp`, `selp`), shares the integer ALU's pipe
            // (sixth version, measured: model_v6rates.tsv)
            "int_alu" | "int_logic" | "int_shift" | "int_minmax" | "setp" | "int64_alu"
            | "vote" | "fp32_minmax" => Unit::Alu,
            "int_mul" | "int_mad" | "int_mul_wide" | "int64_mul" => Unit::Imad,
            "fp64" | "fp64_fma" => Unit::Fp64,
            "sfu_rcp" | "sfu_sqrt" | "sfu_rsqrt" | "sfu_sincos" | "sfu_ex2" | "sfu_lg2"
            | "sfu_tanh" => Unit::Mufu,
            "cvt" | "cvt_f64" | "int_bit" => Unit::Conv,
            "ld_global" | "st_global" | "ld_local" | "ld_shared" | "st_shared" | "atom_global"
            | "atom_shared" => Unit::Lsu,
            "shfl" => Unit::Shfl,
            _ => return None,
        })
    }
}

/// Warp instructions (SASS) one PTX instruction of latency class `class` issues: 1, except
/// the classes the latency benchmark's SASS check found to be sequences (the latency table's
/// `how` column: ~13 SASS per IEEE fp32 divide, square root and reciprocal, ~18–24 per integer
/// divide or remainder, two per 64-bit add, four per 64-bit multiply, `FMUL.RZ` + `MUFU` per
/// sine/cosine) and parameter loads, which ptxas folds into constant-bank operands. The fp64
/// divide/square root and 64-bit integer divide counts are estimates (subroutines).
pub fn issue_slots(class: &str) -> f64 {
    match class {
        "fp32_div" | "fp32_sqrt" | "fp32_rcp" => 13.0,
        "int_div" | "int_rem" => 18.0,
        "int_div_signed" => 24.0,
        "int64_div" => 40.0,
        "fp64_div" | "fp64_sqrt" => 20.0,
        "int64_alu" | "int_mul_wide" | "sfu_sincos" => 2.0,
        "int64_mul" => 4.0,
        "ld_const" => 0.0,
        _ => 1.0,
    }
}

/// What one PTX instruction costs once ptxas has lowered it: warp instructions issued and the
/// share of each [`Unit`] they occupy. A stated table, read off the SASS of the corpus's
/// kernels (`ptxas -O3 -arch=sm_90`, `nvdisasm`) and the H100's measured pipes
/// (`validation/h100/model/model_pipes.tsv`, `model_rates.tsv`):
///
/// * a register or immediate `mov` (the `mov.b32` between float and integer registers around a
///   shuffle, constants) is no instruction: ptxas renames registers and folds immediates into
///   operands; a `mov` of `%tid`, `%ctaid`, `%laneid` or a clock is one `S2R` (no unit of the
///   estimate's); `%ntid`/`%nctaid` are constant-bank operands (nothing). `cvta` is nothing
///   (generic and global addresses coincide), nor is a zero-extending or narrowing integer `cvt`;
///   a sign extension is one `SHF` on the integer ALU; predicate logic (`and.pred`, `or.pred`,
///   `not.pred`) is nothing, folded into a compare's combining input or a branch's second
///   predicate;
/// * a 32-bit integer add, subtract, min or max is issued as `IADD3`/`IMNMX` on the integer ALU
///   or as `VIADD`/`VIMNMX` on the pipe `IMAD` uses (model_rates.tsv: IMAD and VIADD together
///   1.95 per clock per SM, beside LOP3 and IADD3), and ptxas balances the two: half of each;
/// * `mul.wide` is one `IMAD.WIDE` and a 32-bit `mul.hi` one `IMAD.HI`, each twice on the IMAD
///   pipe (half rate, measured); a 32-bit integer division or remainder by a run-time
///   divisor keeps its 18 (unsigned) or 24 (signed) issue slots, of which 2 conversions, one
///   MUFU, one fp32, 4 IMAD and the rest on the integer ALU (its SASS sequence), and occupies
///   [`Unit::Idiv`] once: the whole sequence's measured rate, which these pipes do not explain;
/// * a float `neg` or `abs` is nothing (an operand modifier of its reader); an integer `selp` is
///   half a `SEL` on the integer ALU and half a predicated `IMAD.MOV` (sixth version, read off
///   the SASS); fp32 compares, selects and min/max are on the integer ALU (measured);
/// * seventh version: a 32-bit integer to fp32 conversion (`I2FP`) is on the integer ALU
///   (measured; BREV, FLO, POPC and F2I stay on the conversion unit at 0.5 per clock per SM, as
///   measured), and `div.approx.f32` is five SASS with one MUFU (read off the SASS);
/// * everything else as [`issue_slots`] and [`Unit::of_class`] (sin/cos: `FMUL.RZ` on the fp32
///   pipe, then one MUFU).
pub fn lowered(i: &InstData) -> (f64, [f64; Unit::COUNT]) {
    use warpscope_ir::Operand;
    use warpscope_ptx::SpecialReg;
    let class = class_of(i);
    let mut units = [0.0; Unit::COUNT];
    let free = (0.0, units);
    match i.op {
        Opcode::Mov => {
            let special = i.operands.iter().find_map(|o| match o {
                Operand::Special(r, _) => Some(*r),
                _ => None,
            });
            return match special {
                Some(SpecialReg::Ntid | SpecialReg::Nctaid) | None => free,
                Some(_) => (1.0, units),
            };
        }
        Opcode::Cvta => return free,
        // a float negation or absolute value is an operand modifier of the instruction that
        // reads it (`FSEL R7, -R7, R7, P4`, `FADD R2, -R2, 2`): sixth version, read off the
        // corpus's SASS (18 `neg`/`abs.f32` in the seen files' PTX, none issued alone)
        Opcode::Neg | Opcode::Abs if i.mods.ty.is_some_and(|t| t.is_float()) => return free,
        // predicate logic: folded into a compare's combining predicate input (`ISETP.EQ.OR P0,
        // PT, R2, 0x1, !P0`) or a branch's second predicate (`@P0 BRA P1`)
        Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not
            if i.mods.ty == Some(warpscope_ptx::Type::Pred) =>
        {
            return free;
        }
        Opcode::Cvt if class == "int_alu" => {
            let (to, from) = (i.mods.ty, i.mods.ty2);
            let size = |t: Option<warpscope_ptx::Type>| t.map_or(4, |t| t.size_bytes());
            let sign_extends = size(to) > size(from) && from.is_some_and(|t| t.is_signed_int());
            if size(to) >= 4 && !sign_extends && size(from) >= 4 {
                return free;
            }
            units[Unit::Alu as usize] = 1.0;
            return (1.0, units);
        }
        _ => {}
    }
    match class {
        // an integer select is a `SEL` on the integer ALU or, as often, a predicated `IMAD.MOV`
        // after the add that reads it (`VIADD R11, R8, 0x1` / `@!P4 IMAD.MOV R11, RZ, RZ, R8`,
        // `h5_bounce`; the seen files' 26 integer `selp`s): sixth version, half of each
        "int_alu" if i.op == Opcode::Selp && !i.mods.ty.is_some_and(|t| t.is_float()) => {
            units[Unit::Alu as usize] = 0.5;
            units[Unit::Imad as usize] = 0.5;
            (1.0, units)
        }
        "int_alu" | "int_minmax"
            if matches!(i.op, Opcode::Add | Opcode::Sub | Opcode::Min | Opcode::Max) =>
        {
            units[Unit::Alu as usize] = 0.5;
            units[Unit::Imad as usize] = 0.5;
            (1.0, units)
        }
        // `mul.wide` is one `IMAD.WIDE` and a 32-bit `mul.hi` one `IMAD.HI`: both at half the
        // IMAD pipe's rate (ninth version, measured: model_v9rates.tsv, IMAD.HI.U32 0.99 and
        // IMAD.WIDE.U32 0.78 warp instructions per clock per SM against IMAD's 1.97), so each
        // takes the pipe twice, as the SASS counts already charge them
        "int_mul_wide" => {
            units[Unit::Imad as usize] = 2.0;
            (1.0, units)
        }
        "int_mul" | "int_mad" if i.mods.mul_mode == Some(warpscope_ptx::MulMode::Hi) => {
            units[Unit::Imad as usize] = 2.0;
            (1.0, units)
        }
        // a 32-bit (or narrower) integer converted to fp32 is one `I2FP.F32.S32`/`.U32`, which
        // issues on the integer ALU's pipe at its 2 per clock per SM, beside LOP3 and apart from
        // BREV, FLO and POPC (seventh version, measured: model_v7rates.tsv v7_i2f, v7_i2f_lop,
        // v7_flosh_i2f); the other conversions stay on the conversion unit (F2I measured at 0.5)
        "cvt"
            if i.mods.ty == Some(warpscope_ptx::Type::F32)
                && i.mods
                    .ty2
                    .is_some_and(|t| !t.is_float() && t.size_bytes() <= 4) =>
        {
            units[Unit::Alu as usize] = 1.0;
            (1.0, units)
        }
        // the fast divide `div.approx.f32` (`__fdividef`) is five SASS: an FSETP that tests the
        // divisor's range, two predicated FMULs that scale both operands, MUFU.RCP and an FMUL
        // (seventh version, read off ptxas's SASS: model_v7rates_sass.txt, v7_newton)
        "fp32_div_approx" => {
            units[Unit::Mufu as usize] = 1.0;
            units[Unit::Fp32 as usize] = 3.0;
            units[Unit::Alu as usize] = 1.0;
            (5.0, units)
        }
        "int_div" | "int_rem" | "int_div_signed" => {
            // the SASS of a 32-bit division by a run-time divisor: I2F.U32.RP, MUFU.RCP, F2I,
            // HFMA2 (fp32 pipe), 4 IMAD/IMAD.HI, the rest IADD3/ISETP/LOP3/MOV (the signed
            // sequence has more of the last)
            let slots = issue_slots(class);
            units[Unit::Conv as usize] = 2.0;
            units[Unit::Mufu as usize] = 1.0;
            units[Unit::Fp32 as usize] = 1.0;
            units[Unit::Imad as usize] = 4.0;
            units[Unit::Alu as usize] = slots - 8.0;
            // and the sequence as a whole at the rate measured for it (fifth version)
            units[Unit::Idiv as usize] = 1.0;
            (slots, units)
        }
        _ => {
            let slots = issue_slots(class);
            if let Some(u) = Unit::of_class(class) {
                units[u as usize] = if class == "sfu_sincos" { 1.0 } else { slots };
                if class == "sfu_sincos" {
                    units[Unit::Fp32 as usize] += 1.0;
                }
            }
            (slots, units)
        }
    }
}

/// Whether ptxas may issue `i` on either the integer ALU or the IMAD pipe: a 32-bit integer
/// add, subtract, min or max (`IADD3`/`IMNMX` or `VIADD`/`VIMNMX`) or an integer select (`SEL`
/// or a predicated `IMAD.MOV`). [`lowered`] counts each half on either pipe.
pub fn either_alu_or_imad(i: &InstData) -> bool {
    let class = class_of(i);
    let int_select = i.op == Opcode::Selp && !i.mods.ty.is_some_and(|t| t.is_float());
    (class == "int_alu" && int_select)
        || (matches!(class, "int_alu" | "int_minmax")
            && matches!(i.op, Opcode::Add | Opcode::Sub | Opcode::Min | Opcode::Max))
}

/// Sixth version: ptxas balances the instructions that may go to either pipe between the
/// integer ALU and the IMAD pipe over a block, rather than half and half: read off the SASS
/// (`h5_bounce`'s loop, 12 compares and selects on the ALU: its 5 adds all `VIADD`, its 4
/// selects all predicated `IMAD.MOV`; model_pipes.tsv's `wp_add_xor` 64 LOP3 beside 60 VIADD
/// and 5 IADD3, `wp_shift_add` 64 SHF beside 63 VIADD and 2 IADD3). `flexible` of `units`'
/// ALU and IMAD counts are such instructions, counted half on each; they are moved to even
/// out the two pipes (their rates are equal).
pub(crate) fn balance_alu_imad(units: &mut [f64; Unit::COUNT], flexible: f64) {
    if flexible <= 0.0 {
        return;
    }
    let (a, m) = (Unit::Alu as usize, Unit::Imad as usize);
    let fixed_alu = (units[a] - 0.5 * flexible).max(0.0);
    let fixed_imad = (units[m] - 0.5 * flexible).max(0.0);
    let to_alu = ((fixed_imad + flexible - fixed_alu) / 2.0).clamp(0.0, flexible);
    units[a] = fixed_alu + to_alu;
    units[m] = fixed_imad + flexible - to_alu;
}

//! The emulator's bytecode: what [`crate::translate`] produces from the IR and
//! [`crate::exec`] runs.
//!
//! Everything that can be decided before running is decided here: register indices (data and
//! predicate registers have separate index spaces per function), immediates (materialised as
//! read-only *constant registers* filled once per frame, so every operand is a register),
//! special registers that do not change during a warp's life (also pre-filled registers),
//! branch targets and reconvergence points (program counters), the shared-memory layout and
//! the local frame layout. Ops are specialised by type where it matters for speed.

use crate::float::Rnd;
use warpscope_ir::{Block, FuncId, Inst};
use warpscope_ptx::{AtomOp, BoolOp, PrmtMode, ShflMode, SpecialReg, TestpOp};

/// A data register index in the current frame.
pub type R = u32;
/// A predicate register index in the current frame.
pub type P = u32;
/// "No register" (a sink destination, an absent operand).
pub const NONE: u32 = u32::MAX;
/// Reconvergence point meaning "only when the threads leave the function".
pub const EXIT_PC: u32 = u32::MAX;

/// Integer operation width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum W {
    B8,
    B16,
    B32,
    B64,
}

impl W {
    pub fn bits(self) -> u32 {
        match self {
            W::B8 => 8,
            W::B16 => 16,
            W::B32 => 32,
            W::B64 => 64,
        }
    }
    pub fn from_bytes(n: u32) -> Option<W> {
        match n {
            1 => Some(W::B8),
            2 => Some(W::B16),
            4 => Some(W::B32),
            8 => Some(W::B64),
            _ => None,
        }
    }
}

/// An instruction's guard: `NONE`, or a predicate index with [`Guard::NEG`] set for `@!p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard(pub u32);

impl Guard {
    pub const ALWAYS: Guard = Guard(NONE);
    pub const NEG: u32 = 1 << 31;
}

/// Integer binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IBin {
    Add,
    Sub,
    AddSat,
    SubSat,
    MulLo,
    MulHiS,
    MulHiU,
    MulWideS,
    MulWideU,
    Mul24LoS,
    Mul24LoU,
    Mul24HiS,
    Mul24HiU,
    DivS,
    DivU,
    RemS,
    RemU,
    MinS,
    MinU,
    MaxS,
    MaxU,
    MinSRelu,
    MaxSRelu,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
    /// `bmsk.clamp` / `bmsk.wrap` (a = position, b = width).
    BmskClamp,
    BmskWrap,
    /// `szext.clamp/wrap.s32/u32` (a value, b width).
    SzextClamp {
        signed: bool,
    },
    SzextWrap {
        signed: bool,
    },
    /// `fns.b32 d, mask, base, offset` is ternary; see [`ITern::Fns`].
    /// `copysign` is float-only; integers never use it.
    _Reserved,
}

/// Floating-point binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FBin {
    Add,
    Sub,
    Mul,
    Div,
    /// `div.approx.f32`: a × rcp.approx(b), with |b| > 2^126 giving 0.
    DivApprox,
    /// `div.full.f32` (computed correctly rounded; the GPU's error is ≤ 2 ulp).
    DivFull,
    Min,
    Max,
    /// `min.NaN` / `max.NaN`: NaN if either input is NaN.
    MinNaN,
    MaxNaN,
    /// `copysign d, a, b`: magnitude of b, sign of a.
    Copysign,
}

/// Float types an op works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FTy {
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    F32,
    F64,
}

/// Modifiers shared by float ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FMods {
    pub rnd: Rnd,
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
}

impl FMods {
    pub const RN: FMods = FMods {
        rnd: Rnd::Rn,
        ftz: false,
        sat: false,
        relu: false,
    };
}

/// Binary ops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BinF {
    Int(IBin, W),
    /// f32, round to nearest, no ftz/sat: native.
    F32Fast(FBin),
    /// f64, round to nearest: native.
    F64Fast(FBin),
    /// Any float op with its modifiers.
    Float(FBin, FTy, FMods),
    /// `cvt.rn{.relu}{.satfinite}.f16x2.f32 d, a, b` (and bf16x2): a goes to the upper half.
    CvtPair {
        bf16: bool,
        mods: FMods,
    },
}

/// Integer ternary ops (d = f(a, b, c)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ITern {
    MadLo,
    MadHiS,
    MadHiU,
    MadWideS,
    MadWideU,
    MadHiSatS32,
    Mad24LoS,
    Mad24LoU,
    Mad24HiS,
    Mad24HiU,
    /// `bfe.u/s` (a source, b position, c length).
    BfeU,
    BfeS,
    /// `shf.l/r.wrap/clamp.b32` (a low word, b high word, c shift).
    ShfL {
        clamp: bool,
    },
    ShfR {
        clamp: bool,
    },
    /// `sad` (|a − b| + c).
    SadS,
    SadU,
    /// `dp4a.atype.btype` and `dp2a.lo/hi.atype.btype`.
    Dp4a {
        a_signed: bool,
        b_signed: bool,
    },
    Dp2a {
        hi: bool,
        a_signed: bool,
        b_signed: bool,
    },
    /// `fns.b32 d, mask, base, offset`.
    Fns,
    /// `slct.dtype.s32 d, a, b, c`: c ≥ 0 ? a : b.
    SlctS,
    /// `slct.dtype.f32 d, a, b, c` (with optional ftz on c).
    SlctF {
        ftz: bool,
    },
}

/// Ternary ops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TernF {
    Int(ITern, W),
    /// `fma.rn.f32` without modifiers.
    Fma32Fast,
    /// `fma.rn.f64`.
    Fma64Fast,
    /// Any fma (`mad.rn.f32` etc. included) with modifiers.
    Fma(FTy, FMods),
    /// An `add`/`sub` fused with the `mul` feeding it, as ptxas does for instructions without
    /// a rounding modifier: d = (±a)·b + (±c), rounded once.
    Contracted {
        ty: FTy,
        ftz: bool,
        neg_ab: bool,
        neg_c: bool,
    },
}

/// Integer unary ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IUn {
    Neg,
    Abs,
    Not,
    Cnot,
    Popc,
    Clz,
    Brev,
    BfindU,
    BfindS,
    BfindShU,
    BfindShS,
}

/// Float unary ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FUn {
    Neg,
    Abs,
    Sqrt,
    Rcp,
    SqrtApprox,
    RcpApprox,
    RsqrtApprox,
    Ex2Approx,
    Lg2Approx,
    SinApprox,
    CosApprox,
    TanhApprox,
    /// `cvt.rni/rzi/rmi/rpi.fX.fX`: round to an integral value in the same format.
    RoundInt,
    /// `cvt.ftz.f32.f32` / `mov` with ftz: flush and canonicalize.
    Ident,
}

/// A number type of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumTy {
    Int { w: W, signed: bool },
    F16,
    Bf16,
    Tf32,
    F32,
    F64,
}

/// A general `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CvtSpec {
    pub to: NumTy,
    pub from: NumTy,
    /// Float rounding (`.rn .rz .rm .rp`), or integer rounding (`.rni ...`) when converting
    /// float to integer / float to same-size float.
    pub rnd: Rnd,
    pub sat: bool,
    pub ftz: bool,
    pub relu: bool,
    pub satfinite: bool,
}

/// Unary ops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnF {
    Int(IUn, W),
    /// Zero-extend from `w` bits (also truncation to `w`).
    Zext(W),
    /// Sign-extend from the low `from` bits, the result truncated to `to` bits.
    Sext {
        from: W,
        to: W,
    },
    Float(FUn, FTy, FMods),
    Cvt(CvtSpec),
}

/// Comparison type of setp/set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpTy {
    S(W),
    U(W),
    F16,
    Bf16,
    F32 { ftz: bool },
    F64,
}

/// Comparison operator (PTX spelling order; `lo/ls/hi/hs` fold into unsigned lt/le/gt/ge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// Optional `.and/.or/.xor {!}c` of setp/set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combine {
    pub op: BoolOp,
    pub p: P,
    pub neg: bool,
}

/// What `set` writes for true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOut {
    /// 0xffffffff (u32/s32) or all ones of the width.
    Mask(W),
    /// 1.0f.
    F32,
    /// 1.0 in f16 / bf16 (`set.eq.f16.f16`).
    F16,
    Bf16,
    /// f16x2/bf16x2 variants (one per half), 1.0 per half.
    F16x2,
    Bf16x2,
}

/// Carry-chain ops (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`, `madc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryOp {
    Add,
    Sub,
    MadLo,
    MadHi,
}

/// A resolved state space of a memory op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    /// Kernel parameter space by address (read-only, uniform).
    Param,
    Generic,
}

/// Base of an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// A 64-bit register (per-lane address).
    Reg(R),
    /// A 32-bit register: the address arithmetic wraps at 32 bits (shared/local addresses).
    Reg32(R),
    /// The current local frame (per-thread local memory at frame base + offset).
    Frame,
}

/// How a loaded element is widened into its register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadFmt {
    /// Element size in bytes (1, 2, 4, 8, 16).
    pub size: u8,
    /// Sign-extend (`.s8 .s16 .s32`).
    pub signed: bool,
    /// Destination register width in bits (the value is extended to it).
    pub dst_bits: u8,
}

/// Atomic operation and value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomTy {
    U32,
    S32,
    U64,
    S64,
    B32,
    B64,
    F32,
    F64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    B16,
}

impl AtomTy {
    pub fn size(self) -> u32 {
        match self {
            AtomTy::F16 | AtomTy::Bf16 | AtomTy::B16 => 2,
            AtomTy::U64 | AtomTy::S64 | AtomTy::B64 | AtomTy::F64 => 8,
            _ => 4,
        }
    }
}

/// Kinds of barrier ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    Arrive,
    /// `bar.red.popc.u32 d, ..., {!}p`.
    RedPopc,
    /// `bar.red.and.pred d, ..., {!}p`.
    RedAnd,
    /// `bar.red.or.pred d, ..., {!}p`.
    RedOr,
}

/// Warp-vote modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteF {
    All,
    Any,
    Uni,
    Ballot,
}

/// redux.sync ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxF {
    Add,
    MinU,
    MinS,
    MaxU,
    MaxS,
    And,
    Or,
    Xor,
}

/// Dynamic special registers (read at the moment of execution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    Clock,
    ClockHi,
    Clock64,
    GlobalTimer,
    GlobalTimerLo,
    GlobalTimerHi,
}

/// One argument or return value copied across a call (per lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Xfer {
    /// Local-frame bytes (caller offset) to callee frame bytes (callee offset).
    Mem {
        caller_off: u32,
        callee_off: u32,
        size: u32,
    },
    /// A caller register (or constant register) to a callee `.reg` parameter.
    Reg { caller: R, callee: R },
    /// A callee `.reg` return to a caller register.
    RegBack { callee: R, caller: R },
}

/// Built-in device functions provided by the emulator (CUDA runtime externs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `vprintf(fmt, args)`: prints per active lane.
    Vprintf,
    /// `__assertfail(msg, file, line, func, charsize)`: a fault.
    AssertFail,
}

/// The call target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    /// Index into [`Program::funcs`].
    Func(u32),
    /// A function pointer in a register (must be warp-uniform).
    Indirect(R),
    Builtin(Builtin),
}

/// Information to call a function: where its arguments go.
#[derive(Clone, Debug, PartialEq)]
pub struct CallInfo {
    pub callee: Callee,
    /// Copies done at the call, per active lane.
    pub args: Box<[Xfer]>,
    /// Copies done at return.
    pub rets: Box<[Xfer]>,
    /// Caller-frame offsets of the argument parameters (builtins read their arguments here).
    pub arg_offsets: Box<[u32]>,
    /// Caller-frame offset of the first return parameter (builtins write it).
    pub ret_offset: Option<u32>,
}

/// A bytecode op.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Nop,
    /// Marks the start of an IR basic block (only emitted when an observer wants blocks).
    Block(Block),
    Mov {
        d: R,
        a: R,
    },
    Un {
        f: UnF,
        d: R,
        a: R,
    },
    Bin {
        f: BinF,
        d: R,
        a: R,
        b: R,
    },
    Tern {
        f: TernF,
        d: R,
        a: R,
        b: R,
        c: R,
    },
    /// `bfi.bW d, a (insert), b (base), c (pos), e (len)`.
    Bfi {
        w: W,
        d: R,
        a: R,
        b: R,
        c: R,
        e: R,
    },
    Lop3 {
        d: R,
        a: R,
        b: R,
        c: R,
        lut: u8,
    },
    Prmt {
        d: R,
        a: R,
        b: R,
        c: R,
        mode: Option<PrmtMode>,
    },
    Setp {
        ty: CmpTy,
        cmp: Cmp,
        p: P,
        q: P,
        a: R,
        b: R,
        comb: Option<Combine>,
    },
    /// Packed-half setp: two predicates per lane (upper/lower halves).
    SetpX2 {
        bf16: bool,
        cmp: Cmp,
        p: P,
        q: P,
        a: R,
        b: R,
        comb: Option<Combine>,
    },
    Set {
        ty: CmpTy,
        cmp: Cmp,
        out: SetOut,
        d: R,
        a: R,
        b: R,
        comb: Option<Combine>,
    },
    /// d = p ? a : b.
    Selp {
        d: R,
        a: R,
        b: R,
        p: P,
        neg: bool,
    },
    /// p = (a ^ an) op (b ^ bn).
    PLogic {
        op: BoolOp,
        p: P,
        a: P,
        an: bool,
        b: P,
        bn: bool,
    },
    /// p = a ^ neg (mov.pred / not.pred).
    PMov {
        p: P,
        a: P,
        neg: bool,
    },
    /// p = constant.
    PConst {
        p: P,
        v: bool,
    },
    /// Predicate to integer register (0/1), e.g. `selp` of immediates folded, or cvt from pred.
    Testp {
        f: TestpOp,
        ty: FTy,
        p: P,
        a: R,
    },
    Carry {
        op: CarryOp,
        w: W,
        cin: bool,
        cout: bool,
        d: R,
        a: R,
        b: R,
        c: R,
    },
    /// Pack `n` elements of `ew` bits into d (element 0 lowest).
    Pack {
        d: R,
        srcs: [R; 4],
        n: u8,
        ew: u8,
    },
    /// Unpack a into `n` elements of `ew` bits (sinks are NONE).
    Unpack {
        ds: [R; 4],
        n: u8,
        ew: u8,
        a: R,
    },
    ReadClock {
        d: R,
        kind: Clock,
    },
    /// d = address of the current local frame + off (a `.local` space address).
    LocalAddr {
        d: R,
        off: u32,
    },
    /// d = cvta / cvta.to conversion of a: generic ↔ space address.
    Cvta {
        d: R,
        a: R,
        to_generic: bool,
        space: Space,
        /// The space address is 32 bits (`.u32`).
        narrow: bool,
    },
    /// isspacep.space p, a.
    Isspacep {
        p: P,
        a: R,
        space: Space,
    },
    Ld {
        space: Space,
        fmt: LoadFmt,
        vec: u8,
        d: [R; 4],
        base: Base,
        off: i64,
    },
    /// `ld.param` of a kernel parameter by symbol: uniform, no per-lane address.
    LdParam {
        fmt: LoadFmt,
        vec: u8,
        d: [R; 4],
        off: u32,
    },
    St {
        space: Space,
        size: u8,
        vec: u8,
        s: [R; 4],
        base: Base,
        off: i64,
    },
    Atom {
        space: Space,
        op: AtomOp,
        ty: AtomTy,
        /// NONE for `red`.
        d: R,
        base: Base,
        off: i64,
        b: R,
        c: R,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size | {!}ignore_src}`:
    /// copies `size` bytes now (completion is immediate, so commit/wait groups are no-ops),
    /// reading only `src_size` bytes (or none when `ignore_src`) and zero-filling the rest.
    CpAsync {
        dst: Base,
        dst_off: i64,
        src: Base,
        src_off: i64,
        size: u8,
        src_size: R,
        ignore: P,
        ignore_neg: bool,
    },
    Shfl {
        mode: ShflMode,
        d: R,
        p: P,
        a: R,
        b: R,
        c: R,
        mask: R,
    },
    /// Warp votes, matches and reductions run over the lanes of each lane's membermask
    /// that execute the instruction (`mask` is a register; thread-block tiles give lanes
    /// different masks).
    Vote {
        f: VoteF,
        /// Predicate destination (all/any/uni) or data register (ballot).
        d: u32,
        a: P,
        neg: bool,
        mask: R,
    },
    Match {
        all: bool,
        w64: bool,
        d: R,
        p: P,
        a: R,
        mask: R,
    },
    Redux {
        f: ReduxF,
        d: R,
        a: R,
        mask: R,
    },
    Activemask {
        d: R,
    },
    Elect {
        d: R,
        p: P,
        mask: R,
    },
    /// bar.warp.sync (no effect in lock-step execution).
    WarpSync,
    Bar {
        kind: BarKind,
        aligned: bool,
        id: R,
        /// Thread count register, or NONE for all threads.
        count: R,
        /// bar.red destination (data reg for popc, predicate for and/or).
        d: u32,
        /// bar.red source predicate.
        a: P,
        neg: bool,
    },
    Bra {
        t: u32,
    },
    BraCond {
        p: P,
        neg: bool,
        t: u32,
        rpc: u32,
    },
    /// `brx.idx a, table`: index register into a table of pcs.
    Brx {
        a: R,
        table: Box<[u32]>,
        rpc: u32,
    },
    Call(Box<CallInfo>),
    Ret,
    Exit,
    Trap,
    /// `nanosleep`, fences, prefetches: no effect in the model.
    Sleep,
}

/// An op with its guard.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub op: Op,
    pub guard: Guard,
}

/// Where a pc came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpMeta {
    pub inst: Inst,
    pub block: Block,
}

/// A special register that is constant for a warp's whole life, pre-filled per frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpConst {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    Gridid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    DynamicSmemSize,
    TotalSmemSize,
    Zero,
    One,
}

impl WarpConst {
    /// Maps a PTX special register (with component) to a warp constant; `None` for the
    /// clocks (dynamic) and unsupported ones.
    pub fn of(r: SpecialReg, dim: Option<warpscope_ptx::Dim>) -> Option<WarpConst> {
        use SpecialReg::*;
        let c = match dim {
            Some(warpscope_ptx::Dim::X) | None => 0u8,
            Some(warpscope_ptx::Dim::Y) => 1,
            Some(warpscope_ptx::Dim::Z) => 2,
        };
        Some(match r {
            Tid => WarpConst::Tid(c),
            Ntid => WarpConst::Ntid(c),
            Ctaid | Clusterid => WarpConst::Ctaid(c),
            Nctaid | Nclusterid => WarpConst::Nctaid(c),
            Laneid => WarpConst::Laneid,
            Warpid => WarpConst::Warpid,
            Nwarpid => WarpConst::Nwarpid,
            Smid => WarpConst::Smid,
            Nsmid => WarpConst::Nsmid,
            Gridid => WarpConst::Gridid,
            LanemaskEq => WarpConst::LanemaskEq,
            LanemaskLe => WarpConst::LanemaskLe,
            LanemaskLt => WarpConst::LanemaskLt,
            LanemaskGe => WarpConst::LanemaskGe,
            LanemaskGt => WarpConst::LanemaskGt,
            DynamicSmemSize => WarpConst::DynamicSmemSize,
            TotalSmemSize | AggrSmemSize => WarpConst::TotalSmemSize,
            ClusterCtaid
            | ClusterCtarank
            | IsExplicitCluster
            | EnvReg(_)
            | Pm(_)
            | Pm64(_)
            | ReservedSmemOffsetBegin
            | ReservedSmemOffsetEnd
            | ReservedSmemOffsetCap
            | ReservedSmemOffset0
            | ReservedSmemOffset1
            | CurrentGraphExec => WarpConst::Zero,
            ClusterNctaid | ClusterNctarank => WarpConst::One,
            Clock | ClockHi | Clock64 | Globaltimer | GlobaltimerLo | GlobaltimerHi => {
                return None;
            }
        })
    }
}

/// One translated function.
#[derive(Clone, Debug)]
pub struct FuncCode {
    pub func: FuncId,
    pub name: String,
    pub ops: Vec<Instr>,
    pub meta: Vec<OpMeta>,
    /// Data registers in a frame (PTX registers, then constants, then warp constants, then
    /// temporaries).
    pub nregs: u32,
    pub npreds: u32,
    /// Constant registers: (register, value broadcast to all lanes).
    pub consts: Vec<(R, u64)>,
    /// Warp-constant registers.
    pub warp_consts: Vec<(R, WarpConst)>,
    /// Bytes of per-thread local frame (`.local` variables and `.param` variables declared
    /// in the body, and for device functions their parameters and returns).
    pub frame_size: u32,
    /// pc of each IR block's first op.
    pub block_pc: Vec<u32>,
    /// Frame offsets of `.param` parameters / returns (device functions), for indirect calls.
    pub param_slots: Vec<Option<u32>>,
    pub ret_slots: Vec<Option<u32>>,
    /// Data and predicate registers that may be read before written: zeroed at frame entry
    /// (all others are written before any read, so stale values are never seen).
    pub undefined: (Vec<R>, Vec<P>),
}

/// A kernel and the device functions it calls, ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    /// `funcs[0]` is the kernel.
    pub funcs: Vec<FuncCode>,
    /// The kernel's PTX name.
    pub name: String,
    pub kernel: FuncId,
    /// Static shared memory bytes (module and function `.shared` variables it uses).
    pub shared_static: u32,
    /// Offset where dynamic shared memory starts (aligned).
    pub dyn_shared_offset: u32,
    /// Kernel parameter buffer: size and (offset, size) of each parameter.
    pub param_size: u32,
    pub params: Vec<(u32, u32)>,
    /// Estimated registers per thread (for occupancy).
    pub regs_per_thread: u32,
    /// Whether block-marker ops were emitted.
    pub has_block_markers: bool,
    /// `.reqntid` of the kernel, if any.
    pub reqntid: Option<[u32; 3]>,
    pub maxntid: Option<[u32; 3]>,
}

//! Modifier classification: which `.xxx` suffix goes into which [`Modifiers`] field,
//! and which modifier categories each opcode accepts.

use crate::modifiers::*;
use crate::opcode::Opcode;

/// Modifier categories (bit set).
pub(crate) mod cat {
    pub const TYPE: u32 = 1 << 0;
    pub const SPACE: u32 = 1 << 1;
    pub const ROUND: u32 = 1 << 2;
    pub const CMP: u32 = 1 << 3;
    pub const BOOL: u32 = 1 << 4;
    pub const CACHE: u32 = 1 << 5;
    pub const L1EV: u32 = 1 << 6;
    pub const L2EV: u32 = 1 << 7;
    pub const L2PF: u32 = 1 << 8;
    pub const LEVEL: u32 = 1 << 9;
    pub const SCOPE: u32 = 1 << 10;
    pub const ORDER: u32 = 1 << 11;
    pub const VEC: u32 = 1 << 12;
    pub const ATOM: u32 = 1 << 13;
    pub const SHFL: u32 = 1 << 14;
    pub const VOTE: u32 = 1 << 15;
    pub const MUL: u32 = 1 << 16;
    pub const TESTP: u32 = 1 << 17;
    pub const PRMT: u32 = 1 << 18;
    pub const SHAPE: u32 = 1 << 19;
    pub const LAYOUT: u32 = 1 << 20;
    pub const GEOM: u32 = 1 << 21;
    pub const COMP: u32 = 1 << 22;
    pub const CLAMP: u32 = 1 << 23;
    pub const COUNT: u32 = 1 << 24;
    pub const LOADMODE: u32 = 1 << 25;
    /// Second state space (cp.async `.shared.global`).
    pub const SPACE2: u32 = 1 << 26;
    pub const FLAG: u32 = 1 << 31;
}

/// Why a modifier was rejected.
pub(crate) enum ModError {
    Unknown,
    Duplicate,
}

/// What a modifier was classified as.
pub(crate) struct Classified {
    pub cat: u32,
    pub flag: Flags,
}

macro_rules! set_once {
    ($slot:expr, $val:expr, $cat:expr) => {{
        if $slot.is_some() {
            return Err(ModError::Duplicate);
        }
        $slot = Some($val);
        return Ok(Classified {
            cat: $cat,
            flag: Flags::NONE,
        });
    }};
}

/// Classifies `s` (a modifier without its dot) for opcode `op` and stores it in `m`.
pub(crate) fn apply_modifier(
    op: Opcode,
    m: &mut Modifiers,
    s: &str,
) -> Result<Classified, ModError> {
    use Opcode::*;
    // Opcode-dependent spellings first.
    match (op, s) {
        (Setp | Set | Vset | Vset2 | Vset4, _) => {
            if let Some(c) = CmpOp::from_str(s) {
                set_once!(m.cmp, c, cat::CMP);
            }
            if let Some(b) = BoolOp::from_str(s) {
                set_once!(m.bool_op, b, cat::BOOL);
            }
        }
        (Mul | Mad | Mul24 | Mad24 | Madc | Dp2a, "lo" | "hi" | "wide") => {
            let v = MulMode::from_str(s).ok_or(ModError::Unknown)?;
            set_once!(m.mul_mode, v, cat::MUL);
        }
        (Vote, "uni") => set_once!(m.vote_mode, VoteMode::Uni, cat::VOTE),
        (Setmaxnreg, "inc") => {
            if m.flags.contains(Flags::INC) {
                return Err(ModError::Duplicate);
            }
            m.flags.insert(Flags::INC);
            return Ok(Classified {
                cat: cat::FLAG,
                flag: Flags::INC,
            });
        }
        (Setmaxnreg, "dec") => {
            if m.flags.contains(Flags::DEC) {
                return Err(ModError::Duplicate);
            }
            m.flags.insert(Flags::DEC);
            return Ok(Classified {
                cat: cat::FLAG,
                flag: Flags::DEC,
            });
        }
        (Membar, "gl") => set_once!(m.scope, Scope::Gpu, cat::SCOPE),
        (Tld4, "r" | "g" | "b" | "a") => {
            let v = Component::from_str(s).ok_or(ModError::Unknown)?;
            set_once!(m.component, v, cat::COMP);
        }
        (Suld | Sust | Sured, "trap" | "clamp" | "zero") => {
            let v = ClampMode::from_str(s).ok_or(ModError::Unknown)?;
            set_once!(m.clamp, v, cat::CLAMP);
        }
        (Createpolicy, _) if s.starts_with("L2::evict") => {
            let v = L2Evict::from_str(s).ok_or(ModError::Unknown)?;
            if m.l2_evict.is_none() {
                m.l2_evict = Some(v);
            } else {
                set_once!(m.l2_evict2, v, cat::L2EV);
            }
            return Ok(Classified {
                cat: cat::L2EV,
                flag: Flags::NONE,
            });
        }
        _ => {}
    }
    if let Some(t) = Type::from_str(s) {
        let slot = if m.ty.is_none() {
            &mut m.ty
        } else if m.ty2.is_none() {
            &mut m.ty2
        } else if m.ty3.is_none() {
            &mut m.ty3
        } else if m.ty4.is_none() {
            &mut m.ty4
        } else {
            return Err(ModError::Duplicate);
        };
        *slot = Some(t);
        return Ok(Classified {
            cat: cat::TYPE,
            flag: Flags::NONE,
        });
    }
    if let Some(sp) = StateSpace::from_str(s).filter(|sp| *sp != StateSpace::Generic) {
        if m.space.is_none() {
            m.space = Some(sp);
            return Ok(Classified {
                cat: cat::SPACE,
                flag: Flags::NONE,
            });
        }
        set_once!(m.space2, sp, cat::SPACE2);
    }
    if let Some(v) = Rounding::from_str(s) {
        set_once!(m.rounding, v, cat::ROUND);
    }
    if let Some(v) = AtomOp::from_str(s) {
        set_once!(m.atom_op, v, cat::ATOM);
    }
    if let Some(v) = CacheOp::from_str(s) {
        set_once!(m.cache, v, cat::CACHE);
    }
    if let Some(v) = L1Evict::from_str(s) {
        set_once!(m.l1_evict, v, cat::L1EV);
    }
    if let Some(v) = L2Evict::from_str(s) {
        set_once!(m.l2_evict, v, cat::L2EV);
    }
    if let Some(v) = L2Prefetch::from_str(s) {
        set_once!(m.l2_prefetch, v, cat::L2PF);
    }
    if let Some(v) = CacheLevel::from_str(s) {
        set_once!(m.level, v, cat::LEVEL);
    }
    if let Some(v) = Scope::from_str(s) {
        set_once!(m.scope, v, cat::SCOPE);
    }
    if let Some(v) = MemOrder::from_str(s) {
        set_once!(m.order, v, cat::ORDER);
    }
    if let Some(v) = match s {
        "v2" => Some(2u8),
        "v4" => Some(4),
        "v8" => Some(8),
        _ => None,
    } {
        if m.vec != 1 {
            return Err(ModError::Duplicate);
        }
        m.vec = v;
        return Ok(Classified {
            cat: cat::VEC,
            flag: Flags::NONE,
        });
    }
    if let Some(v) = ShflMode::from_str(s) {
        set_once!(m.shfl_mode, v, cat::SHFL);
    }
    if let Some(v) = VoteMode::from_str(s).filter(|v| *v != VoteMode::Uni) {
        set_once!(m.vote_mode, v, cat::VOTE);
    }
    if let Some(v) = TestpOp::from_str(s) {
        set_once!(m.testp, v, cat::TESTP);
    }
    if let Some(v) = PrmtMode::from_str(s) {
        set_once!(m.prmt, v, cat::PRMT);
    }
    if let Some(v) = Shape::parse(s) {
        set_once!(m.shape, v, cat::SHAPE);
    }
    if let Some(v) = Layout::from_str(s) {
        if m.layout_a.is_none() {
            m.layout_a = Some(v);
            return Ok(Classified {
                cat: cat::LAYOUT,
                flag: Flags::NONE,
            });
        }
        set_once!(m.layout_b, v, cat::LAYOUT);
    }
    if let Some(v) = Geom::from_str(s) {
        set_once!(m.geom, v, cat::GEOM);
    }
    if let Some(v) = MatrixCount::from_str(s) {
        set_once!(m.count, v, cat::COUNT);
    }
    if let Some(v) = LoadMode::from_str(s) {
        set_once!(m.load_mode, v, cat::LOADMODE);
    }
    if let Some(f) = Flags::from_str_flag(s) {
        if m.flags.contains(f) {
            return Err(ModError::Duplicate);
        }
        m.flags.insert(f);
        return Ok(Classified {
            cat: cat::FLAG,
            flag: f,
        });
    }
    Err(ModError::Unknown)
}

/// `(allowed categories, allowed flags)` for an opcode.
pub(crate) fn allowed(op: Opcode) -> (u32, Flags) {
    use Opcode::*;
    use cat::*;
    const F: Flags = Flags::NONE;
    let ldst_cats = TYPE | SPACE | CACHE | L1EV | L2EV | L2PF | SCOPE | ORDER | VEC;
    match op {
        Add | Sub => (
            TYPE | ROUND,
            Flags::FTZ | Flags::SAT | Flags::CC | Flags::RELU | Flags::OOB,
        ),
        Mul => (TYPE | ROUND | MUL, Flags::FTZ | Flags::SAT),
        Mad => (TYPE | ROUND | MUL, Flags::FTZ | Flags::SAT | Flags::CC),
        Mul24 | Mad24 => (TYPE | MUL, Flags::SAT),
        Sad | Rem | Copysign | Popc | Clz | Brev | Bfe | Bfi | Fns => (TYPE, F),
        Bmsk | Szext => (TYPE, Flags::WRAP | Flags::CLAMP),
        Div => (TYPE | ROUND, Flags::FTZ | Flags::APPROX | Flags::FULL),
        Abs | Neg => (TYPE, Flags::FTZ | Flags::RELU),
        Min | Max => (
            TYPE,
            Flags::FTZ | Flags::NAN | Flags::XORSIGN | Flags::ABS | Flags::RELU,
        ),
        Bfind => (TYPE, Flags::SHIFTAMT),
        Dp4a | Dp2a => (TYPE | MUL, F),
        Addc | Subc => (TYPE, Flags::CC),
        Madc => (TYPE | MUL, Flags::CC),
        Testp => (TYPE | TESTP, F),
        Fma => (
            TYPE | ROUND,
            Flags::FTZ | Flags::SAT | Flags::RELU | Flags::OOB,
        ),
        Rcp | Sqrt => (TYPE | ROUND, Flags::FTZ | Flags::APPROX),
        Rsqrt | Sin | Cos | Lg2 | Ex2 | Tanh => (TYPE, Flags::FTZ | Flags::APPROX),
        Set | Setp => (TYPE | CMP | BOOL, Flags::FTZ),
        Selp => (TYPE, F),
        Slct => (TYPE, Flags::FTZ),
        And | Or | Xor | Not | Cnot | Lop3 => (TYPE, F),
        Shf => (
            TYPE,
            Flags::LEFT | Flags::RIGHT | Flags::WRAP | Flags::CLAMP,
        ),
        Shl | Shr => (TYPE, F),
        Prmt => (TYPE | PRMT, F),
        Mov => (TYPE | VEC, F),
        Shfl => (TYPE | SHFL, Flags::SYNC),
        Ld => (ldst_cats, Flags::NC | Flags::L2_CACHE_HINT | Flags::UNIFIED),
        Ldu => (TYPE | SPACE | VEC, F),
        St => (ldst_cats, Flags::L2_CACHE_HINT),
        StAsync => (TYPE | SPACE | VEC | ORDER | SCOPE, Flags::COMPLETE_TX_BYTES),
        StBulk => (TYPE | SPACE, F),
        Prefetch | Prefetchu => (SPACE | LEVEL | L2EV, Flags::TENSORMAP),
        Isspacep => (SPACE, F),
        Cvta => (TYPE | SPACE, Flags::TO),
        Cvt => (
            TYPE | ROUND,
            Flags::FTZ | Flags::SAT | Flags::RELU | Flags::SATFINITE,
        ),
        CvtPack => (TYPE, Flags::SAT),
        Createpolicy => (TYPE | L2EV, Flags::FRACTIONAL | Flags::RANGE),
        Discard => (SPACE | LEVEL, F),
        Applypriority => (SPACE | LEVEL | L2EV, F),
        CpAsync => (SPACE | SPACE2 | CACHE | L2PF, Flags::L2_CACHE_HINT),
        CpAsyncCommitGroup | CpAsyncWaitGroup | CpAsyncWaitAll | CpAsyncBulkCommitGroup => (0, F),
        CpAsyncMbarrierArrive => (SPACE | TYPE, Flags::NOINC),
        CpAsyncBulk => (
            SPACE | SPACE2,
            Flags::COMPLETE_TX_BYTES
                | Flags::MULTICAST_CLUSTER
                | Flags::BULK_GROUP
                | Flags::L2_CACHE_HINT,
        ),
        CpAsyncBulkTensor => (
            SPACE | SPACE2 | GEOM | LOADMODE,
            Flags::COMPLETE_TX_BYTES
                | Flags::MULTICAST_CLUSTER
                | Flags::BULK_GROUP
                | Flags::L2_CACHE_HINT,
        ),
        CpAsyncBulkWaitGroup => (0, Flags::READ),
        CpAsyncBulkPrefetch | CpAsyncBulkPrefetchTensor => {
            (SPACE | LEVEL | GEOM | LOADMODE, Flags::L2_CACHE_HINT)
        }
        CpReduceAsyncBulk | CpReduceAsyncBulkTensor => (
            SPACE | SPACE2 | ATOM | TYPE | GEOM | LOADMODE,
            Flags::BULK_GROUP | Flags::COMPLETE_TX_BYTES | Flags::L2_CACHE_HINT | Flags::NOFTZ,
        ),
        TensormapReplace | TensormapCpFenceproxy => (
            TYPE | SPACE | SPACE2 | ORDER | SCOPE,
            Flags::TENSORMAP_GENERIC | Flags::SYNC | Flags::ALIGNED,
        ),
        Tex => (GEOM | VEC | TYPE, F),
        Tld4 => (COMP | GEOM | VEC | TYPE, F),
        Txq | Suq | Istypep => (TYPE, F),
        Suld => (GEOM | VEC | TYPE | CLAMP | CACHE, Flags::SURF_B),
        Sust => (
            GEOM | VEC | TYPE | CLAMP | CACHE,
            Flags::SURF_B | Flags::SURF_P,
        ),
        Sured => (ATOM | GEOM | TYPE | CLAMP, Flags::SURF_B | Flags::SURF_P),
        Bra | BrxIdx | Call | Ret => (0, Flags::UNI),
        Exit | Trap | Brkpt | BarWarpSync => (0, F),
        Bar | Barrier => (
            ATOM | TYPE,
            Flags::SYNC | Flags::ARRIVE | Flags::RED | Flags::ALIGNED,
        ),
        BarrierClusterArrive | BarrierClusterWait => (ORDER, Flags::ALIGNED),
        Membar => (SCOPE, Flags::PROXY | Flags::ALIAS),
        Fence => (
            ORDER | SCOPE | SPACE,
            Flags::PROXY
                | Flags::ASYNC
                | Flags::ALIAS
                | Flags::MBARRIER_INIT
                | Flags::TENSORMAP_GENERIC,
        ),
        Atom | Red => (
            TYPE | SPACE | SCOPE | ORDER | ATOM | VEC,
            Flags::NOFTZ | Flags::L2_CACHE_HINT,
        ),
        RedAsync => (
            TYPE | SPACE | ATOM | ORDER | SCOPE,
            Flags::COMPLETE_TX_BYTES,
        ),
        Vote | Match => (TYPE | VOTE, Flags::SYNC),
        Activemask => (TYPE, F),
        Redux => (TYPE | ATOM, Flags::SYNC | Flags::ABS | Flags::NAN),
        GriddepcontrolLaunchDependents | GriddepcontrolWait => (0, F),
        Elect => (0, Flags::SYNC),
        MbarrierInit | MbarrierInval | MbarrierArrive | MbarrierArriveDrop | MbarrierExpectTx
        | MbarrierCompleteTx | MbarrierTestWait | MbarrierTryWait | MbarrierPendingCount => (
            SPACE | TYPE | ORDER | SCOPE,
            Flags::EXPECT_TX | Flags::PARITY | Flags::NOCOMPLETE,
        ),
        MultimemLdReduce | MultimemSt | MultimemRed => (
            TYPE | SPACE | ORDER | SCOPE | ATOM | VEC,
            Flags::NAN | Flags::ABS,
        ),
        WmmaLoadA | WmmaLoadB | WmmaLoadC | WmmaStoreD | WmmaMma => (
            SHAPE | LAYOUT | SPACE | TYPE | ROUND,
            Flags::SYNC | Flags::ALIGNED | Flags::SATFINITE,
        ),
        Mma | MmaSp | MmaSpOrdered => (
            SHAPE | LAYOUT | TYPE,
            Flags::SYNC | Flags::ALIGNED | Flags::SATFINITE,
        ),
        Ldmatrix | Stmatrix => (
            SHAPE | COUNT | SPACE | TYPE,
            Flags::SYNC | Flags::ALIGNED | Flags::TRANS,
        ),
        Movmatrix => (SHAPE | TYPE, Flags::SYNC | Flags::ALIGNED | Flags::TRANS),
        WgmmaFence | WgmmaCommitGroup | WgmmaWaitGroup => (0, Flags::SYNC | Flags::ALIGNED),
        WgmmaMmaAsync | WgmmaMmaAsyncSp => (
            SHAPE | TYPE,
            Flags::SYNC | Flags::ALIGNED | Flags::SATFINITE,
        ),
        Vadd | Vsub | Vabsdiff | Vmin | Vmax | Vadd2 | Vsub2 | Vavrg2 | Vabsdiff2 | Vmin2
        | Vmax2 | Vadd4 | Vsub4 | Vavrg4 | Vabsdiff4 | Vmin4 | Vmax4 | Vmad => {
            (TYPE | ATOM, Flags::SAT)
        }
        Vshl | Vshr => (TYPE | ATOM, Flags::SAT | Flags::WRAP | Flags::CLAMP),
        Vset | Vset2 | Vset4 => (TYPE | CMP | ATOM, F),
        Alloca => (TYPE | SPACE, F),
        Stacksave | Stackrestore | Nanosleep => (TYPE, F),
        Setmaxnreg => (TYPE, Flags::INC | Flags::DEC | Flags::SYNC | Flags::ALIGNED),
        Getctarank | Mapa => (SPACE | TYPE, F),
        Pmevent => (0, F),
    }
}
